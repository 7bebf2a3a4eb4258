import LineEditor
import Testing

/// Ctrl-X Ctrl-E hands the line to the user's editor (the man page's KEYS):
/// the key asks for it with the text as it would be saved, and what the
/// editor gives back replaces the line as one undoable edit.
@Suite struct EditInEditorTests {
  @Test func ctrlXCtrlEAsksToEditTheTextAsItWouldBeSaved() {
    var state = EditState(text: "a\nb\tc")
    state.press(.home)
    #expect(state.press(.control("x")) == .unchanged)
    #expect(state.press(.control("e")) == .editInEditor("a\nb\tc"))
    #expect(state.text == "a\nb\tc")
    #expect(state.cursor == 0, "the key itself moves nothing")
  }

  @Test func ctrlXThenAnUnboundKeyDoesNothingAndTheNextKeyIsPlainAgain() {
    var state = EditState(text: "note")
    state.press(.control("x"))
    #expect(state.press(.text("q")) == .unchanged)
    #expect(state.text == "note")
    #expect(state.press(.control("e")) == .unchanged, "Ctrl-E alone is end-of-line")
    #expect(state.press(.text("!")) == .edited)
    #expect(state.text == "note!")
  }

  @Test func ctrlEAloneStillMovesToTheEnd() {
    var state = EditState(text: "note")
    state.press(.home)
    #expect(state.press(.control("e")) == .edited)
    #expect(state.cursor == 4)
  }

  @Test func theEditorsTextReplacesTheLineWithTheCursorAtTheEnd() {
    var state = EditState(text: "buy milk")
    state.press(.home)
    state.replaceText(with: "buy bread\nand eggs")
    #expect(state.text == "buy bread\nand eggs")
    #expect(state.cursor == 18)
  }

  @Test func oneUndoTakesTheWholeReplacementBack() {
    var state = EditState(text: "")
    for character in "typed" { state.press(.text(String(character))) }
    state.replaceText(with: "line 1\nline 2")
    #expect(state.press(.control("_")) == .edited)
    #expect(state.text == "typed")
    #expect(state.cursor == 5)
  }

  @Test func theSameTextLeavesNothingToUndo() {
    var state = EditState(text: "note")
    state.replaceText(with: "note")
    #expect(state.press(.control("_")) == .unchanged)
    #expect(state.text == "note")
  }

  @Test func typingAfterTheReplacementIsItsOwnUndoStep() {
    var state = EditState(text: "a")
    state.press(.text("b"))
    state.replaceText(with: "xyz")
    state.press(.text("!"))
    state.press(.control("_"))
    #expect(state.text == "xyz")
    state.press(.control("_"))
    #expect(state.text == "ab")
  }
}

extension EditState {
  @discardableResult
  fileprivate mutating func press(_ key: Key) -> EditOutcome { handle(key) }
}
