import Foundation
import Testing

extension PromptTests {
  @Suite("the conflict question: a note changed on disk is never overwritten silently")
  struct Conflict {
    /// Asked when the note on disk will be kept as version 1 if overwritten.
    static let question =
      "The note was changed on disk. Overwrite it (kept as version 1)? [y/N]"
    /// Asked when there is no note on disk to keep (another filenote
    /// cleared it), or versions are not kept.
    static let questionKeepingNothing =
      "The note was changed on disk since you opened it. Overwrite it? [y/N]"

    /// Opens the prompt on `mine`, types `typed`, lets another filenote
    /// save `theirs`, and presses Enter: the question is asked.
    private func askedAfterAnotherSave(
      home: TemporaryHome, mine: String? = "mine", typed: String = " edited",
      theirs: [String] = ["save", "theirs"], question: String = Self.question,
      environment: [String: String?] = [:]
    ) throws -> TmuxSession {
      // Wide enough for the question to stay on one line.
      let session = try home.openPrompt(on: mine, environment: environment, columns: 120)
      try session.send(text: typed)
      try session.waitForEditLine("> \(mine ?? "")\(typed)|")
      try home.filenote(theirs).run().expectSuccess()
      try session.send(keys: "Enter")
      try session.waitFor("the question") { $0.nonBlankLines.last == question }
      return session
    }

    @Test("n keeps the other version and returns to the edited line; Enter again and y saves")
    func noThenYes() throws {
      let home = try TemporaryHome()
      let session = try askedAfterAnotherSave(home: home)
      #expect(home.note == "theirs")
      #expect(try session.exitStatus() == nil)

      try session.send(text: "n")

      let editing = try session.waitForEditLine("> mine edited|")
      let questionRow = try #require(editing.lines.lastIndex { $0.hasPrefix(Self.question) })
      #expect(editing.editRow! > questionRow, "the line is drawn again below: \(editing)")
      #expect(home.note == "theirs")
      try session.send(text: "!")
      try session.waitForEditLine("> mine edited!|")
      try session.send(keys: "Enter")
      try session.waitFor("the question again") { $0.nonBlankLines.last == Self.question }
      #expect(home.note == "theirs")
      try session.send(text: "y")
      #expect(try session.waitForExit() == .exited(0))
      #expect(home.note == "mine edited!")
      try session.waitFor("the last line \"Saved.\"") { $0.nonBlankLines.last == "Saved." }
    }

    @Test(
      "after n, Up reaches the note on disk, named in the hint, then the note opened, version 1")
    func upReachesTheNoteOnDisk() throws {
      let home = try TemporaryHome()
      let session = try askedAfterAnotherSave(home: home)
      try session.send(text: "n")
      try session.waitForEditLine("> mine edited|")

      try session.send(keys: "Up")

      let onDisk = try session.waitForEditLine("> theirs|")
      #expect(
        onDisk.lines[onDisk.editRow! - 1].hasPrefix("the note on disk · ")
          && onDisk.lines[onDisk.editRow! - 1].contains(" · Enter saves it"), "\(onDisk)")
      try session.send(keys: "Up")
      let opened = try session.waitForEditLine("> mine|")
      #expect(opened.lines[opened.editRow! - 1].hasPrefix("version 1 · "), "\(opened)")
      try session.send(keys: "Down", "Down")
      try session.waitForEditLine("> mine edited|")
      try session.send(keys: "Enter")
      try session.waitFor("the question again") { $0.nonBlankLines.last == Self.question }
      try session.send(text: "y")
      #expect(try session.waitForExit() == .exited(0))
      #expect(home.note == "mine edited")
      #expect(try home.run("show", "1").stdoutText == "theirs\n", "kept as the question said")
    }

    @Test("with no versions kept, the question does not say the other note is kept")
    func versionsOff() throws {
      let home = try TemporaryHome()
      let session = try askedAfterAnotherSave(
        home: home, question: Self.questionKeepingNothing,
        environment: ["FILENOTE_VERSIONS": "0"])

      try session.send(text: "n")

      try session.waitForEditLine("> mine edited|")
    }

    @Test("any answer but y keeps the other version", arguments: ["n", "N", "x", "Enter", "Space"])
    func otherAnswers(_ answer: String) throws {
      let home = try TemporaryHome()
      let session = try askedAfterAnotherSave(home: home)

      try session.send(keys: answer)

      try session.waitForEditLine("> mine edited|")
      try session.roundTrip()
      #expect(home.note == "theirs")
    }

    @Test(
      "Esc answers no at once, as any key but y does")
    func escape() throws {
      let home = try TemporaryHome()
      let session = try askedAfterAnotherSave(home: home)

      try session.send(keys: "Escape")

      try session.waitForEditLine("> mine edited|")
      try session.roundTrip()
      #expect(home.note == "theirs")
    }

    @Test("Y overwrites like y")
    func capitalY() throws {
      let home = try TemporaryHome()
      let session = try askedAfterAnotherSave(home: home)

      try session.send(text: "Y")

      #expect(try session.waitForExit() == .exited(0))
      #expect(home.note == "mine edited")
    }

    @Test("Ctrl-C after n cancels: the other version stays, exit 130")
    func cancelAfterNo() throws {
      let home = try TemporaryHome()
      let session = try askedAfterAnotherSave(home: home)
      try session.send(text: "n")
      try session.waitForEditLine("> mine edited|")

      try session.send(keys: "C-c")

      #expect(try session.waitForExit() == .exited(130))
      #expect(home.note == "theirs")
    }

    @Test("a note saved by another filenote where there was none is asked about too")
    func createdMeanwhile() throws {
      let home = try TemporaryHome()
      let session = try askedAfterAnotherSave(home: home, mine: nil, typed: "mine")

      try session.send(text: "n")

      try session.waitForEditLine("> mine|")
      #expect(home.note == "theirs")
    }

    @Test("a note cleared by another filenote is asked about; y saves the line")
    func clearedMeanwhile() throws {
      let home = try TemporaryHome()
      let session = try askedAfterAnotherSave(
        home: home, theirs: ["clear"], question: Self.questionKeepingNothing)
      #expect(home.note == nil)

      try session.send(text: "y")

      #expect(try session.waitForExit() == .exited(0))
      #expect(home.note == "mine edited")
    }

    @Test("Enter on an unedited line keeps the other version without asking")
    func uneditedLine() throws {
      let home = try TemporaryHome()
      let session = try home.openPrompt(on: "mine")
      try home.run("save", "theirs").expectSuccess()

      try session.send(keys: "Enter")

      #expect(try session.waitForExit() == .exited(0))
      #expect(home.note == "theirs")
      try session.waitFor("the last line \"Nothing changed.\"") {
        $0.nonBlankLines.last == "Nothing changed."
      }
    }
  }
}
