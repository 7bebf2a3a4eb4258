import Foundation
import Testing

@testable import FilenoteCore

/// `filenote history --json` writes its strings itself (the library does not
/// link Foundation): they must read back as the same text.
@Suite struct JSONTextTests {
  @Test func quotesBackslashesAndControlsAreEscaped() {
    #expect(JSONText.quoted("say \"hi\"\\") == #""say \"hi\"\\""#)
    #expect(JSONText.quoted("a\nb\tc\r") == #""a\nb\tc\r""#)
    #expect(JSONText.quoted("\u{1B}[2J\u{7}") == #""\u001b[2J\u0007""#)
    #expect(JSONText.quoted("\u{7F}\u{9B}\u{2028}") == #""\u007f\u009b\u2028""#)
    #expect(JSONText.quoted("é 日本 👍🏽") == "\"é 日本 👍🏽\"")
  }

  @Test func everyStringReadsBackAsItself() throws {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<300 {
      var text = ""
      for _ in 0..<Int.random(in: 0...30, using: &generator) {
        let value = [
          UInt32.random(in: 0...0x7F, using: &generator), UInt32.random(in: 0x80...0x2FFF),
          UInt32.random(in: 0x1F300...0x1F6FF), 0x2028, 0x22, 0x5C,
        ].randomElement(using: &generator)!
        if let scalar = Unicode.Scalar(value) { text.unicodeScalars.append(scalar) }
      }
      let json = "[" + JSONText.quoted(text) + "]"
      let parsed = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String]
      #expect(parsed == [text])
      #expect(!json.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
    }
  }
}
