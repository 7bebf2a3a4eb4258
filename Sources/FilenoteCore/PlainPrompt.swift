#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

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
    var interruption = sigaction()
    interruption.__sigaction_handler.sa_handler = { _ in }
    sigemptyset(&interruption.sa_mask)
    interruption.sa_flags = 0  // no SA_RESTART: the read must end
    var previous = sigaction()
    sigaction(SIGINT, nil, &previous)
    let catches =
      unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self)
      != unsafeBitCast(SIG_IGN, to: Int.self)
    if catches { sigaction(SIGINT, &interruption, nil) }
    defer { if catches { sigaction(SIGINT, &previous, nil) } }

    var line: [UInt8] = []
    var byte: UInt8 = 0
    while true {
      let count = Glibc.read(STDIN_FILENO, &byte, 1)
      if count == -1 {
        if errno == EINTR && catches { return .interrupted }
        if errno == EINTR { continue }
        throw .system(action: "cannot read", path: "the terminal", errno: .current)
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
