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

    /// Index of the first Character the step changed.
    var position: Int { change.position }
    /// The text that stood at `position` before the step.
    var removed: TextBuffer { change.removed }
    /// How many Characters the step left at `position` in place of `removed`.
    var insertedCount: Int { change.insertedCount }
  }

  private var steps: [Step] = []
  /// Whether a group is open: the steps recorded join it.
  private var isGroupOpen = false
  /// Whether the open group has a step yet.
  private var groupHasSteps = false

  /// Whether there is nothing to undo.
  var isEmpty: Bool { steps.isEmpty }

  /// Records `change`, made with the cursor at `cursorBefore`.
  ///
  /// With `joiningLastStep`, the change becomes part of the newest step, so
  /// that one undo takes both back (a run of typing, a yank and its yank-pops);
  /// that needs the change to touch the text the step left, which it does when
  /// it was made where the step ended, and it starts a step of its own when not.
  mutating func record(_ change: TextBuffer.Change, cursorBefore: Int, joiningLastStep: Bool) {
    if joiningLastStep, let last = steps.last, let joined = last.change.followed(by: change) {
      steps[steps.count - 1].change = joined
    } else {
      steps.append(
        Step(
          change: change, cursorBefore: cursorBefore,
          continuesGroup: isGroupOpen && groupHasSteps))
    }
    if isGroupOpen { groupHasSteps = true }
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
    }
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
