/// What the word commands need to know of a Character: whether it is part of
/// a word (readline's words are runs of letters and digits) and whether it is
/// whitespace (unix-word-rubout's words are runs of anything else).
///
/// A Character has exactly one of `word` and `nonWord`, one of
/// `whitespace` and `nonWhitespace`, and one of vi's three classes. A set of them summarises a run of text:
/// a chunk whose kinds are only `word` holds no place where a word ends, so a
/// word move can pass it whole without reading its Characters.
struct CharacterKinds: OptionSet, Sendable {
  let rawValue: UInt8

  static let word = CharacterKinds(rawValue: 1)
  static let nonWord = CharacterKinds(rawValue: 2)
  static let whitespace = CharacterKinds(rawValue: 4)
  static let nonWhitespace = CharacterKinds(rawValue: 8)
  /// vi mode's classes (`ViCharacterClass`): a Character has exactly one
  /// of them. Their summary lets vi's word moves pass a chunk whole too.
  static let viWord = CharacterKinds(rawValue: 16)
  static let viPunctuation = CharacterKinds(rawValue: 32)
  static let viBlank = CharacterKinds(rawValue: 64)
  private static let viClasses: CharacterKinds = [.viWord, .viPunctuation, .viBlank]
  /// Every kind: no summary of more text can say more.
  static let all: CharacterKinds = [
    .word, .nonWord, .whitespace, .nonWhitespace, .viWord, .viPunctuation, .viBlank,
  ]

  /// The kinds of `character`.
  init(_ character: Character) {
    let word: CharacterKinds = character.isLetter || character.isNumber ? .word : .nonWord
    let vi: CharacterKinds =
      switch ViCharacterClass(character) {
      case .word: .viWord
      case .punctuation: .viPunctuation
      case .blank: .viBlank
      }
    rawValue =
      word.rawValue | (character.isWhitespace ? Self.whitespace : .nonWhitespace).rawValue
      | vi.rawValue
  }

  /// The other answers to the same questions: `nonWord` for `word`,
  /// `whitespace` for `nonWhitespace`, and so on for each member; for vi's
  /// classes here, the vi classes not here (`viBlank` for a run of
  /// non-blanks, `[.viWord, .viPunctuation]`). A run of text holds only
  /// Characters of these kinds when it holds none of their opposite.
  var opposite: CharacterKinds {
    let vi = rawValue & Self.viClasses.rawValue
    let otherVi = vi == 0 ? 0 : Self.viClasses.rawValue & ~vi
    return CharacterKinds(
      rawValue: (rawValue & 0b0101) << 1 | (rawValue & 0b1010) >> 1 | otherVi)
  }

  init(rawValue: UInt8) {
    self.rawValue = rawValue
  }

  /// The kinds of each one-byte Character (an ASCII scalar alone), by byte:
  /// made from the definition above, so the table cannot disagree with it.
  static let ofASCII: [CharacterKinds] = (0..<128).map {
    CharacterKinds(Character(Unicode.Scalar(UInt8($0))))
  }
}
