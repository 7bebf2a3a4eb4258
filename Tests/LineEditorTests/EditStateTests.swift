import LineEditor
import Testing

@Suite struct EditStateTests {
  @Suite struct StartingState {
    @Test func theCursorStartsAtTheEndOfTheText() {
      let state = EditState(text: "he\u{301}llo 🇫🇷")
      #expect(state.cursor == 7)
      #expect(state.buffer.count == 7)
      #expect(state.text == "he\u{301}llo 🇫🇷")
      #expect(!state.isEmpty)
    }

    @Test func anEmptyTextIsEmptyWithTheCursorAtZero() {
      let state = EditState(text: "")
      #expect(state.isEmpty)
      #expect(state.cursor == 0)
    }
  }

  @Suite struct Typing {
    @Test func typedTextGoesInAtTheCursor() {
      var state = editing("ac", cursorAt: 1)
      #expect(state.press(.text("b")) == .edited)
      #expect(state.text == "abc")
      #expect(state.cursor == 2)
    }

    @Test func aKeyWithSeveralCharactersInsertsThemAll() {
      var state = editing("ad", cursorAt: 1)
      state.press(.text("bc"))
      #expect(state.text == "abcd")
      #expect(state.cursor == 3)
    }

    @Test func tabInsertsATab() {
      var state = EditState(text: "a")
      #expect(state.press(.control("i")) == .edited)
      #expect(state.text == "a\t")
    }

    @Test func anEmptyTextKeyChangesNothing() {
      var state = EditState(text: "a")
      #expect(state.press(.text("")) == .unchanged)
      #expect(state.text == "a")
    }
  }

  @Suite struct Moving {
    @Test(arguments: [Key.arrow(.left, []), .control("b"), .arrow(.left, .shift)])
    func backwardMovesOneCharacter(key: Key) {
      var state = EditState(text: "a👨‍👩‍👧b")
      #expect(state.press(key) == .edited)
      #expect(state.cursor == 2)
      state.press(key)
      #expect(state.cursor == 1)
      state.press(key)
      #expect(state.cursor == 0)
      #expect(state.press(key) == .unchanged)
      #expect(state.cursor == 0)
    }

    @Test(arguments: [Key.arrow(.right, []), .control("f")])
    func forwardMovesOneCharacter(key: Key) {
      var state = editing("a👨‍👩‍👧b", cursorAt: 0)
      #expect(state.press(key) == .edited)
      #expect(state.cursor == 1)
      state.press(key, key)
      #expect(state.cursor == 3)
      #expect(state.press(key) == .unchanged)
      #expect(state.cursor == 3)
    }

    @Test func homeAndCtrlAGoToTheStartEndAndCtrlEToTheEnd() {
      var state = EditState(text: "hello")
      #expect(state.press(.home) == .edited)
      #expect(state.cursor == 0)
      #expect(state.press(.end) == .edited)
      #expect(state.cursor == 5)
      state.press(.control("a"))
      #expect(state.cursor == 0)
      #expect(state.press(.control("a")) == .unchanged)
      state.press(.control("e"))
      #expect(state.cursor == 5)
    }

    @Test(arguments: [Key.alt("f"), .arrow(.right, .control), .arrow(.right, .alt)])
    func forwardWordStopsAtTheEndOfEachWordOfLettersAndDigits(key: Key) {
      var state = editing("foo-bar  baz9 中文 ?", cursorAt: 0)
      var stops: [Int] = []
      while state.press(key) == .edited {
        stops.append(state.cursor)
      }
      #expect(stops == [3, 7, 13, 16, 18])
    }

    @Test(arguments: [Key.alt("b"), .arrow(.left, .control), .arrow(.left, .alt)])
    func backwardWordStopsAtTheStartOfEachWordOfLettersAndDigits(key: Key) {
      var state = EditState(text: "? foo-bar  baz9 中文")
      var stops: [Int] = []
      while state.press(key) == .edited {
        stops.append(state.cursor)
      }
      #expect(stops == [16, 11, 6, 2, 0])
    }

    @Test(arguments: [Key.arrow(.up, []), .arrow(.down, []), .escape, .control("g"), .alt("x")])
    func unboundKeysAndHistoryKeysWithoutVersionsChangeNothing(key: Key) {
      var state = editing("some text", cursorAt: 4)
      #expect(state.press(key) == .unchanged)
      #expect(state.text == "some text")
      #expect(state.cursor == 4)
    }
  }

  @Suite struct Deleting {
    @Test(arguments: [Key.backspace, .control("h")])
    func backspaceDeletesTheCharacterBeforeTheCursor(key: Key) {
      var state = editing("a🇫🇷b", cursorAt: 2)
      #expect(state.press(key) == .edited)
      #expect(state.text == "ab")
      #expect(state.cursor == 1)
      state.press(key)
      #expect(state.text == "b")
      #expect(state.press(key) == .unchanged)
      #expect(state.text == "b")
      #expect(state.cursor == 0)
    }

    @Test(arguments: [Key.delete, .control("d")])
    func deleteRemovesTheCharacterUnderTheCursor(key: Key) {
      var state = editing("a中b", cursorAt: 1)
      #expect(state.press(key) == .edited)
      #expect(state.text == "ab")
      #expect(state.cursor == 1)
      state.press(key)
      #expect(state.text == "a")
      #expect(state.press(key) == .unchanged)
      #expect(state.text == "a")
    }

    @Test func ctrlDOnAnEmptyLineEndsInput() {
      var state = EditState(text: "")
      #expect(state.press(.control("d")) == .endOfInput)
    }

    @Test func ctrlDOnALineEmptiedByEditingEndsInput() {
      var state = EditState(text: "ab")
      state.press(.backspace, .backspace)
      #expect(state.press(.control("d")) == .endOfInput)
    }

    /// readline checks for end of input only on keys read outside an
    /// argument; after one, Ctrl-D is delete-char (checked against bash's
    /// `read -e`: `C-u M-2 C-d x` gives `x`).
    @Test(arguments: [[Key.alt("2")], [Key.alt("-")], [Key.alt("0")]])
    func ctrlDAfterAnArgumentOnAnEmptyLineIsDeleteCharNotTheEnd(argument: [Key]) {
      var state = EditState(text: "")
      state.press(argument)
      #expect(state.press(.control("d")) == .unchanged)
      state.press(.text("x"))
      #expect(state.text == "x")
    }

    @Test func deleteOnAnEmptyLineDoesNothing() {
      var state = EditState(text: "")
      #expect(state.press(.delete) == .unchanged)
    }
  }

  @Suite struct Killing {
    @Test func ctrlKKillsToTheEndAndCtrlYYanksItBack() {
      var state = editing("hello world", cursorAt: 5)
      #expect(state.press(.control("k")) == .edited)
      #expect(state.text == "hello")
      #expect(state.cursor == 5)
      state.press(.control("a"))
      #expect(state.press(.control("y")) == .edited)
      #expect(state.text == " worldhello")
      #expect(state.cursor == 6)
    }

    @Test func ctrlUKillsToTheStart() {
      var state = editing("hello world", cursorAt: 6)
      state.press(.control("u"))
      #expect(state.text == "world")
      #expect(state.cursor == 0)
      state.press(.control("e"), .control("y"))
      #expect(state.text == "worldhello ")
    }

    @Test func ctrlWKillsTheWhitespaceDelimitedWordBeforeTheCursor() {
      var state = EditState(text: "git commit -m foo-bar.baz  ")
      state.press(.control("w"))
      #expect(state.text == "git commit -m ")
      state.press(.control("w"))
      #expect(state.text == "git commit ")
      #expect(state.cursor == 11)
    }

    @Test func ctrlWStopsAtANewline() {
      var state = EditState(text: "one\ntwo")
      state.press(.control("w"))
      #expect(state.text == "one\n")
    }

    @Test func altDKillsTheWordAfterTheCursor() {
      var state = editing("foo bar-baz", cursorAt: 3)
      state.press(.alt("d"))
      #expect(state.text == "foo-baz")
      #expect(state.cursor == 3)
      state.press(.alt("d"))
      #expect(state.text == "foo")
    }

    @Test(arguments: [Key.alt("\u{7F}"), .alt("\u{08}")])
    func altBackspaceKillsTheWordBeforeTheCursor(key: Key) {
      var state = EditState(text: "foo bar-baz!")
      state.press(key)
      #expect(state.text == "foo bar-")
      #expect(state.cursor == 8)
      state.press(key)
      #expect(state.text == "foo ")
    }

    @Test func forwardKillsInARowAppendToOneEntry() {
      var state = editing("one two three", cursorAt: 0)
      state.press(.alt("d"), .alt("d"))
      #expect(state.text == " three")
      state.press(.control("y"))
      #expect(state.text == "one two three")
      #expect(state.cursor == 7)
    }

    @Test func backwardKillsInARowPrependToOneEntry() {
      var state = EditState(text: "one two three")
      state.press(.control("w"), .alt("\u{7F}"))
      #expect(state.text == "one ")
      state.press(.control("y"))
      #expect(state.text == "one two three")
    }

    @Test func killsInBothDirectionsInARowKeepTheTextInOrder() {
      var state = editing("abcdef", cursorAt: 3)
      state.press(.control("k"), .control("u"))
      #expect(state.text == "")
      state.press(.control("y"))
      #expect(state.text == "abcdef")
    }

    @Test func anyOtherKeyBetweenKillsStartsANewEntry() {
      var state = EditState(text: "one two three")
      state.press(.control("w"))
      #expect(state.press(.control("e")) == .unchanged)
      state.press(.control("w"))
      #expect(state.text == "one ")
      state.press(.control("y"))
      #expect(state.text == "one two ")
    }

    @Test func aKillWithNothingToKillChangesNothingAndEndsTheRun() {
      var state = EditState(text: "one two")
      state.press(.control("w"))
      #expect(state.press(.control("k")) == .unchanged)
      state.press(.control("w"))
      #expect(state.text == "")
      state.press(.control("y"))
      #expect(state.text == "one ")
    }

    @Test func killingAtTheStartOrEndDoesNothing() {
      var state = editing("abc", cursorAt: 0)
      #expect(state.press(.control("u")) == .unchanged)
      #expect(state.press(.control("w")) == .unchanged)
      #expect(state.press(.alt("\u{7F}")) == .unchanged)
      state.press(.control("e"))
      #expect(state.press(.control("k")) == .unchanged)
      #expect(state.press(.alt("d")) == .unchanged)
      #expect(state.text == "abc")
    }
  }

  @Suite struct Yanking {
    /// Kills "gamma", then "beta", then "alpha", with a Backspace between
    /// kills so that each is its own entry; the line ends up empty.
    private func stateWithThreeKills() -> EditState {
      var state = EditState(text: "alpha beta gamma")
      state.press(.control("w"), .backspace, .control("w"), .backspace, .control("w"))
      return state
    }

    @Test func yankWithNothingKilledChangesNothing() {
      var state = EditState(text: "abc")
      #expect(state.press(.control("y")) == .unchanged)
      #expect(state.text == "abc")
    }

    @Test func yankInsertsTheLatestKillAtTheCursorEveryTime() {
      var state = stateWithThreeKills()
      #expect(state.isEmpty)
      state.press(.control("y"), .text(" "), .control("y"))
      #expect(state.text == "alpha alpha")
      #expect(state.cursor == 11)
    }

    @Test func altYAfterAYankCyclesThroughOlderKills() {
      var state = stateWithThreeKills()
      state.press(.text("<>"), .control("b"), .control("y"))
      #expect(state.text == "<alpha>")
      #expect(state.press(.alt("y")) == .edited)
      #expect(state.text == "<beta>")
      #expect(state.cursor == 5)
      state.press(.alt("y"))
      #expect(state.text == "<gamma>")
      state.press(.alt("y"))
      #expect(state.text == "<alpha>")
    }

    @Test func altYAnywhereElseChangesNothing() {
      var state = stateWithThreeKills()
      #expect(state.press(.alt("y")) == .unchanged)
      state.press(.control("y"), .control("b"))
      #expect(state.press(.alt("y")) == .unchanged)
      #expect(state.text == "alpha")
    }

    @Test func undoAfterYankPopsRemovesTheYankInOneStep() {
      var state = stateWithThreeKills()
      state.press(.text("[]"), .control("b"), .control("y"), .alt("y"), .alt("y"))
      #expect(state.text == "[gamma]")
      state.press(.control("_"))
      #expect(state.text == "[]")
      #expect(state.cursor == 1)
    }
  }

  @Suite struct Transposing {
    @Test func inTheMiddleSwapsAroundTheCursorAndMovesOn() {
      var state = editing("abcd", cursorAt: 2)
      #expect(state.press(.control("t")) == .edited)
      #expect(state.text == "acbd")
      #expect(state.cursor == 3)
    }

    @Test func repeatedlyDragsACharacterForward() {
      var state = editing("abcd", cursorAt: 1)
      state.press(.control("t"), .control("t"), .control("t"))
      #expect(state.text == "bcda")
      #expect(state.cursor == 4)
    }

    @Test func atTheEndSwapsTheLastTwo() {
      var state = EditState(text: "abcd")
      state.press(.control("t"))
      #expect(state.text == "abdc")
      #expect(state.cursor == 4)
      state.press(.control("t"))
      #expect(state.text == "abcd")
    }

    @Test func atTheStartDoesNothing() {
      var state = editing("abcd", cursorAt: 0)
      #expect(state.press(.control("t")) == .unchanged)
      #expect(state.text == "abcd")
    }

    @Test func withFewerThanTwoCharactersDoesNothing() {
      var state = EditState(text: "a")
      #expect(state.press(.control("t")) == .unchanged)
      var empty = EditState(text: "")
      #expect(empty.press(.control("t")) == .unchanged)
    }

    @Test func swapsWholeGraphemeClusters() {
      var state = EditState(text: "a👨‍👩‍👧")
      state.press(.control("t"))
      #expect(state.text == "👨‍👩‍👧a")
      state.press(.home, .control("f"), .control("t"))
      #expect(state.text == "a👨‍👩‍👧")
      #expect(state.cursor == 2)
    }
  }

  @Suite struct Undoing {
    @Test func undoTakesBackARunOfTypingInOneStep() {
      var state = EditState(text: "")
      state.press(typing("hello"))
      #expect(state.press(.control("_")) == .edited)
      #expect(state.text == "")
      #expect(state.cursor == 0)
    }

    @Test func aRunOfTypingIsCutIntoStepsOfTwentyCharactersLikeReadline() {
      var state = EditState(text: ">")
      state.press(typing("abcdefghijklmnopqrstuvwxy"))
      state.press(.control("_"))
      #expect(state.text == ">abcdefghijklmnopqrst")
      #expect(state.cursor == 21)
      state.press(.control("_"))
      #expect(state.text == ">")
    }

    @Test func twentyOneCharactersArrivingInOneKeyUndoToTwentyLikeReadline() {
      var state = EditState(text: "")
      state.press(.text(String(repeating: "x", count: 21)))
      #expect(state.press(.control("_")) == .edited)
      #expect(state.text == String(repeating: "x", count: 20))
      #expect(state.cursor == 20)
      state.press(.control("_"))
      #expect(state.text == "")
    }

    @Test(arguments: [1, 3, 7, 20, 45])
    func typingIsCutIntoTheSameStepsHoweverTheKeysArrive(keyLength: Int) {
      let typed = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
      var state = EditState(text: "")
      var start = 0
      while start < typed.count {
        let end = min(start + keyLength, typed.count)
        state.press(.text(String(typed[start..<end])))
        start = end
      }
      var texts: [String] = []
      while state.press(.control("_")) == .edited { texts.append(state.text) }
      #expect(
        texts == [
          String(typed.prefix(60)), String(typed.prefix(40)), String(typed.prefix(20)), "",
        ])
    }

    @Test func aRunContinuedByALongKeyFillsTheStepToTwentyFirst() {
      var state = EditState(text: "")
      state.press(.text("abcde"), .text(String(repeating: "x", count: 30)))
      state.press(.control("_"))
      #expect(state.text == "abcde" + String(repeating: "x", count: 15))
      state.press(.control("_"))
      #expect(state.text == "")
    }

    @Test func movingTheCursorEndsARunOfTyping() {
      var state = EditState(text: "")
      state.press(.text("a"), .text("b"), .arrow(.left, []), .text("c"))
      #expect(state.text == "acb")
      state.press(.control("_"))
      #expect(state.text == "ab")
      #expect(state.cursor == 1)
      state.press(.control("_"))
      #expect(state.text == "")
    }

    /// readline joins a typed byte to the newest undo entry when that is an
    /// insert ending where the byte goes in, whatever keys came between
    /// (checked against bash's `read -e`).
    @Test func typingWhereTheLastInsertEndedJoinsItEvenAfterTheCursorLeftAndCameBack() {
      var state = EditState(text: "")
      state.press(.text("a"), .text("b"), .arrow(.left, []), .arrow(.right, []), .text("c"))
      state.press(.control("_"))
      #expect(state.text == "")
    }

    @Test func typingRightAfterAYankJoinsIt() {
      var state = editing("one two", cursorAt: 7)
      state.press(.control("w"), .control("y"), .text("s"))
      #expect(state.text == "one twos")
      state.press(.control("_"))
      #expect(state.text == "one ")
    }

    @Test func aTypedCharacterOfSeveralBytesIsAStepOfItsOwnThatTypingAfterItJoins() {
      var state = EditState(text: "")
      state.press(.text("a"), .text("é"), .text("b"))
      state.press(.control("_"))
      #expect(state.text == "a")
      state.press(.control("_"))
      #expect(state.text == "")
    }

    @Test func aStepHoldsTwentyBytesSoACharacterOfTwoTakesTheRoomOfTwo() {
      var state = EditState(text: "")
      state.press(.text("é" + String(repeating: "x", count: 20)))
      state.press(.control("_"))
      #expect(state.text == "é" + String(repeating: "x", count: 18))
      state.press(.control("_"))
      #expect(state.text == "")
    }

    @Test func undoRestoresKilledTextAndTheCursor() {
      var state = editing("hello big world", cursorAt: 9)
      state.press(.control("u"))
      #expect(state.text == " world")
      state.press(.control("_"))
      #expect(state.text == "hello big world")
      #expect(state.cursor == 9)
      state.press(.control("k"), .control("_"))
      #expect(state.text == "hello big world")
      #expect(state.cursor == 9)
      state.press(.control("w"), .alt("d"), .control("_"), .control("_"))
      #expect(state.text == "hello big world")
      #expect(state.cursor == 9)
    }

    @Test func undoTakesBackYanksPastesTransposesAndDeletes() {
      var state = editing("abc", cursorAt: 1)
      state.press(.control("k"), .control("y"), .control("y"))
      #expect(state.text == "abcbc")
      state.press(.control("_"))
      #expect(state.text == "abc")
      #expect(state.cursor == 3)
      state.press(.paste("X\r\nY"), .control("_"))
      #expect(state.text == "abc")
      state.press(.control("t"), .control("_"))
      #expect(state.text == "abc")
      state.press(.backspace, .home, .delete)
      #expect(state.text == "b")
      state.press(.control("_"), .control("_"))
      #expect(state.text == "abc")
      #expect(state.cursor == 3)
    }

    @Test func undoingEverythingGoesBackToTheInitialText() {
      var state = EditState(text: "start 🇫🇷")
      state.press(typing(" more") + [.alt("b"), .control("w"), .control("t"), .paste("p\rq")])
      state.press(.control("a"), .alt("d"), .control("y"), .control("y"), .alt("y"), .control("k"))
      state.press(typing("e\u{301}") + [.backspace, .control("e"), .control("u")])
      #expect(state.text != "start 🇫🇷")
      var undos = 0
      while state.press(.control("_")) == .edited, undos < 100 {
        undos += 1
      }
      #expect(state.text == "start 🇫🇷")
      #expect(state.cursor == 7)
    }

    @Test func undoWithNothingToUndoChangesNothing() {
      var state = EditState(text: "abc")
      #expect(state.press(.control("_")) == .unchanged)
      #expect(state.text == "abc")
    }

    @Test func undoingAnAccentTypedOntoALetterBringsBackTheBareLetter() {
      var state = EditState(text: "cafe")
      state.press(.text("\u{301}"))
      #expect(state.buffer.count == 4)
      state.press(.control("_"))
      #expect(Array(state.text.unicodeScalars) == Array("cafe".unicodeScalars))
      #expect(state.cursor == 4)
    }
  }

  @Suite struct Pasting {
    @Test func pasteInsertsTheTextAtTheCursor() {
      var state = editing("ab", cursorAt: 1)
      #expect(state.press(.paste("XY\tZ")) == .edited)
      #expect(state.text == "aXY\tZb")
      #expect(state.cursor == 5)
    }

    @Test func carriageReturnsInAPasteBecomeLineFeedsAndNeverSubmit() {
      var state = EditState(text: "")
      #expect(state.press(.paste("one\r\ntwo\rthree\n\r\r\nfour")) == .edited)
      #expect(state.text == "one\ntwo\nthree\n\n\nfour")
    }

    /// As readline's undo list records them: the paste is an insert of its
    /// own, which typing where it ends joins (checked against bash's `read
    /// -e`).
    @Test func aPasteIsAnUndoStepApartFromTheTypingBeforeItButNotFromTypingRightAfterIt() {
      var state = EditState(text: "")
      state.press(.text("a"), .text("b"), .paste("cd"), .text("e"), .text("f"))
      #expect(state.text == "abcdef")
      state.press(.control("_"))
      #expect(state.text == "ab")
      state.press(.control("_"))
      #expect(state.text == "")
    }

    @Test func anEmptyPasteChangesNothing() {
      var state = EditState(text: "a")
      #expect(state.press(.paste("")) == .unchanged)
    }
  }

  /// Readline reads ESC followed by a key as that key with Meta, however long
  /// the pause; the decoder reports a lone Esc after its short wait, and the
  /// editor pairs it with the key that follows.
  @Suite struct EscapeThenAKey {
    @Test func escThenFMovesForwardAWordLikeAltF() {
      var state = editing("one two three", cursorAt: 0)
      #expect(state.press(.escape) == .unchanged)
      #expect(state.press(.text("f")) == .edited)
      #expect(state.text == "one two three")
      #expect(state.cursor == 3)
    }

    @Test func escThenBMovesBackAWordLikeAltB() {
      var state = EditState(text: "one two")
      state.press(.escape, .text("b"))
      #expect(state.cursor == 4)
    }

    @Test func escThenDKillsAWordAndTheRestOfTheKeyIsTyped() {
      var state = editing("one two", cursorAt: 0)
      state.press(.escape, .text("dxy"))
      #expect(state.text == "xy two")
      #expect(state.cursor == 2)
    }

    @Test(arguments: [Key.backspace, .control("h")])
    func escThenBackspaceKillsTheWordBefore(key: Key) {
      var state = EditState(text: "one two")
      state.press(.escape, key)
      #expect(state.text == "one ")
    }

    @Test func escThenLeftMovesBackAWord() {
      var state = EditState(text: "one two")
      state.press(.escape, .arrow(.left, []))
      #expect(state.cursor == 4)
    }

    @Test func escThenLessThanGoesToTheOldestVersion() {
      var state = EditState(text: "now", versions: ["one", "two"])
      state.press(.escape, .text("<"))
      #expect(state.text == "two")
    }

    @Test func escThenAnUnboundKeyDoesNothingAndTheNextKeyActsAlone() {
      var state = EditState(text: "ab")
      #expect(state.press(.escape, .text("q")) == .unchanged)
      #expect(state.text == "ab")
      state.press(.text("f"))
      #expect(state.text == "abf")
    }

    @Test func ctrlGEndsAPendingEsc() {
      var state = EditState(text: "one two")
      #expect(state.press(.escape, .control("g")) == .unchanged)
      state.press(.text("b"))
      #expect(state.text == "one twob")
    }

    @Test func escThenTabInsertsATabAndEscThenCtrlLClearsTheScreen() {
      var state = EditState(text: "a")
      state.press(.escape, .control("i"))
      #expect(state.text == "a\t")
      #expect(state.press(.escape, .control("l")) == .redrawScreen)
    }

    @Test func ctrlCStillCancelsAfterEsc() {
      var state = EditState(text: "a")
      #expect(state.press(.escape, .control("c")) == .cancel)
    }

    @Test func aPasteAfterEscIsInsertedAsPasted() {
      var state = EditState(text: "")
      #expect(state.press(.escape, .paste("fine")) == .edited)
      #expect(state.text == "fine")
    }
  }

  @Suite struct SessionKeys {
    @Test func enterSubmits() {
      var state = editing("note", cursorAt: 2)
      #expect(state.press(.enter) == .submit)
      #expect(state.text == "note")
    }

    @Test func ctrlCCancels() {
      var state = EditState(text: "note")
      #expect(state.press(.control("c")) == .cancel)
    }

    @Test func ctrlLAsksForARedraw() {
      var state = EditState(text: "note")
      #expect(state.press(.control("l")) == .redrawScreen)
    }

    @Test func ctrlZSuspends() {
      var state = EditState(text: "note")
      #expect(state.press(.control("z")) == .suspend)
      #expect(state.text == "note")
    }
  }

  /// Typing arrives one scalar per key; the text is edited by Character.
  @Suite struct Graphemes {
    @Test func anAccentTypedAfterItsLetterIsOneCharacter() {
      var state = EditState(text: "")
      state.press(typing("e\u{301}"))
      #expect(state.buffer.count == 1)
      #expect(state.cursor == 1)
      state.press(.backspace)
      #expect(state.isEmpty)
    }

    @Test func anAccentTypedInTheMiddleJoinsTheLetterBeforeIt() {
      var state = editing("ab", cursorAt: 1)
      state.press(.text("\u{301}"))
      #expect(Array(state.buffer) == ["a\u{301}", "b"])
      #expect(state.cursor == 1)
    }

    @Test func aFamilyEmojiIsOneCharacterToMoveOverAndDelete() {
      var state = EditState(text: "")
      state.press(typing("👨‍👩‍👧"))
      #expect(state.buffer.count == 1)
      #expect(state.cursor == 1)
      state.press(.arrow(.left, []))
      #expect(state.cursor == 0)
      state.press(.delete)
      #expect(state.isEmpty)
    }

    @Test func aFlagIsOneCharacter() {
      var state = EditState(text: "")
      state.press(typing("🇫🇷"))
      #expect(state.buffer.count == 1)
      state.press(.backspace)
      #expect(state.isEmpty)
    }

    @Test func wideCharactersAreOneCharacterEach() {
      var state = EditState(text: "")
      state.press(typing("中文"))
      #expect(state.buffer.count == 2)
      state.press(.arrow(.left, []), .backspace)
      #expect(state.text == "文")
      #expect(state.cursor == 0)
    }

    @Test func hangulJamoTypedOneByOneMakeOneSyllable() {
      var state = EditState(text: "")
      state.press(typing("\u{1100}\u{1161}\u{11A8}"))
      #expect(state.buffer.count == 1)
      #expect(state.cursor == 1)
      state.press(.backspace)
      #expect(state.isEmpty)
    }

    @Test func twoFlagsStayPairedThroughDeletes() {
      var state = EditState(text: "")
      state.press(typing("🇫🇷🇩"))
      #expect(Array(state.buffer) == ["🇫🇷", "🇩"])
      state.press(.backspace)
      #expect(Array(state.buffer) == ["🇫🇷"])
      state.press(typing("🇩🇪"))
      #expect(Array(state.buffer) == ["🇫🇷", "🇩🇪"])
      state.press(.arrow(.left, []), .backspace)
      #expect(Array(state.buffer) == ["🇩🇪"])
      #expect(state.cursor == 0)
      // Typed one indicator at a time, 🇫 would pair with the 🇩 after it.
      state.press(.text("🇫🇷"))
      #expect(Array(state.buffer) == ["🇫🇷", "🇩🇪"])
      #expect(state.cursor == 1)
      state.press(.delete)
      #expect(Array(state.buffer) == ["🇫🇷"])
    }

    @Test func deletingBetweenLoneRegionalIndicatorsRepairsThePairsAfterThem() {
      var state = EditState(text: "")
      state.press(typing("🇫x🇷🇩🇪"))
      #expect(Array(state.buffer) == ["🇫", "x", "🇷🇩", "🇪"])
      state.press(.home, .control("f"), .delete)
      #expect(Array(state.buffer) == ["🇫🇷", "🇩🇪"])
      #expect(state.cursor == 1)
    }
  }

  @Suite struct Randomized {
    static let keys: [Key] = [
      .text("a"), .text("b"), .text(" "), .text("e"), .text("\u{301}"), .text("🇫"), .text("🇷"),
      .text("\u{200D}"), .text("👩"), .text("\u{1100}"), .text("\u{1161}"), .text("\u{11A8}"),
      .text("中"), .text("ab c"), .text("\u{915}"), .text("\u{94D}"), .control("i"),
      .paste("x\r\ny"), .paste("\r"), .paste("🇩🇪"), .backspace, .control("h"), .delete,
      .control("d"), .arrow(.left, []), .arrow(.right, []), .arrow(.left, .control),
      .arrow(.right, .alt), .home, .end, .control("a"), .control("e"), .alt("b"), .alt("f"),
      .control("k"), .control("u"), .control("w"), .alt("d"), .alt("\u{7F}"), .control("y"),
      .alt("y"), .control("t"), .control("_"), .enter, .control("l"), .escape, .arrow(.up, []),
    ]

    @Test func theCursorStaysInTheTextAndTheBufferMatchesItsTextAfterEveryKey() {
      var random = SeededRandomNumbers(seed: 0xF11E_0A7E)
      let initial = "note 🇫🇷 e\u{301}"
      var state = EditState(text: initial)
      // The key after a lone Esc is read with Alt held.
      var afterEscape = false
      for _ in 0..<4_000 {
        let key = Self.keys.randomElement(using: &random)!
        let before = Array(state.text)
        let cursor = state.cursor
        let outcome = state.press(key)
        let withAlt = afterEscape
        afterEscape = key == .escape && !withAlt

        var expected: String?
        switch key {
        case _ where withAlt:
          expected = nil
        case .text(let text):
          expected = String(before[..<cursor]) + text + String(before[cursor...])
        case .backspace where cursor > 0:
          expected = String(before[..<(cursor - 1)]) + String(before[cursor...])
        case .delete where cursor < before.count:
          expected = String(before[..<cursor]) + String(before[(cursor + 1)...])
        default:
          expected = nil
        }
        if let expected {
          #expect(outcome == .edited)
          #expect(sameScalars(Array(state.text), Array(expected)))
        }
      }

      state.press(.control("g"))  // Ends an Esc the last key may have left.
      var undos = 0
      while state.press(.control("_")) == .edited, undos < 10_000 {
        undos += 1
      }
      #expect(state.text == initial)
      #expect(state.cursor == initial.count)
    }
  }

  @Suite struct LargeNote {
    /// A note of a little over 1 MiB, in words, CJK and flags.
    static let note = String(
      repeating: "The quick brown fox jumps over the lazy dog; 1234 ünïcödé 中文 🇫🇷.\n",
      count: 14_000)

    @Test func twoThousandEditsOnAOneMebibyteNoteComplete() {
      #expect(Self.note.utf8.count > 1 << 20)
      let edits: [Key] = [
        .text("x"), .text("y"), .backspace, .alt("b"), .control("t"), .control("w"),
        .control("y"), .alt("f"), .delete, .control("_"), .arrow(.right, []), .text("e"),
        .text("\u{301}"), .alt("d"), .paste("a\r\nb"), .arrow(.left, .control), .alt("y"),
      ]
      var random = SeededRandomNumbers(seed: 1 << 20)
      var state = EditState(text: Self.note)
      // Editing far from the end once moves the gap across the whole note.
      for key in [Key.home, .text(">"), .end] {
        _ = state.handle(key)
      }
      for _ in 0..<2_000 {
        #expect(state.handle(edits.randomElement(using: &random)!) != .submit)
      }
      #expect((0...state.buffer.count).contains(state.cursor))
      #expect(state.text.utf8.count > 1 << 20)

      var undos = 0
      while state.handle(.control("_")) == .edited, undos < 5_000 {
        undos += 1
      }
      #expect(state.text == Self.note)
    }
  }
}

extension EditState {
  /// Presses `keys` in order, checking after each one that the cursor is
  /// inside the text and the buffer holds the Characters of its text; returns
  /// the outcome of the last key.
  @discardableResult
  mutating func press(
    _ keys: Key..., sourceLocation: SourceLocation = #_sourceLocation
  ) -> EditOutcome {
    press(keys, sourceLocation: sourceLocation)
  }

  @discardableResult
  mutating func press(
    _ keys: [Key], sourceLocation: SourceLocation = #_sourceLocation
  ) -> EditOutcome {
    var outcome = EditOutcome.unchanged
    for key in keys {
      outcome = handle(key)
      #expect(
        (0...buffer.count).contains(cursor), "cursor \(cursor) after \(key)",
        sourceLocation: sourceLocation)
      expectClusteredLikeItsString(buffer, sourceLocation: sourceLocation)
    }
    return outcome
  }
}

/// One key per scalar of `text`, the way slow typing arrives.
func typing(_ text: String) -> [Key] {
  text.unicodeScalars.map { .text(String($0)) }
}

/// An editor on `text` with the cursor before the Character at `cursor`.
func editing(_ text: String, cursorAt cursor: Int) -> EditState {
  var state = EditState(text: text)
  state.press(.home)
  for _ in 0..<cursor {
    state.press(.arrow(.right, []))
  }
  return state
}
