/// What the word commands need to know of a Character: whether it is part of
/// a word (readline's words are runs of letters and digits) and whether it is
/// whitespace (unix-word-rubout's words are runs of anything else).
///
/// A Character has exactly one of `word` and `nonWord`, and one of
/// `whitespace` and `nonWhitespace`. A set of them summarises a run of text:
/// a chunk whose kinds are only `word` holds no place where a word ends, so a
/// word move can pass it whole without reading its Characters.
struct CharacterKinds: OptionSet, Sendable {
  let rawValue: UInt8

  static let word = CharacterKinds(rawValue: 1)
  static let nonWord = CharacterKinds(rawValue: 2)
  static let whitespace = CharacterKinds(rawValue: 4)
  static let nonWhitespace = CharacterKinds(rawValue: 8)
  /// Every kind: no summary of more text can say more.
  static let all: CharacterKinds = [.word, .nonWord, .whitespace, .nonWhitespace]

  /// The two kinds of `character`.
  init(_ character: Character) {
    let word: CharacterKinds = character.isLetter || character.isNumber ? .word : .nonWord
    rawValue = word.rawValue | (character.isWhitespace ? Self.whitespace : .nonWhitespace).rawValue
  }

  /// The other answer to the same questions: `nonWord` for `word`,
  /// `whitespace` for `nonWhitespace`, and so on for each member. A run of
  /// text holds only Characters of a kind when it holds none of its opposite.
  var opposite: CharacterKinds {
    CharacterKinds(rawValue: (rawValue & 0b0101) << 1 | (rawValue & 0b1010) >> 1)
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
