import LineEditor
import Testing

/// vi mode's keys that end the line, leave it or show where they are: what
/// the readline cases (`ViReadlineTests`) cannot see, since readline's
/// saved line is all they compare.
@Suite struct ViModeTests {
  @Test func viStartsInInsertModeWithTheCursorAtTheEnd() {
    var state = viEditing("buy")
    #expect(state.viMode == .insert)
    #expect(state.cursor == 3)
    state.press(.text(" milk"))
    #expect(state.text == "buy milk")
  }

  @Test func escGoesToCommandModeAndStepsBackOntoTheLastCharacter() {
    var state = viEditing("buy")
    #expect(state.press(.escape) == .edited)
    #expect(state.viMode == .command)
    #expect(state.cursor == 2)
    state.press(.text("i"))
    #expect(state.viMode == .insert)
  }

  @Test(arguments: [false, true])
  func enterSavesInEitherMode(inCommandMode: Bool) {
    var state = viEditing("buy milk")
    if inCommandMode { state.press(.escape) }
    #expect(state.press(.enter) == .submit)
    #expect(state.text == "buy milk")
  }

  @Test(arguments: [false, true])
  func ctrlCCancelsInEitherModeEvenInsideACommand(inCommandMode: Bool) {
    var state = viEditing("buy milk")
    if inCommandMode { state.press(.escape, .text("2d")) }
    #expect(state.press(.control("c")) == .cancel)
  }

  @Test(arguments: [[Key.control("v")], [.escape, .text("/mi")]])
  func ctrlCCancelsAfterCtrlVAndInASearchToo(keys: [Key]) {
    var state = viEditing("buy milk", versions: ["milk"])
    state.press(keys)
    #expect(state.press(.control("c")) == .cancel)
    #expect(state.text == "buy milk")
  }

  @Test func vHandsTheLineToTheEditorAsCtrlXCtrlEDoes() {
    var state = viEditing("buy milk")
    state.press(.escape)
    #expect(state.press(.text("v")) == .editInEditor("buy milk"))
  }

  @Test func ctrlVCtrlJTypesANewlineIntoTheNote() {
    var state = viEditing("buy")
    state.press(.control("v"), .control("j"), .text("milk"))
    #expect(state.text == "buy\nmilk")
  }

  @Test func ctrlDSavesALineThatHasTextAndEndsAnEmptyOne() {
    var withText = viEditing("buy")
    #expect(withText.press(.control("d")) == .submit)
    var empty = viEditing("")
    #expect(empty.press(.control("d")) == .endOfInput)
  }

  @Test func undoTakesBackAWholeInsertSession() {
    var state = viEditing("milk")
    state.press(.escape, .text("0i"), .text("b"), .text("u"), .text("y"))
    state.press(.arrow(.right, []), .backspace, .text(" "))
    state.press(.escape, .text("u"))
    #expect(state.text == "milk")
  }

  @Test func undoInTheFirstSessionStopsAtTheNote() {
    var state = viEditing("milk")
    state.press(.text(" and eggs"), .escape, .text("u"))
    #expect(state.text == "milk")
    state.press(.text("u"))
    #expect(state.text == "milk")
  }

  @Test func wordsAreRunsOfASCIILettersDigitsAndUnderscoresAsInReadline() {
    // Readline's vi words test bytes: a letter beyond ASCII is punctuation.
    var state = viEditing("café bar")
    state.press(.escape, .text("0w"))
    #expect(state.cursor == 3)
    state.press(.text("W"))
    #expect(state.cursor == 5)
  }

  @Test func motionsCountGraphemeClustersNotScalars() {
    var state = viEditing("a👨‍👩‍👧é b")
    state.press(.escape, .text("0l"))
    #expect(state.cursor == 1)
    state.press(.text("x"))
    #expect(state.text == "aé b")
    state.press(.text("rz"))
    #expect(state.text == "az b")
  }

  @Test func tildeSwapsCaseByTheSimpleMapping() {
    var state = viEditing("straße über")
    state.press(.escape, .text("0"), .text("11~"))
    #expect(state.text == "STRAßE ÜBER")
  }

  @Test func jkAndSlashWalkTheVersionsTheCursorAtTheStart() {
    var state = viEditing("milk", versions: ["eggs and ham", "old bread", "old eggs"])
    state.press(.escape, .text("k"))
    #expect(state.text == "eggs and ham")
    #expect(state.cursor == 0)
    state.press(.text("/eggs"), .enter)
    #expect(state.text == "old eggs")
    state.press(.text("N"))
    #expect(state.text == "eggs and ham")
    state.press(.text("n"))
    #expect(state.text == "old eggs")
    state.press(.text("?bread"), .enter)
    #expect(state.text == "old bread")
    state.press(.text("2j"))
    #expect(state.text == "milk")
    #expect(state.cursor == 3)
  }

  @Test func theSearchTextIsShownAfterItsKey() {
    var state = viEditing("milk", versions: ["eggs"])
    state.press(.escape, .text("?eg"))
    #expect(state.searchLine?.prompt == "?")
    #expect(state.searchLine?.buffer.string == "eg")
    state.press(.escape)
    #expect(state.searchLine == nil)
    #expect(state.text == "milk")
  }

  @Test func anInputrcBindingOfViMovementModeLeavesInsertModeAsEscDoes() {
    let inputrc = "set editing-mode vi\nset keymap vi-insert\n\"jk\": vi-movement-mode\n"
    let configuration = InputrcParser.configuration(
      from: Array(inputrc.utf8), path: "inputrc", terminalName: nil, include: { _ in nil })
    var state = EditState(text: "buy", configuration: configuration)
    state.press(.text("j"), .text("k"))
    #expect(state.viMode == .command)
    #expect(state.text == "buy")
    #expect(state.cursor == 2)
  }
}
