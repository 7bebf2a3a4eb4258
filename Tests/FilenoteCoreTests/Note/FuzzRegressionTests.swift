import Testing

@testable import FilenoteCore

/// The fuzzer's rule for `UTF8Validator` (`fuzz/UTF8ValidatorCheck.swift`),
/// kept by `swift test`: whatever the chunking, `firstInvalidOffset` is nil
/// exactly when `String(validating:as:)` accepts the bytes, and otherwise is
/// where the standard library's UTF-8 parser meets its first error.
///
/// The seed corpus is here (an input with which the fuzzer finds a defect
/// joins it), and every input of up to two bytes, and every three bytes after
/// the lead bytes that narrow the second byte's range, are tried outright.
@Suite struct FuzzRegressionTests {
  /// `fuzz/corpus/utf8-validator`, without each file's first byte (the
  /// fuzzer's chunking seed).
  static let seedCorpus: [[UInt8]] = [
    [0xF4, 0x8F, 0xBF, 0xBF, 0xF4, 0x90, 0x80, 0x80],
    Array("\u{FEFF}BOM then text\r\n\0NUL".utf8),
    [0xFE, 0xFF, 0xF8, 0x88, 0x80, 0x80, 0x80],
    [0xC0, 0x80, 0xE0, 0x9F, 0xBF, 0xF0, 0x8F, 0xBF, 0xBF],
    Array("abc".utf8) + [0x80] + Array("def".utf8),
    [0xED, 0x9F, 0xBF, 0xED, 0xA0, 0x80],
    Array("abcdefgh".utf8) + [0xE4, 0xB8],
    Array("plain ASCII longer than eight bytes \u{E9} \u{4E2D} \u{1F1EB}\u{1F1F7} e\u{301}".utf8),
  ]

  @Test(arguments: seedCorpus)
  func aSeedInputGetsTheStandardLibrarysAnswerInEveryChunking(bytes: [UInt8]) {
    let expected = Self.referenceFirstInvalidOffset(bytes)
    #expect((expected == nil) == (String(validating: bytes, as: UTF8.self) != nil))
    for chunkLength in [bytes.count, 1, 3, 8, 9] {
      #expect(Self.firstInvalidOffset(bytes, chunkLength: chunkLength) == expected)
    }
  }

  @Test func everyInputOfUpToTwoBytesGetsTheStandardLibrarysAnswer() {
    var inputs: [[UInt8]] = [[]]
    for first in UInt8.min...UInt8.max {
      inputs.append([first])
      for second in UInt8.min...UInt8.max {
        inputs.append([first, second])
      }
    }
    let disagreements = inputs.filter {
      UTF8Validator.firstInvalidOffset(in: $0) != Self.referenceFirstInvalidOffset($0)
    }
    #expect(disagreements.isEmpty)
  }

  /// E0, ED, F0 and F4 are where overlong forms, surrogates and values past
  /// U+10FFFF are refused.
  @Test(arguments: [0xE0, 0xED, 0xF0, 0xF4] as [UInt8])
  func everyThreeByteInputAfterANarrowingLeadGetsTheStandardLibrarysAnswer(lead: UInt8) {
    var disagreements: [[UInt8]] = []
    for second in UInt8.min...UInt8.max {
      for third in UInt8.min...UInt8.max {
        let bytes = [lead, second, third]
        if Self.firstInvalidOffset(bytes, chunkLength: 1) != Self.referenceFirstInvalidOffset(bytes)
        {
          disagreements.append(bytes)
        }
      }
    }
    #expect(disagreements.isEmpty)
  }

  /// The bytes the standard library's UTF-8 parser accepts before its first
  /// error, or nil when it accepts them all.
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

  /// What a validator fed `bytes` in chunks of `chunkLength` reports.
  private static func firstInvalidOffset(_ bytes: [UInt8], chunkLength: Int) -> Int? {
    var validator = UTF8Validator()
    var start = 0
    while start < bytes.count {
      let end = min(start + max(chunkLength, 1), bytes.count)
      validator.consume(Array(bytes[start..<end]))
      start = end
    }
    validator.end()
    return validator.firstInvalidOffset
  }
}
