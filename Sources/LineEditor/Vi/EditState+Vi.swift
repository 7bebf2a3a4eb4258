/// vi mode: the keys of readline's vi-insert and vi-command keymaps,
/// carried out on the editor's text as readline's vi mode does, key for
/// key. Command mode's keys are read by `ViCommandParser` into
/// `ViCommand`s; this extension only carries those out.
extension EditState {
  /// Which vi mode the keys are in; nil in emacs mode.
  public var viMode: ViMode? {
    switch keymap {
    case .emacs: nil
    case .viCommand: .command
    case .viInsert: vi?.isReplacing == true ? .replace : .insert
    }
  }

  /// Starts the vi keys, in insert mode: as readline's, that first insert
  /// session is one undo step too.
  mutating func startViMode() {
    guard vi == nil else { return }
    vi = ViState()
    undoHistory.beginGroup()
  }

  private mutating func setViMode(_ mode: ViMode) {
    keymap = mode == .command ? .viCommand : .viInsert
    vi?.isReplacing = mode == .replace
  }

  /// What the vi functions an inputrc binds a key to do (`"jk":
  /// vi-movement-mode` in the vi-insert keymap); nil for the others.
  mutating func performVi(_ function: ReadlineFunction) -> EditOutcome? {
    switch function {
    case .viMovementMode:
      guard viMode == .insert || viMode == .replace else { return .unchanged }
      let previous = lastAction
      lastAction = .other
      return leaveInsertMode(after: previous)
    case .viInsertionMode:
      guard viMode == .command else { return .unchanged }
      undoHistory.beginGroup()
      return startInserting()
    default: return nil
    }
  }

  /// `command` as a key of emacs mode runs it, once.
  private mutating func run(_ command: EditCommand, after previous: LastAction) -> EditOutcome {
    run(command, after: previous, count: 1, isExplicit: false)
  }

  /// Whether the mode's keys set the cursor on a Character, never past the
  /// last: vi's command mode.
  private var keepsCursorOnCharacter: Bool { viMode == .command }

  /// A key in vi mode.
  mutating func handleVi(_ key: Key) -> EditOutcome {
    startViMode()
    guard let state = vi else { return .unchanged }
    if case .control("c") = key {
      // A signal in readline, whatever keys came before it.
      vi?.parser.reset()
      vi?.isQuotedInsertPending = false
      vi?.searchQuery = nil
      return .cancel
    }
    if state.isQuotedInsertPending {
      vi?.isQuotedInsertPending = false
      return insertQuoted(key)
    }
    if state.searchQuery != nil { return handleViSearchKey(key) }
    if viMode == .command {
      if case .text(let text) = key, text.count > 1 {
        // Keys typed fast arrive together; each is a command, and one of
        // them may start insert mode for the rest.
        var outcome = EditOutcome.unchanged
        for character in text {
          let next = handleVi(.text(String(character)))
          if next != .unchanged { outcome = next }
          if next != .edited && next != .unchanged { break }
        }
        return outcome
      }
      return handleViCommandKey(key)
    }
    return handleViInsertKey(key)
  }

  // MARK: - Insert and replace mode

  private mutating func handleViInsertKey(_ key: Key) -> EditOutcome {
    let previous = lastAction
    lastAction = .other
    switch key {
    case .escape: return leaveInsertMode(after: previous)
    case .alt(let character):
      // Esc and a key in one read: readline reads them as Esc, then the
      // key in command mode.
      let left = leaveInsertMode(after: previous)
      guard !character.isASCII || !(character.asciiValue! < 0x20 || character == "\u{7F}") else {
        return left
      }
      let next = handleViCommandKey(.text(String(character)))
      return next == .unchanged ? left : next
    case .text(let text) where viMode == .replace: return overwrite(with: text)
    case .backspace, .control("h"):
      if viMode == .replace { return restoreOverwritten() }
      return run(.backwardDeleteChar, after: previous)
    case .control("v"):
      vi?.isQuotedInsertPending = true
      return .unchanged
    case .control("w"): return rubOutViWord(after: previous)
    case .control("d"): return endOfInputOrAccept()
    case .control("_"): return undo()
    // Bound to completion in readline's vi-insert keymap; a note has
    // nothing to complete.
    case .control("n"), .control("p"), .control("\\"): return .unchanged
    case .control(let name):
      if Self.viInsertControlKeys.contains(name), let command = EditCommand(key) {
        return run(command, after: previous)
      }
      // Readline's vi-insert keymap types the other control characters
      // into the line as they are.
      guard let character = Self.controlCharacter(name) else { return .unchanged }
      return selfInsert(String(character))
    default:
      guard let command = EditCommand(key) else { return .unchanged }
      return run(command, after: previous)
    }
  }

  /// The control keys readline's vi-insert keymap binds as emacs mode
  /// does (beside those handled on their own above).
  private static let viInsertControlKeys: [Character] = [
    "c", "i", "j", "m", "r", "s", "t", "u", "y", "z",
  ]

  /// The control character Ctrl held with `name` makes (`a` is U+0001).
  private static func controlCharacter(_ name: Character) -> Character? {
    guard let ascii = name.asciiValue else { return nil }
    switch ascii {
    case UInt8(ascii: "a")...UInt8(ascii: "z"):
      return Character(Unicode.Scalar(ascii - UInt8(ascii: "a") + 1))
    case UInt8(ascii: "["), UInt8(ascii: "\\"), UInt8(ascii: "]"), UInt8(ascii: "^"),
      UInt8(ascii: "_"):
      return Character(Unicode.Scalar(ascii - 0x40))
    default: return nil
    }
  }

  /// Ctrl-V's next key, into the text as it is: Ctrl-V Ctrl-J types a
  /// newline.
  private mutating func insertQuoted(_ key: Key) -> EditOutcome {
    lastAction = .other
    let text: String
    switch key {
    case .text(let typed), .paste(let typed): text = typed
    case .enter: text = "\n"
    case .escape: text = "\u{1B}"
    case .backspace: text = "\u{7F}"
    case .control(let name):
      guard let character = Self.controlCharacter(name) else { return .unchanged }
      text = String(character)
    default: return .unchanged
    }
    if viMode == .replace { return overwrite(with: text) }
    return selfInsert(text)
  }

  /// Esc in insert or replace mode: the session ends (one undo step), what
  /// it typed is kept for `.`, and the cursor steps back onto the last
  /// Character typed, as vi's does.
  private mutating func leaveInsertMode(after previous: LastAction) -> EditOutcome {
    guard let state = vi else { return .unchanged }
    var typed = cursor..<cursor
    if viMode == .replace {
      typed = Swift.max(cursor - state.overwritten.count, 0)..<cursor
    } else if let inserted = undoHistory.newestInsertion, inserted.end <= buffer.count {
      // What readline's undo list has on top, when it is an insert: the
      // session's last run of typing (see `UndoHistory.typingRoom(at:)`).
      typed = inserted.start..<inserted.end
    }
    let typedCount = typed.count
    vi?.lastInsertedText = typed.isEmpty ? "" : buffer.slice(typed).string
    if state.lastChange == nil && typedCount > 0 {
      // The session vi starts in is an `i` for `.`, as in readline; the
      // note the prompt opened with was not typed in it (`read -i`'s text is
      // in readline's).
      vi?.lastChange = ViCommand(count: nil, action: .insert(.atCursor))
    }
    // A session a command began is one undo step even when it changed
    // nothing, as readline's undo group is; the session vi starts in is
    // none of readline's (it opens no group there).
    undoHistory.endGroup(keepingEmpty: state.lastChange != nil, cursor: cursor)
    setViMode(.command)
    vi?.overwritten = []
    if cursor > 0 { cursor -= 1 }
    return .edited
  }

  /// Starts an insert session at the cursor; the undo group the command
  /// opened stays open until Esc. While `.` repeats a change, the text of
  /// the last session is typed instead, and command mode stays.
  private mutating func startInserting(_ mode: ViMode = .insert) -> EditOutcome {
    guard let state = vi else { return .unchanged }
    if state.isRepeating {
      if !state.lastInsertedText.isEmpty {
        replace(cursor..<cursor, with: state.lastInsertedText)
      }
      undoHistory.endGroup(keepingEmpty: true, cursor: cursor)
      return .edited
    }
    setViMode(mode)
    vi?.overwritten = []
    return .edited
  }

  /// Typing in replace mode: each Character takes the place of the one
  /// under the cursor, or goes at the end past the last.
  private mutating func overwrite(with text: String) -> EditOutcome {
    for character in text {
      if cursor < buffer.count {
        vi?.overwritten.append(buffer[cursor])
        // The new Character goes in before the old one goes, as in
        // readline: undoing the session then puts the cursor where it
        // began.
        replace(cursor..<cursor, with: String(character))
        replace(cursor..<cursor + 1, with: "")
      } else {
        vi?.overwritten.append(nil)
        replace(cursor..<cursor, with: String(character))
      }
    }
    return text.isEmpty ? .unchanged : .edited
  }

  /// Backspace in replace mode: back one, putting back what was typed
  /// over; nothing before where replacing began.
  private mutating func restoreOverwritten() -> EditOutcome {
    guard cursor > 0, let original = vi?.overwritten.popLast() else { return .unchanged }
    let position = cursor - 1
    if let original {
      replace(position..<cursor, with: String(original))
    } else {
      replace(position..<cursor, with: "")
    }
    cursor = position
    return .edited
  }

  /// Ctrl-D: end of input on an empty line; on any other, readline's vi
  /// mode accepts the line.
  private func endOfInputOrAccept() -> EditOutcome {
    buffer.isEmpty ? .endOfInput : .submit
  }

  /// Ctrl-W in vi mode (readline's vi-unix-word-rubout): back over the
  /// run before the cursor of word Characters, or of blanks and ASCII
  /// punctuation, as readline tells them (`_` is punctuation here, a
  /// letter beyond ASCII a word Character); at the end of the line, over
  /// blanks first. Where a word starts right after the cursor, only the
  /// punctuation before it goes; on punctuation after a word, nothing.
  private mutating func rubOutViWord(after previous: LastAction) -> EditOutcome {
    func isBoundary(_ index: Int) -> Bool {
      guard index < buffer.count, let ascii = buffer[index].asciiValue else { return false }
      return ascii == 0x20 || ascii == 0x09
        || (0x21...0x7E).contains(ascii)
          && !(ascii >= 0x30 && ascii <= 0x39) && !(ascii >= 0x41 && ascii <= 0x5A)
          && !(ascii >= 0x61 && ascii <= 0x7A)
    }
    func isBlank(_ index: Int) -> Bool {
      index < buffer.count && (buffer[index] == " " || buffer[index] == "\t")
    }
    var start = cursor
    if start > 0 && start == buffer.count && isBlank(start - 1) {
      start -= 1
      while start > 0 && isBlank(start) { start -= 1 }
    }
    if start > 0 && !isBoundary(start) && isBoundary(start - 1) { start -= 1 }
    if start > 0 && isBoundary(start) {
      while start > 0 && isBoundary(start - 1) { start -= 1 }
    } else {
      while start > 0 && !isBoundary(start - 1) { start -= 1 }
    }
    return kill(start..<cursor, .backward, after: previous)
  }

  // MARK: - Command mode

  private mutating func handleViCommandKey(_ key: Key) -> EditOutcome {
    guard var state = vi else { return .unchanged }
    let previous = lastAction
    lastAction = .other
    if case .alt(let character) = key {
      // Esc then the key: Esc drops the keys of a command being typed.
      state.parser.reset()
      vi = state
      return handleVi(.text(String(character)))
    }
    let result = state.parser.parse(key)
    vi = state
    guard case .command(let command) = result else { return .unchanged }
    // A put with nothing to put is not remembered, as in readline.
    var putsNothing = false
    if case .put = command.action, killRing.current == nil { putsNothing = true }
    if Self.isRepeatable(command.action) && !putsNothing {
      vi?.lastChange = command
    }
    let outcome = execute(command, after: previous)
    // Readline checks the cursor after a command that did its work; `p`
    // with nothing to put fails after moving right, and stays there.
    if !putsNothing {
      keepCursorOnCharacter()
    }
    return outcome
  }

  /// In command mode the cursor stands on a Character: past the end it
  /// steps back onto the last (readline checks after every command).
  private mutating func keepCursorOnCharacter() {
    if keepsCursorOnCharacter && cursor > 0 && cursor >= buffer.count {
      cursor = buffer.count - 1
    }
  }

  /// Whether `.` repeats the command: those readline's vi mode remembers
  /// (its keys `a A c C d D i I p P r R s S x X y Y ~`).
  private static func isRepeatable(_ action: ViCommand.Action) -> Bool {
    switch action {
    case .apply, .applyToLine, .insert, .deleteCharacters, .deleteCharactersBefore,
      .substituteCharacters, .replaceCharacters, .replaceMode, .toggleCase, .put:
      true
    case .move, .undo, .revertLine, .repeatLastChange, .history, .startSearch, .searchAgain,
      .editInEditor, .edit:
      false
    }
  }

  private mutating func execute(_ command: ViCommand, after previous: LastAction) -> EditOutcome {
    let count = command.count ?? 1
    switch command.action {
    case .move(let motion):
      guard let motion = resolved(motion) else { return .unchanged }
      let line = ViLine(buffer, withTrailingBlank: false)
      return moveCursor(to: motion.destination(from: cursor, count: count, in: line))
    case .apply(let op, let motion): return apply(op, motion, count: count)
    case .applyToLine(let op): return applyToLine(op)
    case .insert(let place):
      moveCursor(toInsertAt: place)
      undoHistory.beginGroup()
      return startInserting()
    case .deleteCharacters:
      guard cursor < buffer.count else { return .unchanged }
      return killForVi(cursor..<Swift.min(cursor + count, buffer.count))
    case .deleteCharactersBefore:
      guard cursor > 0 else { return .unchanged }
      return killForVi(Swift.max(cursor - count, 0)..<cursor)
    case .substituteCharacters: return apply(.change, .right, count: count)
    case .replaceCharacters(let character): return replaceCharacters(with: character, count: count)
    case .replaceMode:
      undoHistory.beginGroup()
      return startInserting(.replace)
    case .toggleCase: return toggleCase(count: count)
    case .put(let afterCursor): return put(afterCursor: afterCursor, count: count)
    case .undo:
      var outcome = EditOutcome.unchanged
      for _ in 0..<count where undo() == .edited { outcome = .edited }
      return outcome
    case .revertLine:
      var outcome = EditOutcome.unchanged
      while undo() == .edited { outcome = .edited }
      // At the start of the line, as readline leaves it; where it was when
      // there was nothing to take back.
      if outcome == .edited { cursor = 0 }
      return outcome
    case .repeatLastChange: return repeatLastChange(count: command.count)
    case .history(let older): return moveThroughVersions(older: older, count: count)
    case .startSearch(let olderFirst):
      vi?.searchQuery = ""
      vi?.searchOlderFirst = olderFirst
      return .edited
    case .searchAgain(let reversed):
      guard let query = vi?.lastSearchQuery, let olderFirst = vi?.searchOlderFirst else {
        return .unchanged
      }
      return searchVersions(for: query, olderFirst: reversed ? !olderFirst : olderFirst)
    case .editInEditor: return .editInEditor(text)
    case .edit(let editCommand):
      switch editCommand {
      case .deleteCharOrEndOfInput: return endOfInputOrAccept()
      case .unixWordRubout: return rubOutViWord(after: previous)
      default: return run(editCommand, after: previous)
      }
    }
  }

  /// Puts the cursor where `i a I A` insert.
  private mutating func moveCursor(toInsertAt place: ViInsertPlace) {
    switch place {
    case .atCursor: break
    case .afterCursor: if cursor < buffer.count { cursor += 1 }
    case .lineStart: cursor = 0
    case .lineEnd: cursor = buffer.count
    }
  }

  /// `motion` with `;` and `,` made the search they repeat (nil when no
  /// search was made yet); an `f F t T` is remembered for them.
  private mutating func resolved(_ motion: ViMotion) -> ViMotion? {
    switch motion {
    case .find(var search):
      // `.` searches for the character searched for last, whatever the
      // change searched for, as readline's does: its redo reads no
      // character and takes the last one any `f F t T` read.
      if vi?.isRepeating == true, let last = vi?.lastFind { search.target = last.target }
      vi?.lastFind = search
      return .find(search)
    case .repeatFind(let reversed):
      guard let last = vi?.lastFind else { return nil }
      return .find(reversed ? last.reversed : last)
    default: return motion
    }
  }

  /// `d c y` over a motion, over the text readline's vi mode takes: from
  /// the cursor to where the motion lands, with that Character too for a
  /// motion forward that is not exclusive (`de`, `df,`), and `cw` as `ce`.
  private mutating func apply(_ op: ViOperator, _ motion: ViMotion, count: Int) -> EditOutcome {
    // Whether the motion takes its last Character is read from its key, as
    // readline reads it: `;` and `,` do, whichever way they go.
    let isExclusive = motion.isExclusive
    guard let motion = resolved(motion) else { return .unchanged }
    let start = cursor
    let extended = ViLine(buffer, withTrailingBlank: true)
    var point = Swift.min(
      motion.destination(from: start, count: count, in: extended), buffer.count)
    // A motion that went nowhere makes `d` and `y` fail; `c` goes on, as
    // readline's does: it changes the Character under the cursor when the
    // motion would have taken it (`c;` with nothing found), else nothing,
    // and starts insert mode.
    if point == start && op != .change { return .unchanged }
    // The blank is gone once the motion has run, as in readline: what
    // follows reads the line as it is.
    let line = ViLine(buffer, withTrailingBlank: false)
    let isWordMotion: Bool
    if case .nextWordStart = motion { isWordMotion = true } else { isWordMotion = false }
    if isWordMotion && point < buffer.count && point > start && !line.isBlank(point) {
      // `w` lands on the next word: the operator stops before it.
      point -= 1
    }
    if isWordMotion && op == .change && point >= start {
      // `cw` changes the word, not the blanks after it (as `ce`).
      while point > start && line.isBlank(point) { point -= 1 }
      if point == start {
        point = Swift.min(point + 1, buffer.count)
      } else if point < buffer.count - 1 && !line.isBlank(point) {
        point += 1
      }
    }
    let lower = Swift.min(point, start)
    var upper = Swift.max(point, start)
    // `cw` and `cW` stop where the word ends; `dw` takes what `w` passed.
    let isInclusive = !isExclusive && !(isWordMotion && op == .change)
    if isInclusive && point >= start && upper < buffer.count { upper += 1 }
    return operate(op, on: lower..<upper)
  }

  /// `dd cc yy` (and `S`): the whole line.
  private mutating func applyToLine(_ op: ViOperator) -> EditOutcome {
    if buffer.isEmpty {
      guard op == .change else { return .unchanged }
      undoHistory.beginGroup()
      return startInserting()
    }
    return operate(op, on: 0..<buffer.count)
  }

  private mutating func operate(_ op: ViOperator, on range: Range<Int>) -> EditOutcome {
    switch op {
    case .yank:
      killRing.add(buffer.slice(range), .forward, continuingLastKill: false)
      return .unchanged
    case .delete:
      return killForVi(range)
    case .change:
      undoHistory.beginGroup()
      if vi?.isRepeating == true {
        // `.` deletes what it changes again without keeping it, as
        // readline's does: the kill ring keeps what the change itself cut.
        replace(range, with: "")
      } else if !range.isEmpty {
        _ = killForVi(range)
      }
      return startInserting()
    }
  }

  /// Deletes `range` into the kill ring as a kill of its own: vi's deletes
  /// never join the one before.
  private mutating func killForVi(_ range: Range<Int>) -> EditOutcome {
    guard !range.isEmpty else { return .unchanged }
    killRing.add(buffer.slice(range), .forward, continuingLastKill: false)
    replace(range, with: "")
    cursor = range.lowerBound
    return .edited
  }

  /// `r`: the `count` Characters from the cursor on (as many as there
  /// are) become `character`, one undo step; the cursor on the last. Each
  /// replaced Character is a kill of its own, which `p` puts back.
  private mutating func replaceCharacters(with character: Character, count: Int) -> EditOutcome {
    guard cursor < buffer.count else {
      // On an empty line readline still opens and closes its undo group:
      // one step that `u` takes back to no effect.
      undoHistory.beginGroup()
      undoHistory.endGroup(keepingEmpty: true, cursor: cursor)
      return .unchanged
    }
    let last = Swift.min(cursor + count, buffer.count) - 1
    undoHistory.beginGroup()
    for position in cursor...last {
      // Readline deletes each one as `x` does, into the kill ring.
      _ = killForVi(position..<position + 1)
      replace(position..<position, with: String(character))
    }
    undoHistory.endGroup()
    cursor = last
    return .edited
  }

  /// `~`: the case of `count` Characters from the cursor on swapped (each
  /// its own undo step and its own kill, as readline makes them), the
  /// cursor past them; at the last Character the cursor stays.
  private mutating func toggleCase(count: Int) -> EditOutcome {
    guard cursor < buffer.count else { return .unchanged }
    for _ in 0..<count {
      let position = cursor
      let character = buffer[position]
      let toggled = ViCase.toggled(character)
      if toggled != character {
        // Readline deletes the Character as `x` does, into the kill ring,
        // and types the other case.
        undoHistory.beginGroup()
        _ = killForVi(position..<position + 1)
        replace(position..<position, with: String(toggled))
        undoHistory.endGroup()
      }
      // On the last Character the cursor stays, and a count left over
      // swaps it again, as readline's does.
      cursor = Swift.min(position + 1, buffer.count - 1)
    }
    return .edited
  }

  /// `p` and `P`: the last kill (or yank), `count` times (each its own undo
  /// step), after or at the cursor; the cursor on the last Character put.
  private mutating func put(afterCursor: Bool, count: Int) -> EditOutcome {
    if afterCursor && cursor < buffer.count { cursor += 1 }
    guard let text = killRing.current else { return .edited }
    for _ in 0..<count {
      replace(cursor..<cursor, with: text)
    }
    if cursor > 0 { cursor -= 1 }
    return .edited
  }

  /// `.`: the last change again, with its count or the one typed now.
  /// After an insert command, its text is typed `count` times (at the place
  /// the command inserts at) and the cursor steps back onto the last
  /// Character; after a change (`c`, `s`, `S`, `C`), its text replaces
  /// what the change deletes.
  private mutating func repeatLastChange(count explicitCount: Int?) -> EditOutcome {
    guard let state = vi, let last = state.lastChange else { return .unchanged }
    let text = state.lastInsertedText
    switch last.action {
    case .insert(let place) where !text.isEmpty:
      moveCursor(toInsertAt: place)
      undoHistory.beginGroup()
      for _ in 0..<(explicitCount ?? 1) { replace(cursor..<cursor, with: text) }
      undoHistory.endGroup()
      if cursor > 0 { cursor -= 1 }
      return .edited
    case .replaceMode where !text.isEmpty:
      undoHistory.beginGroup()
      for _ in 0..<(explicitCount ?? 1) { _ = overwrite(with: text) }
      undoHistory.endGroup()
      vi?.overwritten = []
      if cursor > 0 { cursor -= 1 }
      return .edited
    case .insert, .replaceMode:
      // Nothing was typed: the command itself again, into insert mode.
      return execute(last, after: .other)
    default:
      var command = last
      if let explicitCount {
        command.count = explicitCount
        // The count typed to `.` is the one the next `.` repeats, as in
        // readline.
        vi?.lastChange?.count = explicitCount
      }
      vi?.isRepeating = true
      defer { vi?.isRepeating = false }
      return execute(command, after: .other)
    }
  }

  // MARK: - Versions

  /// `k -` and `j +`: `count` versions older or newer (as far as there
  /// are), the cursor at the start of the line, as readline's command mode
  /// puts it; back on the line being edited, where it was.
  private mutating func moveThroughVersions(older: Bool, count: Int) -> EditOutcome {
    let target =
      older
      ? Swift.min(browser.position + count, browser.oldest)
      : Swift.max(browser.position - count, 0)
    return showVersion(target)
  }

  /// Shows entry `index`, the cursor as `moveThroughVersions` puts it.
  private mutating func showVersion(_ index: Int) -> EditOutcome {
    guard index != browser.position else { return .unchanged }
    if browser.position == 0 { vi?.lineCursor = cursor }
    _ = moveToEntry(index)
    cursor = index == 0 ? Swift.min(vi?.lineCursor ?? 0, buffer.count) : 0
    return .edited
  }

  // MARK: - Searching

  /// What the edit line shows while a search text is typed after `/` or
  /// `?`: the key, then the text.
  var viSearchLine: SearchLine? {
    guard let vi, let query = vi.searchQuery else { return nil }
    let line = TextBuffer(query)
    return SearchLine(
      prompt: vi.searchOlderFirst ? "/" : "?", buffer: line, cursor: line.count, match: nil)
  }

  /// A key while the search text is typed: text adds to it, Backspace
  /// takes back (and on an empty text ends the search), Ctrl-W and Ctrl-U
  /// take back a word or all, Enter searches, Esc and Ctrl-G give up.
  private mutating func handleViSearchKey(_ key: Key) -> EditOutcome {
    guard var query = vi?.searchQuery else { return .unchanged }
    switch key {
    case .text(let text), .paste(let text): query += text
    case .backspace, .control("h"):
      guard !query.isEmpty else {
        vi?.searchQuery = nil
        return .edited
      }
      query.removeLast()
    case .control("u"): query = ""
    case .control("w"):
      while query.last.map({ ViCharacterClass($0) == .blank }) == true { query.removeLast() }
      while query.last.map({ ViCharacterClass($0) != .blank }) == true { query.removeLast() }
    case .enter:
      vi?.searchQuery = nil
      if !query.isEmpty { vi?.lastSearchQuery = query }
      guard let search = vi?.lastSearchQuery, let olderFirst = vi?.searchOlderFirst else {
        return .edited
      }
      let outcome = searchVersions(for: search, olderFirst: olderFirst)
      keepCursorOnCharacter()
      return outcome == .unchanged ? .edited : outcome
    case .escape, .control("g"):
      vi?.searchQuery = nil
      return .edited
    default: return .unchanged
    }
    vi?.searchQuery = query
    return .edited
  }

  /// Shows the nearest version, older or newer than the entry on screen,
  /// whose text holds `query` (starts with it when it begins with `^`),
  /// the cursor at the start of the line; a search that finds none leaves
  /// the line and puts the cursor at its start, as readline does.
  private mutating func searchVersions(for query: String, olderFirst: Bool) -> EditOutcome {
    let anchored = query.hasPrefix("^")
    let needle = Array((anchored ? query.dropFirst() : Substring(query)).utf8)
    var index = browser.position + (olderFirst ? 1 : -1)
    while index >= 1 && index <= browser.oldest {
      if IncrementalSearch.contains(needle, in: browser.text(of: index), anchored: anchored) {
        _ = showVersion(index)
        cursor = 0
        return .edited
      }
      index += olderFirst ? 1 : -1
    }
    return moveCursor(to: 0)
  }
}
