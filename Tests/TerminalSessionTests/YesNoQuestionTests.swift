import Testing

@testable import TerminalSession

/// A `[y/N]` answer is yes only when it is `y` or `yes`, in any case, blanks
/// around it or not; everything else is no.
@Suite struct YesNoQuestionTests {
  @Test(arguments: [" y", "y", "Y", "yes", "YES ", "\tYes\t", "  yEs"])
  func yOrYesInAnyCaseWithBlanksAroundIsYes(answer: String) {
    #expect(YesNoQuestion.isYes(answer.utf8))
  }

  @Test(arguments: ["n", "", "x", "yes please", "no", "ye", "yess", "y y", "   ", "y\r", "ÿ", "ｙ"])
  func anythingElseIsNo(answer: String) {
    #expect(!YesNoQuestion.isYes(answer.utf8))
  }
}
