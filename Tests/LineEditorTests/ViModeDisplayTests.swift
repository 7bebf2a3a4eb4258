import LineEditor
import Testing

/// The vi mode is always on screen: named first in the hint, cut to the
/// width like the rest of it. (With readline's `show-mode-in-prompt`, the
/// session also puts readline's mode string before the prompt.)
@Suite struct ViModeDisplayTests {
  private static let hint = Hint(
    subject: "~/Documents/datafile.dat", details: ["Enter saves", "Ctrl-C cancels"])

  @Test func theHintNamesTheModeFirst() {
    var hint = Self.hint
    hint.mode = ViMode.insert.hintForms
    #expect(
      hint.text(forWidth: 80)
        == "-- INSERT -- · ~/Documents/datafile.dat · Enter saves · Ctrl-C cancels")
  }

  @Test func aNarrowHintKeepsTheModeInAShorterForm() {
    var hint = Self.hint
    hint.mode = ViMode.command.hintForms
    #expect(hint.text(forWidth: 31) == "-- COMMAND -- · …/datafile.dat")
    #expect(hint.text(forWidth: 30) == "-- COMMAND -- · …datafile.dat")
    #expect(hint.text(forWidth: 12) == "COMMAND · …")
    #expect(hint.text(forWidth: 6) == "CMD")
    #expect(hint.text(forWidth: 3) == "C…")
  }

  @Test func theModeComesBeforeAnAlert() {
    var hint = Hint(subject: "~/n", alert: ["2 conflict copies"])
    hint.mode = ViMode.replace.hintForms
    #expect(hint.text(forWidth: 80) == "-- REPLACE -- · 2 conflict copies · ~/n")
  }

  @Test func theHintIsDrawnAgainWhenTheModeChanges() {
    var screen = PromptScreen(prompt: "> ")
    screen.show([Self.hint], dimmed: false)
    var state = viEditing("milk")
    let first = String(decoding: screen.renderHintAfresh(state, width: 80), as: UTF8.self)
    #expect(first.contains("-- INSERT --"))
    _ = screen.render(state, width: 80)
    _ = state.handle(.escape)
    let after = String(decoding: screen.render(state, width: 80), as: UTF8.self)
    #expect(after.contains("-- COMMAND --"))
    _ = state.handle(.text("l"))
    let moved = String(decoding: screen.render(state, width: 80), as: UTF8.self)
    #expect(!moved.contains("COMMAND"))
  }

  @Test func emacsModeNamesNoMode() {
    var screen = PromptScreen(prompt: "> ")
    screen.show([Self.hint], dimmed: false)
    let state = EditState(text: "milk")
    let hint = String(decoding: screen.renderHintAfresh(state, width: 80), as: UTF8.self)
    #expect(!hint.contains("INSERT"))
  }
}
