/// Where a vi motion takes the cursor, as data: the keys of command mode
/// that move (`h l w b e W B E 0 ^ $ | f F t T ; ,`), alone or after an
/// operator (`d c y`). `ViMotion+Moving` finds where each one lands, as
/// readline's vi mode finds it.
enum ViMotion: Equatable, Sendable {
  /// `h`, Ctrl-H, Left.
  case left
  /// `l`, space, Right.
  case right
  /// `w` and `W`: to the start of the next word.
  case nextWordStart(ViWordKind)
  /// `b` and `B`: to the start of this word or the one before.
  case previousWordStart(ViWordKind)
  /// `e` and `E`: to the end of this word or the next.
  case wordEnd(ViWordKind)
  /// `0`, Home.
  case lineStart
  /// `^`: the first character that is not a space or a tab.
  case firstNonBlank
  /// `$`, End.
  case lineEnd
  /// `|`: the column the count names (the first when none).
  case column
  /// `f F t T` and the character to find.
  case find(ViCharacterSearch)
  /// `;` (the last `f F t T` again) and `,` (the same, the other way).
  case repeatFind(reversed: Bool)

  /// Whether an operator stops before the character the motion lands on
  /// even when it moves forward. Readline's rule: the motions that are not
  /// in this list take the character they land on too (`de`, `dfx`, `d$`).
  var isExclusive: Bool {
    switch self {
    case .left, .right, .column, .firstNonBlank, .lineStart, .previousWordStart: true
    case .find(let search): !search.isForward
    case .nextWordStart, .wordEnd, .lineEnd, .repeatFind: false
    }
  }
}

/// vi's two kinds of word: `w b e` see runs of letters, digits and `_`, and
/// runs of other non-blank characters; `W B E` see runs of non-blanks.
enum ViWordKind: Equatable, Sendable {
  case word
  case bigWord
}

/// An `f F t T` search: for which character, which way, and whether the
/// cursor stops on it (`f F`) or next to it (`t T`).
struct ViCharacterSearch: Equatable, Sendable {
  var target: Character
  var isForward: Bool
  var stopsBefore: Bool

  /// The same search the other way (`,`).
  var reversed: ViCharacterSearch {
    ViCharacterSearch(target: target, isForward: !isForward, stopsBefore: stopsBefore)
  }
}
