import Testing

@testable import FilenoteCore

/// doc/DESIGN.md, Saving: every way of saving drops exactly one trailing
/// line ending, `\n` or `\r\n`.
@Suite struct TrailingLineEndingTests {
  @Test(
    arguments: [
      ("hi\n", "hi"), ("hi\r\n", "hi"), ("hi", "hi"), ("hi\n\n", "hi\n"), ("hi\r", "hi\r"),
      ("\n", ""), ("\r\n", ""), ("", ""), ("a\r\n\r\n", "a\r\n"),
    ])
  func exactlyOneTrailingLineEndingIsDropped(text: String, saved: String) {
    #expect(TrailingLineEnding.dropped(from: Array(text.utf8)) == Array(saved.utf8))
  }
}
