import Glibc

/// Feeds one fuzzer input to `UTF8Validator` in several chunkings and checks
/// each against the standard library, stopping the process when they differ.
///
/// The input's first byte seeds the chunk lengths of one chunking; the rest is
/// the stream. The stream is copied into an allocation of exactly its size,
/// and every chunk of more than one byte into one of its own, so that
/// AddressSanitizer catches a read past the end of a chunk (the validator
/// reads eight bytes at a time). Single bytes are read from the whole copy:
/// thousands of one-byte allocations per input only fill ASan's quarantine.
///
/// What it checks, for the whole stream at once, byte by byte and in seeded
/// chunks of 0 to 16 bytes:
/// - `firstInvalidOffset` after `end()` is nil exactly when
///   `String(validating:as:)` accepts the bytes, and otherwise equals the
///   offset where the standard library's UTF-8 parser meets its first error
///   (a sequence cut off by the end of the stream counts from its first byte);
/// - the bytes before that offset are valid and the byte at it starts no
///   valid sequence, which checks the reference itself;
/// - mid-stream, the offset is either still nil or already the final one, it
///   never changes once set, and it is set at the latest four bytes after the
///   start of the bad sequence; `count` is always the number of bytes given;
/// - `UTF8Validator.firstInvalidOffset(in:)` agrees;
/// - and so it does with the stream put after `vectorThreshold` bytes and
///   more of text of every length of character, at four places of a 32-byte
///   block chosen by the seed, so that the CPU's vector loop (`VectorUTF8`)
///   checks it, block boundaries inside it.
struct UTF8ValidatorCheck {
  private let seed: UInt8
  private let bytes: [UInt8]
  private let expected: Int?

  init(_ input: [UInt8]) {
    seed = input.first ?? 0
    bytes = Array(input.dropFirst())
    expected = Self.referenceFirstInvalidOffset(bytes)
  }

  func run() {
    checkReference()
    check("whole", chunkLengths: [bytes.count])
    check("byte by byte", chunkLengths: Array(repeating: 1, count: bytes.count))
    check("seeded chunks", chunkLengths: seededChunkLengths())
    let offset = UTF8Validator.firstInvalidOffset(in: bytes)
    if offset != expected {
      fail("firstInvalidOffset(in:) says \(String(describing: offset))")
    }
    for step in 0..<4 {
      checkAfterText(shift: (Int(seed) &+ step &* 8) % 32)
    }
  }

  /// Text before the stream: the piece below, repeated past the threshold.
  private static let textBefore: [UInt8] = {
    let piece = Array("a é 中 👍 ".utf8)
    return Array(repeating: piece, count: UTF8Validator.vectorThreshold / piece.count + 1)
      .flatMap { $0 }
  }()

  private func checkAfterText(shift: Int) {
    let before = Self.textBefore + Array(repeating: UInt8(ascii: "x"), count: shift)
    let offset = UTF8Validator.firstInvalidOffset(in: before + bytes)
    if offset != expected.map({ before.count + $0 }) {
      fail("after \(before.count) bytes of text: offset \(String(describing: offset))")
    }
  }

  /// The offset of the first ill-formed sequence as the standard library's
  /// UTF-8 parser finds it: the bytes it accepted before its first error.
  static func referenceFirstInvalidOffset(_ bytes: [UInt8]) -> Int? {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let scalar): offset += scalar.count
      case .error: return offset
      case .emptyInput: return nil
      }
    }
  }

  private func checkReference() {
    let isValid = String(validating: bytes, as: UTF8.self) != nil
    guard isValid == (expected == nil) else {
      fail("the reference disagrees with String(validating:)")
    }
    if let expected {
      guard String(validating: bytes[..<expected], as: UTF8.self) != nil,
        String(validating: bytes[...expected], as: UTF8.self) == nil
      else { fail("the reference offset is not where the valid prefix ends") }
    }
  }

  private func check(_ chunking: String, chunkLengths: [Int]) {
    let stream = UnsafeMutableRawBufferPointer.allocate(byteCount: bytes.count, alignment: 1)
    defer { stream.deallocate() }
    stream.copyBytes(from: bytes)
    var validator = UTF8Validator()
    var consumed = 0
    var seenOffset: Int?
    for length in chunkLengths {
      if length == 1 {
        validator.consume(UnsafeRawBufferPointer(rebasing: stream[consumed..<consumed + 1]))
      } else {
        Self.withExactAllocation(bytes[consumed..<consumed + length]) { validator.consume($0) }
      }
      consumed += length
      let offset = validator.firstInvalidOffset
      guard validator.count == consumed else {
        fail("\(chunking): count is \(validator.count) after \(consumed) bytes")
      }
      if let seenOffset, offset != seenOffset {
        fail("\(chunking): the offset changed from \(seenOffset) to \(String(describing: offset))")
      }
      if let offset, offset != expected {
        fail("\(chunking): offset \(offset) after \(consumed) bytes")
      }
      if let expected, offset == nil, consumed >= expected + 4 {
        fail("\(chunking): no error reported \(consumed - expected) bytes after it began")
      }
      if validator.isValid != (offset == nil) {
        fail(
          "\(chunking): isValid is \(validator.isValid) with offset \(String(describing: offset))")
      }
      seenOffset = offset
    }
    validator.end()
    if validator.firstInvalidOffset != expected {
      fail("\(chunking): finished with offset \(String(describing: validator.firstInvalidOffset))")
    }
  }

  /// Chunk lengths of 0 to 16 that add up to the input, from a linear
  /// congruential generator seeded by the first byte.
  private func seededChunkLengths() -> [Int] {
    var state = UInt32(seed) &* 2_654_435_761 | 1
    var lengths: [Int] = []
    var remaining = bytes.count
    while remaining > 0 {
      state = state &* 1_664_525 &+ 1_013_904_223
      let length = min(Int(state >> 27) % 17, remaining)
      lengths.append(length)
      remaining -= length
    }
    return lengths
  }

  private static func withExactAllocation(
    _ chunk: ArraySlice<UInt8>, _ body: (UnsafeRawBufferPointer) -> Void
  ) {
    let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk.count, alignment: 1)
    defer { copy.deallocate() }
    copy.copyBytes(from: chunk)
    body(UnsafeRawBufferPointer(copy))
  }

  private func fail(_ rule: String) -> Never {
    let hex = bytes.map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: ", ")
    fputs(
      "\n--- input ---\nseed: \(seed)\nbytes: [\(hex)]\n"
        + "expected offset: \(String(describing: expected))\n--- broken rule ---\n\(rule)\n",
      stderr)
    fatalError("UTF-8 validator disagrees: \(rule)")
  }
}
