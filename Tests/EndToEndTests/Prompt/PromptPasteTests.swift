import Foundation
import Testing

extension PromptTests {
  @Suite("bracketed paste: pasted text is typed text, newlines included")
  struct Paste {
    @Test(
      "a newline inside a paste does not save; Enter later saves it as \\n, the last one dropped")
    func newlineDoesNotSave() throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: "list: ")
      let before = try #require(FileState(of: home.notePath))

      // As a terminal does, tmux sends each pasted line break as a carriage
      // return: the very byte the Enter key sends.
      try session.paste("milk\neggs\n")

      try session.waitForEditLine("> list: milk↵eggs↵|")
      try session.roundTrip()
      #expect(try session.exitStatus() == nil)
      #expect(FileState(of: home.notePath) == before)
      #expect(try !session.screen().contains("Saved."))

      try home.expectEnterSaves("list: milk\neggs", in: session)
    }

    @Test(
      "a paste ending in a newline is saved without it, as save and edit drop one; show adds no blank line"
    )
    func trailingNewline() throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: nil)

      try session.paste("alpha\nbeta\n")

      try session.waitForEditLine("> alpha↵beta↵|")
      try home.expectEnterSaves("alpha\nbeta", in: session)
      #expect(try home.run("show").stdoutText == "alpha\nbeta\n")
    }

    @Test("only one line ending is dropped: a paste ending in a blank line keeps one")
    func trailingBlankLine() throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: "list:")

      try session.paste(" milk\n\n")

      try session.waitForEditLine("> list: milk↵↵|")
      try home.expectEnterSaves("list: milk\n", in: session)
    }

    @Test(
      "a paste whose end marker never comes ends after a moment of silence, its text inserted; the keys after it act as keys",
      arguments: ["Enter", "C-c"])
    func endMarkerNeverComes(key: String) throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: "note")

      try session.send(text: "\u{1B}[200~ pasted")

      try session.waitForEditLine("> note pasted|")
      try session.send(text: "!")
      try session.waitForEditLine("> note pasted!|")
      try session.send(keys: key)
      #expect(try session.waitForExit() == .exited(key == "Enter" ? 0 : 130))
      #expect(home.note == (key == "Enter" ? "note pasted!" : "note"))
    }

    @Test("pasted line feeds and CRLF line endings are kept as \\n")
    func lineFeedsAndCRLF() throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: "x")

      try session.paste("a\r\nb\nc", keepingLineFeeds: true)

      try session.waitForEditLine("> xa↵b↵c|")
      try home.expectEnterSaves("xa\nb\nc", in: session)
    }

    @Test("a paste goes in at the cursor, which ends after it")
    func atTheCursor() throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: "ab")

      try session.send(keys: "Left")
      try session.paste("X\tY\nZ")

      try session.waitForEditLine("> aX⇥Y↵Z|b")
      try home.expectEnterSaves("aX\tY\nZb", in: session)
    }

    @Test("Ctrl-_ undoes a paste as one step")
    func undo() throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: "note")

      try session.paste("one\ntwo three")
      try session.waitForEditLine("> noteone↵two three|")
      try session.send(keys: "C-_")

      try session.waitForEditLine("> note")
      try session.send(keys: "End")
      try session.send(text: "!")
      try home.expectEnterSaves("note!", in: session)
    }

    @Test("a large paste with many lines arrives whole and saves nothing by itself")
    func largePaste() throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: "start")
      let lines = (1...500).map { "line \($0) 中文 🙂" }
      let pasted = lines.joined(separator: "\n") + "\n"

      try session.paste(pasted)

      try session.waitFor("the end of the paste") {
        $0.editLineWithCursor?.hasSuffix("500 中文 🙂↵|") == true
      }
      try session.roundTrip()
      #expect(try session.exitStatus() == nil)
      #expect(home.note == "start")
      try home.expectEnterSaves("start" + pasted.dropLast(), in: session)
    }
  }
}
