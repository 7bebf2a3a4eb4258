import Foundation
import Testing

/// The status-bar recipes of doc/INTEGRATION.md, tried for real: tmux's
/// status line (a tmux drawn inside the test's own tmux, whose screen the
/// test reads) and i3blocks (whose stream of status lines the test reads).
@Suite("status bars")
struct StatusBarTests {
  /// doc/INTEGRATION.md's tmux recipe, as it stands there: tmux expands
  /// formats in the command first (`##` is one `#`), and sed then doubles
  /// each `#` of the note, so that tmux shows them instead of reading them
  /// as styles (`#[fg=red]`) or formats (`#{pane_id}`).
  static let tmuxRecipe = """
    set -g status-right '#(filenote show --line --width 50 | sed "s/##/####/g")'
    set -g status-interval 1
    """

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

  @Test("i3blocks with --follow shows the note and each change, JSON-escaped")
  func i3blocks() throws {
    guard let program = try? TemporaryHome.locate("i3blocks") else {
      try Test.cancel("i3blocks is needed (scripts/test-tools installs it)")
    }
    let home = try TemporaryHome()
    try home.writeNote("buy milk")
    let configuration = """
      [filenote]
      command=filenote show --line --follow --width 60
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
}
