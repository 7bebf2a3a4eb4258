import Testing

@testable import LineEditor

/// The emacs commands readline binds by default beyond the basic ones, and
/// the ones an inputrc may bind (doc/filenote.1, KEYS).
@Suite struct ReadlineCommandsTests {
  /// readline's delete-char and backward-delete-char kill what an argument
  /// removes, but unlike its kill commands leave the mark where it was
  /// (checked against bash's `read -e`).
  @Suite struct DeletingWithAnArgument {
    @Test func deleteCharWithAnArgumentKillsAndLeavesTheMark() {
      var state = editing("x.y a-b x.y", cursorAt: 10)
      state.press(.alt("2"), .control("d"))
      #expect(state.text == "x.y a-b x.")
      state.press(.control("x"), .control("x"))
      #expect(state.cursor == 0)
      state.press(.control("y"))
      #expect(state.text == "yx.y a-b x.")
    }

    @Test func backwardDeleteCharWithAnArgumentKillsAndLeavesTheMark() {
      var state = editing("x.y a-b x.y", cursorAt: 9)
      state.press(.alt("2"), .backspace)
      #expect(state.text == "x.y a-b.y")
      state.press(.control("x"), .control("x"))
      #expect(state.cursor == 0)
    }
  }

  /// Checked against bash's `read -e`: `M-9 M-SPC C-x C-x` on a line of
  /// three characters leaves the mark where it was.
  @Test(arguments: [[Key.alt("9")], [Key.alt("-")]])
  func setMarkAtAPositionOutsideTheLineSetsNoMark(argument: [Key]) {
    var state = editing("abc", cursorAt: 3)
    state.press(.alt(" "))
    state.press(.home)
    state.press(argument)
    state.press(.alt(" "))
    state.press(.control("x"), .control("x"))
    #expect(state.cursor == 3)
  }

  @Suite struct CaseOfWords {
    @Test func upcaseWordMapsEachCharacterByItsSimpleMapping() {
      var state = editing("straße über", cursorAt: 0)
      state.press(.alt("u"))
      #expect(state.text == "STRAßE über")
      #expect(state.cursor == 6)
      state.press(.alt("u"))
      #expect(state.text == "STRAßE ÜBER")
    }

    @Test func downcaseAndCapitalizeWords() {
      var state = editing("HELLO wORLD", cursorAt: 0)
      state.press(.alt("l"))
      #expect(state.text == "hello wORLD")
      state.press(.alt("c"))
      #expect(state.text == "hello World")
    }

    @Test func aNegativeArgumentChangesTheWordsBeforeTheCursorAndLeavesItThere() {
      var state = EditState(text: "one two three")
      state.press(.alt("-"), .text("2"), .alt("u"))
      #expect(state.text == "one TWO THREE")
      #expect(state.cursor == 13)
    }

    @Test func aCaseChangeIsOneUndoStep() {
      var state = editing("abc def", cursorAt: 0)
      state.press(.alt("3"), .alt("u"))
      #expect(state.text == "ABC DEF")
      state.press(.control("_"))
      #expect(state.text == "abc def")
    }
  }

  @Suite struct Transposing {
    @Test func transposeWordsSwapsTheWordsAroundTheCursor() {
      var state = editing("one two three", cursorAt: 5)
      state.press(.alt("t"))
      #expect(state.text == "two one three")
      #expect(state.cursor == 7)
    }

    @Test func atTheEndTheLastTwoWordsSwap() {
      var state = EditState(text: "one two three")
      state.press(.alt("t"))
      #expect(state.text == "one three two")
    }

    @Test func withOneWordNothingChanges() {
      var state = EditState(text: "one")
      #expect(state.press(.alt("t")) == .unchanged)
      #expect(state.text == "one")
    }

    @Test func transposeCharsWithAnArgumentDragsTheCharacterOn() {
      var state = editing("abcd", cursorAt: 1)
      state.press(.alt("2"), .control("t"))
      #expect(state.text == "bcad")
    }
  }

  @Suite struct NumericArguments {
    @Test func digitsTypedAfterAnAltDigitGoOnWithTheArgument() {
      var state = EditState(text: "")
      state.press(.alt("1"), .text("2"), .text("x"))
      #expect(state.text == String(repeating: "x", count: 12))
    }

    @Test func digitsTypedTogetherAreReadOneByOne() {
      var state = EditState(text: "")
      state.press(.alt("1"), .text("0y"))
      #expect(state.text == String(repeating: "y", count: 10))
    }

    @Test func altMinusAloneIsMinusOne() {
      var state = EditState(text: "one two")
      state.press(.alt("-"), .alt("d"))
      #expect(state.text == "one ")
    }

    @Test func aDigitAfterAltMinusReplacesItsOneAndAnAltDigitIsAppendedToIt() {
      var state = EditState(text: String(repeating: "a", count: 20))
      state.press(.control("a"), .alt("-"), .text("3"), .control("b"), .text("X"))
      #expect(state.cursor == 4)
      state.press(.control("a"), .alt("-"), .alt("2"), .control("b"), .text("Y"))
      #expect(state.cursor == 13)
    }

    @Test func altMinusAfterDigitsTypesMinusThatManyTimes() {
      var state = EditState(text: "")
      state.press(.alt("2"), .alt("-"))
      #expect(state.text == "--")
    }

    @Test func anArgumentToDeleteCharKillsWhatItDeletes() {
      var state = editing("abcdef", cursorAt: 0)
      state.press(.alt("3"), .control("d"), .control("e"), .control("y"))
      #expect(state.text == "defabc")
    }

    @Test func theArgumentCarriesThroughCtrlX() {
      var state = EditState(text: "abc")
      state.press(.text("d"), .text("e"), .alt("2"), .control("x"), .control("u"))
      #expect(state.text == "abc")
    }
  }

  @Suite struct CharacterSearch {
    @Test func ctrlBracketMovesToTheNextOccurrence() {
      var state = editing("a-b-c", cursorAt: 0)
      state.press(.control("]"), .text("-"))
      #expect(state.cursor == 1)
      state.press(.alt("2"), .control("]"), .text("-"))
      #expect(state.cursor == 3)
    }

    @Test func altCtrlBracketSearchesBackward() {
      var state = EditState(text: "a-b-c")
      state.press(.escape, .control("]"), .text("a"))
      #expect(state.cursor == 0)
    }

    @Test func aGraphemeClusterIsFoundWhole() {
      var state = editing("🇫🇷x🇫🇷", cursorAt: 0)
      state.press(.control("]"), .text("🇫🇷"))
      #expect(state.cursor == 2)
    }

    @Test func theKeysAfterTheSearchedCharacterAreTyped() {
      var state = editing("ab", cursorAt: 0)
      state.press(.control("]"), .text("bX"))
      #expect(state.text == "aXb")
    }
  }

  @Suite struct QuotedInsert {
    @Test func ctrlVCtrlJTypesALineFeed() {
      var state = EditState(text: "ab")
      state.press(.control("b"), .control("v"), .control("j"))
      #expect(state.text == "a\nb")
    }

    @Test(arguments: [Key.control("v"), .control("q")])
    func theNextKeyGoesInAsWhatItSends(quote: Key) {
      var state = EditState(text: "")
      state.press(quote, .control("i"), quote, .escape, quote, .backspace)
      #expect(state.text == "\t\u{1B}\u{7F}")
    }
  }

  @Suite struct Space {
    @Test func deleteHorizontalSpaceRemovesSpacesAndTabsOnBothSides() {
      var state = editing("a \t  b", cursorAt: 2)
      state.press(.alt("\\"))
      #expect(state.text == "ab")
      #expect(state.cursor == 1)
    }
  }

  @Suite struct MarkAndRegion {
    static var regionKeys: EditorConfiguration {
      var configuration = EditorConfiguration()
      configuration.emacsBindings.bind([.control("x"), .text("r")], to: .function(.killRegion))
      configuration.emacsBindings.bind(
        [.control("x"), .text("c")], to: .function(.copyRegionAsKill))
      return configuration
    }

    @Test func ctrlXCtrlXSwapsTheCursorAndTheMark() {
      var state = EditState(text: "abcdef")
      state.press(.control("a"), .control("@"), .control("e"), .control("x"), .control("x"))
      #expect(state.cursor == 0)
      state.press(.control("x"), .control("x"))
      #expect(state.cursor == 6)
    }

    @Test func killRegionRemovesTheTextBetweenThemIntoTheKillRing() {
      var state = EditState(text: "one two three", configuration: Self.regionKeys)
      state.press(.control("a"), .alt("f"), .control("@"), .alt("f"), .control("x"), .text("r"))
      #expect(state.text == "one three")
      state.press(.control("e"), .control("y"))
      #expect(state.text == "one three two")
    }

    @Test func copyRegionAsKillKeepsTheText() {
      var state = EditState(text: "one two", configuration: Self.regionKeys)
      state.press(.control("a"), .control("@"), .alt("f"), .control("x"), .text("c"))
      #expect(state.text == "one two")
      state.press(.control("e"), .control("y"))
      #expect(state.text == "one twoone")
    }
  }

  @Suite struct Overwriting {
    static var overwriteKey: EditorConfiguration {
      var configuration = EditorConfiguration()
      configuration.emacsBindings.bind([.control("x"), .text("o")], to: .function(.overwriteMode))
      return configuration
    }

    @Test func typedTextReplacesTheTextUnderTheCursor() {
      var state = EditState(text: "abcdef", configuration: Self.overwriteKey)
      state.press(.control("a"), .control("x"), .text("o"), .text("XY"))
      #expect(state.text == "XYcdef")
      state.press(.control("x"), .text("o"), .text("Z"))
      #expect(state.text == "XYZcdef")
    }

    @Test func backspaceTurnsTheCharacterBeforeIntoASpace() {
      var state = editing("abcdef", cursorAt: 3)
      state = EditState(text: "abcdef", configuration: Self.overwriteKey)
      state.press(.control("b"), .control("b"), .control("x"), .text("o"), .backspace)
      #expect(state.text == "abc ef")
      #expect(state.cursor == 3)
    }
  }

  @Suite struct Reverting {
    @Test func altRUndoesEveryChangeBackToTheNoteAsOpened() {
      var state = EditState(text: "the note")
      state.press(.text(" more"), .control("a"), .control("k"), .alt("r"))
      #expect(state.text == "the note")
    }

    @Test(arguments: [[Key.control("x"), .control("u")], [.control("x"), .text("u")]])
    func undoIsOnCtrlXCtrlUAndCtrlXU(keys: [Key]) {
      var state = EditState(text: "abc")
      state.press(.text("d"))
      state.press(keys)
      #expect(state.text == "abc")
    }
  }

  @Suite struct HistorySearch {
    static var searchKeys: EditorConfiguration {
      var configuration = EditorConfiguration()
      configuration.emacsBindings.bind([.arrow(.up, [])], to: .function(.historySearchBackward))
      configuration.emacsBindings.bind([.arrow(.down, [])], to: .function(.historySearchForward))
      configuration.emacsBindings.bind(
        [.control("x"), .text("s")], to: .function(.historySubstringSearchBackward))
      return configuration
    }

    @Test func historySearchBackwardFindsTheVersionsThatStartWithTheTextBeforeTheCursor() {
      var state = EditState(
        text: "buy", versions: ["sell it", "buy milk", "buy bread"],
        configuration: Self.searchKeys)
      state.press(.arrow(.up, []))
      #expect(state.text == "buy milk")
      #expect(state.cursor == 3)
      state.press(.arrow(.up, []))
      #expect(state.text == "buy bread")
      #expect(state.press(.arrow(.up, [])) == .unchanged)
      state.press(.arrow(.down, []))
      #expect(state.text == "buy milk")
    }

    @Test func substringSearchFindsTheTextAnywhere() {
      var state = EditState(
        text: "it", versions: ["buy milk", "sell it"], configuration: Self.searchKeys)
      state.press(.control("x"), .text("s"))
      #expect(state.text == "sell it")
    }
  }

  @Suite struct UserBindings {
    @Test func aMacroIsTypedAsItsKeys() {
      var configuration = EditorConfiguration()
      configuration.emacsBindings.bind([.control("x"), .text("q")], to: .macro("\u{01}["))
      var state = EditState(text: "abc", configuration: configuration)
      state.press(.control("x"), .text("q"))
      #expect(state.text == "[abc")
    }

    @Test func aTwoKeyBindingBrokenOffTypesItsFirstKey() {
      var configuration = EditorConfiguration()
      configuration.emacsBindings.bind([.text("j"), .text("k")], to: .function(.beginningOfLine))
      var state = EditState(text: "abc", configuration: configuration)
      state.press(.text("jx"))
      #expect(state.text == "abcjx")
      state.press(.text("jk"), .text("<"))
      #expect(state.text == "<abcjx")
    }

    @Test func aPrefixThatWaitedInVainIsActedOnAtTheTimeout() {
      var configuration = EditorConfiguration()
      configuration.emacsBindings.bind([.text("j"), .text("k")], to: .function(.beginningOfLine))
      var state = EditState(text: "abc", configuration: configuration)
      #expect(state.press(.text("j")) == .unchanged)
      #expect(state.isWaitingForMoreKeys)
      #expect(state.finishPendingKeys() == .edited)
      #expect(state.text == "abcj")
    }

    @Test func selfInsertAndDigitArgumentReadTheKeyThatRanThem() {
      var configuration = EditorConfiguration()
      configuration.emacsBindings.bind([.alt("q")], to: .function(.selfInsert))
      configuration.emacsBindings.bind([.text("5")], to: .function(.digitArgument))
      var state = EditState(text: "", configuration: configuration)
      state.press(.alt("q"), .text("5"), .text("x"))
      #expect(state.text == "qxxxxx")
    }

    @Test func aMacroThatTypesItsOwnKeysStops() {
      var configuration = EditorConfiguration()
      configuration.emacsBindings.bind([.control("o")], to: .macro("a\u{0F}"))
      var state = EditState(text: "", configuration: configuration)
      state.press(.control("o"))
      #expect(state.text == String(repeating: "a", count: EditState.macroDepthLimit))
    }
  }
}
