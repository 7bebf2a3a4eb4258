/// Checks that a byte stream is valid UTF-8 as it goes by, a chunk at a
/// time, so `filenote save` can validate input of any size without holding
/// it in memory.
///
/// It follows the well-formed byte sequences of the Unicode Standard
/// (chapter 3, table 3-7): no overlong forms, no surrogates (U+D800–U+DFFF),
/// nothing above U+10FFFF, no stray continuation bytes, and no sequence cut
/// off at the end of the input.
public struct UTF8Validator: Sendable {
  /// Where the first ill-formed sequence starts, counted in bytes from the
  /// start of the stream; `nil` while everything seen is well formed.
  public private(set) var firstInvalidOffset: Int?

  /// Bytes seen so far.
  public private(set) var count = 0

  /// Continuation bytes still expected by the sequence in progress.
  private var pending = 0
  /// Where the sequence in progress started.
  private var sequenceStart = 0
  /// The range allowed for the next continuation byte (narrower than
  /// 0x80...0xBF right after some lead bytes, which is how overlong forms,
  /// surrogates and code points past U+10FFFF are refused).
  private var nextLow: UInt8 = 0x80
  private var nextHigh: UInt8 = 0xBF

  public init() {}

  /// True when everything seen so far is well formed (a sequence may still be
  /// in progress: call `finish()` at the end of the input).
  public var isValid: Bool { firstInvalidOffset == nil }

  /// Checks the next chunk of the stream.
  public mutating func consume(_ bytes: UnsafeRawBufferPointer) {
    guard firstInvalidOffset == nil, bytes.count > 0 else {
      count += bytes.count
      return
    }
    let base = count
    var index = 0
    let total = bytes.count
    while index < total {
      if pending == 0 {
        // ASCII runs are the common case: check eight bytes at a time.
        while index + 8 <= total,
          bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
        {
          index += 8
        }
        if index == total { break }
        let byte = bytes[index]
        if byte < 0x80 {
          index += 1
          continue
        }
        sequenceStart = base + index
        nextLow = 0x80
        nextHigh = 0xBF
        switch byte {
        case 0xC2...0xDF: pending = 1
        case 0xE0:
          pending = 2
          nextLow = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: pending = 2
        case 0xED:
          pending = 2
          nextHigh = 0x9F
        case 0xF0:
          pending = 3
          nextLow = 0x90
        case 0xF1...0xF3: pending = 3
        case 0xF4:
          pending = 3
          nextHigh = 0x8F
        default:
          fail(at: sequenceStart, total: total)
          return
        }
      } else {
        let byte = bytes[index]
        guard byte >= nextLow && byte <= nextHigh else {
          fail(at: sequenceStart, total: total)
          return
        }
        pending -= 1
        nextLow = 0x80
        nextHigh = 0xBF
      }
      index += 1
    }
    count += total
  }

  /// Checks a whole byte array as the next chunk.
  public mutating func consume(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { consume($0) }
  }

  /// Ends the stream: a sequence still in progress is ill formed.
  public mutating func finish() {
    if firstInvalidOffset == nil && pending > 0 {
      firstInvalidOffset = sequenceStart
    }
  }

  private mutating func fail(at offset: Int, total: Int) {
    firstInvalidOffset = offset
    count += total
  }

  /// The offset of the first ill-formed sequence in `bytes`, or `nil` when
  /// they are well-formed UTF-8.
  public static func firstInvalidOffset(in bytes: UnsafeRawBufferPointer) -> Int? {
    var validator = UTF8Validator()
    validator.consume(bytes)
    validator.finish()
    return validator.firstInvalidOffset
  }

  public static func firstInvalidOffset(in bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBytes { firstInvalidOffset(in: $0) }
  }
}
