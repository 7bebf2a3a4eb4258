/// The edits that undo can take back, newest last.
///
/// Each step records what an edit replaced (where, the text that was there, and
/// how many Characters took its place), never a copy of the whole text, so the
/// history's memory grows with the size of the edits and not with the note.
struct UndoHistory: Sendable {
  /// One undoable step: replacing the `insertedCount` Characters at `position`
  /// with `removed` and putting the cursor back at `cursorBefore` restores the
  /// text and cursor as they were before the step.
  struct Step: Sendable {
    /// The edit, or edits joined into one, that the step takes back.
    var change: TextBuffer.Change
    /// Where the cursor goes when the step is undone: where it was before
    /// the step (in vi mode, where readline's vi mode puts it).
    var cursorBefore: Int
    /// Whether the step belongs to the same group as the step before it,
    /// so that one undo takes both back (see `beginGroup()`).
    var continuesGroup = false
    /// Whether a group ended with this step: readline's undo list then has
    /// the group's end on top, which no later insert joins.
    var endsGroup = false
    /// The text the step inserted without removing any, when it did: what
    /// readline's undo list holds on top as an insert, which typing joins.
    var insertion: Insertion?

    /// Index of the first Character the step changed.
    var position: Int { change.position }
    /// The text that stood at `position` before the step.
    var removed: TextBuffer { change.removed }
    /// How many Characters the step left at `position` in place of `removed`.
    var insertedCount: Int { change.insertedCount }
  }

  /// Text put in at a place without removing any (typing, a yank, vi's
  /// `p`), as readline's undo list records an insert: `start..<end` in
  /// Characters, `byteCount` bytes of UTF-8.
  struct Insertion: Sendable {
    var start: Int
    var end: Int
    var byteCount: Int
  }

  /// How many bytes a step may have inserted for readline to add one more
  /// typed byte to it: readline and Emacs both stop joining typing at 20, so
  /// that undo after a long sentence does not remove all of it.
  static let joiningLimit = 20

  private var steps: [Step] = []
  /// Whether a group is open: the steps recorded join it.
  private var isGroupOpen = false
  /// Whether the open group has a step yet.
  private var groupHasSteps = false

  /// Whether there is nothing to undo.
  var isEmpty: Bool { steps.isEmpty }

  /// Records `change`, made with the cursor at `cursorBefore`; `insertion`
  /// when it put text in without removing any.
  ///
  /// The change becomes part of the newest step, so that one undo takes both
  /// back, when it is one byte that readline's undo list joins to it (see
  /// `typingRoom(at:)`), or with `joiningLastStep` (typing, a yank and its
  /// yank-pops); that needs the change to touch the text the step left,
  /// which it does when it was made where the step ended, and it starts a
  /// step of its own when not.
  mutating func record(
    _ change: TextBuffer.Change, cursorBefore: Int, insertion: Insertion?,
    joiningLastStep: Bool
  ) {
    let joinsAsTyping =
      insertion.map { $0.byteCount == 1 && typingRoom(at: $0.start) > 0 } ?? false
    if joiningLastStep || joinsAsTyping, let last = steps.last,
      let joined = last.change.followed(by: change)
    {
      steps[steps.count - 1].change = joined
      if let insertion, let before = last.insertion, before.end == insertion.start {
        steps[steps.count - 1].insertion = Insertion(
          start: before.start, end: insertion.end,
          byteCount: before.byteCount + insertion.byteCount)
      } else {
        steps[steps.count - 1].insertion = insertion
      }
    } else {
      steps.append(
        Step(
          change: change, cursorBefore: cursorBefore,
          continuesGroup: isGroupOpen && groupHasSteps, insertion: insertion))
    }
    if isGroupOpen { groupHasSteps = true }
  }

  /// How many more bytes typed at `position` readline adds to the newest
  /// step, one at a time: its `rl_insert_text` joins an insert of one byte
  /// made where the newest entry's insert ends, while that entry holds
  /// fewer than `joiningLimit` bytes and no group began or ended since.
  /// That is what makes a run of typing one step, however the keys arrive;
  /// it also joins typing to a yank or paste just before it, and vi's `p`
  /// of one Character to the `p` before it.
  func typingRoom(at position: Int) -> Int {
    guard let before = newestInsertion, before.end == position else { return 0 }
    return Swift.max(Self.joiningLimit - before.byteCount, 0)
  }

  /// The text the newest step put in, when readline's undo list has that
  /// insert on top: nil when the step removed text, or a group began or
  /// ended since.
  var newestInsertion: Insertion? {
    guard let last = steps.last, !last.endsGroup, !isGroupOpen || groupHasSteps else {
      return nil
    }
    return last.insertion
  }

  /// The leading Characters of `text`, typed at `position`, that readline's
  /// undo list takes as one entry, and whether that entry is the newest
  /// step (`typingRoom(at:)`) rather than a new one: a Character of several
  /// bytes always starts a new one, which the one-byte Characters after it
  /// join until it holds `joiningLimit` bytes.
  func typingPiece(of text: Substring, at position: Int) -> (piece: Substring, joinsNewest: Bool) {
    guard let first = text.first else { return (text, false) }
    let room = typingRoom(at: position)
    if room > 0 && first.utf8.count == 1 {
      return (text.prefix(room).prefix { $0.utf8.count == 1 }, true)
    }
    let rest = text.dropFirst().prefix(Swift.max(Self.joiningLimit - first.utf8.count, 0))
    return (text[..<rest.prefix { $0.utf8.count == 1 }.endIndex], false)
  }

  /// Opens a group: the steps recorded until `endGroup()` are undone
  /// together (vi mode's insert session, or a command of several edits).
  mutating func beginGroup() {
    isGroupOpen = true
    groupHasSteps = false
  }

  /// Closes the group `beginGroup()` opened. `keepingEmpty`: a group that
  /// changed nothing is still one step, which undo takes back to no effect
  /// (a vi insert session, as readline's undo group: `u` after an `i` and
  /// Esc with nothing typed takes back nothing, not the change before).
  mutating func endGroup(keepingEmpty: Bool = false, cursor: Int = 0) {
    if keepingEmpty && isGroupOpen && !groupHasSteps {
      steps.append(
        Step(
          change: TextBuffer.Change(
            position: cursor, removed: TextBuffer(), removedCount: 0, insertedCount: 0,
            endOfNewText: cursor),
          cursorBefore: cursor))
      groupHasSteps = true
    }
    if isGroupOpen && groupHasSteps { steps[steps.count - 1].endsGroup = true }
    isGroupOpen = false
  }

  /// Removes and returns the newest group of steps, newest first; a step
  /// of no group is a group of its own. While a group is open, its own
  /// steps are taken back one at a time (undo typed inside a vi insert
  /// session), as readline takes them.
  mutating func popGroup() -> [Step] {
    if isGroupOpen {
      guard let step = steps.popLast() else { return [] }
      if !step.continuesGroup { groupHasSteps = false }
      return [step]
    }
    var group: [Step] = []
    while let step = steps.popLast() {
      group.append(step)
      if !step.continuesGroup { break }
    }
    return group
  }
}
