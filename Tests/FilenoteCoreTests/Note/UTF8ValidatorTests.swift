import Testing

@testable import FilenoteCore

@Suite struct UTF8ValidatorTests {
  @Test(arguments: [
    [UInt8](), Array("plain ASCII text that is longer than eight bytes".utf8),
    Array("é 中文 👨‍👩‍👧 🇫🇷 e\u{301}".utf8), [0x00, 0x7F], [0xEF, 0xBF, 0xBF], [0xF4, 0x8F, 0xBF, 0xBF],
    [0xED, 0x9F, 0xBF], [0xE0, 0xA0, 0x80], [0xF0, 0x90, 0x80, 0x80],
  ])
  func wellFormedInputIsAccepted(bytes: [UInt8]) {
    #expect(UTF8Validator.firstInvalidOffset(in: bytes) == nil)
  }

  /// Ill-formed input, and the offset of its first bad sequence.
  static let illFormed: [(String, [UInt8], Int)] = [
    ("0xFF", Array("ab".utf8) + [0xFF], 2),
    ("0xFE", [0xFE], 0),
    ("stray continuation byte", Array("abc".utf8) + [0x80, 0x41], 3),
    ("truncated two-byte sequence at the end", Array("x".utf8) + [0xC3], 1),
    ("truncated three-byte sequence at the end", [0x41, 0xE4, 0xB8], 1),
    ("truncated sequence before ASCII", [0xE4, 0xB8, 0x41], 0),
    ("overlong two-byte NUL", [0xC0, 0x80], 0),
    ("overlong two-byte", [0xC1, 0xBF], 0),
    ("overlong three-byte", [0xE0, 0x9F, 0xBF], 0),
    ("overlong four-byte", [0xF0, 0x8F, 0xBF, 0xBF], 0),
    ("surrogate U+D800", [0x41, 0xED, 0xA0, 0x80], 1),
    ("surrogate U+DFFF", [0xED, 0xBF, 0xBF], 0),
    ("above U+10FFFF", [0xF4, 0x90, 0x80, 0x80], 0),
    ("five-byte lead", [0xF8, 0x88, 0x80, 0x80, 0x80], 0),
    ("bad byte after a long ASCII run", Array(repeating: 0x61, count: 1000) + [0xFF], 1000),
  ]

  @Test(arguments: illFormed)
  func illFormedInputIsRefusedAtItsFirstBadByte(name: String, bytes: [UInt8], offset: Int) {
    #expect(UTF8Validator.firstInvalidOffset(in: bytes) == offset, "\(name)")
  }

  @Test(arguments: illFormed)
  func splittingTheInputAnywhereGivesTheSameAnswer(name: String, bytes: [UInt8], offset: Int) {
    for split in 0...bytes.count {
      var validator = UTF8Validator()
      validator.consume(Array(bytes[..<split]))
      validator.consume(Array(bytes[split...]))
      validator.end()
      #expect(validator.firstInvalidOffset == offset, "\(name) split at \(split)")
    }
  }

  @Test func aCharacterSplitAcrossChunksIsAccepted() {
    let bytes = Array("a👨‍👩‍👧中".utf8)
    for split in 0...bytes.count {
      var validator = UTF8Validator()
      validator.consume(Array(bytes[..<split]))
      #expect(validator.isValid)
      validator.consume(Array(bytes[split...]))
      validator.end()
      #expect(validator.isValid, "split at \(split)")
    }
  }

  @Test func itAgreesWithTheStandardLibraryOnEveryTwoByteInput() {
    for first in 0...255 {
      for second in 0...255 {
        let bytes: [UInt8] = [UInt8(first), UInt8(second)]
        let ours = UTF8Validator.firstInvalidOffset(in: bytes) == nil
        let standard = String(validating: bytes, as: UTF8.self) != nil
        #expect(ours == standard, "\(bytes)")
      }
    }
  }

  @Test func itAgreesWithTheStandardLibraryOnSeededRandomInput() {
    var generator = SeededGenerator(seed: 0x5EED)
    let alphabet: [UInt8] = [
      0x41, 0x7F, 0x80, 0xBF, 0xC2, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xA0, 0x90, 0x8F,
    ]
    for _ in 0..<20_000 {
      let count = Int.random(in: 0...9, using: &generator)
      let bytes = (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
      let ours = UTF8Validator.firstInvalidOffset(in: bytes) == nil
      #expect(ours == (String(validating: bytes, as: UTF8.self) != nil), "\(bytes)")
    }
  }

  /// Text of every length of sequence, as a large save's chunk holds it.
  static let mixedText: [UInt8] = {
    let piece = Array("note é 中文 👍 ascii ".utf8)
    return Array(repeating: piece, count: UTF8Validator.vectorThreshold / piece.count + 8).flatMap {
      $0
    }
  }()

  /// Chunks of at least `vectorThreshold` bytes are checked 32 bytes at a
  /// time with the CPU's vectors where it has them: each ill-formed sequence,
  /// put at every place of two such blocks and the bytes around them, is
  /// found where the standard library finds it.
  @Test(arguments: illFormed.map { ($0.0, Array($0.1[$0.2...])) })
  func aLargeChunkIsRefusedAtItsFirstBadByteWherePutInABlock(name: String, bad: [UInt8]) {
    let base = Self.mixedText
    for place in (UTF8Validator.vectorThreshold - 40)..<(UTF8Validator.vectorThreshold + 72) {
      var bytes = base
      bytes.replaceSubrange(place..<min(place + bad.count, bytes.count), with: bad)
      let expected = FuzzRegressionTests.referenceFirstInvalidOffset(bytes)
      #expect(UTF8Validator.firstInvalidOffset(in: bytes) == expected, "\(name) at \(place)")
    }
  }

  @Test func aLargeChunkAgreesWithTheStandardLibraryOnSeededCorruptions() {
    var generator = SeededGenerator(seed: 0xB10C)
    let alphabet: [UInt8] = [
      0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xED, 0xEF,
      0xF0, 0xF4, 0xF5, 0xFF,
    ]
    #expect(UTF8Validator.firstInvalidOffset(in: Self.mixedText) == nil)
    for _ in 0..<3_000 {
      var bytes = Self.mixedText
      for _ in 0..<Int.random(in: 1...3, using: &generator) {
        let place = Int.random(in: 0..<bytes.count, using: &generator)
        bytes[place] = alphabet.randomElement(using: &generator)!
      }
      let expected = FuzzRegressionTests.referenceFirstInvalidOffset(bytes)
      #expect(UTF8Validator.firstInvalidOffset(in: bytes) == expected)
    }
  }
}

/// A small deterministic generator (SplitMix64), so a failure can be replayed.
struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
