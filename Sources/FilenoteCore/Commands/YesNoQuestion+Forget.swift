import SystemCalls
import TerminalSession

extension YesNoQuestion {
  /// Asked by `filenote forget N` on a terminal, under the version's line.
  static func forget(_ number: Int) -> YesNoQuestion {
    YesNoQuestion("Forget version \(number) for good? [y/N] ")
  }

  /// Writes the question on `output` and reads one line from `input`, a
  /// terminal in its own line mode: true only for a yes (`isYes`). End of
  /// input or a failure is no; Ctrl-C ends filenote as SIGINT does, with
  /// nothing changed.
  func ask(reading input: FileDescriptor, writingTo output: FileDescriptor) -> Bool {
    try? output.writeAll(text)
    var line: [UInt8] = []
    var byte: UInt8 = 0
    // A byte at a time, to the end of the line and not past it: what is
    // typed after the answer is the shell's.
    while true {
      let count = withUnsafeMutableBytes(of: &byte) { try? input.read(into: $0) }
      guard let count, count > 0 else {
        // No answer came: end the question's line.
        try? output.writeAll("\n")
        return false
      }
      if byte == UInt8(ascii: "\n") { return Self.isYes(line) }
      // An answer is a word: a longer line is no, however it ends.
      if line.count <= 64 { line.append(byte) }
    }
  }
}
