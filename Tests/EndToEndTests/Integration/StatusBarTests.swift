import Foundation
import Testing

/// The status-bar recipes of doc/INTEGRATION.md, tried for real: tmux's
/// status line (a tmux drawn inside the test's own tmux, whose screen the
/// test reads), i3blocks (whose stream of status lines the test reads),
/// polybar (under Xvfb: what it draws, and what a click on it runs) and
/// waybar (in a headless sway: what it draws).
@Suite("status bars")
struct StatusBarTests {
  /// doc/INTEGRATION.md's tmux recipe, as it stands there: tmux expands
  /// formats in the command first (`##` is one `#`), and reads what it
  /// prints twice, for formats and for styles; sed makes each `#` of the
  /// note four (a run before `[`, which the first reading leaves, twice as
  /// long), so that tmux shows them instead of reading them as styles
  /// (`#[fg=red]`) or formats (`#{pane_id}`), or halving them.
  static let tmuxRecipe = #"""
    set -g status-right '#(filenote show --line --width 50 | sed "s/##/########/g; s/\(##*\)\1\[/\1[/g")'
    set -g status-interval 1
    """#

  /// A tmux with `tmuxRecipe` in its configuration, drawn in the test's own
  /// tmux (so its status line is on a screen the test reads).
  private func tmuxWithTheRecipe(_ home: TemporaryHome) throws -> TmuxSession {
    let configuration = Self.tmuxRecipe + "\nset -g status-left ''\nset -g status-right-length 80\n"
    try home.write(Array(configuration.utf8), to: home.work + "/tmux.conf")
    return try TmuxSession(
      command: "exec tmux -S \(home.work)/inner.socket -f \(home.work)/tmux.conf new-session",
      environment: ["HOME": home.home, "PATH": try home.pathWithFilenote], columns: 100, rows: 10)
  }

  private func statusLine(_ screen: String) -> String {
    String(
      screen.split(separator: "\n", omittingEmptySubsequences: false).last { !$0.isEmpty } ?? "")
  }

  @Test("the tmux and i3blocks recipes tried here are doc/INTEGRATION.md's")
  func recipesAreTheDocuments() throws {
    let document = try String(
      contentsOfFile: UnixIntegrationTests.Package.file("doc/INTEGRATION.md"), encoding: .utf8)
    // The interval is 1 here, so the tests wait less; the command is the same.
    let statusRight = try #require(Self.tmuxRecipe.split(separator: "\n").first)
    #expect(document.contains(statusRight + "\n"))
    #expect(document.contains("command=" + Self.i3blocksCommand + "\ninterval=persist\n"))
  }

  /// doc/INTEGRATION.md's i3blocks command.
  static let i3blocksCommand = "filenote show --line --follow --width 60"

  @Test("tmux's status line shows the note and, within its interval, the next one")
  func tmuxStatusLine() throws {
    let home = try TemporaryHome()
    try home.writeNote("buy milk")
    let session = try tmuxWithTheRecipe(home)
    defer { _ = try? home.runProgram("tmux", ["-S", home.work + "/inner.socket", "kill-server"]) }
    try session.waitUntil { self.statusLine($0).hasSuffix("buy milk") }
    try home.run("save", "call mom").expectSuccess()
    try session.waitUntil { self.statusLine($0).hasSuffix("call mom") }
  }

  @Test("tmux's status line shows a hostile note as text: no style, no format, nothing run")
  func tmuxStatusLineHostile() throws {
    let home = try TemporaryHome()
    let marker = home.work + "/pwned"
    let note = "#[fg=red]red#(touch \(marker))#{pane_id}"
    try home.writeNote(note)
    let session = try tmuxWithTheRecipe(home)
    defer { _ = try? home.runProgram("tmux", ["-S", home.work + "/inner.socket", "kill-server"]) }
    // Cut to the recipe's 50 columns.
    let shown = note.count > 50 ? String(note.prefix(49)) + "\u{2026}" : note
    try session.waitUntil { self.statusLine($0).hasSuffix(shown) }
    #expect(!(try session.styledScreen().contains("\u{1B}[31m")), "no red")
    #expect(!FileManager.default.fileExists(atPath: marker))
  }

  @Test("tmux's status line shows every # of the note as it is, doubled or before a [")
  func tmuxStatusLineHashes() throws {
    let home = try TemporaryHome()
    let note = "a##b c#d ##[x] #{y} ###(z) e# #"
    try home.writeNote(note)
    let session = try tmuxWithTheRecipe(home)
    defer { _ = try? home.runProgram("tmux", ["-S", home.work + "/inner.socket", "kill-server"]) }
    try session.waitUntil { self.statusLine($0).hasSuffix(note) }
  }

  @Test("i3blocks with --follow shows the note and each change, JSON-escaped")
  func i3blocks() throws {
    guard let program = try? TemporaryHome.locate("i3blocks") else {
      try Test.cancel("i3blocks is needed (scripts/test-tools installs it)")
    }
    let home = try TemporaryHome()
    try home.writeNote("buy milk")
    let configuration = """
      [filenote]
      command=\(Self.i3blocksCommand)
      interval=persist

      """
    try home.write(Array(configuration.utf8), to: home.work + "/i3blocks.conf")
    let bar = try StreamingProcess(
      program, ["-c", home.work + "/i3blocks.conf"],
      environment: try home.environmentWithFilenote(), directory: home.work)
    func fullTexts() throws -> [String] {
      try bar.lines(atLeast: 1).compactMap { line in
        // `,[{...},{...}]`: the blocks of one status line.
        let json = line.hasPrefix(",") ? String(line.dropFirst()) : line
        guard json.hasPrefix("[{"),
          let blocks = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        else { return nil }
        return blocks.first { $0["name"] as? String == "filenote" }?["full_text"] as? String
      }
    }
    try bar.read { _ in (try? fullTexts().contains("buy milk")) == true }
    let hostile = "<span color=\"red\">x</span> %{F#f00} \"q\" \\ \u{1B}[2J"
    try home.run("save", hostile).expectSuccess()
    try bar.read { _ in
      (try? fullTexts().last == "<span color=\"red\">x</span> %{F#f00} \"q\" \\ \u{241B}[2J")
        == true
    }
  }

  /// A recipe of doc/INTEGRATION.md as it stands there: the first block of
  /// `language` after `name` (in bold).
  static func recipe(_ name: String, in language: String) throws -> String {
    let document = try String(
      contentsOfFile: UnixIntegrationTests.Package.file("doc/INTEGRATION.md"), encoding: .utf8)
    let after = try #require(document.range(of: "**\(name)**")).upperBound
    let start = try #require(
      document.range(of: "```\(language)\n", range: after..<document.endIndex))
    let end = try #require(document.range(of: "```", range: start.upperBound..<document.endIndex))
    return String(document[start.upperBound..<end.lowerBound])
  }

  @Test(
    "polybar with doc/INTEGRATION.md's module draws a hostile note as text, and a click on it runs nothing"
  )
  func polybar() throws {
    var programs: [String: String] = [:]
    for name in ["polybar", "Xvfb", "xdotool", "import"] {
      guard let path = try? TemporaryHome.locate(name) else {
        try Test.cancel("\(name) is needed (scripts/test-tools installs it)")
      }
      programs[name] = path
    }
    let recipe = try Self.recipe("polybar", in: "ini")
    #expect(recipe.contains("exec = filenote show --line --follow"), "\(recipe)")
    // The same module without the recipe's escape, to show that here a
    // click on a tag polybar reads does run its command.
    let unescaped = recipe.split(separator: "\n").map { line in
      line.hasPrefix("exec = ") ? line.components(separatedBy: " | ")[0] : String(line)
    }.joined(separator: "\n")
    let note = "click %{A1:touch pwned:}HERE HERE HERE%{A} end"
    let raw = try drawAndClick(note, module: unescaped, programs: programs, marker: "pwned")
    let ran = try #require(raw.secondsUntilRun, "the control's click did not run its command")
    let escaped = try drawAndClick(
      note, module: recipe, programs: programs, marker: "pwned", patience: max(1, 5 * ran))
    #expect(escaped.secondsUntilRun == nil, "a click on the recipe's bar ran the note's command")
    // The recipe draws the tags as text: wider than the parsed note.
    #expect(escaped.textWidth > raw.textWidth + 100, "\(escaped.textWidth) vs \(raw.textWidth)")
  }

  /// What a polybar bar with `module` drew of `note`, in a new home under a
  /// new Xvfb, and how long a click along its text took to create `marker`
  /// in the bar's folder (nil: not within `patience` seconds).
  private func drawAndClick(
    _ note: String, module: String, programs: [String: String], marker: String,
    patience: Double = 10
  ) throws -> (textWidth: Int, secondsUntilRun: Double?) {
    let home = try TemporaryHome()
    try home.writeNote(note)
    let configuration = """
      [bar/test]
      width = 100%
      height = 30
      background = #000000
      foreground = #ffffff
      font-0 = DejaVu Sans:pixelsize=14
      modules-left = filenote

      """ + module
    try home.write(Array(configuration.utf8), to: home.work + "/bar.ini")
    // -noreset: without it the server resets when its last client leaves,
    // and a client connecting meanwhile fails ("X connection error"): the
    // bar, when a screenshot came first and ended (2 clients at once, 300
    // times: 14 failures without it, none with it).
    let server = try StreamingProcess(
      programs["Xvfb"]!,
      ["-displayfd", "1", "-nolisten", "tcp", "-noreset", "-screen", "0", "640x100x24"],
      environment: home.environment, directory: home.work)
    defer { kill(server.processIdentifier, SIGTERM) }
    let display = ":" + (try server.lines(atLeast: 1)[0])
    let bar = try StreamingProcess(
      programs["polybar"]!, ["-c", home.work + "/bar.ini", "test"],
      environment: try home.environmentWithFilenote(["DISPLAY": display]), directory: home.work)
    defer { kill(bar.processIdentifier, SIGTERM) }
    // The bar's text, as a picture: the width of what is drawn on its black.
    func textWidth() throws -> Int {
      let shot = try home.runProgram(
        "import",
        ["-window", "root", "-crop", "640x30+0+0", "+repage", "-trim", "-format", "%w", "info:"],
        environment: ["DISPLAY": display])
      return Int(shot.stdoutText) ?? 0
    }
    var width = 0
    let drawn = ContinuousClock.now + .seconds(20)
    repeat {
      width = try textWidth()
      if width > 20 { break }
      try Task.checkCancellation()
      usleep(50_000)
    } while ContinuousClock.now < drawn
    #expect(width > 20, "polybar drew no text: \(bar.errorText)")
    // polybar reads the configuration with escapes of its own (`\\` is one
    // backslash) and says so when a value breaks them.
    try bar.readWhatIsThere()
    #expect(!bar.errorText.contains("error"), "\(bar.errorText)")
    let clicked = ContinuousClock.now
    for x in stride(from: 5, to: max(width, 10), by: 20) {
      _ = try home.runProgram(
        "xdotool", ["mousemove", "\(x)", "15", "click", "1"],
        environment: ["DISPLAY": display])
    }
    let markerPath = home.work + "/" + marker
    let deadline = clicked + .milliseconds(Int(patience * 1000))
    repeat {
      if FileManager.default.fileExists(atPath: markerPath) {
        let elapsed = ContinuousClock.now - clicked
        return (
          width, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        )
      }
      usleep(20_000)
    } while ContinuousClock.now < deadline
    return (width, nil)
  }

  @Test("waybar with doc/INTEGRATION.md's module, in a headless sway, draws Pango markup as text")
  func waybar() throws {
    for name in ["sway", "waybar", "grim", "convert", "setpriv"] {
      guard (try? TemporaryHome.locate(name)) != nil else {
        try Test.cancel("\(name) is needed (scripts/test-tools installs it)")
      }
    }
    let module = try Self.recipe("waybar", in: "json")
    #expect(module.contains("\"exec\": \"filenote show --line --follow"), "\(module)")
    #expect(module.contains("\"escape\": true"), "\(module)")
    let note = "<span color=\"red\">RED RED RED</span> end"
    // The same module reading markup, to show that here the note would be red.
    let markup = try drawnByWaybar(
      note, module: module.replacingOccurrences(of: "\"escape\": true", with: "\"escape\": false"))
    #expect(markup.redPixels > 50, "the control drew no red: \(markup)")
    let recipe = try drawnByWaybar(note, module: module)
    #expect(recipe.redPixels == 0, "the recipe's bar drew red: \(recipe)")
    // The tags drawn as text: wider than the note drawn as markup.
    #expect(recipe.textWidth > markup.textWidth + 100, "\(recipe) vs \(markup)")
  }

  /// What waybar with `module` drew of `note` in a new home, in a headless
  /// sway of its own: the width of the text on the bar's black, and how many
  /// of its pixels are red. sway refuses to run as root: as root, sway and
  /// the screenshots run as nobody, who is given the home.
  private func drawnByWaybar(
    _ note: String, module: String
  ) throws -> (textWidth: Int, redPixels: Int) {
    let home = try TemporaryHome()
    try home.writeNote(note)
    let runtime = home.work + "/runtime"
    try FileManager.default.createDirectory(
      atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    let configuration =
      "{\"layer\": \"top\", \"height\": 30, "
      + "\"modules-left\": [\"custom/filenote\"],\n" + module + "}\n"
    try home.write(Array(configuration.utf8), to: home.work + "/waybar.json")
    let style = """
      * { font-family: "DejaVu Sans"; font-size: 14px; }
      window#waybar { background: #000000; color: #ffffff; }

      """
    try home.write(Array(style.utf8), to: home.work + "/style.css")
    let sway = """
      output HEADLESS-1 resolution 640x200
      exec waybar -c \(home.work)/waybar.json -s \(home.work)/style.css

      """
    try home.write(Array(sway.utf8), to: home.work + "/sway.conf")
    var asUser: [String] = []
    if geteuid() == 0 {
      asUser = [
        "setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
      ]
      // The test's folder opens to nobody for passing through; what is in it is nobody's.
      let folder = (home.home as NSString).deletingLastPathComponent
      #expect(chmod(folder, 0o711) == 0)
      for path in [home.home, home.work] {
        _ = try home.runProgram("chown", ["-R", "65534:65534", path]).expectSuccess()
      }
    }
    let environment = try home.environmentWithFilenote([
      "XDG_RUNTIME_DIR": runtime, "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman",
      "WLR_LIBINPUT_NO_DEVICES": "1",
    ])
    let command = asUser + ["sway", "-c", home.work + "/sway.conf"]
    let compositor = try StreamingProcess(
      try TemporaryHome.locate(command[0]), Array(command.dropFirst()), environment: environment,
      directory: home.work)
    defer { kill(compositor.processIdentifier, SIGTERM) }
    let shot = home.work + "/shot.png"
    func look() throws -> (textWidth: Int, redPixels: Int) {
      let sockets = home.entries(in: runtime).filter {
        $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock")
      }
      guard let socket = sockets.first else { return (0, 0) }
      let grim = asUser + ["grim", shot]
      _ = try home.runProgram(
        grim[0], Array(grim.dropFirst()),
        environment: ["XDG_RUNTIME_DIR": runtime, "WAYLAND_DISPLAY": socket])
      guard home.exists(shot) else { return (0, 0) }
      let bar = ["-crop", "640x30+0+0", "+repage"]
      let width = try home.runProgram(
        "convert", [shot] + bar + ["-trim", "-format", "%w", "info:"]
      ).stdoutText
      let red = try home.runProgram(
        "convert",
        [shot] + bar + [
          "-fuzz", "30%", "-fill", "black", "+opaque", "red", "-format",
          "%[fx:round(mean*w*h)]", "info:",
        ]
      ).stdoutText
      return (Int(width) ?? 0, Int(red) ?? 0)
    }
    var drawn = (textWidth: 0, redPixels: 0)
    let deadline = ContinuousClock.now + .seconds(30)
    repeat {
      drawn = try look()
      if drawn.textWidth > 20 { break }
      try Task.checkCancellation()
      usleep(100_000)
    } while ContinuousClock.now < deadline
    #expect(drawn.textWidth > 20, "waybar drew no text: \(compositor.errorText.suffix(2000))")
    return drawn
  }
}
