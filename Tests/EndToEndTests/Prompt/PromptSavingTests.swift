import Foundation
import Testing

extension PromptTests {
  @Suite("Enter saves, Ctrl-C and Ctrl-D cancel")
  struct Saving {
    @Test("Enter saves the edited line byte for byte, says Saved. and exits 0")
    func enterSaves() throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: "buy milk")

      try session.send(text: " and eggs")
      try session.waitForEditLine("> buy milk and eggs|")
      try session.send(keys: "Enter")

      #expect(try session.waitForExit() == .exited(0))
      #expect(home.contents(of: home.notePath) == Array("buy milk and eggs".utf8))
      let screen = try session.waitFor("Saved.") { $0.nonBlankLines.last == "Saved." }
      #expect(
        screen.nonBlankLines == [PromptTests.hint, "> buy milk and eggs", "Saved."],
        "\(screen)")
    }

    @Test("the first note is saved in a new folder (0700) and file (0600)")
    func firstNote() throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: nil)

      try session.send(text: "first")
      try session.waitForEditLine("> first|")
      try session.send(keys: "Enter")

      #expect(try session.waitForExit() == .exited(0))
      #expect(home.note == "first")
      #expect(home.mode(of: home.documents) == 0o700)
      #expect(home.mode(of: home.notePath) == 0o600)
      try session.waitFor("the last line \"Saved.\"") { $0.nonBlankLines.last == "Saved." }
    }

    @Test("Enter on an unchanged note writes nothing and says so")
    func unchanged() throws {
      let home = try TemporaryHome()
      let (session, before) = try home.openPrompt(onBackdated: "buy milk")

      try session.send(keys: "Enter")

      try home.expectPromptEnded(
        session, status: 0, noteStill: before, lastLine: "Nothing changed.")
      #expect(
        home.entriesBesideVersions(in: home.documents) == ["datafile.dat"], "no temporary file left"
      )
    }

    @Test("a line edited back to the saved note counts as unchanged")
    func editedBack() throws {
      let home = try TemporaryHome()
      let (session, before) = try home.openPrompt(onBackdated: "buy milk")

      try session.send(keys: "BSpace", "BSpace")
      try session.waitForEditLine("> buy mi|")
      try session.send(text: "lk")
      try session.waitForEditLine("> buy milk|")
      try session.send(keys: "Enter")

      try home.expectPromptEnded(
        session, status: 0, noteStill: before, lastLine: "Nothing changed.")
    }

    @Test("a line that only looks the same (é precomposed for e + U+0301) is saved, byte for byte")
    func canonicallyEqualButOtherBytes() throws {
      let home = try TemporaryHome()
      let (session, _) = try home.openPrompt(onBackdated: "cafe\u{301}")

      try session.send(keys: "BSpace")
      try session.waitForEditLine("> caf|")
      try session.send(text: "\u{E9}")
      try session.send(keys: "Enter")

      #expect(try session.waitForExit() == .exited(0))
      #expect(home.contents(of: home.notePath) == Array("caf\u{E9}".utf8))
      try session.waitFor("the last line \"Saved.\"") { $0.nonBlankLines.last == "Saved." }
    }

    @Test("Enter on an empty line with no note saved writes nothing, creates nothing")
    func emptyWithoutNote() throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: nil)

      try session.send(keys: "Enter")

      #expect(try session.waitForExit() == .exited(0))
      #expect(home.entries(in: home.home) == [])
      try session.waitFor("the last line \"Nothing changed.\"") {
        $0.nonBlankLines.last == "Nothing changed."
      }
    }

    @Test(
      "Enter on a line emptied by hand saves nothing and stays, the hint saying why and how to remove the note"
    )
    func emptied() throws {
      let home = try TemporaryHome()
      let (session, before) = try home.openPrompt(onBackdated: "buy milk")

      try session.send(keys: "C-u")
      try session.waitForEditLine("> |")
      try session.send(keys: "Enter")

      let screen = try session.waitFor("the reason on the hint row") {
        guard let row = $0.editRow, row >= 1, $0.editLineWithCursor == "> |" else { return false }
        return $0.lines[row - 1].hasPrefix("Not saved: a note cannot be empty")
          && $0.lines[row - 1].contains("'filenote clear' removes it")
      }
      #expect(try session.exitStatus() == nil, "still in the prompt: \(screen)")
      #expect(
        screen.nonBlankLines.filter { $0.contains("datafile.dat") || $0.contains("Not saved") }
          .count == 1, "the hint redrawn in place, not below: \(screen)")
      // Typing brings the usual hint back.
      try session.send(text: "x")
      try session.waitFor("the usual hint") {
        guard let row = $0.editRow, row >= 1 else { return false }
        return $0.lines[row - 1] == PromptTests.hint(columns: 80) && $0.editLine == "> x"
      }
      try session.send(keys: "C-c")
      try home.expectPromptEnded(
        session, status: 130, noteStill: before, lastLine: "Cancelled: nothing was saved.")
    }

    @Test("Ctrl-C cancels: nothing is written, filenote says so and exits 130")
    func ctrlC() throws {
      let home = try TemporaryHome()
      let (session, before) = try home.openPrompt(onBackdated: "buy milk")
      try session.send(text: " and eggs")
      try session.waitForEditLine("> buy milk and eggs|")

      try session.send(keys: "C-c")

      try home.expectPromptEnded(
        session, status: 130, noteStill: before, lastLine: "Cancelled: nothing was saved.")
      #expect(
        home.entriesBesideVersions(in: home.documents) == ["datafile.dat"], "no temporary file left"
      )
    }

    @Test("Ctrl-D on an empty line cancels with exit 1, nothing written")
    func ctrlDOnEmptyLine() throws {
      let home = try TemporaryHome()
      let (session, before) = try home.openPrompt(onBackdated: "buy milk")
      try session.send(keys: "C-u")
      try session.waitForEditLine("> |")

      try session.send(keys: "C-d")

      try home.expectPromptEnded(
        session, status: 1, noteStill: before, lastLine: "Cancelled: nothing was saved.")
    }

    @Test("Ctrl-D with no note and nothing typed cancels with exit 1, creating nothing")
    func ctrlDWithoutNote() throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: nil)

      try session.send(keys: "C-d")

      #expect(try session.waitForExit() == .exited(1))
      #expect(home.entries(in: home.home) == [])
    }

    @Test("Ctrl-D on a line that is not empty does not cancel, even at its end")
    func ctrlDOnText() throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: "abc")

      try session.send(keys: "C-d")
      try session.roundTrip()

      #expect(try session.exitStatus() == nil)
      try session.waitForEditLine("> abc|")
    }

    @Test(
      "the line left on the screen is the line saved, even when Enter follows at once")
    func lastLineShownIsSaved() throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: "buy milk")

      // Typed fast: the keys and Enter reach filenote in one read.
      try session.send(keys: "!", "Enter")

      #expect(try session.waitForExit() == .exited(0))
      #expect(home.note == "buy milk!")
      let screen = try session.waitFor("Saved.") { $0.nonBlankLines.last == "Saved." }
      #expect(screen.nonBlankLines == [PromptTests.hint, "> buy milk!", "Saved."], "\(screen)")
    }
  }
}
