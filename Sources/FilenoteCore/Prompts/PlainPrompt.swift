import SystemCalls

/// The prompt for a terminal that cannot move its cursor (`TERM=dumb` or
/// unset): it shows the note, reads one line in the terminal's own line
/// mode, and keeps the note when that line is empty.
struct PlainPrompt {
  let store: FileStore
  /// Where the prompt writes (see `Prompt.openTerminal()`); the line is
  /// read from standard input.
  let terminal: FileDescriptor

  static let question = "The note was changed on disk since you opened it. Overwrite it? [y/N] "

  func run() throws(FilenoteError) -> ExitCode {
    var note = try store.read()
    var intro = "Note in \(store.path)\n"
    showing: while true {
      if let note {
        intro += "Current: \(note.text.replacingControlCharacters())\n"
        intro += "Type a new note and press Enter (an empty line keeps it; Ctrl-D cancels).\n"
      } else {
        intro += "No note yet. Type one and press Enter (Ctrl-D cancels).\n"
      }
      write(intro + "> ")

      let line: [UInt8]
      switch try readLine() {
      case .line(let bytes): line = bytes
      case .endOfInput: return cancel(.failure)
      case .interrupted: return cancel(.cancelled)
      }
      if line.isEmpty {
        write(note == nil ? "Nothing saved.\n" : "Nothing changed.\n")
        return .success
      }
      // As in the editing prompt: a note changed on disk since it was shown
      // is never overwritten without asking; the check and the save are made
      // under the writer lock, and the question asked outside it.
      var expected = note?.version
      while case .changedOnDisk(let current) = try store.save(line, ifStill: expected) {
        write(Self.question)
        switch try readLine() {
        case .line(let answer) where Self.isYes(answer):
          expected = current  // agreed to replace this one, and only this one
        case .line:
          // Show what is on disk now; the next line is checked against it.
          note = try store.read()
          intro = "Not saved. The note on disk now:\n"
          continue showing
        case .endOfInput: return cancel(.failure)
        case .interrupted: return cancel(.cancelled)
        }
      }
      write("Saved.\n")
      return .success
    }
  }

  /// "y" or "yes" in any case, blanks around allowed; anything else is no.
  private static func isYes(_ answer: [UInt8]) -> Bool {
    let words = answer.split { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    guard words.count == 1 else { return false }
    let word = String(decoding: words[0], as: UTF8.self).lowercased()
    return word == "y" || word == "yes"
  }

  private func cancel(_ status: ExitCode) -> ExitCode {
    write("\nCancelled: nothing was saved.\n")
    return status
  }

  /// Writes to the terminal; a terminal that went away is noticed by the
  /// next read.
  private func write(_ text: String) {
    try? terminal.writeAll(text)
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
