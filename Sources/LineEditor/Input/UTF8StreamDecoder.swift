/// Decodes UTF-8 one byte at a time, for input that may stop in the middle of
/// a character and go on in a later read.
///
/// Ill-formed input is dropped, never repaired or replaced: a character cut
/// short is forgotten and the byte that cut it is read afresh, so `E2 82 41`
/// gives just `A` (the Unicode Standard's "maximal subpart" rule). Overlong
/// forms, surrogates and values past U+10FFFF are refused at their second byte
/// (table 3-7 of the standard), so they are never assembled at all.
struct UTF8StreamDecoder: Sendable {
  /// The bits of the scalar gathered so far.
  private var partialScalar: UInt32 = 0
  /// Continuation bytes the current character still needs; 0 between characters.
  private var continuationBytesNeeded = 0
  /// The bytes allowed next: narrower than 0x80...0xBF right after some lead bytes.
  private var allowedContinuation: ClosedRange<UInt8> = 0x80...0xBF

  /// True between the first and the last byte of a multi-byte character.
  var isInsideCharacter: Bool { continuationBytesNeeded > 0 }

  /// Forgets a partly received character.
  mutating func reset() {
    continuationBytesNeeded = 0
  }

  /// Takes the next byte. Returns the scalar it completes, or nil when it starts
  /// or continues a character, or was dropped as ill-formed.
  mutating func decode(_ byte: UInt8) -> Unicode.Scalar? {
    if continuationBytesNeeded > 0 {
      guard allowedContinuation.contains(byte) else {
        // The character was cut short: drop it, and this byte may begin the next one.
        continuationBytesNeeded = 0
        return decode(byte)
      }
      partialScalar = partialScalar << 6 | UInt32(byte & 0x3F)
      continuationBytesNeeded -= 1
      allowedContinuation = 0x80...0xBF
      return continuationBytesNeeded == 0 ? Unicode.Scalar(partialScalar) : nil
    }
    switch byte {
    case 0x00...0x7F: return Unicode.Scalar(byte)
    case 0xC2...0xDF: begin(byte & 0x1F, continuations: 1)
    case 0xE0: begin(byte & 0x0F, continuations: 2, next: 0xA0...0xBF)  // else overlong
    case 0xED: begin(byte & 0x0F, continuations: 2, next: 0x80...0x9F)  // else a surrogate
    case 0xE1...0xEF: begin(byte & 0x0F, continuations: 2)
    case 0xF0: begin(byte & 0x07, continuations: 3, next: 0x90...0xBF)  // else overlong
    case 0xF4: begin(byte & 0x07, continuations: 3, next: 0x80...0x8F)  // else past U+10FFFF
    case 0xF1...0xF3: begin(byte & 0x07, continuations: 3)
    default: break  // 0x80...0xC1 and 0xF5...0xFF never start a well-formed character
    }
    return nil
  }

  private mutating func begin(
    _ leadBits: UInt8, continuations: Int, next: ClosedRange<UInt8> = 0x80...0xBF
  ) {
    partialScalar = UInt32(leadBits)
    continuationBytesNeeded = continuations
    allowedContinuation = next
  }
}
