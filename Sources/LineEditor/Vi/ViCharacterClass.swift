/// How readline's vi mode sorts characters into words: letters, digits and
/// `_` of ASCII make words; a space or a tab is blank; everything else,
/// including every non-ASCII Character and a newline, is punctuation, as
/// readline (which tests bytes with `isalnum` and `isblank`-like checks)
/// sees it.
enum ViCharacterClass: Equatable, Sendable {
  case word
  case blank
  case punctuation

  init(_ character: Character) {
    guard let ascii = character.asciiValue else {
      self = .punctuation
      return
    }
    switch ascii {
    case UInt8(ascii: " "), UInt8(ascii: "\t"): self = .blank
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
      self = .word
    default: self = .punctuation
    }
  }
}
