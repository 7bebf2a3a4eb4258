import SystemCalls

/// A question the user answers yes or no, as `[y/N]` questions are: no
/// unless the answer is yes. Each way filenote asks one (one key in the
/// editing prompt, one line in the plain prompt, in `filenote edit` and in
/// `filenote forget`) reads the answer with `isYes`, so an answer means the
/// same everywhere.
public struct YesNoQuestion: Sendable {
  /// What is written, up to where the answer goes (ending in `[y/N] `).
  public let text: String

  /// How a question asked with `ask` was answered.
  public enum Answer: Equatable, Sendable {
    case yes
    /// Any line that is not yes.
    case no
    /// End of input (Ctrl-D) before a line ending.
    case endOfInput
    /// A signal on the pipe `ask` watched (Ctrl-C).
    case interrupted
    /// The answer could not be read.
    case failed(Errno)
  }

  /// The longest line read as an answer: an answer is a word, and a longer
  /// line is no, however it ends.
  static let longestAnswer = 64

  public init(_ text: String) {
    self.text = text
  }

  /// Writes the question on `output` and reads the answer, one line, from
  /// `input`, a terminal in its own line mode (see `TerminalLine.read`,
  /// which `signals` is given to). When no line comes, the question's line
  /// is ended.
  public func ask(
    reading input: FileDescriptor, writingTo output: FileDescriptor,
    interruptedBy signals: FileDescriptor? = nil
  ) -> Answer {
    try? output.writeAll(text)
    let answer: Answer
    switch TerminalLine.read(
      from: input, keepingAtMost: Self.longestAnswer + 1, interruptedBy: signals)
    {
    case .line(let line):
      return line.count <= Self.longestAnswer && Self.isYes(line) ? .yes : .no
    case .endOfInput: answer = .endOfInput
    case .interrupted: answer = .interrupted
    case .failed(let errno): answer = .failed(errno)
    }
    try? output.writeAll("\n")
    return answer
  }

  /// Whether `answer` is yes: `y` or `yes` in any case, blanks (spaces and
  /// tabs) around it or not. Anything else is no: nothing, another word, or
  /// more than one word (`yes please`).
  public static func isYes(_ answer: some Collection<UInt8>) -> Bool {
    let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    let word = answer.drop(while: isBlank).reversed().drop(while: isBlank).reversed()
    let lowercased = word.map {
      $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0
    }
    return lowercased == Array("y".utf8) || lowercased == Array("yes".utf8)
  }
}
