/// Scalars that are a Character of their own next to one another: between two
/// of them there is always a Character boundary, so text made only of them
/// can be cut into Characters without asking the standard library.
///
/// Each is of Unicode's grapheme cluster break class Other or Control (but
/// CR), and none is a mark, a joiner, a regional indicator, a Hangul jamo or
/// an Indic conjunct consonant: no rule of UAX #29 joins two of them (the
/// standard library's own shortcut rests on the same fact for a similar
/// list). The list holds the blocks notes are most often written in;
/// everything else goes the slow way. The tests check every scalar of it
/// against the standard library.
enum StandaloneScalars {
  /// Whether the scalar `value` is one of them.
  static func contains(_ value: UInt32) -> Bool {
    switch value {
    // ASCII but CR, Latin-1, Latin Extended-A and -B, IPA, spacing modifiers.
    case 0x0000...0x000C, 0x000E...0x02FF: true
    // CJK unified ideographs (the main block, then extension A).
    case 0x4E00...0x9FFF, 0x3400...0x4DBF: true
    // Hiragana and Katakana, without their combining sound marks.
    case 0x3041...0x3096, 0x30A1...0x30FA: true
    // Greek and Coptic (assigned, no combining marks); Cyrillic up to its
    // combining marks.
    case 0x0370...0x0377, 0x037A...0x037F, 0x0384...0x038A, 0x038C, 0x038E...0x03A1,
      0x03A3...0x03FF, 0x0400...0x0482:
      true
    // General punctuation: dashes, quotes, bullets, ellipsis.
    case 0x2010...0x2027: true
    // Precomposed Hangul syllables.
    case 0xAC00...0xD7A3: true
    default: false
    }
  }
}
