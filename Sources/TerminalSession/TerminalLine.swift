import SystemCalls

/// One line typed on a terminal in its own line mode (the plain prompt's
/// note, the answer to a `[y/N]` question), or how reading it ended.
public enum TerminalLine: Equatable, Sendable {
  /// The line, without its line ending ("\n" or "\r\n"), cut to the bytes
  /// kept.
  case line([UInt8])
  /// End of input (Ctrl-D) before a line ending.
  case endOfInput
  /// A signal came on the signal pipe the read watched (see `SignalPipe`),
  /// which the caller drains to learn which.
  case interrupted
  /// The read failed.
  case failed(Errno)

  /// Reads one line from `input`, a byte at a time, to the end of the line
  /// and not past it: what is typed after it stays for whoever reads next
  /// (the shell). Bytes past the first `limit` are read and dropped. With
  /// `signals` (a signal pipe), a signal caught meanwhile ends the read
  /// (`interrupted`), the one way a signal cuts a line short; without, a
  /// signal acts as it is set to (SIGINT's default ends the process).
  public static func read(
    from input: FileDescriptor, keepingAtMost limit: Int = .max,
    interruptedBy signals: FileDescriptor?
  ) -> TerminalLine {
    var line: [UInt8] = []
    var byte: UInt8 = 0
    while true {
      if let signals {
        do {
          let ready = try Poll.wait(for: [(input, .readable), (signals, .readable)], deadline: nil)
          if !ready[1].isEmpty { return .interrupted }
        } catch {
          return .failed(error)
        }
      }
      let count: Int
      do {
        count = try withUnsafeMutableBytes(of: &byte) { buffer throws(Errno) in
          try input.read(into: buffer)
        }
      } catch {
        return .failed(error)
      }
      if count == 0 { return .endOfInput }
      if byte == UInt8(ascii: "\n") {
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return .line(line)
      }
      if line.count < limit { line.append(byte) }
    }
  }
}
