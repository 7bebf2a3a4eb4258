import SystemCalls

/// `filenote` on a terminal: edit the saved note and save it with Enter.
///
/// A terminal that can move its cursor gets the line editor
/// (`EditingPrompt`); `TERM=dumb` or no `TERM` gets `PlainPrompt`, which only
/// needs the terminal's own line mode.
struct Prompt {
  let store: FileStore
  let environment: Environment

  func run() throws(FilenoteError) -> ExitCode {
    let terminal = Self.openTerminal()
    defer { if terminal != .standardInput && terminal != .standardOutput { terminal.close() } }
    let term = environment["TERM"] ?? ""
    if term.isEmpty || term == "dumb" {
      return try PlainPrompt(store: store, environment: environment, terminal: terminal).run()
    }
    return try EditingPrompt(store: store, environment: environment, terminal: terminal).run()
  }

  /// Where a prompt writes: the controlling terminal (`/dev/tty`) itself, as
  /// fzf and other interactive filters do, so nothing of the prompt goes to
  /// standard output whatever it is (`filenote > out`, `filenote < /dev/tty |
  /// cat`). Without one (a process started by `setsid`), standard output
  /// when it is a terminal, else standard input, which is one (the prompt
  /// runs only then).
  static func openTerminal() -> FileDescriptor {
    if let terminal = try? FileDescriptor.open(
      "/dev/tty", .readWrite, options: [.noControllingTerminal]), terminal.isTerminal
    {
      return terminal
    }
    return FileDescriptor.standardOutput.isTerminal ? .standardOutput : .standardInput
  }
}
