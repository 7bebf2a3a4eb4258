// fuzz/run.sh compiles this file in one module with the table's own file,
// where there is no LineEditor to import.
#if canImport(LineEditor)
  import LineEditor
#endif
#if canImport(SystemCalls)
  import SystemCalls
#endif

/// Checks that a byte stream is valid UTF-8 as it goes by, a chunk at a
/// time, so `filenote save` can validate input of any size without holding
/// it in memory.
///
/// It follows the well-formed byte sequences of the Unicode Standard
/// (chapter 3, table 3-7, as `UTF8LeadByte` gives it): no overlong forms, no
/// surrogates (U+D800–U+DFFF), nothing above U+10FFFF, no stray continuation
/// bytes, and no sequence cut off at the end of the input.
struct UTF8Validator: Sendable {
  /// Where the first ill-formed sequence starts, counted in bytes from the
  /// start of the stream; `nil` while everything seen is well formed.
  private(set) var firstInvalidOffset: Int?

  /// Bytes seen so far.
  private(set) var count = 0

  /// Continuation bytes still expected by the sequence in progress.
  private var pending = 0
  /// Where the sequence in progress started.
  private var sequenceStart = 0
  /// The range allowed for the next continuation byte (narrower than
  /// 0x80...0xBF right after some lead bytes, which is how overlong forms,
  /// surrogates and code points past U+10FFFF are refused).
  private var nextLow: UInt8 = 0x80
  private var nextHigh: UInt8 = 0xBF

  init() {}

  /// The smallest chunk handed to `VectorUTF8`: below it, asking the CPU
  /// what it has (once per run, slow in a virtual machine) and the call cost
  /// more than they save, and a short note never asks.
  static let vectorThreshold = 4096

  /// True when everything seen so far is well formed (a sequence may still be
  /// in progress: call `end()` at the end of the input).
  var isValid: Bool { firstInvalidOffset == nil }

  /// Checks the next chunk of the stream; a large one with `VectorUTF8`
  /// unless `usingVectors` is false (see `IncomingText.Check` for where).
  mutating func consume(_ bytes: UnsafeRawBufferPointer, usingVectors: Bool = true) {
    defer { count += bytes.count }
    guard firstInvalidOffset == nil, bytes.count > 0 else { return }
    let total = bytes.count
    // The first three bytes one at a time: they may end a sequence the last
    // chunk began, and the block check needs three bytes before it.
    let head = Swift.min(total, 3)
    guard walk(bytes, from: 0, to: head) else { return }
    var resume = head
    var block = head
    // Large chunks go 32 bytes at a time with the CPU's wider vectors where
    // it has them (the same check); the rest, and a block that fails, 16 at
    // a time here, which also tells which half failed.
    if usingVectors && total - head >= Self.vectorThreshold {
      block = VectorUTF8.wellFormedBlocksEnd(in: bytes, from: head)
    }
    while block + 16 <= total && Self.blockIsWellFormed(bytes, at: block) { block += 16 }
    if block > head {
      // Everything before `block` is well formed. Walk on from the start of
      // the sequence in progress there: a lead byte among the three before
      // it (three continuation bytes end a four-byte sequence).
      resume = block
      pending = 0
      for back in 1...3 where bytes[block - back] & 0xC0 != 0x80 {
        if bytes[block - back] >= 0xC0 { resume = block - back }
        break
      }
    }
    _ = walk(bytes, from: resume, to: total)
  }

  /// Checks `bytes[start..<end]` one byte at a time, carrying the sequence in
  /// progress from one call to the next; false once something is ill formed.
  private mutating func walk(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Bool
  {
    let base = count
    var index = start
    while index < end {
      if pending == 0 {
        // ASCII runs are the common case: check eight bytes at a time.
        while index + 8 <= end,
          bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
        {
          index += 8
        }
        if index == end { break }
        let byte = bytes[index]
        if byte < 0x80 {
          index += 1
          continue
        }
        sequenceStart = base + index
        guard let lead = UTF8LeadByte(byte) else {
          firstInvalidOffset = sequenceStart
          return false
        }
        pending = lead.continuations
        nextLow = lead.secondLow
        nextHigh = lead.secondHigh
      } else {
        let byte = bytes[index]
        guard byte >= nextLow && byte <= nextHigh else {
          firstInvalidOffset = sequenceStart
          return false
        }
        pending -= 1
        nextLow = 0x80
        nextHigh = 0xBF
      }
      index += 1
    }
    return true
  }

  /// Whether each of the 16 bytes at `index` (at least 3) is what the three
  /// bytes before it allow, which is all that well-formed UTF-8 asks of it:
  /// a continuation byte exactly where a lead byte calls for one, no byte
  /// that is never used (C0, C1, F5...FF), and the narrower second byte after
  /// E0, ED, F0 and F4. Branch-free, sixteen bytes at a time: several times
  /// faster than walking text that mixes ASCII with other scripts. It is
  /// `UTF8LeadByte`'s table in vector form; the fuzzer holds both ways of
  /// checking to the standard library's.
  @inline(__always)
  private static func blockIsWellFormed(_ bytes: UnsafeRawBufferPointer, at index: Int) -> Bool {
    typealias Bytes = SIMD16<UInt8>
    func all(_ value: UInt8) -> Bytes { Bytes(repeating: value) }
    // `any()` on a mask is an out-of-line call; OR-ing two words is not.
    func isZero(_ vector: Bytes) -> Bool {
      let words = unsafeBitCast(vector, to: SIMD2<UInt64>.self)
      return words[0] | words[1] == 0
    }
    let current = bytes.loadUnaligned(fromByteOffset: index, as: Bytes.self)
    let back3 = bytes.loadUnaligned(fromByteOffset: index - 3, as: Bytes.self)
    if isZero((current | back3) & all(0x80)) { return true }  // all ASCII
    let back1 = bytes.loadUnaligned(fromByteOffset: index - 1, as: Bytes.self)
    let back2 = bytes.loadUnaligned(fromByteOffset: index - 2, as: Bytes.self)
    let isContinuation = (current & all(0xC0)) .== all(0x80)
    let mustContinue = (back1 .>= all(0xC0)) .| (back2 .>= all(0xE0)) .| (back3 .>= all(0xF0))
    let misplaced = isContinuation .^ mustContinue
    let neverUsed = (current .>= all(0xF5)) .| ((current & all(0xFE)) .== all(0xC0))
    let outOfRange =
      ((back1 .== all(0xE0)) .& (current .< all(0xA0)))
      .| ((back1 .== all(0xED)) .& (current .> all(0x9F)))
      .| ((back1 .== all(0xF0)) .& (current .< all(0x90)))
      .| ((back1 .== all(0xF4)) .& (current .> all(0x8F)))
    return isZero(unsafeBitCast(misplaced .| neverUsed .| outOfRange, to: Bytes.self))
  }

  /// Checks a whole byte array as the next chunk.
  mutating func consume(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { consume($0) }
  }

  /// Ends the stream: a sequence still in progress is ill formed.
  mutating func end() {
    if firstInvalidOffset == nil && pending > 0 {
      firstInvalidOffset = sequenceStart
    }
  }

  /// The offset of the first ill-formed sequence in `bytes`, or `nil` when
  /// they are well-formed UTF-8.
  static func firstInvalidOffset(in bytes: UnsafeRawBufferPointer) -> Int? {
    var validator = UTF8Validator()
    validator.consume(bytes)
    validator.end()
    return validator.firstInvalidOffset
  }

  static func firstInvalidOffset(in bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBytes { firstInvalidOffset(in: $0) }
  }
}
