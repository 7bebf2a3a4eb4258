/// The line editor's state as a plain value: the text, the cursor, the kill
/// ring and the undo history. Keys go in through ``handle(_:)``; no terminal is
/// involved, so every binding can be tested alone.
///
/// Keys are bound as in GNU readline's emacs mode. Positions count `Character`s
/// (grapheme clusters), never bytes or code points.
public struct EditState: Sendable {
  /// What the previous key did, for the commands whose effect depends on it.
  private enum LastAction: Sendable {
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

  /// The text, for the renderer to read.
  ///
  /// Read it, don't keep it: a copy still alive when the next key is handled
  /// makes that edit copy the whole text.
  public private(set) var buffer: TextBuffer
  /// Where the cursor is: before the Character at this index, or at the end
  /// when it equals `buffer.count`. Set from outside only by tests and the
  /// latency benchmark (bench/latency), to put it anywhere in `0...buffer.count`.
  public internal(set) var cursor: Int
  private var killRing = KillRing()
  private var history = UndoHistory()
  private var lastAction = LastAction.other

  /// Starts editing `text`, with the cursor at its end and nothing to undo.
  public init(text: String) {
    buffer = TextBuffer(text)
    cursor = buffer.count
  }

  /// The edited text. O(n): call it when saving, not on every key.
  public var text: String { buffer.string }

  /// Whether the text is empty.
  public var isEmpty: Bool { buffer.isEmpty }

  /// Applies one key; returns what the session must do next.
  public mutating func handle(_ key: Key) -> EditOutcome {
    let previous = lastAction
    // Any key ends a run of typing, kills or yanks unless it continues it.
    lastAction = .other
    guard let command = EditCommand(key) else { return .unchanged }
    return run(command, after: previous)
  }

  private mutating func run(_ command: EditCommand, after previous: LastAction) -> EditOutcome {
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
    }
  }

  // MARK: - Editing

  /// Replaces `range` with `text`, records that for undo and puts the cursor
  /// after the new text.
  @discardableResult
  private mutating func replace(
    _ range: Range<Int>, with text: String, joiningLastUndoStep: Bool = false
  ) -> TextBuffer.Change {
    record(buffer.replace(range, with: text), joiningLastUndoStep: joiningLastUndoStep)
  }

  /// The same for text already in the buffer's form: a kill or undone text.
  @discardableResult
  private mutating func replace(
    _ range: Range<Int>, with text: TextBuffer, joiningLastUndoStep: Bool = false
  ) -> TextBuffer.Change {
    record(buffer.replace(range, with: text), joiningLastUndoStep: joiningLastUndoStep)
  }

  /// Records `change`, just made, for undo and puts the cursor after its new text.
  private mutating func record(
    _ change: TextBuffer.Change, joiningLastUndoStep: Bool
  ) -> TextBuffer.Change {
    history.record(change, cursorBefore: cursor, joiningLastStep: joiningLastUndoStep)
    cursor = change.endOfNewText
    return change
  }

  private mutating func selfInsert(_ text: String, after previous: LastAction) -> EditOutcome {
    guard !text.isEmpty else { return .unchanged }
    var runLength = 0
    if case .typing(let length) = previous, length < Self.typingRunLimit {
      runLength = length
    }
    replace(cursor..<cursor, with: text, joiningLastUndoStep: runLength > 0)
    lastAction = .typing(runLength: runLength + text.count)
    return .edited
  }

  private mutating func deleteChar() -> EditOutcome {
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

  private mutating func undo() -> EditOutcome {
    guard let step = history.popLast() else { return .unchanged }
    _ = buffer.replace(step.position..<step.position + step.insertedCount, with: step.removed)
    cursor = step.cursorBefore
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
  private mutating func kill(
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

  private mutating func moveCursor(to position: Int) -> EditOutcome {
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
}
