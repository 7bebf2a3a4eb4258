/// What the first byte of a multi-byte UTF-8 sequence asks of the bytes
/// after it: the well-formed byte sequences of the Unicode Standard (chapter
/// 3, table 3-7). The one copy of that table: the key decoder
/// (`UTF8StreamDecoder`) and the check of saved text (FilenoteCore's
/// `UTF8Validator`) both read it.
///
///     lead byte   continuations   second byte
///     C2...DF     1               80...BF
///     E0          2               A0...BF   (else the form is overlong)
///     E1...EC     2               80...BF
///     ED          2               80...9F   (else a surrogate)
///     EE...EF     2               80...BF
///     F0          3               90...BF   (else the form is overlong)
///     F1...F3     3               80...BF
///     F4          3               80...8F   (else past U+10FFFF)
///
/// Later continuation bytes are always 80...BF. Inlinable, so the validator
/// on `save`'s path makes no call for it, and computed with a few
/// comparisons: the same table as a switch made the validator's byte-by-byte
/// walk take 9% more instructions, these within 2% of its own old copy.
@frozen public struct UTF8LeadByte: Sendable {
  /// The continuation bytes that must follow it: 1, 2 or 3.
  public let continuations: Int
  /// The lowest second byte of the sequence.
  public let secondLow: UInt8
  /// The highest second byte of the sequence.
  public let secondHigh: UInt8
  /// The bits of the scalar it carries (its own highest bits).
  public let scalarBits: UInt8

  /// The lead byte `byte` is; nil for a byte that starts no multi-byte
  /// sequence: ASCII (00...7F, a character alone), continuation bytes
  /// (80...BF), and C0, C1 and F5...FF, which never start a well-formed one.
  @inlinable @inline(__always)
  public init?(_ byte: UInt8) {
    guard byte &- 0xC2 <= 0xF4 - 0xC2 else { return nil }
    continuations = byte < 0xE0 ? 1 : byte < 0xF0 ? 2 : 3
    secondLow = byte == 0xE0 ? 0xA0 : byte == 0xF0 ? 0x90 : 0x80
    secondHigh = byte == 0xED ? 0x9F : byte == 0xF4 ? 0x8F : 0xBF
    scalarBits = byte & (0x3F >> continuations)
  }
}
