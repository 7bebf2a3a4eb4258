/// The line editor's state as a plain value: the text, the cursor, the kill
/// ring, the undo history, the versions Up and Ctrl-R reach and the search in
/// progress. Keys go in through ``handle(_:)``; no terminal is involved, so
/// every binding can be tested alone.
///
/// Keys are bound as in GNU readline's emacs mode. Positions count `Character`s
/// (grapheme clusters), never bytes or code points.
public struct EditState: Sendable {
  /// What the previous key did, for the commands whose effect depends on it.
  enum LastAction: Sendable {
    case other
    /// Typed text, `runLength` Characters of it in the current undo step.
    case typing(runLength: Int)
    /// A kill, which the next kill extends.
    case kill
    /// A yank (or yank-pop) that made `change` with the cursor at
    /// `cursorBefore`, which yank-pop replaces.
    case yank(TextBuffer.Change, cursorBefore: Int)
  }

  /// How many typed Characters one undo step takes back at most. Readline and
  /// Emacs both stop merging typed characters into one undo step at 20, so that
  /// undo after a long sentence does not remove all of it.
  static let typingRunLimit = 20

  /// The text of the entry being edited, for the renderer to read.
  ///
  /// Read it, don't keep it: a copy still alive when the next key is handled
  /// makes that edit copy the whole text.
  public private(set) var buffer: TextBuffer
  /// Where the cursor is: before the Character at this index, or at the end
  /// when it equals `buffer.count`. Set from outside only by tests and the
  /// latency benchmark (bench/latency), to put it anywhere in `0...buffer.count`.
  public internal(set) var cursor: Int
  var killRing = KillRing()
  /// The undo steps of the entry being edited; every entry has its own.
  var undoHistory = UndoHistory()
  var lastAction = LastAction.other
  /// The line being edited and the versions, with the edits made to them.
  var browser: HistoryBrowser
  /// Whether the entry on screen was edited since the line editor moved to it
  /// (its edits are then stored in `browser` when it is left).
  private var isEntryEdited = false
  /// The incremental search in progress, if any.
  var search: IncrementalSearch?
  /// The query of the last search that ended on its line, which Ctrl-R on
  /// an empty query searches for again.
  private var lastSearchQuery: String?
  /// Set by a lone Esc: the next key is read with Alt held, as readline
  /// reads ESC followed by a key however long after it comes.
  private var isMetaPending = false
  /// Set by Ctrl-X: the next key is looked up in the Ctrl-X keymap.
  private var isControlXPending = false
  /// The vi keys' own state (mode, keys of a command being typed, what `.`
  /// repeats); nil in emacs mode.
  var vi: ViState?

  /// Starts editing `text`, with the cursor at its end and nothing to undo.
  ///
  /// - Parameters:
  ///   - versions: The texts Up, Down, Ctrl-R and Ctrl-S reach, newest
  ///     first (the first one is the one `text` replaced). `text` itself is
  ///     the newest entry, as the line being edited is in a shell's history.
  ///   - mode: The keys: emacs, or vi (starting in insert mode).
  public init(text: String, versions: [String] = [], mode: EditingMode = .emacs) {
    buffer = TextBuffer(text)
    cursor = buffer.count
    browser = HistoryBrowser(line: buffer, versions: versions)
    if mode == .vi {
      vi = ViState()
      // vi starts in insert mode: that first session is one undo step too.
      undoHistory.beginGroup()
    }
  }

  /// The edited text. O(n): call it when saving, not on every key.
  public var text: String { buffer.string }

  /// Whether the text is empty.
  public var isEmpty: Bool { buffer.isEmpty }

  /// What would be lost if the prompt ended now without saving, as UTF-8:
  /// the line on screen when it was edited since the line editor moved to it,
  /// else the line the prompt opened with when it was edited and left; nil
  /// when nothing was edited (a version recalled as it is loses nothing).
  public var unsavedEdits: [UInt8]? {
    if isEntryEdited { return buffer.utf8Bytes }
    if browser.wasEdited(0) { return Array(browser.text(of: 0).utf8) }
    return nil
  }

  /// Which entry is on screen: 0 for the line the prompt opened with, `k`
  /// for version `k`. During a search, the entry the search left off from.
  public var historyPosition: Int { browser.position }

  /// Which entry's line is shown: `historyPosition`, or during a search the
  /// entry the line found is in.
  public var entryOnScreen: Int { search?.entry ?? browser.position }

  /// What a search shows instead of the edit line, or nil when no search is
  /// in progress.
  public var searchLine: SearchLine? {
    if let viSearchLine { return viSearchLine }
    guard let search else { return nil }
    return SearchLine(
      prompt: search.prompt, buffer: search.line, cursor: search.cursor, match: search.match)
  }

  /// Applies one key; returns what the session must do next.
  public mutating func handle(_ key: Key) -> EditOutcome {
    if search != nil { return handleInSearch(key) }
    if vi != nil { return handleVi(key) }
    if isMetaPending {
      isMetaPending = false
      return handle(keysWithMeta(key))
    }
    if key == .escape {
      isMetaPending = true
      return .unchanged
    }
    let previous = lastAction
    // Any key ends a run of typing, kills or yanks unless it continues it.
    lastAction = .other
    let afterControlX = isControlXPending
    isControlXPending = false
    let command = afterControlX ? EditCommand(afterControlX: key) : EditCommand(key)
    guard let command else { return .unchanged }
    return run(command, after: previous)
  }

  /// Handles `keys` in order; the outcome is the last one that did more
  /// than nothing.
  private mutating func handle(_ keys: [Key]) -> EditOutcome {
    var outcome = EditOutcome.unchanged
    for key in keys {
      let next = handle(key)
      if next != .unchanged { outcome = next }
      if next != .edited && next != .unchanged { break }
    }
    return outcome
  }

  /// What `key` is when an Esc came before it: the same key with Alt held.
  ///
  /// Ctrl-C and Ctrl-Z are signals in readline, not keys, so a pending Esc
  /// never changes them; a paste stays a paste. The rest of a `.text` key
  /// after its first Character is typed as usual.
  private func keysWithMeta(_ key: Key) -> [Key] {
    switch key {
    case .text(let text):
      guard let first = text.first else { return [] }
      let rest = text.dropFirst()
      let alt = first.unicodeScalars.count == 1 ? Key.alt(first) : Key.text(String(first))
      return rest.isEmpty ? [alt] : [alt, .text(String(rest))]
    case .backspace: return [.alt("\u{7F}")]
    case .control("c"), .control("z"), .paste, .delete, .home, .end: return [key]
    case .control(let name):
      // Readline binds three of them: Alt-Ctrl-H kills the word before,
      // Alt-Tab inserts a tab, Alt-Ctrl-L clears the screen. Ctrl-G, like
      // the others, just ends the Esc.
      switch name {
      case "h": return [.alt("\u{08}")]
      case "i", "l": return [key]
      default: return []
      }
    case .arrow(let arrow, let modifiers): return [.arrow(arrow, modifiers.union(.alt))]
    case .enter, .escape, .alt: return []
    }
  }

  mutating func run(_ command: EditCommand, after previous: LastAction) -> EditOutcome {
    switch command {
    case .selfInsert(let text): return selfInsert(text, after: previous)
    case .bracketedPaste(let text):
      let pasted = Self.normalizingLineEndings(text)
      guard !pasted.isEmpty else { return .unchanged }
      replace(cursor..<cursor, with: pasted)
      return .edited
    case .backwardChar: return moveCursor(to: max(cursor - 1, 0))
    case .forwardChar: return moveCursor(to: min(cursor + 1, buffer.count))
    case .beginningOfLine: return moveCursor(to: 0)
    case .endOfLine: return moveCursor(to: buffer.count)
    case .backwardWord: return moveCursor(to: startOfWord(before: cursor))
    case .forwardWord: return moveCursor(to: endOfWord(after: cursor))
    case .backwardDeleteChar:
      guard cursor > 0 else { return .unchanged }
      replace(cursor - 1..<cursor, with: "")
      return .edited
    case .deleteChar: return deleteChar()
    case .deleteCharOrEndOfInput: return buffer.isEmpty ? .endOfInput : deleteChar()
    case .killLine: return kill(cursor..<buffer.count, .forward, after: previous)
    case .unixLineDiscard: return kill(0..<cursor, .backward, after: previous)
    case .unixWordRubout:
      return kill(
        startOfWhitespaceDelimitedWord(before: cursor)..<cursor, .backward, after: previous)
    case .killWord: return kill(cursor..<endOfWord(after: cursor), .forward, after: previous)
    case .backwardKillWord:
      return kill(startOfWord(before: cursor)..<cursor, .backward, after: previous)
    case .yank:
      guard let text = killRing.current else { return .unchanged }
      return yank(text, joiningLastUndoStep: false)
    case .yankPop: return yankPop(after: previous)
    case .transposeChars: return transposeChars()
    case .undo: return undo()
    case .acceptLine: return .submit
    case .cancel: return .cancel
    case .clearScreen: return .redrawScreen
    case .suspend: return .suspend
    case .previousHistory: return moveToEntry(browser.position + 1)
    case .nextHistory: return moveToEntry(browser.position - 1)
    case .beginningOfHistory: return moveToEntry(browser.oldest)
    case .endOfHistory: return moveToEntry(0)
    case .reverseSearchHistory: return startSearch(.reverse)
    case .forwardSearchHistory: return startSearch(.forward)
    case .abort: return .unchanged
    case .controlXPrefix:
      isControlXPending = true
      return .unchanged
    case .editInEditor: return .editInEditor(text)
    }
  }

  // MARK: - Editing

  /// Replaces `range` with `text`, records that for undo and puts the cursor
  /// after the new text.
  @discardableResult
  mutating func replace(
    _ range: Range<Int>, with text: some StringProtocol, joiningLastUndoStep: Bool = false
  ) -> TextBuffer.Change {
    let undoCursor = undoCursor(for: range)
    return record(
      buffer.replace(range, with: text), undoCursor: undoCursor,
      joiningLastUndoStep: joiningLastUndoStep)
  }

  /// The same for text already in the buffer's form: a kill or undone text.
  @discardableResult
  mutating func replace(
    _ range: Range<Int>, with text: TextBuffer, joiningLastUndoStep: Bool = false
  ) -> TextBuffer.Change {
    let undoCursor = undoCursor(for: range)
    return record(
      buffer.replace(range, with: text), undoCursor: undoCursor,
      joiningLastUndoStep: joiningLastUndoStep)
  }

  /// Where undoing an edit of `range` puts the cursor: back where it was in
  /// emacs mode; in vi mode where readline's vi mode puts it, after the
  /// text the undo puts back (at `range`'s start when it puts back none).
  private func undoCursor(for range: Range<Int>) -> Int {
    vi == nil ? cursor : range.upperBound
  }

  /// Records `change`, just made, for undo and puts the cursor after its new text.
  private mutating func record(
    _ change: TextBuffer.Change, undoCursor: Int, joiningLastUndoStep: Bool
  ) -> TextBuffer.Change {
    undoHistory.record(change, cursorBefore: undoCursor, joiningLastStep: joiningLastUndoStep)
    cursor = change.endOfNewText
    isEntryEdited = true
    return change
  }

  /// Replaces the whole text with `text` (what the user's editor left) as
  /// one undoable edit, the cursor at the end. Nothing changes, and nothing
  /// is recorded for undo, when `text` is the text already there, byte for
  /// byte.
  public mutating func replaceText(with text: String) {
    lastAction = .other
    // Bytes, not String ==, which calls "é" and "e\u{301}" equal.
    if !text.utf8.elementsEqual(self.text.utf8) {
      replace(0..<buffer.count, with: text)
    }
    cursor = buffer.count
  }

  /// Puts `versions` (newest first) where Up, Down, Ctrl-R and Ctrl-S reach
  /// from now on (after a save found the note changed on disk: what is
  /// there now). The line on screen, with its cursor and undo steps,
  /// becomes the line being edited, entry 0; edits made to the other
  /// entries are dropped, as readline drops them at accept-line.
  public mutating func replaceVersions(with versions: [String]) {
    search = nil
    lastAction = .other
    browser = HistoryBrowser(line: buffer, versions: versions)
    // So that leaving the line keeps its undo steps with it.
    isEntryEdited = true
  }

  /// Inserts typed text in undo steps of at most `typingRunLimit`
  /// Characters, continuing the run of typing before it: however the keys
  /// arrive (one per read, or many in one when typing fast or when a
  /// terminal batches them), undo takes back the same steps.
  mutating func selfInsert(_ text: String, after previous: LastAction) -> EditOutcome {
    guard !text.isEmpty else { return .unchanged }
    var runLength = 0
    if case .typing(let length) = previous, length < Self.typingRunLimit {
      runLength = length
    }
    var rest = Substring(text)
    while !rest.isEmpty {
      let piece = rest.prefix(Self.typingRunLimit - runLength)
      rest = rest[piece.endIndex...]
      replace(cursor..<cursor, with: piece, joiningLastUndoStep: runLength > 0)
      runLength += piece.count
      if runLength == Self.typingRunLimit && !rest.isEmpty { runLength = 0 }
    }
    lastAction = .typing(runLength: runLength)
    return .edited
  }

  mutating func deleteChar() -> EditOutcome {
    guard cursor < buffer.count else { return .unchanged }
    replace(cursor..<cursor + 1, with: "")
    return .edited
  }

  /// Swaps the Character before the cursor with the one under it and moves
  /// past both; at the end of the line, swaps the last two (readline's
  /// transpose-chars).
  private mutating func transposeChars() -> EditOutcome {
    guard cursor > 0, buffer.count >= 2 else { return .unchanged }
    let second = cursor == buffer.count ? cursor - 1 : cursor
    let first = second - 1
    replace(first..<second + 1, with: String(buffer[second]) + String(buffer[first]))
    return .edited
  }

  /// Takes back the newest undo step, or the newest group of them (vi's
  /// insert session, a vi command of several edits).
  mutating func undo() -> EditOutcome {
    let steps = undoHistory.popGroup()
    guard !steps.isEmpty else { return .unchanged }
    for step in steps {
      _ = buffer.replace(step.position..<step.position + step.insertedCount, with: step.removed)
      cursor = step.cursorBefore
    }
    isEntryEdited = true
    return .edited
  }

  /// Text pasted from a terminal has CR or CRLF line endings; the note keeps
  /// LF. CR and LF are ASCII, never part of another scalar's UTF-8, so the
  /// bytes are rewritten as they are: a large paste costs a copy.
  private static func normalizingLineEndings(_ text: String) -> String {
    let carriageReturn = UInt8(ascii: "\r")
    let lineFeed = UInt8(ascii: "\n")
    let hasCarriageReturn =
      text.utf8.withContiguousStorageIfAvailable { $0.contains(carriageReturn) }
      ?? text.utf8.contains(carriageReturn)
    guard hasCarriageReturn else { return text }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var afterCarriageReturn = false
    for byte in text.utf8 {
      if byte == carriageReturn {
        bytes.append(lineFeed)
      } else if !(byte == lineFeed && afterCarriageReturn) {
        bytes.append(byte)
      }
      afterCarriageReturn = byte == carriageReturn
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  // MARK: - Killing and yanking

  /// Removes `range` into the kill ring, appending or prepending to the
  /// previous kill when the previous key killed too.
  mutating func kill(
    _ range: Range<Int>, _ direction: KillRing.Direction, after previous: LastAction
  ) -> EditOutcome {
    // Readline treats a kill that removes nothing as no kill at all: it ends
    // the run of kills.
    guard !range.isEmpty else { return .unchanged }
    var continuing = false
    if case .kill = previous { continuing = true }
    killRing.add(buffer.slice(range), direction, continuingLastKill: continuing)
    replace(range, with: "")
    lastAction = .kill
    return .edited
  }

  private mutating func yank(_ text: TextBuffer, joiningLastUndoStep: Bool) -> EditOutcome {
    let cursorBefore = cursor
    let change = replace(cursor..<cursor, with: text, joiningLastUndoStep: joiningLastUndoStep)
    lastAction = .yank(change, cursorBefore: cursorBefore)
    return .edited
  }

  /// Replaces the text just yanked with the kill before it (readline's
  /// yank-pop); only right after a yank or another yank-pop. The yank and its
  /// yank-pops are one undo step.
  private mutating func yankPop(after previous: LastAction) -> EditOutcome {
    guard case .yank(let yanked, let cursorBefore) = previous, let text = killRing.rotate() else {
      return .unchanged
    }
    let yankedRange = yanked.position..<yanked.position + yanked.insertedCount
    replace(yankedRange, with: yanked.removed, joiningLastUndoStep: true)
    cursor = cursorBefore
    return yank(text, joiningLastUndoStep: true)
  }

  // MARK: - Moving

  mutating func moveCursor(to position: Int) -> EditOutcome {
    guard position != cursor else { return .unchanged }
    cursor = position
    return .edited
  }

  /// Where forward-word stops: past the non-word Characters after `position`
  /// and then past the word that follows them (readline's words are runs of
  /// letters and digits).
  private func endOfWord(after position: Int) -> Int {
    buffer.endOfRun(of: .word, from: buffer.endOfRun(of: .nonWord, from: position))
  }

  /// Where backward-word stops: back over the non-word Characters before
  /// `position`, then back to the start of the word before them.
  private func startOfWord(before position: Int) -> Int {
    buffer.startOfRun(of: .word, before: buffer.startOfRun(of: .nonWord, before: position))
  }

  /// Where unix-word-rubout stops: back over whitespace, then back over
  /// everything that is not whitespace.
  private func startOfWhitespaceDelimitedWord(before position: Int) -> Int {
    buffer.startOfRun(
      of: .nonWhitespace, before: buffer.startOfRun(of: .whitespace, before: position))
  }

  // MARK: - Versions

  /// Shows entry `index` (readline's previous-history, next-history and their
  /// kin): the edits of the entry left are kept for coming back, and the
  /// cursor goes to the end of the line, as readline puts it.
  mutating func moveToEntry(_ index: Int) -> EditOutcome {
    guard index != browser.position, (0..<browser.count).contains(index) else {
      return .unchanged
    }
    keepEdits()
    load(index)
    cursor = buffer.count
    return .edited
  }

  /// Stores the entry's edits in the browser, where moving back to it and
  /// searching find them.
  mutating func keepEdits() {
    guard isEntryEdited else { return }
    browser.leave(.init(buffer: buffer, undoHistory: undoHistory, text: buffer.string))
    isEntryEdited = false
  }

  mutating func load(_ index: Int) {
    if let edited = browser.move(to: index) {
      buffer = edited.buffer
      undoHistory = edited.undoHistory
    } else {
      buffer = browser.original(index)
      undoHistory = UndoHistory()
    }
    isEntryEdited = false
    lastAction = .other
  }

  // MARK: - Searching

  private mutating func startSearch(_ direction: IncrementalSearch.Direction) -> EditOutcome {
    keepEdits()
    browser.prepareForSearch()
    search = IncrementalSearch(direction, in: browser, line: buffer, cursor: cursor)
    return .edited
  }

  /// A key during a search, as readline's isearch reads it: text, Backspace,
  /// Ctrl-R, Ctrl-S, Ctrl-W and Ctrl-Y work on the query; Ctrl-G leaves the
  /// line as it was; Esc leaves the found line; Enter saves it; every other
  /// key leaves the found line, the cursor at the match, and acts there.
  private mutating func handleInSearch(_ key: Key) -> EditOutcome {
    guard var search else { return .unchanged }
    var changed = true
    switch key {
    case .text(let text): search.append(text, in: browser)
    case .paste(let text): search.append(text, in: browser)
    case .backspace, .control("h"): changed = search.deleteLast(in: browser)
    case .control("r"):
      changed = search.searchAgain(.reverse, lastQuery: lastSearchQuery, in: browser)
    case .control("s"):
      changed = search.searchAgain(.forward, lastQuery: lastSearchQuery, in: browser)
    case .control("w"): changed = search.appendWord(in: browser)
    case .control("y"): changed = search.appendRestOfLine(in: browser)
    case .control("g"):
      self.search = nil
      return .edited
    // Ctrl-C and Ctrl-Z are signals in readline: they don't end the search.
    case .control("c"): return .cancel
    case .control("z"): return .suspend
    case .escape:
      endSearch(search)
      return .edited
    default:
      endSearch(search)
      let outcome = handle(key)
      return outcome == .unchanged ? .edited : outcome
    }
    self.search = search
    return changed ? .edited : .unchanged
  }

  /// Leaves the search on the line it shows, the cursor where it shows it.
  private mutating func endSearch(_ search: IncrementalSearch) {
    self.search = nil
    if !search.query.isEmpty { lastSearchQuery = search.query }
    if search.entry != browser.position { load(search.entry) }
    cursor = search.cursor
  }
}
