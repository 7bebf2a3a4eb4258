/// One command of vi's command mode as plain data: a count and what to do,
/// made from keys by `ViCommandParser` and carried out by `EditState` on its
/// text. The parser knows no text, the text no keys.
struct ViCommand: Equatable, Sendable {
  /// The count typed before the command (`3` in `3x`; `6` in `2d3w`, the
  /// two counts multiplied), nil when none was typed: `.` tells "no count"
  /// (repeat the last one) from a count of 1.
  var count: Int?
  var action: Action

  /// What a command does.
  enum Action: Equatable, Sendable {
    /// A motion alone: the cursor moves.
    case move(ViMotion)
    /// `d c y` followed by a motion; `D C Y` (to the end of the line).
    case apply(ViOperator, ViMotion)
    /// `dd cc yy`, and `S`: the operator on the whole line.
    case applyToLine(ViOperator)
    /// `i a I A`: insert mode, at the cursor, after it, at the start or
    /// at the end of the line.
    case insert(ViInsertPlace)
    /// `x`: delete the characters from the cursor on.
    case deleteCharacters
    /// `X`: delete the characters before the cursor.
    case deleteCharactersBefore
    /// `s`: delete the characters from the cursor on, then insert mode.
    case substituteCharacters
    /// `r`: replace the characters from the cursor on with this one.
    case replaceCharacters(Character)
    /// `R`: replace mode, where typing overwrites.
    case replaceMode
    /// `~`: swap upper and lower case, moving right.
    case toggleCase
    /// `P` (before the cursor) and `p` (after it): put back the last
    /// deleted or yanked text.
    case put(afterCursor: Bool)
    /// `u`: undo the last change (a whole insert session is one).
    case undo
    /// `U`: undo every change to the line.
    case revertLine
    /// `.`: do the last change again.
    case repeatLastChange
    /// `k -` (older) and `j +` (newer): through the versions.
    case history(older: Bool)
    /// `/` (older versions first) and `?` (newer first): read a text to
    /// search the versions for.
    case startSearch(olderFirst: Bool)
    /// `n` (the last search again) and `N` (the other way).
    case searchAgain(reversed: Bool)
    /// `v`: the line in the user's editor (as Ctrl-X Ctrl-E).
    case editInEditor
    /// A key command mode shares with insert mode (Enter, Ctrl-C, Ctrl-U...).
    case edit(EditCommand)
  }
}

/// vi's three operators.
enum ViOperator: Equatable, Sendable {
  /// `d`: delete, into the kill ring.
  case delete
  /// `c`: delete, then insert mode.
  case change
  /// `y`: copy into the kill ring.
  case yank
}

/// Where `i a I A` start inserting.
enum ViInsertPlace: Equatable, Sendable {
  /// `i`: at the cursor.
  case atCursor
  /// `a`: after the character under the cursor.
  case afterCursor
  /// `I`: at the start of the line.
  case lineStart
  /// `A`: at the end of the line.
  case lineEnd
}
