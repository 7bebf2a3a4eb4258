import Foundation
import Testing

extension PromptTests {
  @Suite("display: stand-ins, wide characters, scrolling, resizing")
  struct Display {
    @Test("newlines and control characters are shown as stand-ins, in reverse video")
    func standIns() throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: "a\nb\tc\u{1}d\u{7F}e\u{1B}[31mred")

      try session.waitForEditLine("> a↵b⇥c␁d␡e␛[31mred|")
      let styled = try session.styledScreen()
      #expect(styled.contains("\u{1B}[7m↵"), "the stand-in is in reverse video: \(styled)")
      #expect(!styled.contains("\u{1B}[31m"), "the note's escape is not sent to the terminal")
    }

    @Test("a note with newlines and control characters, untouched, is saved back unchanged")
    func untouchedControlCharacters() throws {
      let home = try TemporaryHome()
      let before = try home.writeBackdatedNote("a\nb\r\nc\td\u{1}e\u{7F}\u{1B}f\n")
      let session = try home.openPrompt(on: nil)

      try session.send(keys: "Enter")

      try home.expectPromptEnded(
        session, status: 0, noteStill: before, lastLine: "Nothing changed.")
    }

    @Test("editing elsewhere on the line keeps every newline and control byte")
    func editedElsewhere() throws {
      let home = try TemporaryHome()
      let note = "a\nb\r\nc\td\u{1}e\u{7F}\u{1B}f\n"
      try home.write(Array(note.utf8), to: home.notePath)
      let session = try home.openPrompt(on: nil)

      try session.send(keys: "C-a")
      try session.send(text: "X")
      try session.waitFor("X at the start") { $0.editLine?.hasPrefix("> Xa") == true }
      try session.send(keys: "Enter")

      #expect(try session.waitForExit() == .exited(0))
      #expect(home.contents(of: home.notePath) == Array(("X" + note).utf8))
    }

    @Test("wide characters take two columns and the cursor ends after them")
    func wideCharacters() throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: "中文字符 and 🙂 e\u{301}")

      let screen = try session.waitForEditLine("> 中文字符 and 🙂 e\u{301}|")
      #expect(screen.cursor.column == 2 + 8 + 5 + 2 + 2)
    }

    /// A note with no character twice, wide ones among narrow ones, more
    /// than twice as wide as the 16-column window of the scrolling tests.
    static let longNote = "abcdefg中hijklmn文opqrstu字vwxyzAB符CDEFG"

    @Test("a long note scrolls: the cursor is always on screen, on the right character")
    func scrolling() throws {
      let home = try TemporaryHome()
      let columns = 16
      let note = Array(Self.longNote)
      let session = try home.openPrompt(on: Self.longNote, columns: columns, rows: 10)
      try session.waitFor("the end of the note") { $0.characterBeforeCursor == note.last }

      try session.send(keys: "Home")
      try session.waitFor("the start of the note") { $0.characterAtCursor == note[0] }
      for index in note.indices.dropFirst() {
        try session.send(keys: "Right")
        let screen = try session.waitFor("the cursor on \(note[index])") {
          $0.characterAtCursor == note[index]
        }
        expectScrolledLine(screen, columns: columns)
      }
      try session.send(keys: "Right")
      try session.waitFor("the cursor past the end") {
        $0.characterAtCursor == nil && $0.characterBeforeCursor == note.last
      }
      for index in note.indices.reversed() {
        try session.send(keys: "Left")
        let screen = try session.waitFor("the cursor back on \(note[index])") {
          $0.characterAtCursor == note[index]
        }
        expectScrolledLine(screen, columns: columns)
      }

      // Where the cursor is on the screen is where the editor inserts.
      for _ in 0..<31 { try session.send(keys: "Right") }
      try session.waitFor("the cursor on \(note[31])") { $0.characterAtCursor == note[31] }
      try session.send(text: "!")
      try session.waitFor("! before \(note[31])") {
        $0.characterBeforeCursor == "!" && $0.characterAtCursor == note[31]
      }
      try home.expectEnterSaves(String(note[..<31]) + "!" + String(note[31...]), in: session)
    }

    /// Checks that the edit line fits the window with the cursor in it, that
    /// nothing wrapped below it, and that it shows one piece of the long
    /// note (between the `<` and `>` marks of text cut off).
    private func expectScrolledLine(
      _ screen: Screen, columns: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) {
      guard let row = screen.editRow, let line = screen.editLine else {
        Issue.record("no edit line: \(screen)", sourceLocation: sourceLocation)
        return
      }
      #expect(
        Screen.columns(of: line) <= columns && screen.cursor.column < columns,
        "the line and the cursor fit the window: \(screen)", sourceLocation: sourceLocation)
      let nothingBelow = screen.lines.dropFirst(row + 1).allSatisfy { $0.isEmpty }
      #expect(nothingBelow, "nothing below the line: \(screen)", sourceLocation: sourceLocation)
      var shown = Substring(line.dropFirst(2))
      if shown.hasPrefix("<") { shown = shown.dropFirst() }
      if shown.hasSuffix(">") { shown = shown.dropLast() }
      while shown.hasSuffix(" ") { shown = shown.dropLast() }
      #expect(
        Self.longNote.contains(shown), "the line shows a piece of the note: \(screen)",
        sourceLocation: sourceLocation)
    }

    @Test("cutting a scrolled line leaves no stale characters")
    func cuttingAScrolledLine() throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: Self.longNote, columns: 16, rows: 10)
      try session.waitFor("the end of the note") { $0.characterBeforeCursor == "G" }

      try session.send(keys: "C-u")

      let screen = try session.waitForEditLine("> |")
      let nothingBelow = screen.lines.dropFirst(screen.editRow! + 1).allSatisfy { $0.isEmpty }
      #expect(nothingBelow, "\(screen)")
    }

    @Test("resizing the window redraws the hint and the line with nothing stale left")
    func resizing() throws {
      let home = try TemporaryHome()
      let note = "buy milk and eggs and bread and butter"
      let session = try home.openPrompt(on: note, columns: 80, rows: 12)

      for columns in [25, 60, 12, 45, 80] {
        try session.resize(columns: columns, rows: 12)
        let screen = try session.waitFor("the redraw at \(columns) columns") {
          Self.isRedrawn($0, endingWith: note, columns: columns)
        }
        if columns > PromptTests.hint.count {
          #expect(screen.nonBlankLines == [PromptTests.hint, "> " + note], "\(screen)")
        }
      }

      try session.send(text: "!")
      try session.waitForEditLine("> \(note)!|")
      try home.expectEnterSaves(note + "!", in: session)
    }

    @Test("a burst of resizes ends in one clean redraw at the last size")
    func burstOfResizes() throws {
      let home = try TemporaryHome()
      let note = "buy milk and eggs and bread and butter and jam"
      let session = try home.openPrompt(on: note, columns: 80, rows: 8)

      for columns in [30, 70, 20, 55, 12, 90, 33, 47] {
        try session.resize(columns: columns, rows: 8)
      }

      try session.waitFor("the redraw at 47 columns") {
        Self.isRedrawn($0, endingWith: note, columns: 47)
      }
      try session.resize(columns: 60, rows: 8)
      try session.waitFor("the redraw at 60 columns") {
        Self.isRedrawn($0, endingWith: note, columns: 60) && $0.editLineWithCursor == "> \(note)|"
      }
    }

    @Test("the cursor keeps its place in the text across resizes")
    func cursorAcrossResizes() throws {
      let home = try TemporaryHome()
      let note = "buy milk and eggs and bread and butter"
      let session = try home.openPrompt(on: note, columns: 80, rows: 12)
      try session.send(keys: "Home", "Right", "Right", "Right", "Right")
      try session.waitForEditLine("> buy |milk and eggs and bread and butter")

      for columns in [25, 60, 14, 80] {
        try session.resize(columns: columns, rows: 12)
        try session.waitFor("the cursor on m at \(columns) columns") { screen in
          guard let row = screen.editRow, row > 0 else { return false }
          return screen.characterAtCursor == "m" && screen.characterBeforeCursor == " "
            && screen.cursor.column < columns
            && screen.lines[row - 1] == PromptTests.hint(columns: columns)
            && screen.lines[..<(row - 1)].allSatisfy(\.isEmpty)
        }
      }
      try session.send(text: "X")
      try home.expectEnterSaves("buy Xmilk and eggs and bread and butter", in: session)
    }

    /// Whether `screen` shows, after a resize to `columns`, the hint cut to
    /// the width on one row and below it the edit line, with the cursor at
    /// its end, showing the end of `note` within the width, and nothing else.
    private static func isRedrawn(_ screen: Screen, endingWith note: String, columns: Int) -> Bool {
      guard let row = screen.editRow, row > 0, let line = screen.editLineWithCursor else {
        return false
      }
      var shown = Substring(line.dropFirst(2).dropLast())  // "> " and "|"
      if shown.hasPrefix("<") { shown = shown.dropFirst() }
      return screen.lines[row - 1] == PromptTests.hint(columns: columns)
        && screen.lines[..<(row - 1)].allSatisfy(\.isEmpty)
        && screen.cursor.column < columns && Screen.columns(of: line) - 1 <= columns
        && note.hasSuffix(shown) && screen.lines.dropFirst(row + 1).allSatisfy { $0.isEmpty }
    }
  }
}
