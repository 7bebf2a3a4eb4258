import Foundation
import Testing

@testable import FilenoteCore

/// `filenote copy` (the man page, COMMANDS): the text reaches the terminal as
/// OSC 52, wrapped for tmux's passthrough inside tmux.
@Suite struct OSC52Tests {
  @Test func base64IsWhatFoundationWrites() {
    var generator = SystemRandomNumberGenerator()
    for count in Array(0...10) + [100, 1000, 75_000] {
      let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
      #expect(
        String(decoding: OSC52.base64(bytes), as: UTF8.self) == Data(bytes).base64EncodedString())
    }
  }

  @Test func theSequenceSetsTheClipboardAndEndsWithBell() {
    let sequence = OSC52.sequence(for: Array("hi".utf8), throughTmux: false)
    #expect(sequence == Array("\u{1B}]52;c;aGk=\u{07}".utf8))
  }

  @Test func insideTmuxItIsWrappedForPassthroughWithItsEscapesDoubled() {
    let sequence = OSC52.sequence(for: Array("hi".utf8), throughTmux: true)
    #expect(sequence == Array("\u{1B}Ptmux;\u{1B}\u{1B}]52;c;aGk=\u{07}\u{1B}\\".utf8))
  }

  @Test func aNoteWithEscapesTravelsOnlyAsBase64() {
    let hostile = Array("\u{1B}]0;title\u{07}\u{1B}[2J".utf8)
    let sequence = OSC52.sequence(for: hostile, throughTmux: false)
    #expect(sequence.filter { $0 == 0x1B }.count == 1)
    #expect(sequence.filter { $0 == 0x07 }.count == 1)
  }
}
