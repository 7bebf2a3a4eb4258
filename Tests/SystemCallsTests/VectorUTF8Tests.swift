import Foundation
import Testing

@testable import SystemCalls

@Suite struct VectorUTF8Tests {
  static let text = Array(String(repeating: "é 中文 👍 text ", count: 64).utf8)

  /// Whether this CPU has AVX2, as the kernel tells it.
  static let hasAVX2: Bool = {
    let cpus = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    return cpus.split(separator: "\n").contains {
      $0.hasPrefix("flags") && $0.split(separator: " ").contains("avx2")
    }
  }()

  /// Where the CPU has AVX2 the run of well-formed blocks ends only where
  /// fewer than 32 bytes are left (two-, three- and four-byte characters
  /// across every block boundary); without, at once.
  @Test func wellFormedBlocksRunToTheEndWhereTheCPUHasAVX2() {
    let end = Self.text.withUnsafeBytes { VectorUTF8.wellFormedBlocksEnd(in: $0, from: 3) }
    if Self.hasAVX2 {
      #expect(end > Self.text.count - 32 && (end - 3) % 32 == 0)
    } else {
      #expect(end == 3)
    }
  }

  /// A continuation byte where a character starts, or a byte never used.
  @Test(arguments: [0x80, 0xC0, 0xF5, 0xFF] as [UInt8])
  func theRunStopsAtTheBlockThatHoldsABadByte(bad: UInt8) {
    for place in 100..<164 where Self.text[place] & 0xC0 != 0x80 {
      var bytes = Self.text
      bytes[place] = bad
      let end = bytes.withUnsafeBytes { VectorUTF8.wellFormedBlocksEnd(in: $0, from: 3) }
      #expect(end == 3 || (end <= place && place < end + 32), "\(bad) at \(place): \(end)")
    }
  }

  @Test func tooLittleToCheckIsLeftToTheCaller() {
    let bytes = Array(Self.text.prefix(34))
    #expect(bytes.withUnsafeBytes { VectorUTF8.wellFormedBlocksEnd(in: $0, from: 3) } == 3)
    #expect(bytes.withUnsafeBytes { VectorUTF8.wellFormedBlocksEnd(in: $0, from: 2) } == 2)
  }
}
