import Foundation
import Testing

extension PromptTests {
  @Suite("a note that vanished while the prompt was open is a change on disk")
  struct VanishedNote {
    static let question =
      "The note was changed on disk since you opened it. Overwrite it? [y/N]"

    @Test("Enter on the unedited line of a cleared note asks; y saves it back")
    func clearedThenYes() throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: "mine", columns: 120)
      try home.run("clear").expectSuccess()

      try session.send(keys: "Enter")

      try session.waitFor("the question") { $0.nonBlankLines.last == Self.question }
      #expect(home.note == nil)
      try session.send(text: "y")
      #expect(try session.waitForExit() == .exited(0))
      #expect(home.note == "mine")
    }

    @Test("n keeps the note cleared and returns to the line")
    func clearedThenNo() throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: "mine", columns: 120)
      try home.run("clear").expectSuccess()

      try session.send(keys: "Enter")
      try session.waitFor("the question") { $0.nonBlankLines.last == Self.question }
      try session.send(text: "n")

      try session.waitForEditLine("> mine|")
      #expect(home.note == nil)
    }

    @Test(
      "Enter on an unedited line takes no lock: in an unchangeable folder it says Nothing changed")
    func uneditedInUnchangeableFolder() throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: "mine", columns: 120)
      try home.protect(home.documents)
      defer { home.unprotect(home.documents) }

      try session.send(keys: "Enter")

      #expect(try session.waitForExit() == .exited(0))
      try session.waitFor("the last line \"Nothing changed.\"") {
        $0.nonBlankLines.last == "Nothing changed."
      }
      #expect(home.note == "mine")
    }
  }
}
