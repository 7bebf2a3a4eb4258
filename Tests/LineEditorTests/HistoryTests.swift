import LineEditor
import Testing

/// The history keys of the man page's KEYS: Up/Down, Ctrl-P/Ctrl-N, Alt-< and
/// Alt-> walk through the versions; Ctrl-R and Ctrl-S search them with
/// readline's look and keys.
@Suite struct HistoryTests {
  /// The note being edited and its versions, newest first.
  static let line = "shopping"
  static let versions = ["milk tea", "bread", "buy milk and eggs"]

  static func browsing() -> EditState {
    EditState(text: line, versions: versions)
  }

  @Suite struct Browsing {
    @Test(arguments: [Key.arrow(.up, []), .control("p")])
    func upShowsTheNewestVersionWithTheCursorAtTheEnd(key: Key) {
      var state = HistoryTests.browsing()
      #expect(state.press(key) == .edited)
      #expect(state.text == "milk tea")
      #expect(state.cursor == 8)
      #expect(state.historyPosition == 1)
      state.press(key)
      #expect(state.text == "bread")
    }

    @Test(arguments: [Key.arrow(.down, []), .control("n")])
    func downWalksBackToTheLineBeingEdited(key: Key) {
      var state = HistoryTests.browsing()
      state.press(.control("p"), .control("p"))
      #expect(state.press(key) == .edited)
      #expect(state.text == "milk tea")
      state.press(key)
      #expect(state.text == "shopping")
      #expect(state.historyPosition == 0)
    }

    @Test func upAtTheOldestVersionAndDownAtTheLineDoNothing() {
      var state = HistoryTests.browsing()
      #expect(state.press(.arrow(.down, [])) == .unchanged)
      state.press(.control("p"), .control("p"), .control("p"))
      #expect(state.text == "buy milk and eggs")
      #expect(state.press(.arrow(.up, [])) == .unchanged)
      #expect(state.text == "buy milk and eggs")
    }

    @Test func editsToARecalledVersionAreKeptWhileBrowsingLikeReadline() {
      var state = HistoryTests.browsing()
      state.press(.control("p"), .text(" with sugar"), .control("p"))
      #expect(state.text == "bread")
      state.press(.control("n"))
      #expect(state.text == "milk tea with sugar")
      #expect(state.cursor == 19)
    }

    @Test func editsToTheLineBeingEditedAreKeptWhileBrowsing() {
      var state = HistoryTests.browsing()
      state.press(.text(" list"), .arrow(.up, []), .arrow(.down, []))
      #expect(state.text == "shopping list")
    }

    @Test func eachEntryUndoesItsOwnEdits() {
      var state = HistoryTests.browsing()
      state.press(.text("!"), .control("p"))
      #expect(state.press(.control("_")) == .unchanged)
      state.press(.text("?"), .control("n"), .control("p"))
      #expect(state.text == "milk tea?")
      state.press(.control("_"))
      #expect(state.text == "milk tea")
      state.press(.control("n"), .control("_"))
      #expect(state.text == "shopping")
    }

    @Test func altLessThanGoesToTheOldestVersionAndAltGreaterThanBackToTheLine() {
      var state = HistoryTests.browsing()
      state.press(.text("!"))
      #expect(state.press(.alt("<")) == .edited)
      #expect(state.text == "buy milk and eggs")
      #expect(state.historyPosition == 3)
      #expect(state.press(.alt(">")) == .edited)
      #expect(state.text == "shopping!")
      #expect(state.press(.alt(">")) == .unchanged)
    }

    @Test func enterSavesTheLineShown() {
      var state = HistoryTests.browsing()
      state.press(.control("p"), .control("p"), .text("s"))
      #expect(state.press(.enter) == .submit)
      #expect(state.text == "breads")
    }

    @Test func aVersionWithNewlinesAndControlsComesBackExactly() {
      let version = "line 1\nline 2\r\n\u{1B}e\u{301}"
      var state = EditState(text: "", versions: [version])
      state.press(.arrow(.up, []))
      #expect(state.text.utf8.elementsEqual(version.utf8))
    }

    @Test func afterTheVersionsAreReplacedUpReachesTheNewOnesAndDownTheLineAsEdited() {
      var state = HistoryTests.browsing()
      state.press(.control("p"), .text(" with sugar"))
      state.replaceVersions(with: ["theirs", "shopping"])
      #expect(state.text == "milk tea with sugar")
      #expect(state.historyPosition == 0)
      state.press(.arrow(.up, []))
      #expect(state.text == "theirs")
      #expect(state.historyPosition == 1)
      state.press(.arrow(.up, []), .arrow(.up, []))
      #expect(state.text == "shopping", "no more than the new versions")
      state.press(.alt(">"))
      #expect(state.text == "milk tea with sugar")
      state.press(.control("_"))
      #expect(state.text == "milk tea", "its undo steps came along")
    }

    @Test func whatIsUnsavedIsTheEditedLineOrTheLineTheEditorOpenedWithAsEdited() {
      var state = HistoryTests.browsing()
      #expect(state.unsavedEdits == nil)
      state.press(.control("p"))
      #expect(state.unsavedEdits == nil, "a version recalled as it is loses nothing")
      state.press(.text("!"))
      #expect(state.unsavedEdits == Array("milk tea!".utf8))
      state.press(.control("n"), .text("?"), .control("p"), .control("p"))
      #expect(state.unsavedEdits == Array("shopping?".utf8), "the line, as edited and left")
    }

    @Test func theKillRingIsSharedByAllEntries() {
      var state = HistoryTests.browsing()
      state.press(.control("u"), .control("p"), .control("y"))
      #expect(state.text == "milk teashopping")
    }
  }

  @Suite struct Searching {
    /// Presses Ctrl-R, then types `query` one key per Character.
    static func searching(_ query: String, in state: inout EditState) {
      state.press(.control("r"))
      for character in query { state.press(.text(String(character))) }
    }

    @Test func ctrlRShowsReadlinesSearchPromptOverTheLine() {
      var state = HistoryTests.browsing()
      #expect(state.press(.control("r")) == .edited)
      let search = state.searchLine
      #expect(search?.prompt == "(reverse-i-search)'': ")
      #expect(search.map { String($0.buffer) } == "shopping")
      #expect(search?.cursor == 8)
      #expect(search?.match == nil)
    }

    @Test func typingFindsTheNewestMatchAndHighlightsIt() {
      var state = HistoryTests.browsing()
      Self.searching("milk", in: &state)
      let search = state.searchLine
      #expect(search?.prompt == "(reverse-i-search)'milk': ")
      #expect(search.map { String($0.buffer) } == "milk tea")
      #expect(search?.match == 0..<4)
      #expect(search?.cursor == 0)
    }

    @Test func ctrlRAgainFindsTheNextOlderMatch() {
      var state = HistoryTests.browsing()
      Self.searching("milk", in: &state)
      #expect(state.press(.control("r")) == .edited)
      #expect(state.foundLine == "buy milk and eggs")
      #expect(state.searchLine?.match == 4..<8)
    }

    @Test func aSearchWithNoOlderMatchFailsAndKeepsTheLastMatchOnScreen() {
      var state = HistoryTests.browsing()
      Self.searching("milk", in: &state)
      state.press(.control("r"))
      #expect(state.press(.control("r")) == .edited)
      #expect(state.searchLine?.prompt == "(failed reverse-i-search)'milk': ")
      #expect(state.foundLine == "buy milk and eggs")
      #expect(state.searchLine?.match == nil)
      #expect(state.press(.control("r")) == .unchanged)
      state.press(.text("x"))
      #expect(state.searchLine?.prompt == "(failed reverse-i-search)'milkx': ")
    }

    @Test func backspaceShortensTheSearchAndFindsItWhereItStands() {
      var state = HistoryTests.browsing()
      Self.searching("milk", in: &state)
      state.press(.control("r"), .text("x"))
      #expect(state.searchLine?.prompt == "(failed reverse-i-search)'milkx': ")
      #expect(state.press(.backspace) == .edited)
      #expect(state.searchLine?.prompt == "(reverse-i-search)'milk': ")
      #expect(state.foundLine == "buy milk and eggs")
      state.press(.backspace, .backspace)
      #expect(state.searchLine?.prompt == "(reverse-i-search)'mi': ")
      #expect(state.searchLine?.match == 4..<6)
    }

    @Test func backspaceToAnEmptySearchShowsItFailedLikeReadline() {
      var state = HistoryTests.browsing()
      Self.searching("b", in: &state)
      state.press(.backspace)
      #expect(state.searchLine?.prompt == "(failed reverse-i-search)'': ")
      #expect(state.press(.backspace) == .unchanged)
      state.press(.text("b"))
      #expect(state.searchLine?.prompt == "(reverse-i-search)'b': ")
    }

    @Test func ctrlSAfterCtrlRFirstTurnsRoundThenFindsNewerMatches() {
      var state = HistoryTests.browsing()
      Self.searching("milk", in: &state)
      state.press(.control("r"))
      state.press(.control("s"))
      #expect(state.searchLine?.prompt == "(i-search)'milk': ")
      #expect(state.foundLine == "buy milk and eggs")
      state.press(.control("s"))
      #expect(state.foundLine == "milk tea")
      #expect(state.searchLine?.match == 0..<4)
    }

    @Test func ctrlSSearchesForwardFromTheVersionShown() {
      var state = HistoryTests.browsing()
      state.press(.alt("<"), .control("s"))
      #expect(state.searchLine?.prompt == "(i-search)'': ")
      state.press(.text("shop"))
      #expect(state.foundLine == "shopping")
      #expect(state.press(.enter) == .submit)
      #expect(state.text == "shopping")
      #expect(state.historyPosition == 0)
    }

    @Test func enterSavesTheFoundLine() {
      var state = HistoryTests.browsing()
      Self.searching("eggs", in: &state)
      #expect(state.press(.enter) == .submit)
      #expect(state.text == "buy milk and eggs")
      #expect(state.searchLine == nil)
    }

    @Test func ctrlGLeavesTheSearchWithTheLineAsItWas() {
      var state = HistoryTests.browsing()
      state.press(.text("!"), .arrow(.left, []))
      Self.searching("milk", in: &state)
      state.press(.control("r"))
      #expect(state.press(.control("g")) == .edited)
      #expect(state.searchLine == nil)
      #expect(state.text == "shopping!")
      #expect(state.cursor == 8)
      #expect(state.historyPosition == 0)
    }

    @Test func escLeavesTheSearchOnTheFoundLineWithTheCursorAtTheMatch() {
      var state = HistoryTests.browsing()
      Self.searching("milk", in: &state)
      state.press(.control("r"))
      #expect(state.press(.escape) == .edited)
      #expect(state.searchLine == nil)
      #expect(state.text == "buy milk and eggs")
      #expect(state.cursor == 4)
      state.press(.text("X"))
      #expect(state.text == "buy Xmilk and eggs")
    }

    @Test(arguments: [
      (Key.control("b"), "buy milk and eggs", 3), (.control("a"), "buy milk and eggs", 0),
      (.control("k"), "buy ", 4), (.arrow(.right, []), "buy milk and eggs", 5),
      (.alt("d"), "buy  and eggs", 4),
    ])
    func anEditingKeyLeavesTheSearchAndActsOnTheFoundLineFromTheMatch(
      key: Key, text: String, cursor: Int
    ) {
      var state = HistoryTests.browsing()
      Self.searching("milk", in: &state)
      state.press(.control("r"))
      #expect(state.press(key) == .edited)
      #expect(state.searchLine == nil)
      #expect(state.text == text)
      #expect(state.cursor == cursor)
    }

    @Test func upAfterASearchGoesToTheVersionOlderThanTheOneFound() {
      var state = HistoryTests.browsing()
      Self.searching("milk", in: &state)
      state.press(.arrow(.up, []))
      #expect(state.searchLine == nil)
      #expect(state.text == "bread")
    }

    @Test func editsAfterASearchAreKeptWhileBrowsing() {
      var state = HistoryTests.browsing()
      Self.searching("brea", in: &state)
      state.press(.control("e"), .text("crumbs"), .control("n"), .control("p"))
      #expect(state.text == "breadcrumbs")
    }

    @Test func theSearchFindsEditsMadeToAVersionAndToTheLine() {
      var state = HistoryTests.browsing()
      state.press(.control("p"), .control("u"), .text("oat milk"), .alt(">"))
      Self.searching("oat", in: &state)
      #expect(state.foundLine == "oat milk")
      state.press(.control("g"), .text(" crisps"), .alt("<"), .control("s"), .text("crisps"))
      #expect(state.foundLine == "shopping crisps")
    }

    @Test func theSearchStartsAtTheCursorInTheLineBeingEdited() {
      var state = EditState(text: "milk first, milk second", versions: ["milk old"])
      state.press(.alt("b"), .alt("b"))
      Self.searching("milk", in: &state)
      #expect(state.searchLine?.match == 12..<16)
      state.press(.control("r"))
      #expect(state.searchLine?.match == 0..<4)
      state.press(.control("r"))
      #expect(state.foundLine == "milk old")
    }

    @Test func aLineIdenticalToTheOneJustFoundIsSkipped() {
      var state = EditState(text: "a milk", versions: ["a milk", "b milk"])
      Self.searching("milk", in: &state)
      #expect(state.searchLine?.match == 2..<6)
      state.press(.control("r"))
      #expect(state.foundLine == "b milk")
    }

    @Test func aMatchIsAlwaysWholeCharacters() {
      var state = EditState(text: "", versions: ["cafe\u{301} au lait", "cafe"])
      Self.searching("cafe", in: &state)
      #expect(state.foundLine == "cafe")
      var emoji = EditState(text: "", versions: ["👍 then 👍🏽"])
      Self.searching("👍", in: &emoji)
      #expect(emoji.searchLine?.match == 0..<1)
    }

    @Test func anAccentTypedAfterAFailedSearchCanMakeItMatch() {
      var state = EditState(text: "", versions: ["cafe\u{301}"])
      Self.searching("cafe", in: &state)
      #expect(state.searchLine?.prompt == "(failed reverse-i-search)'cafe': ")
      state.press(.text("\u{301}"))
      #expect(state.searchLine?.prompt == "(reverse-i-search)'cafe\u{301}': ")
      #expect(state.searchLine?.match == 0..<4)
    }

    @Test func matchesAreCountedInCharacters() {
      var state = EditState(text: "", versions: ["日本👍🏽 milk"])
      Self.searching("milk", in: &state)
      #expect(state.searchLine?.match == 4..<8)
      state.press(.escape)
      #expect(state.cursor == 4)
    }

    @Test func ctrlROnAnEmptySearchSearchesForTheLastQueryAgain() {
      var state = HistoryTests.browsing()
      Self.searching("eggs", in: &state)
      state.press(.escape, .alt(">"), .control("r"))
      #expect(state.press(.control("r")) == .edited)
      #expect(state.searchLine?.prompt == "(reverse-i-search)'eggs': ")
      #expect(state.foundLine == "buy milk and eggs")
    }

    @Test func ctrlWAndCtrlYAddTheTextAfterTheMatchToTheSearch() {
      var state = HistoryTests.browsing()
      Self.searching("bu", in: &state)
      #expect(state.press(.control("w")) == .edited)
      #expect(state.searchLine?.prompt == "(reverse-i-search)'buy': ")
      #expect(state.press(.control("w")) == .unchanged)
      state.press(.control("y"))
      #expect(state.searchLine?.prompt == "(reverse-i-search)'buy milk and eggs': ")
      #expect(state.press(.control("y")) == .unchanged)
    }

    @Test func aPasteIsAddedToTheSearch() {
      var state = HistoryTests.browsing()
      state.press(.control("r"), .paste("and e"))
      #expect(state.searchLine?.prompt == "(reverse-i-search)'and e': ")
      #expect(state.searchLine?.match == 9..<14)
    }

    @Test func ctrlCCancelsDuringASearch() {
      var state = HistoryTests.browsing()
      Self.searching("milk", in: &state)
      #expect(state.press(.control("c")) == .cancel)
    }

    @Test func searchingWithoutVersionsSearchesTheLine() {
      var state = EditState(text: "only this")
      Self.searching("this", in: &state)
      #expect(state.searchLine?.match == 5..<9)
      state.press(.text("x"))
      #expect(state.searchLine?.prompt == "(failed reverse-i-search)'thisx': ")
    }
  }
}

extension EditState {
  /// The line a search shows, or nil outside a search.
  fileprivate var foundLine: String? {
    searchLine.map { String($0.buffer) }
  }
}
