import LineEditor
import Testing

/// vi mode held against GNU readline itself: every case here is a key
/// sequence run through bash's `read -e -i` (readline 8.2, Debian's bash
/// 5.2) with `set editing-mode vi`, and the line readline returned; vi mode
/// must return the same. See `ViReadlineCase` for how they were recorded.
@Suite struct ViReadlineTests {
  @Test(arguments: ViReadlineCases.fixed)
  func eachKeyDoesWhatReadlineDoes(_ example: ViReadlineCase) {
    #expect(example.savedLine() == example.expected)
  }

  @Test(arguments: ViReadlineCases.random)
  func randomSequencesEndAsInReadline(_ example: ViReadlineCase) {
    #expect(example.savedLine() == example.expected)
  }

  @Test(arguments: ViReadlineCases.differences)
  func whereFilenoteDiffersFromReadlineItKeepsItsOwnRule(_ example: ViReadlineCase) {
    #expect(example.savedLine() == example.expected)
  }
}
