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
    /// Index of the first Character the step changed.
    var position: Int
    /// The text that stood at `position` before the step.
    var removed: String
    /// How many Characters `removed` holds.
    var removedCount: Int
    /// How many Characters the step left at `position` in place of `removed`.
    var insertedCount: Int
    /// Where the cursor was before the step.
    var cursorBefore: Int
  }

  private var steps: [Step] = []

  /// Whether there is nothing to undo.
  var isEmpty: Bool { steps.isEmpty }

  /// Records `change`, made with the cursor at `cursorBefore`.
  ///
  /// With `joiningLastStep`, the change becomes part of the newest step, so
  /// that one undo takes both back (a run of typing, a yank and its yank-pops);
  /// that needs the change to touch the text the step left, which it does when
  /// it was made where the step ended, and it starts a step of its own when not.
  mutating func record(_ change: TextBuffer.Change, cursorBefore: Int, joiningLastStep: Bool) {
    if joiningLastStep, let last = steps.last, let joined = last.followed(by: change) {
      steps[steps.count - 1] = joined
    } else {
      steps.append(
        Step(
          position: change.position, removed: change.removed, removedCount: change.removedCount,
          insertedCount: change.insertedCount, cursorBefore: cursorBefore))
    }
  }

  /// Removes and returns the newest step, or nil when there is none.
  mutating func popLast() -> Step? {
    steps.popLast()
  }
}

extension UndoHistory.Step {
  /// This step and then `change` as one step, or nil when `change` does not
  /// overlap or touch the Characters this step left.
  ///
  /// `change` is in the coordinates of the text after this step. The parts of
  /// its removed text that lie outside what this step inserted were there
  /// before this step too, so they join this step's removed text on either
  /// side; everything between the two ends is what the pair left.
  fileprivate func followed(by change: TextBuffer.Change) -> Self? {
    let insertedEnd = position + insertedCount
    let changeEnd = change.position + change.removedCount
    guard change.position <= insertedEnd, changeEnd >= position else { return nil }

    var joinedRemoved = removed
    var joinedRemovedCount = removedCount
    if change.position < position || changeEnd > insertedEnd {
      let changeRemoved = Array(change.removed)
      let before = changeRemoved.prefix(max(position - change.position, 0))
      let after = changeRemoved.dropFirst(insertedEnd - change.position)
      joinedRemoved = String(before) + removed + String(after)
      joinedRemovedCount = before.count + removedCount + after.count
    }
    let start = min(position, change.position)
    let end = max(insertedEnd, changeEnd) - change.removedCount + change.insertedCount
    return Self(
      position: start, removed: joinedRemoved, removedCount: joinedRemovedCount,
      insertedCount: end - start, cursorBefore: cursorBefore)
  }
}
