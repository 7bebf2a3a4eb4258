import SystemCalls
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

  /// Asks "Go? [y/N] " with `typed` waiting on the input (closed after it,
  /// as Ctrl-D ends input) and, when `signalled`, a byte on the signal pipe;
  /// returns the answer, what was written, and what the input still holds.
  private func ask(typing typed: String, signalled: Bool = false) throws -> (
    answer: YesNoQuestion.Answer, written: String, left: String
  ) {
    let input = try FileDescriptor.pipe()
    let output = try FileDescriptor.pipe()
    let signals = try FileDescriptor.pipe()
    defer {
      for end in [input.readEnd, output.readEnd, signals.readEnd] { end.close() }
    }
    try input.writeEnd.writeAll(typed)
    input.writeEnd.close()
    if signalled { try signals.writeEnd.writeAll([2]) }
    signals.writeEnd.close()
    let answer = YesNoQuestion("Go? [y/N] ").ask(
      reading: input.readEnd, writingTo: output.writeEnd,
      interruptedBy: signalled ? signals.readEnd : nil)
    return (
      answer, try Self.readAll(output.readEnd, closing: output.writeEnd),
      try Self.readAll(input.readEnd)
    )
  }

  private static func readAll(
    _ descriptor: FileDescriptor, closing writeEnd: FileDescriptor? = nil
  ) throws -> String {
    writeEnd?.close()
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = try buffer.withUnsafeMutableBytes { try descriptor.read(into: $0) }
      if count == 0 { return String(decoding: bytes, as: UTF8.self) }
      bytes += buffer[..<count]
    }
  }

  @Test func theAnswerIsOneLineAndWhatFollowsItStaysForTheShell() throws {
    let asked = try ask(typing: "yes\nls -l\n")
    #expect(asked.answer == .yes)
    #expect(asked.written == "Go? [y/N] ")
    #expect(asked.left == "ls -l\n")
  }

  @Test func aLineLongerThanAWordIsNoHoweverItStarts() throws {
    let asked = try ask(typing: "y" + String(repeating: " ", count: 200) + "\nnext")
    #expect(asked.answer == .no)
    #expect(asked.left == "next")
  }

  @Test func endOfInputIsNoAnswerAndEndsTheQuestionsLine() throws {
    let asked = try ask(typing: "y")
    #expect(asked.answer == .endOfInput)
    #expect(asked.written == "Go? [y/N] \n")
  }

  @Test func aSignalOnThePipeCutsTheQuestionShortUnanswered() throws {
    let asked = try ask(typing: "", signalled: true)
    #expect(asked.answer == .interrupted)
    #expect(asked.written == "Go? [y/N] \n")
  }
}
