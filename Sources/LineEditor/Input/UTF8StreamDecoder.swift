/// Decodes UTF-8 one byte at a time, for input that may stop in the middle of
/// a character and go on in a later read.
///
/// Ill-formed input is dropped, never repaired or replaced: a character cut
/// short is forgotten and the byte that cut it is read afresh, so `E2 82 41`
/// gives just `A` (the Unicode Standard's "maximal subpart" rule). Overlong
/// forms, surrogates and values past U+10FFFF are refused at their second byte
/// (`UTF8LeadByte`), so they are never assembled at all.
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
    if byte < 0x80 { return Unicode.Scalar(byte) }
    // Bytes that never start a well-formed character are dropped.
    if let lead = UTF8LeadByte(byte) {
      partialScalar = UInt32(lead.scalarBits)
      continuationBytesNeeded = lead.continuations
      allowedContinuation = lead.secondLow...lead.secondHigh
    }
    return nil
  }
}
