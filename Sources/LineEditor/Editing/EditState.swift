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
    /// A kill, which the next kill extends.
    case kill
    /// A yank (or yank-pop) that made `change` with the cursor at
    /// `cursorBefore`, which yank-pop replaces.
    case yank(TextBuffer.Change, cursorBefore: Int)
  }

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
  /// What vi mode keeps between keys (see `ViState`); nil until the vi
  /// keys are first used.
  var vi: ViState?
  /// The variables and the user's key bindings (an inputrc's).
  public private(set) var configuration: EditorConfiguration
  /// The keymap keys are read in now: the editing mode's, and in vi mode
  /// insert or command.
  public internal(set) var keymap: Keymap
  /// Keys read towards a longer sequence the user bound, not acted on yet.
  private var pendingKeys: [Key] = []
  /// The numeric argument being typed (Alt-digits), if any.
  private var argument: NumericArgument?
  /// Set by a command that reads the next key as its operand (quoted-insert,
  /// character-search), with the count it runs with.
  private var operandPending: (command: EditCommand, count: Int)?
  /// Where the mark is (set-mark, a yank); kept within the text when used.
  private var mark = 0
  /// Whether typed text replaces the text under the cursor (overwrite-mode).
  public private(set) var isOverwriting = false
  /// The text a run of history-search commands looks for, and whether
  /// anywhere in a line (substring) or at its start; the line found last,
  /// which the next one skips.
  private var historySearch: (prefix: String, anywhere: Bool, lastFound: String?)?
  /// How deep macros are expanding macros: a macro that types its own keys
  /// stops there rather than looping.
  private var macroDepth = 0
  /// How deep macros may nest.
  static let macroDepthLimit = 8
  /// Readline's largest numeric argument.
  static let argumentLimit = 1_000_000

  /// Starts editing `text`, with the cursor at its end and nothing to undo.
  ///
  /// - Parameter versions: The texts Up, Down, Ctrl-R and Ctrl-S reach, newest
  ///   first (the first one is the one `text` replaced). `text` itself is the
  ///   newest entry, as the line being edited is in a shell's history.
  /// - Parameter configuration: The variables and key bindings an inputrc
  ///   set (readline's defaults when there is none).
  public init(
    text: String, versions: [String] = [],
    configuration: EditorConfiguration = EditorConfiguration()
  ) {
    buffer = TextBuffer(text)
    cursor = buffer.count
    browser = HistoryBrowser(line: buffer, versions: versions)
    self.configuration = configuration
    keymap = configuration.editingMode.startingKeymap
    if configuration.editingMode == .vi { startViMode() }
  }

  /// Whether keys were read towards a longer sequence the user bound: the
  /// session then calls ``finishPendingKeys()`` when no key came for
  /// `keySequenceTimeoutMilliseconds`.
  public var isWaitingForMoreKeys: Bool { !pendingKeys.isEmpty }

  /// The mode string to show before the prompt (show-mode-in-prompt), or nil.
  public var modeString: String? { configuration.modeString(in: keymap) }

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
    if let (command, count) = operandPending {
      operandPending = nil
      return takeOperand(key, for: command, count: count)
    }
    if isMetaPending {
      isMetaPending = false
      // Ctrl-C and Ctrl-Z are signals in readline, not keys: a pending
      // Esc never changes them. The rest of a `.text` key after its first
      // Character is typed as usual.
      switch key {
      case .control("c"), .control("z"): return dispatch(key)
      case .text(let text) where text.count > 1:
        let first = dispatch(Key.text(String(text.first!)).withMeta)
        return combine(first, handle(.text(String(text.dropFirst()))))
      default: return dispatch(key.withMeta)
      }
    }
    if key == .escape && keymap == .emacs {
      isMetaPending = true
      return .unchanged
    }
    if case .text(let text) = key, text.count > 1, readsTextByCharacter {
      var outcome = EditOutcome.unchanged
      for character in text {
        outcome = combine(outcome, handle(.text(String(character))))
        if outcome != .edited && outcome != .unchanged { break }
      }
      return outcome
    }
    return dispatch(key)
  }

  /// The outcome of two keys handled one after the other: the later one's
  /// unless it did nothing.
  private func combine(_ first: EditOutcome, _ second: EditOutcome) -> EditOutcome {
    second == .unchanged ? first : second
  }

  /// Whether typed text must be read one Character at a time: when a
  /// Character may be part of a bound sequence, a numeric argument, a
  /// Ctrl-X pair or the operand of a command.
  private var readsTextByCharacter: Bool {
    !pendingKeys.isEmpty || argument != nil || isControlXPending
      || !configuration[bindingsOf: keymap].isEmpty
  }

  /// One key in canonical form: through the user's bindings first, then
  /// the keymap's own.
  private mutating func dispatch(_ key: Key) -> EditOutcome {
    let bindings = configuration[bindingsOf: keymap]
    guard !pendingKeys.isEmpty || (!bindings.isEmpty && bindings.binds(startingWith: key)) else {
      return runDefault(key)
    }
    pendingKeys.append(key)
    switch bindings.match(pendingKeys[...]) {
    case .prefix: return .unchanged
    case .exact(let action):
      pendingKeys = []
      return perform(action, key: key)
    case .none:
      return resolvePendingKeys()
    }
  }

  /// Acts on keys read towards a bound sequence that did not come (no
  /// binding goes on with them, or no key came in time): the longest of
  /// them that is bound runs, or the first alone does what its keymap
  /// says; the keys after it are read again.
  private mutating func resolvePendingKeys() -> EditOutcome {
    let keys = pendingKeys
    pendingKeys = []
    // A macro that types its own bound prefix resolves it again from
    // within: bounded as macros are, never a stack overflow.
    guard macroDepth < Self.macroDepthLimit else { return .unchanged }
    macroDepth += 1
    defer { macroDepth -= 1 }
    let bindings = configuration[bindingsOf: keymap]
    var used = 1
    var outcome = EditOutcome.unchanged
    var bound: KeyBindings.Action?
    for length in stride(from: keys.count, through: 1, by: -1) {
      switch bindings.match(keys[..<length]) {
      case .exact(let action), .prefix(exact: .some(let action)):
        bound = action
      default: continue
      }
      used = length
      break
    }
    if let bound {
      outcome = perform(bound, key: keys[used - 1])
    } else {
      outcome = runDefault(keys[0])
    }
    for key in keys[used...] {
      if outcome != .edited && outcome != .unchanged { break }
      outcome = combine(outcome, dispatch(key))
    }
    return outcome
  }

  /// Called when no key came for `keySequenceTimeoutMilliseconds` while
  /// ``isWaitingForMoreKeys``: the keys read so far are acted on as they are.
  public mutating func finishPendingKeys() -> EditOutcome {
    guard !pendingKeys.isEmpty else { return .unchanged }
    return resolvePendingKeys()
  }

  /// What a binding of the user's does; `key` is the last key of its
  /// sequence, which self-insert types and digit-argument reads.
  private mutating func perform(_ action: KeyBindings.Action, key: Key) -> EditOutcome {
    switch action {
    case .function(.selfInsert):
      switch key {
      case .text(let text): return runCommand(.selfInsert(text))
      case .alt(let character): return runCommand(.selfInsert(String(character)))
      default: return .unchanged
      }
    case .function(.digitArgument):
      var character: Character?
      if case .text(let text) = key { character = text.first }
      if case .alt(let alt) = key { character = alt }
      if character == "-" { return runCommand(.negativeArgument) }
      guard let digit = character?.wholeNumberValue, character?.isASCII == true else {
        return .unchanged
      }
      return runCommand(.digitArgument(digit))
    case .function(let function):
      if let outcome = performVi(function) { return outcome }
      guard let command = EditCommand(function) else { return .unchanged }
      return runCommand(command)
    case .macro(let text):
      guard macroDepth < Self.macroDepthLimit else { return .unchanged }
      macroDepth += 1
      defer { macroDepth -= 1 }
      var decoder = KeyDecoder()
      let keys = decoder.decode(Array(text.utf8)) + decoder.flush()
      return handle(keys)
    }
  }

  /// `key` in the keymap's own table (the emacs one: `EditCommand`).
  private mutating func runDefault(_ key: Key) -> EditOutcome {
    if keymap != .emacs { return handleVi(key) }
    let afterControlX = isControlXPending
    isControlXPending = false
    if argument != nil, !afterControlX, let outcome = continueArgument(key) {
      return outcome
    }
    let command = afterControlX ? EditCommand(afterControlX: key) : EditCommand(key)
    guard let command else {
      lastAction = .other
      argument = nil
      return .unchanged
    }
    return runCommand(command)
  }

  /// Runs `command` with the numeric argument typed before it, if any.
  private mutating func runCommand(_ command: EditCommand) -> EditOutcome {
    switch command {
    case .digitArgument(let digit):
      argument = (argument ?? NumericArgument()).appending(digit, withAlt: true)
      return .unchanged
    case .negativeArgument where argument?.hasDigits == true:
      // After digits, readline reads Alt-- as `-` typed that many times.
      return runCommand(.selfInsert("-"))
    case .negativeArgument where argument != nil:
      // A second Alt-- before any digit ends the argument, as in readline.
      argument = nil
      return .unchanged
    case .negativeArgument:
      argument = NumericArgument().negated()
      return .unchanged
    case .universalArgument:
      argument = (argument ?? NumericArgument()).multiplied()
      return .unchanged
    // Prefixes keep the argument for the key they lead to.
    case .controlXPrefix:
      isControlXPending = true
      return .unchanged
    case .prefixMeta:
      isMetaPending = true
      return .unchanged
    default: break
    }
    let count = argument?.value ?? 1
    let isExplicit = argument != nil
    argument = nil
    let previous = lastAction
    // Any key ends a run of typing, kills or yanks unless it continues it.
    lastAction = .other
    if !command.isHistorySearch { historySearch = nil }
    return run(command, after: previous, count: count, isExplicit: isExplicit)
  }

  /// A key typed while a numeric argument is: a digit or a minus goes on
  /// with it (as readline reads them); nil for any other key, which runs
  /// with the argument.
  private mutating func continueArgument(_ key: Key) -> EditOutcome? {
    guard let argument, case .text(let text) = key, let character = text.first, text.count == 1
    else { return nil }
    if let digit = character.wholeNumberValue, character.isASCII {
      self.argument = argument.appending(digit, withAlt: false)
      return .unchanged
    }
    if character == "-" && !argument.hasDigits {
      self.argument = argument.negated()
      return .unchanged
    }
    return nil
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

  mutating func run(
    _ command: EditCommand, after previous: LastAction, count: Int, isExplicit: Bool
  ) -> EditOutcome {
    switch command {
    case .selfInsert(let text):
      if count < 1 { return .unchanged }
      if count > 1 && !isOverwriting && !text.isEmpty {
        // Typed that many times at once: one undo step, as readline's.
        replace(cursor..<cursor, with: String(repeating: text, count: count))
        return .edited
      }
      let repeated = count > 1 ? String(repeating: text, count: count) : text
      return isOverwriting ? overwrite(repeated) : selfInsert(repeated)
    case .bracketedPaste(let text):
      let pasted = Self.normalizingLineEndings(text)
      guard !pasted.isEmpty else { return .unchanged }
      replace(cursor..<cursor, with: pasted)
      return .edited
    case .backwardChar: return moveCursor(to: clamped(cursor - count))
    case .forwardChar: return moveCursor(to: clamped(cursor + count))
    case .beginningOfLine: return moveCursor(to: 0)
    case .endOfLine: return moveCursor(to: buffer.count)
    case .backwardWord: return moveCursor(to: wordMove(from: cursor, by: -count))
    case .forwardWord: return moveCursor(to: wordMove(from: cursor, by: count))
    case .backwardDeleteChar:
      if count < 0 { return run(.deleteChar, after: previous, count: -count, isExplicit: true) }
      if isOverwriting { return overwriteRubout(count) }
      let start = clamped(cursor - count)
      guard start < cursor else { return .unchanged }
      // readline kills, rather than deletes, what an argument removes.
      if isExplicit {
        return kill(start..<cursor, .backward, after: previous, movingMark: false)
      }
      replace(start..<cursor, with: "")
      return .edited
    case .deleteChar:
      if count < 0 {
        return run(.backwardDeleteChar, after: previous, count: -count, isExplicit: true)
      }
      let end = clamped(cursor + count)
      guard cursor < end else { return .unchanged }
      if isExplicit { return kill(cursor..<end, .forward, after: previous, movingMark: false) }
      replace(cursor..<end, with: "")
      return .edited
    case .deleteCharOrEndOfInput:
      // After an argument readline runs the key as delete-char: its check
      // for end of input sees only keys read outside an argument.
      if buffer.isEmpty && !isExplicit { return .endOfInput }
      return run(.deleteChar, after: previous, count: count, isExplicit: isExplicit)
    case .killLine:
      if count < 0 { return kill(0..<cursor, .backward, after: previous) }
      return kill(cursor..<buffer.count, .forward, after: previous)
    case .backwardKillLine:
      if count < 0 { return kill(cursor..<buffer.count, .forward, after: previous) }
      return kill(0..<cursor, .backward, after: previous)
    // These three do nothing at all at the start of the line: not even
    // move the mark, as the other kills do.
    case .unixLineDiscard where cursor == 0, .unixWordRubout where cursor == 0,
      .backwardKillLine where cursor == 0:
      return .unchanged
    case .unixLineDiscard: return kill(0..<cursor, .backward, after: previous)
    case .killWholeLine:
      guard !buffer.isEmpty else { return .unchanged }
      return kill(0..<buffer.count, .forward, after: previous)
    case .unixWordRubout:
      var start = cursor
      for _ in 0..<max(count, 1) { start = startOfWhitespaceDelimitedWord(before: start) }
      return kill(start..<cursor, .backward, after: previous)
    case .killWord:
      let end = wordMove(from: cursor, by: count)
      return end >= cursor
        ? kill(cursor..<end, .forward, after: previous)
        : kill(end..<cursor, .backward, after: previous)
    case .backwardKillWord:
      let start = wordMove(from: cursor, by: -count)
      return start <= cursor
        ? kill(start..<cursor, .backward, after: previous)
        : kill(cursor..<start, .forward, after: previous)
    case .killRegion, .copyRegionAsKill:
      let mark = clamped(self.mark)
      let range = min(mark, cursor)..<max(mark, cursor)
      guard !range.isEmpty else { return .unchanged }
      if command == .copyRegionAsKill {
        var continuing = false
        if case .kill = previous { continuing = true }
        killRing.add(buffer.slice(range), .forward, continuingLastKill: continuing)
        lastAction = .kill
        return .unchanged
      }
      return kill(range, cursor < mark ? .forward : .backward, after: previous)
    case .deleteHorizontalSpace: return deleteHorizontalSpace()
    case .yank:
      guard let text = killRing.current else { return .unchanged }
      mark = cursor
      return yank(text, joiningLastUndoStep: false)
    case .yankPop: return yankPop(after: previous)
    case .transposeChars: return transposeChars(count)
    case .transposeWords: return transposeWords(count)
    case .upcaseWord: return changeCase(.upper, words: count)
    case .downcaseWord: return changeCase(.lower, words: count)
    case .capitalizeWord: return changeCase(.capital, words: count)
    case .undo:
      var outcome = EditOutcome.unchanged
      for _ in 0..<max(count, 1) {
        guard undo() == .edited else { break }
        outcome = .edited
      }
      return outcome
    case .revertLine:
      var outcome = EditOutcome.unchanged
      while undo() == .edited { outcome = .edited }
      return outcome
    case .acceptLine: return .submit
    case .cancel: return .cancel
    case .clearScreen: return .redrawScreen
    case .suspend: return .suspend
    case .previousHistory: return moveToEntry(clampedEntry(browser.position + count))
    case .nextHistory: return moveToEntry(clampedEntry(browser.position - count))
    case .beginningOfHistory: return moveToEntry(browser.oldest)
    case .endOfHistory: return moveToEntry(0)
    case .reverseSearchHistory: return startSearch(.reverse)
    case .forwardSearchHistory: return startSearch(.forward)
    case .historySearchBackward: return searchHistory(older: count >= 0, anywhere: false, count)
    case .historySearchForward: return searchHistory(older: count < 0, anywhere: false, count)
    case .historySubstringSearchBackward:
      return searchHistory(older: count >= 0, anywhere: true, count)
    case .historySubstringSearchForward:
      return searchHistory(older: count < 0, anywhere: true, count)
    case .abort: return .unchanged
    case .editInEditor: return .editInEditor(text)
    case .quotedInsert, .characterSearch, .characterSearchBackward:
      operandPending = (command, count)
      return .unchanged
    case .setMark:
      // With an argument, at that position; one outside the line sets no
      // mark, as readline's does.
      if !isExplicit {
        mark = cursor
      } else if (0...buffer.count).contains(count) {
        mark = count
      }
      return .unchanged
    case .exchangePointAndMark:
      let mark = clamped(self.mark)
      self.mark = cursor
      return moveCursor(to: mark)
    case .overwriteMode:
      isOverwriting = isExplicit ? count > 0 : !isOverwriting
      return .unchanged
    case .switchMode(let mode):
      keymap = mode.startingKeymap
      if mode == .vi { startViMode() }
      return .edited
    // Handled before a command runs (`runCommand`).
    case .controlXPrefix, .prefixMeta, .digitArgument, .negativeArgument, .universalArgument:
      return .unchanged
    }
  }

  /// `position` kept within the text.
  private func clamped(_ position: Int) -> Int {
    min(max(position, 0), buffer.count)
  }

  /// `index` kept within the entries (the line and the versions).
  private func clampedEntry(_ index: Int) -> Int {
    min(max(index, 0), browser.oldest)
  }

  /// The key read after quoted-insert or a character search: what it
  /// sends goes into the text, or the search looks for it.
  private mutating func takeOperand(
    _ key: Key, for command: EditCommand, count: Int
  ) -> EditOutcome {
    var rest: String?
    let character: Character?
    switch key {
    case .text(let text):
      character = text.first
      if text.count > 1 { rest = String(text.dropFirst()) }
    case .paste(let text): character = text.first
    case .enter: character = "\r"
    case .backspace: character = "\u{7F}"
    case .escape: character = "\u{1B}"
    case .control(let name): character = Key.controlCharacter(named: name)
    case .alt(let character):
      return takeOperand(.text(String(character)), for: command, count: count)
    case .arrow, .delete, .home, .end: character = nil
    }
    var outcome = EditOutcome.unchanged
    if let character {
      lastAction = .other
      if command == .quotedInsert {
        let text = String(repeating: String(character), count: max(count, 1))
        if isOverwriting {
          outcome = overwrite(text)
        } else {
          replace(cursor..<cursor, with: text)
          outcome = .edited
        }
      } else {
        let forward = (command == .characterSearch) == (count >= 0)
        outcome = moveCursor(to: occurrence(of: character, forward: forward, count: abs(count)))
      }
    }
    if let rest { outcome = combine(outcome, handle(.text(rest))) }
    return outcome
  }

  /// Where the `count`th `character` after (or before) the cursor is, or
  /// the cursor when there are fewer (readline's character-search).
  private func occurrence(of character: Character, forward: Bool, count: Int) -> Int {
    var found = 0
    var position = cursor
    if forward {
      var index = cursor + 1
      while index < buffer.count {
        if buffer[index] == character {
          found += 1
          position = index
          if found == max(count, 1) { return position }
        }
        index += 1
      }
    } else {
      var index = cursor - 1
      while index >= 0 {
        if buffer[index] == character {
          found += 1
          position = index
          if found == max(count, 1) { return position }
        }
        index -= 1
      }
    }
    return found == 0 ? cursor : position
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
      buffer.replace(range, with: text), of: range, byteCount: text.utf8.count,
      undoCursor: undoCursor, joiningLastUndoStep: joiningLastUndoStep)
  }

  /// The same for text already in the buffer's form: a kill or undone text.
  @discardableResult
  mutating func replace(
    _ range: Range<Int>, with text: TextBuffer, joiningLastUndoStep: Bool = false
  ) -> TextBuffer.Change {
    let undoCursor = undoCursor(for: range)
    return record(
      buffer.replace(range, with: text), of: range, byteCount: text.utf8Count,
      undoCursor: undoCursor, joiningLastUndoStep: joiningLastUndoStep)
  }

  /// Where undoing an edit of `range` puts the cursor: back where it was
  /// with the emacs keys; with the vi keys where readline's vi mode puts
  /// it, after the text the undo puts back (at `range`'s start when it puts
  /// back none).
  private func undoCursor(for range: Range<Int>) -> Int {
    keymap == .emacs ? cursor : range.upperBound
  }

  /// Records `change`, just made by replacing `range` with `byteCount` bytes
  /// of text, for undo and puts the cursor after its new text.
  private mutating func record(
    _ change: TextBuffer.Change, of range: Range<Int>, byteCount: Int, undoCursor: Int,
    joiningLastUndoStep: Bool
  ) -> TextBuffer.Change {
    // The change itself reaches past `range` when the new text merges with
    // a Character beside it; readline's undo list records what was put in.
    let insertion =
      range.isEmpty && byteCount > 0
      ? UndoHistory.Insertion(
        start: range.lowerBound, end: change.endOfNewText, byteCount: byteCount)
      : nil
    undoHistory.record(
      change, cursorBefore: undoCursor, insertion: insertion,
      joiningLastStep: joiningLastUndoStep)
    cursor = change.endOfNewText
    // readline keeps the mark within the line as text goes.
    mark = min(mark, buffer.count)
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

  /// Inserts typed text in the undo steps readline's would make of it,
  /// whether the keys arrive one per read or many in one (typing fast, or a
  /// terminal batching them): `UndoHistory.typingPiece(of:at:)` cuts it.
  mutating func selfInsert(_ text: String) -> EditOutcome {
    guard !text.isEmpty else { return .unchanged }
    var rest = Substring(text)
    while !rest.isEmpty {
      let (piece, joinsNewest) = undoHistory.typingPiece(of: rest, at: cursor)
      replace(cursor..<cursor, with: piece, joiningLastUndoStep: joinsNewest)
      rest = rest[piece.endIndex...]
    }
    lastAction = .other
    return .edited
  }

  mutating func deleteChar() -> EditOutcome {
    guard cursor < buffer.count else { return .unchanged }
    replace(cursor..<cursor + 1, with: "")
    return .edited
  }

  /// Drags the Character before the cursor `count` places on; at the end
  /// of the line, swaps the last two (readline's transpose-chars). A
  /// negative count changes nothing, as in readline in a UTF-8 locale
  /// (which puts the Character back where it was).
  private mutating func transposeChars(_ count: Int) -> EditOutcome {
    guard count > 0 || (count < 0 && cursor == buffer.count), cursor > 0, buffer.count >= 2
    else { return .unchanged }
    var point = cursor
    var count = count
    if point == buffer.count {
      point -= 1
      count = 1
    }
    let dragged = point - 1
    let target = min(max(dragged + count, 0), buffer.count - 1)
    let low = min(dragged, target)
    let high = max(dragged, target)
    // readline deletes the Character and then inserts it: the mark is kept
    // within the shorter line in between.
    mark = min(mark, buffer.count - 1)
    var characters = Array(buffer[low...high])
    let character = characters.remove(at: dragged - low)
    characters.insert(character, at: target - low)
    replace(low..<high + 1, with: String(characters))
    cursor = clamped(target + 1)
    return .edited
  }

  /// Swaps the word before the cursor with the word after it, leaving the
  /// cursor after both (readline's transpose-words); with a count, the word
  /// before goes that many words on.
  private mutating func transposeWords(_ count: Int) -> EditOutcome {
    guard count != 0 else { return .unchanged }
    let secondEnd = wordMove(from: cursor, by: count)
    let secondStart = wordMove(from: secondEnd, by: -1)
    let firstStart = wordMove(from: secondStart, by: -count)
    let firstEnd = wordMove(from: firstStart, by: 1)
    guard firstStart != secondStart, secondStart >= firstEnd else { return .unchanged }
    let low = min(firstStart, secondStart)
    let high = max(firstEnd, secondEnd)
    let (a, b) =
      firstStart < secondStart
      ? (firstStart..<firstEnd, secondStart..<secondEnd)
      : (secondStart..<secondEnd, firstStart..<firstEnd)
    let swapped =
      String(buffer[b]) + String(buffer[a.upperBound..<b.lowerBound]) + String(buffer[a])
    // readline deletes the later word before it inserts the earlier one
    // there: the mark is kept within the shorter line in between.
    mark = min(mark, buffer.count - (secondEnd - secondStart))
    replace(low..<high, with: swapped)
    cursor = clamped(secondEnd)
    return .edited
  }

  /// The three case changes of words.
  private enum CaseChange {
    case upper, lower, capital
  }

  /// Changes the case of the `count` words after the cursor (before it when
  /// negative) and leaves the cursor after them (readline's upcase-word,
  /// downcase-word, capitalize-word).
  private mutating func changeCase(_ change: CaseChange, words count: Int) -> EditOutcome {
    let end = wordMove(from: cursor, by: count)
    let range = min(cursor, end)..<max(cursor, end)
    var changed = String()
    var inWord = false
    for character in buffer[range] {
      let upper: Bool
      switch change {
      case .upper: upper = true
      case .lower: upper = false
      case .capital: upper = !inWord
      }
      inWord = CharacterKinds(character).contains(.word)
      for scalar in character.unicodeScalars {
        changed.unicodeScalars.append(upper ? scalar.simpleUppercase : scalar.simpleLowercase)
      }
    }
    let before = cursor
    if !changed.unicodeScalars.elementsEqual(String(buffer[range]).unicodeScalars) {
      replace(range, with: changed)
    }
    cursor = clamped(range.upperBound)
    return cursor == before && range.isEmpty ? .unchanged : .edited
  }

  /// Types `text` over the text under the cursor (overwrite-mode), one undo
  /// step; past the end of the line it is added.
  private mutating func overwrite(_ text: String) -> EditOutcome {
    guard !text.isEmpty else { return .unchanged }
    replace(cursor..<min(cursor + text.count, buffer.count), with: text)
    return .edited
  }

  /// Backspace in overwrite mode: the `count` Characters before the cursor
  /// become spaces (they are removed at the end of the line), the cursor
  /// going back over them, as readline does.
  private mutating func overwriteRubout(_ count: Int) -> EditOutcome {
    let start = clamped(cursor - count)
    guard start < cursor else { return .unchanged }
    let atEnd = cursor == buffer.count
    replace(start..<cursor, with: atEnd ? "" : String(repeating: " ", count: cursor - start))
    cursor = start
    return .edited
  }

  /// Deletes the spaces and tabs on both sides of the cursor.
  private mutating func deleteHorizontalSpace() -> EditOutcome {
    var start = cursor
    while start > 0 && Self.isBlank(buffer[start - 1]) { start -= 1 }
    var end = cursor
    while end < buffer.count && Self.isBlank(buffer[end]) { end += 1 }
    guard start < end else { return .unchanged }
    replace(start..<end, with: "")
    cursor = start
    return .edited
  }

  /// A space or a tab: readline's whitespace.
  private static func isBlank(_ character: Character) -> Bool {
    character == " " || character == "\t"
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
    mark = min(mark, buffer.count)
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
  /// previous kill when the previous key killed too. `movingMark`: the
  /// mark goes where the cursor is left, as readline's kill commands put
  /// it; its delete-char and backward-delete-char, which kill what an
  /// argument removes, leave the mark alone.
  mutating func kill(
    _ range: Range<Int>, _ direction: KillRing.Direction, after previous: LastAction,
    movingMark: Bool = true
  ) -> EditOutcome {
    defer { if movingMark { mark = cursor } }
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

  /// Where `count` forward-words from `position` end (backward-words when
  /// negative).
  private func wordMove(from position: Int, by count: Int) -> Int {
    var position = position
    for _ in 0..<abs(count) {
      let next = count > 0 ? endOfWord(after: position) : startOfWord(before: position)
      if next == position { break }
      position = next
    }
    return position
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
  private mutating func keepEdits() {
    guard isEntryEdited else { return }
    browser.leave(.init(buffer: buffer, undoHistory: undoHistory, text: buffer.string))
    isEntryEdited = false
  }

  private mutating func load(_ index: Int) {
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

  /// history-search-backward and its kin: the `count`th entry, older or
  /// newer, that starts with (or, `anywhere`, holds) the text that was
  /// before the cursor when the run of such searches began, skipping the
  /// line found last; the cursor goes after that text's length, as
  /// readline puts it. The line being edited is not searched: it is not
  /// in readline's history either.
  private mutating func searchHistory(older: Bool, anywhere: Bool, _ count: Int) -> EditOutcome {
    var search =
      historySearch ?? (prefix: String(buffer[0..<cursor]), anywhere: anywhere, lastFound: nil)
    search.anywhere = anywhere
    keepEdits()
    var index = browser.position
    var found: Int?
    for _ in 0..<max(abs(count), 1) {
      var candidate = index + (older ? 1 : -1)
      var match: Int?
      while candidate >= 1 && candidate <= browser.oldest {
        let text = browser.text(of: candidate)
        let matches = anywhere ? text.contains(search.prefix) : text.hasPrefix(search.prefix)
        if matches && text != search.lastFound {
          match = candidate
          search.lastFound = text
          break
        }
        candidate += older ? 1 : -1
      }
      guard let match else { break }
      index = match
      found = match
    }
    historySearch = search
    let length = search.prefix.count
    guard let found else {
      return moveCursor(to: min(length, buffer.count))
    }
    _ = moveToEntry(found)
    cursor = min(length, buffer.count)
    return .edited
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
