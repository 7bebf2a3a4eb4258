import SystemCalls

/// The prompt for a terminal that cannot move its cursor (`TERM=dumb` or
/// unset): it shows the note, reads one line in the terminal's own line
/// mode, and keeps the note when that line is empty.
struct PlainPrompt {
  let store: FileStore

  func run() throws(FilenoteError) -> ExitCode {
    let note = try store.read()
    let output = FileDescriptor.standardOutput
    var intro = "Note in \(store.path)\n"
    if let note {
      intro += "Current: \(note.text.replacingControlCharacters())\n"
      intro += "Type a new note and press Enter (an empty line keeps it; Ctrl-D cancels).\n"
    } else {
      intro += "No note yet. Type one and press Enter (Ctrl-D cancels).\n"
    }
    intro += "> "
    try? output.writeAll(intro)

    let line: [UInt8]
    switch try readLine() {
    case .line(let bytes):
      line = bytes
    case .endOfInput:
      try? output.writeAll("\nCancelled: nothing was saved.\n")
      return .failure
    case .interrupted:
      try? output.writeAll("\nCancelled: nothing was saved.\n")
      return .cancelled
    }
    if line.isEmpty {
      try? output.writeAll(note == nil ? "Nothing saved.\n" : "Nothing changed.\n")
      return .success
    }
    try store.save(bytes: line)
    try? output.writeAll("Saved.\n")
    return .success
  }

  /// What reading the answer gave.
  private enum Answer {
    case line([UInt8])
    /// Ctrl-D: with text typed or not, the user asked to stop.
    case endOfInput
    /// Ctrl-C.
    case interrupted
  }

  /// One line from standard input without its line ending. In the terminal's
  /// line mode Ctrl-C is a SIGINT: it is caught (unless it was ignored, as in
  /// a background job) so that the read ends with EINTR and filenote can say
  /// it cancelled.
  private func readLine() throws(FilenoteError) -> Answer {
    let interruption = Signal.interrupt.interruptingReads()
    defer { interruption.release() }

    var line: [UInt8] = []
    var byte: UInt8 = 0
    while true {
      let count: Int
      do {
        count = try withUnsafeMutableBytes(of: &byte) { buffer throws(Errno) in
          try FileDescriptor.standardInput.read(
            into: buffer, retryOnInterrupt: !interruption.catches)
        }
      } catch  where error == .interrupted {
        return .interrupted
      } catch {
        throw .system(.read, .terminal, errno: error)
      }
      if count == 0 { return .endOfInput }
      if byte == UInt8(ascii: "\n") {
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return .line(line)
      }
      line.append(byte)
    }
  }
}
