import Foundation
import Testing

/// The user's editor, from the prompt (Ctrl-X Ctrl-E) and from `filenote
/// edit`, on a real terminal with scripted editors and a real `vi`.
///
/// Every run gets its own `TMPDIR` (`ScriptedEditors.temporaryFolder`), so
/// a test can see that the private file and its folder are gone after.
@Suite("the user's editor: Ctrl-X Ctrl-E and filenote edit")
struct EditorTests {
  /// Small editors written as shell scripts into a test's home, and the
  /// `TMPDIR` filenote gets there.
  struct ScriptedEditors {
    let home: TemporaryHome
    /// `TMPDIR` for filenote: must be empty again after every run.
    let temporaryFolder: String

    init(home: TemporaryHome) throws {
      self.home = home
      temporaryFolder = home.work + "/tmp"
      try FileManager.default.createDirectory(
        atPath: temporaryFolder, withIntermediateDirectories: false)
      for (name, body) in Self.scripts {
        try home.write(Array(("#!/bin/sh\n" + body).utf8), to: path(name), mode: 0o755)
      }
    }

    /// Each editor's script after `#!/bin/sh`. `$1` is the file to edit.
    /// Those that wait write `editing` first (with the file's path) and go
    /// on when the test writes `go`, so that nothing waits a fixed time.
    static let scripts: [String: String] = [
      // What a careful test needs to know of the file it was given.
      "inspect": """
      { stat -c '%a %n' "$(dirname "$1")" "$1"; od -An -c "$1"; } > "$(dirname "$0")/seen"
      sed -i 's/milk/bread/' "$1"
      """,
      "fail": "exit 1\n",
      "killed": "kill -9 $$\n",
      "invalid": "printf 'ok \\377 no' > \"$1\"\n",
      "wait-then-mine": """
      echo "$1" > "$(dirname "$0")/editing"
      i=0
      while [ ! -e "$(dirname "$0")/go" ] && [ $i -lt 1000 ]; do sleep 0.02; i=$((i+1)); done
      echo mine > "$1"
      """,
      "wait": """
      echo "$1" > "$(dirname "$0")/editing"
      exec sleep 60
      """,
      "mine-then-wait": """
      echo mine > "$1"
      echo "$1" > "$(dirname "$0")/editing"
      exec sleep 60
      """,
      "three-lines": "printf 'one\\ntwo\\nthree\\n' > \"$1\"\n",
    ]

    func path(_ editor: String) -> String { home.work + "/editors/" + editor }

    /// The environment for a run with `editor` as `EDITOR` (a script's name
    /// or any command line).
    func environment(editor: String) -> [String: String?] {
      let command = Self.scripts[editor] == nil ? editor : path(editor)
      return ["EDITOR": command, "VISUAL": nil, "TMPDIR": temporaryFolder]
    }

    /// Waits until a waiting editor has started, and returns the file it edits.
    func waitUntilEditing() throws -> String {
      let marker = home.work + "/editors/editing"
      let deadline = ContinuousClock.now + .seconds(10)
      while ContinuousClock.now < deadline {
        if let text = try? String(contentsOfFile: marker, encoding: .utf8), text.hasSuffix("\n") {
          return String(text.dropLast())
        }
        usleep(20_000)
      }
      throw TmuxSession.Failure(description: "the editor did not start")
    }

    /// Lets a waiting editor go on.
    func letGo() throws {
      try home.write([], to: home.work + "/editors/go")
    }

    /// What the `inspect` editor saw.
    var seen: String? {
      try? String(contentsOfFile: home.work + "/editors/seen", encoding: .utf8)
    }

    /// Checks that the temporary folder is empty: no file or folder left.
    func expectNothingLeft(sourceLocation: SourceLocation = #_sourceLocation) {
      #expect(
        home.entries(in: temporaryFolder) == [], "left in TMPDIR",
        sourceLocation: sourceLocation)
    }
  }

  /// In vi, in command mode: types three lines at the cursor, then `:wq`.
  static func writeThreeLinesInVi(_ session: TmuxSession) throws {
    try session.send(text: "i")
    try session.send(text: "first line")
    try session.send(keys: "Enter")
    try session.send(text: "second line")
    try session.send(keys: "Enter")
    try session.send(text: "third line")
    try session.send(keys: "Escape")
    try session.send(text: ":wq")
    try session.send(keys: "Enter")
  }

  /// Checks that `filenote show` prints exactly the three lines of
  /// `writeThreeLinesInVi`.
  static func expectThreeLinesShown(
    in home: TemporaryHome, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let show = try? home.run("show")
    show?.expectSuccess(sourceLocation: sourceLocation)
    #expect(
      show?.stdoutText == "first line\nsecond line\nthird line\n", sourceLocation: sourceLocation)
  }

  /// The prompt as a user starts it from a shell (`PromptTests.ShellRun`,
  /// between two `stty -g`), on `note`, with `editor`.
  static func prompt(
    on note: String, editor: String, in editors: ScriptedEditors, columns: Int = 80
  ) throws -> PromptTests.ShellRun {
    try editors.home.writeNote(note)
    let run = try PromptTests.ShellRun(
      home: editors.home, environment: editors.environment(editor: editor), columns: columns)
    return run
  }

  /// `prompt(on:editor:in:columns:)`, then Ctrl-X Ctrl-E once the line is drawn.
  static func promptInEditor(
    on note: String, editor: String, in editors: ScriptedEditors, columns: Int = 80
  ) throws -> PromptTests.ShellRun {
    let run = try prompt(on: note, editor: editor, in: editors, columns: columns)
    try run.session.waitForEditLine("> \(note)|")
    try run.session.send(keys: "C-x", "C-e")
    return run
  }

  @Suite("Ctrl-X Ctrl-E in the prompt")
  struct InThePrompt {
    @Test("the editor gets the text in a private .txt file; its text replaces the line, one undo")
    func editorTextReplacesTheLine() throws {
      let editors = try ScriptedEditors(home: TemporaryHome())
      let run = try EditorTests.prompt(on: "buy milk\ttoday", editor: "inspect", in: editors)
      let before = try run.session.waitForEditLine("> buy milk⇥today|")
      #expect(before.lines[before.editRow! - 1] == PromptTests.hint)

      try run.session.send(keys: "C-x", "C-e")

      let after = try run.session.waitForEditLine("> buy bread⇥today|")
      #expect(after.lines[after.editRow! - 1] == PromptTests.hint, "the hint drawn again")
      let seen = try #require(editors.seen)
      let lines = seen.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
      #expect(lines.count == 3, "\(seen)")
      #expect(lines.first?.hasPrefix("700 \(editors.temporaryFolder)/filenote-") == true, "\(seen)")
      #expect(lines.dropFirst().first?.hasPrefix("600 ") == true, "\(seen)")
      #expect(lines.dropFirst().first?.hasSuffix(".txt") == true, "\(seen)")
      // The text as saved, tab and all, and one line ending after it.
      #expect(
        lines.last?.split(separator: " ", omittingEmptySubsequences: true).joined()
          == #"buymilk\ttoday\n"#, "\(seen)")
      editors.expectNothingLeft()

      try run.session.send(keys: "C-_")
      try run.session.waitForEditLine("> buy milk⇥today|")
      try run.session.send(keys: "C-x", "C-e")
      try run.session.waitForEditLine("> buy bread⇥today|")
      try run.session.send(keys: "Enter")
      #expect(try run.waitForStatus() == 0)
      #expect(editors.home.note == "buy bread\ttoday")
      try run.expectTerminalRestored()
      editors.expectNothingLeft()
    }

    @Test("a file an editor has open is not offered as kept text by another prompt")
    func fileInUseIsNotOffered() throws {
      let editors = try ScriptedEditors(home: TemporaryHome())
      let run = try EditorTests.promptInEditor(on: "note", editor: "mine-then-wait", in: editors)
      let file = try editors.waitUntilEditing()

      let other = try editors.home.openPrompt(
        on: nil, environment: editors.environment(editor: "fail"), columns: 200)
      let screen = try other.waitForEditLine("> note|")
      #expect(!screen.text.contains("Unsaved"), "\(screen)")
      try other.send(keys: "Up")
      try other.waitForEditLine("> note|")
      try other.send(keys: "C-c")
      #expect(try other.waitForExit() == .exited(130))
      #expect(editors.home.contents(of: file) == Array("mine\n".utf8))

      #expect(kill(try run.filenoteProcessID(), SIGTERM) == 0)
      #expect(try run.waitForStatus() == 128 + SIGTERM)
    }

    @Test("after the editor, the prompt's two rows are redrawn where they were, not below")
    func redrawnInPlace() throws {
      let editors = try ScriptedEditors(home: TemporaryHome())
      let run = try EditorTests.prompt(on: "buy milk", editor: "inspect", in: editors)
      let before = try run.session.waitForEditLine("> buy milk|")

      try run.session.send(keys: "C-x", "C-e")

      let after = try run.session.waitForEditLine("> buy bread|")
      #expect(after.editRow == before.editRow, "\(after)")
      #expect(after.lines.filter { $0 == PromptTests.hint }.count == 1, "\(after)")
      #expect(after.lines.filter { $0.hasPrefix("> ") }.count == 1, "\(after)")
      #expect(after.lines[..<(before.editRow! - 1)] == before.lines[..<(before.editRow! - 1)])
      try run.session.send(keys: "C-c")
      #expect(try run.waitForStatus() == 130)
    }

    @Test(
      "an editor that fails leaves the line and says why on one line",
      arguments: [
        ("fail", "Line kept: the editor '%@' exited with status 1."),
        ("killed", "Line kept: the editor '%@' exited with status 137 (killed by signal 9)."),
        ("kill -9 $$", "Line kept: the editor '%@' was killed by signal 9."),
        (
          "invalid", "Line kept: the editor's text is not valid UTF-8 (first bad byte at offset 3)."
        ),
        ("no-such-editor", "Line kept: the editor '%@' could not be started (status 127)."),
      ])
    func failingEditor(editor: String, message: String) throws {
      let editors = try ScriptedEditors(home: TemporaryHome())
      let run = try EditorTests.prompt(on: "note", editor: editor, in: editors, columns: 200)
      try run.session.send(text: "!")
      try run.session.waitForEditLine("> note!|")

      try run.session.send(keys: "C-x", "C-e")

      let command = editors.environment(editor: editor)["EDITOR"]!!
      let expected = message.replacingOccurrences(of: "%@", with: command)
      let screen = try run.session.waitFor("the reason, then the prompt") { screen in
        guard let row = screen.editRow, row >= 2 else { return false }
        return screen.lines[row - 2] == expected && screen.lines[row - 1] == PromptTests.hint
          && screen.editLineWithCursor == "> note!|"
      }
      editors.expectNothingLeft()
      try run.session.send(keys: "C-_")
      try run.session.waitForEditLine("> note|")
      try run.session.send(keys: "Enter")
      #expect(try run.waitForStatus() == 0, "\(screen)")
      #expect(editors.home.note == "note")
      try run.expectTerminalRestored()
    }

    @Test("Ctrl-C typed while the editor runs reaches the editor, not filenote")
    func controlCReachesTheEditor() throws {
      let editors = try ScriptedEditors(home: TemporaryHome())
      let run = try EditorTests.promptInEditor(
        on: "note", editor: "wait", in: editors, columns: 200)
      _ = try editors.waitUntilEditing()

      try run.session.send(keys: "C-c")

      try run.session.waitFor("the editor's end") {
        $0.text.contains("Line kept: the editor '\(editors.path("wait"))' was killed by signal 2.")
          && $0.editLineWithCursor == "> note|"
      }
      editors.expectNothingLeft()
      try run.session.send(keys: "Enter")
      #expect(try run.waitForStatus() == 0)
      try run.expectTerminalRestored()
    }

    @Test("Ctrl-Z in the editor stops it and filenote as a shell shows it; fg goes back to it")
    func suspendInTheEditor() throws {
      let editors = try ScriptedEditors(home: TemporaryHome())
      try editors.home.writeNote("note")
      let binary = PromptTests.shellQuoted(try FilenoteProcess.binaryPath())
      var environment = editors.home.terminalEnvironment(
        editors.environment(editor: "wait-then-mine"))
      environment["PS1"] = "READY$ "
      // An interactive /bin/sh for job control, as in PromptTests.Signals.
      let shell = try TmuxSession(
        command: "exec /bin/sh -i", environment: environment, columns: 120,
        workingDirectory: editors.home.work)
      try shell.waitFor("the shell prompt") { $0.lines.first == "READY$" }
      try shell.send(text: "stty -g > stty-before; \(binary)")
      try shell.send(keys: "Enter")
      try shell.waitForEditLine("> note|")
      try shell.send(keys: "C-x", "C-e")
      _ = try editors.waitUntilEditing()

      try shell.send(keys: "C-z")

      try shell.waitFor("the shell prompt after Ctrl-Z") {
        $0.nonBlankLines.last == "READY$" && $0.text.contains("Stopped")
      }
      try editors.letGo()
      try shell.send(text: "fg")
      try shell.send(keys: "Enter")
      try shell.waitForEditLine("> mine|")
      try shell.send(keys: "Enter")
      try shell.waitFor("Saved. and the shell prompt") {
        $0.nonBlankLines.suffix(2) == ["Saved.", "READY$"]
      }
      #expect(editors.home.note == "mine")
      editors.expectNothingLeft()
      try shell.send(text: "stty -g > stty-after; echo checked-$((1+2))")
      try shell.send(keys: "Enter")
      try shell.waitFor("stty -g to run") { $0.lines.contains("checked-3") }
      let before = try String(contentsOfFile: editors.home.work + "/stty-before", encoding: .utf8)
      let after = try String(contentsOfFile: editors.home.work + "/stty-after", encoding: .utf8)
      #expect(after == before, "stty -g before filenote and after it saved")
    }

    @Test("VISUAL wins over EDITOR, and the command is split by the shell")
    func visualWinsAndTheShellSplitsTheCommand() throws {
      let editors = try ScriptedEditors(home: TemporaryHome())
      try editors.home.writeNote("buy milk")
      var environment = editors.environment(editor: "fail")
      environment["VISUAL"] = "sed -i 's/milk/bread and butter/'"
      let session = try editors.home.terminal(environment: environment)
      try session.waitForEditLine("> buy milk|")

      try session.send(keys: "C-x", "C-e")

      try session.waitForEditLine("> buy bread and butter|")
      try editors.home.expectEnterSaves("buy bread and butter", in: session)
      editors.expectNothingLeft()
    }

    @Test("the prompt is drawn at the window's new size when it changed while the editor ran")
    func resizedWhileEditing() throws {
      let editors = try ScriptedEditors(home: TemporaryHome())
      try editors.home.writeNote(String(repeating: "x", count: 50))
      let session = try editors.home.terminal(
        environment: editors.environment(editor: "wait-then-mine"), columns: 80)
      try session.waitForEditLine("> " + String(repeating: "x", count: 50) + "|")

      try session.send(keys: "C-x", "C-e")
      _ = try editors.waitUntilEditing()
      try session.resize(columns: 30, rows: 24)
      try session.waitUntil { $0.split(separator: "\n").allSatisfy { $0.count <= 30 } }
      try editors.letGo()

      try session.waitForEditLine("> mine|")
      try session.send(text: String(repeating: "y", count: 40))
      let long = try session.waitFor("the line scrolled to 30 columns") {
        $0.editLineWithCursor?.hasSuffix("yyy|") == true
      }
      #expect(long.lines.allSatisfy { PromptTests.Screen.columns(of: $0) <= 30 }, "\(long)")
      try editors.home.expectEnterSaves("mine" + String(repeating: "y", count: 40), in: session)
      editors.expectNothingLeft()
    }

    @Test(
      "SIGTERM or SIGHUP while the editor runs: the editor ends, the file goes, the terminal is as it was",
      arguments: [SIGTERM, SIGHUP])
    func signalWhileEditing(signal: Int32) throws {
      let editors = try ScriptedEditors(home: TemporaryHome())
      let run = try EditorTests.promptInEditor(on: "note", editor: "wait", in: editors)
      let file = try editors.waitUntilEditing()
      #expect(editors.home.exists(file))

      #expect(kill(try run.filenoteProcessID(), signal) == 0)

      #expect(try run.waitForStatus() == 128 + signal)
      try run.expectTerminalRestored()
      editors.expectNothingLeft()
      #expect(editors.home.note == "note")
    }

    @Test(
      "SIGTERM or SIGHUP while the editor runs on a line the user changed: its file stays, named",
      arguments: [SIGTERM, SIGHUP])
    func signalKeepsAChangedLine(signal: Int32) throws {
      let editors = try ScriptedEditors(home: TemporaryHome())
      let run = try EditorTests.prompt(on: "note", editor: "wait", in: editors)
      try run.session.waitForEditLine("> note|")
      try run.session.send(text: " and more")
      try run.session.waitForEditLine("> note and more|")
      try run.session.send(keys: "C-x", "C-e")
      let file = try editors.waitUntilEditing()

      #expect(kill(try run.filenoteProcessID(), signal) == 0)

      #expect(try run.waitForStatus() == 128 + signal)
      let screen = try run.session.screenJoiningWrappedLines()
      #expect(screen.contains("filenote: what you wrote is kept in \(file)"), "\(screen)")
      #expect(editors.home.contents(of: file) == Array("note and more\n".utf8))
      #expect(editors.home.note == "note")
      try run.expectTerminalRestored()
    }

    @Test("a SIGTERM after a SIGINT from elsewhere still reaches the editor and ends filenote")
    func terminateAfterInterrupt() throws {
      let editors = try ScriptedEditors(home: TemporaryHome())
      let run = try EditorTests.promptInEditor(on: "note", editor: "wait", in: editors)
      _ = try editors.waitUntilEditing()
      let filenote = try run.filenoteProcessID()

      #expect(kill(filenote, SIGINT) == 0)
      #expect(kill(filenote, SIGTERM) == 0)

      // The editor sleeps for a minute: only the SIGTERM passed on ends it.
      #expect(try run.waitForStatus() == 128 + SIGTERM)
      try run.expectTerminalRestored()
      editors.expectNothingLeft()
    }

    @Test("done when: Ctrl-X Ctrl-E, three lines written in vi, :wq, Enter: show prints them")
    func threeLinesInVi() throws {
      let editors = try ScriptedEditors(home: TemporaryHome())
      let run = try EditorTests.prompt(on: "draft", editor: "vi", in: editors)
      try run.session.waitForEditLine("> draft|")

      try run.session.send(keys: "C-x", "C-e")
      try run.session.waitFor("vi on the file") { $0.text.contains("note.txt") }
      // Replace the draft: delete its line, insert three.
      try run.session.send(text: "dd")
      try EditorTests.writeThreeLinesInVi(run.session)

      let screen = try run.session.waitForEditLine("> first line↵second line↵third line|")
      #expect(screen.lines[screen.editRow! - 1] == PromptTests.hint)
      try run.session.send(keys: "Enter")
      #expect(try run.waitForStatus() == 0)
      try run.expectTerminalRestored()
      editors.expectNothingLeft()
      EditorTests.expectThreeLinesShown(in: editors.home)
    }
  }

  @Suite("filenote edit")
  struct EditCommand {
    /// `filenote edit` from a shell, between two `stty -g`.
    private func edit(
      _ editors: ScriptedEditors, editor: String
    ) throws -> PromptTests.ShellRun {
      try PromptTests.ShellRun(
        home: editors.home, arguments: ["edit"], environment: editors.environment(editor: editor),
        columns: 200)
    }

    @Test(
      "the editor's text is saved, one trailing newline dropped: Saved.; the old note is version 1")
    func saves() throws {
      let editors = try ScriptedEditors(home: TemporaryHome())
      try editors.home.writeNote("buy milk")

      let run = try edit(editors, editor: "inspect")

      #expect(try run.waitForStatus() == 0)
      #expect(editors.home.note == "buy bread")
      #expect(try run.session.look().lines.contains("Saved."))
      let replaced = try editors.home.run("show", "1")
      replaced.expectSuccess()
      #expect(replaced.stdoutText == "buy milk\n", "the replaced note is kept as version 1")
      #expect(
        editors.seen?.contains(#"b   u   y       m   i   l   k  \n"#) == true,
        "\(editors.seen ?? "")")
      try run.expectTerminalRestored()
      editors.expectNothingLeft()
    }

    @Test("no note yet: the editor starts empty, its text is saved")
    func noNoteYet() throws {
      let editors = try ScriptedEditors(home: TemporaryHome())

      let run = try edit(editors, editor: "three-lines")

      #expect(try run.waitForStatus() == 0)
      #expect(editors.home.note == "one\ntwo\nthree")
      editors.expectNothingLeft()
    }

    @Test(
      "unchanged: nothing is written, Nothing changed. (a note ending in a newline too)",
      arguments: ["note", "two\nlines\n", "crlf\r\n"])
    func unchanged(note: String) throws {
      let editors = try ScriptedEditors(home: TemporaryHome())
      let before = try editors.home.writeBackdatedNote(note)

      let run = try edit(editors, editor: "true")

      #expect(try run.waitForStatus() == 0)
      #expect(PromptTests.FileState(of: editors.home.notePath) == before)
      #expect(try run.session.look().lines.contains("Nothing changed."))
      editors.expectNothingLeft()
    }

    @Test(
      "an editor that fails, an empty text or invalid UTF-8 saves nothing and says why",
      arguments: [
        ("fail", "exited with status 1; the note is unchanged"),
        ("killed", "exited with status 137 (killed by signal 9); the note is unchanged"),
        ("kill -9 $$", "was killed by signal 9; the note is unchanged"),
        (": >", "cannot save an empty note; the saved note is unchanged (use 'filenote clear'"),
      ])
    func refused(editor: String, message: String) throws {
      let editors = try ScriptedEditors(home: TemporaryHome())
      let before = try editors.home.writeBackdatedNote("note")

      let run = try edit(editors, editor: editor)

      #expect(try run.waitForStatus() == 1)
      let screen = try run.session.look()
      #expect(
        screen.lines.contains { $0.hasPrefix("filenote: ") && $0.contains(message) }, "\(screen)")
      #expect(PromptTests.FileState(of: editors.home.notePath) == before)
      try run.expectTerminalRestored()
      editors.expectNothingLeft()
    }

    @Test(
      "a text the editor left that cannot be saved stays in its file, which the message names",
      arguments: ["invalid", "protected"])
    func notSavedIsKept(why: String) throws {
      let editors = try ScriptedEditors(home: TemporaryHome())
      let before = try editors.home.writeBackdatedNote("note")
      if why == "protected" {
        try editors.home.protect(editors.home.documents)
      }
      defer { editors.home.unprotect(editors.home.documents) }

      let run = try edit(editors, editor: why == "invalid" ? "invalid" : "three-lines")

      #expect(try run.waitForStatus() == 1)
      let marker = "; what you wrote is kept in "
      let lines = try run.session.screenJoiningWrappedLines().split(separator: "\n")
      let line = try #require(lines.first { $0.contains(marker) }, "\(lines)")
      #expect(line.hasPrefix("filenote: "))
      #expect(
        line.contains(
          why == "invalid"
            ? "not valid UTF-8 (first bad byte at offset 3)" : "cannot create a file in"))
      let path = String(line.components(separatedBy: marker)[1])
      #expect(path.hasPrefix(editors.temporaryFolder + "/filenote-"))
      let kept = try #require(editors.home.contents(of: path))
      if why == "invalid" {
        #expect(kept == Array("ok ".utf8) + [0xFF] + Array(" no".utf8))
      } else {
        #expect(kept == Array("one\ntwo\nthree\n".utf8))
      }
      #expect(PromptTests.FileState(of: editors.home.notePath) == before)
      try run.expectTerminalRestored()
    }

    @Test(
      "SIGTERM or SIGHUP while the editor runs: the file goes, whatever the editor wrote; the note is as it was",
      arguments: [SIGTERM, SIGHUP])
    func signalRemovesTheFile(signal: Int32) throws {
      for editor in ["mine-then-wait", "wait"] {
        let editors = try ScriptedEditors(home: TemporaryHome())
        try editors.home.writeNote("note")
        let run = try edit(editors, editor: editor)
        _ = try editors.waitUntilEditing()

        #expect(kill(try run.filenoteProcessID(), signal) == 0)

        #expect(try run.waitForStatus() == 128 + signal)
        #expect(editors.home.note == "note")
        let screen = try run.session.screenJoiningWrappedLines()
        #expect(!screen.contains("what you wrote is kept"), "\(screen)")
        editors.expectNothingLeft()
        try run.expectTerminalRestored()
      }
    }

    /// `filenote edit` on "note" with an editor that writes "mine" once
    /// another filenote has saved "theirs": waits for the question and
    /// returns the run and the file the editor wrote.
    func askedAfterAnotherSave(
      _ editors: ScriptedEditors
    ) throws -> (run: PromptTests.ShellRun, file: String) {
      try editors.home.writeNote("note")
      let run = try edit(editors, editor: "wait-then-mine")
      let file = try editors.waitUntilEditing()
      try editors.home.run("save", "theirs").expectSuccess()
      try editors.letGo()
      try run.session.waitFor("the question") {
        $0.nonBlankLines.last == PromptTests.Conflict.question
      }
      return (run, file)
    }

    @Test(
      "a note changed while the editor was open: an answer but y, or none, keeps both and names the file",
      arguments: [(["n", "Enter"], 1), (["Enter"], 1), (["C-d"], 1), (["C-c"], 130)]
        as [([String], Int32)])
    func changedMeanwhileNo(keys: [String], status: Int32) throws {
      let editors = try ScriptedEditors(home: TemporaryHome())
      let (run, file) = try askedAfterAnotherSave(editors)

      for key in keys { try run.session.send(keys: key) }

      #expect(try run.waitForStatus() == status)
      #expect(editors.home.note == "theirs")
      let screen = try run.session.look()
      #expect(screen.text.contains("what you wrote is kept in \(file)"), "\(screen)")
      #expect(editors.home.contents(of: file) == Array("mine\n".utf8))
      try run.expectTerminalRestored()
    }

    @Test("a note changed while the editor was open: y overwrites it")
    func changedMeanwhileYes() throws {
      let editors = try ScriptedEditors(home: TemporaryHome())
      let (run, _) = try askedAfterAnotherSave(editors)

      try run.session.send(text: "y")
      try run.session.send(keys: "Enter")

      #expect(try run.waitForStatus() == 0)
      #expect(editors.home.note == "mine")
      editors.expectNothingLeft()
    }

    @Test("SIGTERM while the editor runs: the file goes, the terminal is as it was")
    func signalWhileEditing() throws {
      let editors = try ScriptedEditors(home: TemporaryHome())
      try editors.home.writeNote("note")
      let run = try edit(editors, editor: "wait")
      _ = try editors.waitUntilEditing()

      #expect(kill(try run.filenoteProcessID(), SIGTERM) == 0)

      #expect(try run.waitForStatus() == 128 + SIGTERM)
      try run.expectTerminalRestored()
      editors.expectNothingLeft()
      #expect(editors.home.note == "note")
    }

    @Test("without a terminal: exit 2, pointing to save")
    func noTerminal() throws {
      let home = try TemporaryHome()
      try home.writeNote("note")

      let result = try home.run("edit", environment: ["EDITOR": "true"])

      result.expectError(status: 2, mentioning: ["'filenote save'"])
      #expect(home.note == "note")
    }

    @Test(
      "with standard output redirected, vi still draws on the terminal and nothing goes to the file"
    )
    func outputRedirected() throws {
      let editors = try ScriptedEditors(home: TemporaryHome())
      let binary = PromptTests.shellQuoted(try FilenoteProcess.binaryPath())
      let session = try TmuxSession(
        command: "\(binary) edit < /dev/tty > out; echo \"edit exited: $?\"; exec cat",
        environment: editors.home.terminalEnvironment(editors.environment(editor: "vi")),
        workingDirectory: editors.home.work)
      try session.waitFor("vi on the file") { $0.text.contains("note.txt") }

      try EditorTests.writeThreeLinesInVi(session)

      try session.waitFor("edit to end") { $0.lines.contains("edit exited: 0") }
      #expect(editors.home.contents(of: editors.home.work + "/out") == [])
      editors.expectNothingLeft()
      EditorTests.expectThreeLinesShown(in: editors.home)
    }

    @Test("done when: three lines written in vi and :wq are exactly what show prints")
    func threeLinesInVi() throws {
      let editors = try ScriptedEditors(home: TemporaryHome())
      let run = try edit(editors, editor: "vi")
      try run.session.waitFor("vi on the file") { $0.text.contains("note.txt") }

      try EditorTests.writeThreeLinesInVi(run.session)

      #expect(try run.waitForStatus() == 0)
      try run.expectTerminalRestored()
      editors.expectNothingLeft()
      EditorTests.expectThreeLinesShown(in: editors.home)
    }
  }
}
