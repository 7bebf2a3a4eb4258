import Foundation
import Testing

/// The keys of `filenote init` (doc/INTEGRATION.md), end to end in a real
/// terminal in each shell: Alt-M opens the note from the shell's command
/// line, which comes back as it was; Alt-J saves the line as the note.
@Suite("filenote init: the keys in the shell")
struct KeyBindingTests {
  static let shells = ["bash", "zsh", "fish"]

  /// What the shell shows as its prompt.
  static let prompt = "READY> "

  /// An interactive `shell` in tmux, with the code of `filenote init` loaded
  /// from its start-up file and `READY> ` as its prompt (`segment`: the
  /// note's line before it), at its first prompt.
  static func start(
    _ shell: String, in home: TemporaryHome, segment: Bool = false,
    environment extra: [String: String?] = [:]
  ) throws -> TmuxSession {
    // zsh's segment is the variable its precmd hook sets before each prompt.
    let segmentText = shell == "zsh" ? "${filenote_prompt_line}" : "$(filenote_prompt)"
    let ready = segment ? "[" + segmentText + "]" + prompt : prompt
    var environment: [String: String?] = [
      "HOME": home.home, "PATH": try home.pathWithFilenote, "FILENOTE_PROMPT_WIDTH": "60",
    ]
    for (name, value) in extra { environment[name] = value }
    let command: String
    switch shell {
    case "bash":
      try home.write(
        Array(#"eval "$(filenote init bash)"; PS1='\#(ready)'"#.utf8), to: home.work + "/bashrc")
      command = "exec bash --noprofile --rcfile \(home.work)/bashrc -i"
    case "zsh":
      try home.write(
        Array(#"eval "$(filenote init zsh)"; setopt prompt_subst; PS1='\#(ready)'"#.utf8),
        to: home.work + "/zdotdir/.zshrc")
      environment["ZDOTDIR"] = home.work + "/zdotdir"
      command = "exec zsh -i"
    default:
      let fishPrompt =
        segment
        ? "echo -n '['; filenote_prompt; echo -n ']\(prompt)'" : "echo -n '\(prompt)'"
      try home.write(
        Array("filenote init fish | source; function fish_prompt; \(fishPrompt); end".utf8),
        to: home.work + "/config.fish")
      command = "exec fish --no-config -i -C 'source \(home.work)/config.fish'"
    }
    let session = try TmuxSession(command: command, environment: environment, columns: 100)
    try session.waitUntil { $0.contains("READY>") }
    return session
  }

  /// Waits until the last prompt line reads `line` with the cursor at
  /// `column`, and returns the screen; throws, showing what was there, when
  /// that does not happen within a few seconds.
  @discardableResult
  static func waitForLine(
    _ line: String, cursorAt column: Int, in session: TmuxSession,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> String {
    let deadline = ContinuousClock.now + .seconds(10)
    while true {
      let (screen, cursor) = try session.screenAndCursor()
      if promptLine(screen) == line && cursor.column == column { return screen }
      guard ContinuousClock.now < deadline else {
        throw TmuxSession.Failure(
          description: "\(sourceLocation): no line '\(line)' with the cursor at \(column); "
            + "the cursor is at \(cursor.column) and the screen shows:\n\(screen)")
      }
      usleep(20_000)
    }
  }

  /// The last line of the screen that shows the prompt.
  static func promptLine(_ screen: String) -> String? {
    screen.split(separator: "\n").last { $0.contains("READY>") }.map(String.init)
  }

  @Test(
    "Alt-M opens the note, Enter saves it, and the half-typed line comes back", arguments: shells)
  func editFromTheLine(shell: String) throws {
    let home = try TemporaryHome()
    try home.writeNote("old note")
    let session = try Self.start(shell, in: home)
    try session.send(text: "echo half typed")
    try session.send(keys: "Left", "Left")
    try session.waitUntil { Self.promptLine($0) == "READY> echo half typed" }
    try session.send(keys: "M-m")
    try session.waitUntil { $0.contains("Enter saves") && $0.contains("> old note") }
    try session.send(keys: "C-u")
    try session.send(text: "new note")
    try session.send(keys: "Enter")
    try session.waitUntil { screen in
      guard let saved = screen.range(of: "Saved.") else { return false }
      return screen[saved.upperBound...].contains("READY> echo half typed")
    }
    #expect(home.note == "new note")
    // The cursor is back where it was: two characters from the end.
    try Self.waitForLine(
      "READY> echo half typed", cursorAt: "READY> echo half typ".count, in: session)
    // And the line is the shell's to run, as it was typed.
    try session.send(keys: "End", "Enter")
    try session.waitUntil { $0.split(separator: "\n").contains("half typed") }
  }

  @Test(
    "while the note's prompt is open, the command line stays whole above its hint",
    arguments: shells)
  func commandLineStaysAbove(shell: String) throws {
    let home = try TemporaryHome()
    try home.writeNote("old note")
    let session = try Self.start(shell, in: home)
    let typed = "echo a half typed command"
    try session.send(text: typed)
    try session.send(keys: "Left", "Left")
    try session.waitUntil { Self.promptLine($0) == Self.prompt + typed }
    try session.send(keys: "M-m")

    let screen = try session.waitUntil { $0.contains("Enter saves") && $0.contains("> old note") }
    let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
    let hintRow = try #require(lines.firstIndex { $0.contains("Enter saves") }, "\(screen)")
    #expect(
      lines[..<hintRow].contains { $0 == Self.prompt + typed },
      "the command line, whole, above the hint:\n\(screen)")
    try session.send(keys: "C-c")
    try session.waitUntil { screen in
      guard let cancelled = screen.range(of: "Cancelled") else { return false }
      return screen[cancelled.upperBound...].contains(Self.prompt + typed)
    }
  }

  @Test("Ctrl-C in the note's prompt saves nothing and gives the line back", arguments: shells)
  func cancel(shell: String) throws {
    let home = try TemporaryHome()
    try home.writeNote("keep me")
    let session = try Self.start(shell, in: home)
    try session.send(text: "ls -l")
    try session.send(keys: "M-m")
    try session.waitUntil { $0.contains("Enter saves") }
    try session.send(text: " changed")
    try session.send(keys: "C-c")
    try session.waitUntil { screen in
      guard let cancelled = screen.range(of: "Cancelled") else { return false }
      return screen[cancelled.upperBound...].contains("READY> ls -l")
    }
    #expect(home.note == "keep me")
    try Self.waitForLine("READY> ls -l", cursorAt: "READY> ls -l".count, in: session)
  }

  @Test("Alt-J saves the command line as the note and leaves it there", arguments: shells)
  func saveTheLine(shell: String) throws {
    let home = try TemporaryHome()
    let session = try Self.start(shell, in: home)
    try session.send(text: "make deploy TARGET='prod' && echo $((1+1))")
    try session.send(keys: "M-j")
    try session.waitUntil { $0.contains("Saved the line as the note.") }
    #expect(home.note == "make deploy TARGET='prod' && echo $((1+1))")
    let line = "READY> make deploy TARGET='prod' && echo $((1+1))"
    try Self.waitForLine(line, cursorAt: line.count, in: session)
  }

  @Test("FILENOTE_NO_KEYS binds neither key", arguments: shells)
  func keysOff(shell: String) throws {
    let home = try TemporaryHome()
    try home.writeNote("note")
    let session = try Self.start(shell, in: home, environment: ["FILENOTE_NO_KEYS": "1"])
    try session.send(text: "abc")
    try session.send(keys: "M-m")
    try session.send(keys: "M-j")
    try session.send(text: "X")
    // Typed after the keys: once it shows, the keys have been handled.
    let screen = try session.waitUntil { Self.promptLine($0)?.hasSuffix("X") == true }
    #expect(!screen.contains("Enter saves"))
    #expect(home.note == "note")
  }

  @Test("in zsh the prompt's segment shows the note saved by Alt-M at once")
  func zshSegmentFollowsTheKey() throws {
    let home = try TemporaryHome()
    try home.writeNote("before")
    let session = try Self.start("zsh", in: home, segment: true)
    try session.waitUntil { Self.promptLine($0) == "[before]READY>" }
    try session.send(text: "half")
    try session.send(keys: "M-m")
    try session.waitUntil { $0.contains("Enter saves") }
    try session.send(keys: "C-u")
    try session.send(text: "after")
    try session.send(keys: "Enter")
    try session.waitUntil { Self.promptLine($0) == "[after]READY> half" }
  }

  @Test(
    "in a real prompt a hostile note is inert: no title, no cleared screen, nothing run",
    arguments: shells)
  func hostileNoteInTheRealPrompt(shell: String) throws {
    let home = try TemporaryHome()
    let marker = home.work + "/pwned"
    try home.writeNote("\u{1B}]0;title\u{07}\u{1B}[2J$(touch \(marker))%F{red}`id`")
    let session = try Self.start(
      shell, in: home, segment: true, environment: ["FILENOTE_PROMPT_WIDTH": "200"])
    try session.send(text: "echo MARK")
    try session.send(keys: "Enter")
    let screen = try session.waitUntil { screen in
      screen.split(separator: "\n").contains("MARK")
        && screen.components(separatedBy: "READY>").count > 2
    }
    let line = "[\u{241B}]0;title\u{2407}\u{241B}[2J$(touch \(marker))%F{red}`id`]READY>"
    #expect(Self.promptLine(screen) == line, "\(screen)")
    #expect(screen.hasPrefix(line), "the screen was not cleared: \(screen)")
    #expect(!FileManager.default.fileExists(atPath: marker))
    #expect(!(try session.styledScreen().contains("\u{1B}[31m")), "no colour from %F{red}")
  }
}
