import Foundation
import Testing

extension PromptTests {
  /// The man page's DESCRIPTION: the hint is one row, cut to the width, and
  /// says which version is on the line.
  @Suite("the hint: one row cut to the width, naming the version on the line")
  struct HintRow {
    @Test(
      "the hint is cut to the width, the path's tail first, then the keys, never wrapped",
      arguments: [
        (20, "…/datafile.dat"),
        (30, "…/datafile.dat · Enter saves"),
        (40, "~/Documents/datafile.dat · Enter saves"),
        (80, "~/Documents/datafile.dat · Enter saves · Ctrl-C cancels · Ctrl-X Ctrl-E: editor"),
      ])
    func cutToTheWidth(columns: Int, hint: String) throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: "buy milk", columns: columns)

      let screen = try session.waitForEditLine("> buy milk|")
      #expect(screen.nonBlankLines == [hint, "> buy milk"], "\(screen)")
    }

    @Test("with versions kept, the hint names Up and Ctrl-R when the width allows")
    func versionKeys() throws {
      let home = try TemporaryHome.saving("first", "second")
      let session = try home.openPrompt(on: nil)

      let screen = try session.waitForEditLine("> second|")
      #expect(
        screen.lines.first
          == "~/Documents/datafile.dat · Enter saves · Ctrl-C cancels · Up/Ctrl-R: versions")
    }

    @Test("while browsing, the hint names the version and the minute it was saved, as history does")
    func browsing() throws {
      let home = try TemporaryHome.saving("buy milk", "call the plumber", "pay rent")
      let history = try home.run("history").stdoutText.split(separator: "\n")
      // "2  2025-06-01 14:03:12  8  buy milk": the date to the minute.
      let minutes = history.map {
        $0.split(separator: " ")[1...2].joined(separator: " ").prefix(16)
      }
      let session = try home.openPrompt(on: nil)
      try session.waitForEditLine("> pay rent|")

      try session.send(keys: "Up", "Up")

      let screen = try session.waitForEditLine("> buy milk|")
      #expect(
        screen.lines.first
          == "version 2 · \(minutes[1]) · Enter saves it · Down: newer · Ctrl-C cancels")
      try session.send(keys: "Down", "Down")
      try session.waitForEditLine("> pay rent|")
      try session.send(keys: "C-r")
      try session.send(text: "plumb")
      let searching = try session.waitFor("the search line") { $0.text.contains("plumb'") }
      #expect(searching.lines.first?.hasPrefix("version 1 · \(minutes[0]) · ") == true)
      try session.send(keys: "C-g")
      let back = try session.waitForEditLine("> pay rent|")
      #expect(
        back.lines.first
          == "~/Documents/datafile.dat · Enter saves · Ctrl-C cancels · Up/Ctrl-R: versions")
      #expect(back.nonBlankLines.count == 2, "\(back)")
    }

    @Test("a resize redraws only the prompt's own rows: the shell's output above stays")
    func resizeKeepsTheRowsAbove() throws {
      let home = try TemporaryHome()
      try home.writeNote("buy milk and eggs")
      let shell = (1...8).map { "shell line \($0)" }
      let session = try home.terminal(columns: 80, rows: 24) { filenote in
        "for i in 1 2 3 4 5 6 7 8; do echo shell line $i; done; exec \(filenote)"
      }
      try session.waitForEditLine("> buy milk and eggs|")

      for columns in [40, 30, 20, 60, 25, 80] {
        try session.resize(columns: columns, rows: 24)
        try session.waitFor("the redraw at \(columns) columns") { screen in
          guard let row = screen.editRow, row > 0,
            screen.lines[row - 1] == PromptTests.hint(columns: columns),
            screen.lines.dropFirst(row + 1).allSatisfy(\.isEmpty)
          else { return false }
          // What tmux scrolled off the top to make room for the rewrapped
          // rows is in its history: the shell's lines, once each, and
          // nothing of the prompt's earlier rows.
          let everything = ((try? session.screenWithHistory()) ?? "").split(separator: "\n")
          return Array(everything.dropLast(2)) == shell[...].map { Substring($0) }
            && screen.lines[..<(row - 1)].allSatisfy { $0.hasPrefix("shell line") }
        }
      }
      let everything = try session.screenWithHistory().split(separator: "\n").map(String.init)
      #expect(everything == shell + [PromptTests.hint, "> buy milk and eggs"])
    }
  }
}
