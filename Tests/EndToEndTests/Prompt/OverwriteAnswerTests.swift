import Testing

/// The overwrite question reads a typed line the same way wherever it is
/// asked: in the plain prompt and in `filenote edit` alike, `y` or `yes` in
/// any case, blanks around it or not, overwrites, and anything else does not.
@Suite("a typed answer to the overwrite question means the same in the plain prompt and in edit")
struct OverwriteAnswerTests {
  @Test(arguments: [
    (" y", true), ("y", true), ("Y", true), ("yes", true), ("YES ", true),
    ("n", false), ("", false), ("x", false), ("yes please", false),
  ])
  func bothReadItAlike(answer: String, overwrites: Bool) throws {
    let plainHome = try TemporaryHome()
    let plain = try PromptTests.Plain().askedAfterAnotherSave(home: plainHome)
    let editors = try EditorTests.ScriptedEditors(home: TemporaryHome())
    let (edit, _) = try EditorTests.EditCommand().askedAfterAnotherSave(editors)

    for session in [plain, edit.session] {
      if !answer.isEmpty { try session.send(text: answer) }
      try session.send(keys: "Enter")
    }

    if overwrites {
      #expect(try plain.waitForExit() == .exited(0))
      #expect(plainHome.note == "typed")
    } else {
      // The plain prompt shows the note on disk and reads a new line.
      try plain.waitFor("the prompt again") { $0.nonBlankLines.last == ">" }
      #expect(plainHome.note == "update from a script")
    }
    #expect(try edit.waitForStatus() == (overwrites ? 0 : 1))
    #expect(editors.home.note == (overwrites ? "mine" : "theirs"))
  }
}
