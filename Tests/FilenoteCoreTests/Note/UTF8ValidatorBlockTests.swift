import Testing

@testable import FilenoteCore

/// The validator checks long input sixteen bytes at a time; these inputs are
/// long enough to take that path, and its answers must be the byte-at-a-time
/// walk's (input fed one byte per call never reaches the block check).
@Suite struct UTF8ValidatorBlockTests {
  /// ASCII, two-, three- and four-byte characters, and the edges of the
  /// ranges that E0, ED, F0 and F4 allow.
  static let mixed = Array(
    ("plain words, café naïve, 日本語 メモ, 👨‍👩‍👧 🇫🇷, e\u{301} \u{800}\u{D7FF}\u{E000}"
      + "\u{FFFF}\u{10000}\u{10FFFF} and more ASCII to end it with a long run of text")
      .utf8)

  /// The first invalid offset when `bytes` are fed one byte per call.
  static func byteByByte(_ bytes: [UInt8]) -> Int? {
    var validator = UTF8Validator()
    for byte in bytes { validator.consume([byte]) }
    validator.end()
    return validator.firstInvalidOffset
  }

  @Test func longWellFormedInputIsAccepted() {
    // Every start on a character boundary, so that the blocks fall everywhere.
    for start in 0..<32 where Self.mixed[start] & 0xC0 != 0x80 {
      #expect(UTF8Validator.firstInvalidOffset(in: Array(Self.mixed[start...])) == nil)
    }
  }

  @Test(arguments: [0x80, 0xBF, 0xC0, 0xC1, 0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF, 0x41])
  func anyByteReplacedAnywhereGivesTheByteByByteAnswer(replacement: UInt8) {
    for position in Self.mixed.indices {
      var bytes = Self.mixed
      bytes[position] = replacement
      let expected = Self.byteByByte(bytes)
      #expect(UTF8Validator.firstInvalidOffset(in: bytes) == expected, "at \(position)")
      #expect((expected == nil) == (String(validating: bytes, as: UTF8.self) != nil))
    }
  }

  @Test func aByteRemovedAnywhereGivesTheByteByByteAnswer() {
    for position in Self.mixed.indices {
      var bytes = Self.mixed
      bytes.remove(at: position)
      #expect(
        UTF8Validator.firstInvalidOffset(in: bytes) == Self.byteByByte(bytes), "at \(position)")
    }
  }

  @Test func splittingLongInputAnywhereGivesTheSameAnswer() {
    var broken = Self.mixed
    broken[broken.count / 2] = 0xFF
    for bytes in [Self.mixed, broken] {
      let expected = Self.byteByByte(bytes)
      for split in 0...bytes.count {
        var validator = UTF8Validator()
        validator.consume(Array(bytes[..<split]))
        validator.consume(Array(bytes[split...]))
        validator.end()
        #expect(validator.firstInvalidOffset == expected, "split at \(split)")
      }
    }
  }

  @Test func itAgreesWithTheStandardLibraryOnSeededRandomLongInput() {
    var generator = SeededGenerator(seed: 0xB10C)
    let alphabet: [UInt8] = [
      0x41, 0x20, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF,
      0xF0, 0xF3, 0xF4,
    ]
    for _ in 0..<5_000 {
      let count = Int.random(in: 19...80, using: &generator)
      // Mostly continuation and lead bytes in plausible places, so that
      // well-formed inputs are not vanishingly rare.
      var bytes: [UInt8] = []
      while bytes.count < count {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: bytes += Array("ab".utf8)
        case 1: bytes += Array("é語😀".utf8).prefix(Int.random(in: 1...9, using: &generator))
        default: bytes.append(alphabet.randomElement(using: &generator)!)
        }
      }
      let ours = UTF8Validator.firstInvalidOffset(in: bytes)
      #expect((ours == nil) == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
      #expect(ours == Self.byteByByte(bytes), "\(bytes)")
    }
  }
}
