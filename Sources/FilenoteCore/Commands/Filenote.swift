import SystemCalls

/// filenote's entry point: runs one command line and returns the exit status.
/// The executable's `main` is this and nothing else.
public enum Filenote {
  /// Runs filenote with this process's arguments and environment, and exits.
  public static func main() -> Never {
    // Raw bytes, not `CommandLine.arguments`: that repairs invalid UTF-8,
    // and `save` must refuse it instead.
    let status = run(
      arguments: CurrentProcess.arguments,
      environment: Environment(entries: CurrentProcess.environment))
    CurrentProcess.exit(status.rawValue)
  }

  /// Runs filenote with the raw bytes of its arguments (without the program
  /// name) and its environment.
  static func run(arguments: [[UInt8]], environment: Environment) -> ExitCode {
    // A closed pipe must end `show` quietly: ignore SIGPIPE and treat EPIPE
    // as the reader having had enough.
    Signal.brokenPipe.ignore()
    // A file size limit (ulimit -f) must fail the write with EFBIG, so the
    // save removes its temporary file and says why, rather than kill us.
    Signal.fileSizeLimitExceeded.ignore()
    do {
      let invocation = try Invocation.parse(arguments)
      return try run(invocation, environment: environment)
    } catch {
      report(error)
      return error.exitCode
    }
  }

  /// Prints `filenote: <message>` on standard error.
  static func report(_ error: FilenoteError) {
    report(error.message)
  }

  /// Says what a save has to tell (`FileStore.Saved`): storage never
  /// prints, the command that saved does.
  static func report(_ saved: FileStore.Saved) {
    for notice in saved.notices(onTerminal: FileDescriptor.standardError.isTerminal) {
      report(notice)
    }
  }

  /// Says what storage had to tell while a command ran (`Notices`): those
  /// for a person only when standard error or standard output is a terminal.
  static func report(_ notices: Notices) {
    let taken = notices.take()
    // Most commands have none: no terminal is asked about then.
    guard !taken.isEmpty else { return }
    let onTerminal =
      FileDescriptor.standardError.isTerminal || FileDescriptor.standardOutput.isTerminal
    for notice in taken where onTerminal || !notice.onlyOnTerminal {
      report(notice.notice)
    }
  }

  /// `outcome`, once what a save has to tell is said (`report(_:)`).
  static func reporting(_ outcome: FileStore.SaveOutcome) -> FileStore.SaveOutcome {
    if case .saved(let saved) = outcome { report(saved) }
    return outcome
  }

  /// Prints `filenote: <line>` on standard error: every error and notice
  /// filenote gives there goes through here, so all of them are named alike,
  /// and none carries a control character (see `reported`).
  static func report(_ line: String) {
    printError(reported(line))
  }

  /// The line `report` prints: `filenote: ` and `line` with every control
  /// character (C0, DEL, C1, bidirectional controls) drawn as the prompt's
  /// stand-in, so no message moves the cursor, sets a title or writes the
  /// clipboard. The words of messages hold none; the text the user or the
  /// system gave (arguments, paths, environment values) may, and is escaped
  /// here, in one place, rather than where each message names it.
  static func reported(_ line: String) -> String {
    "filenote: " + line.replacingControlCharacters()
  }

  /// Writes `line` and a newline to standard error, as it is: the one place
  /// filenote writes there (`report` names the program; a word after an
  /// edit, "Saved.", does not).
  static func printError(_ line: String) {
    try? FileDescriptor.standardError.writeAll(line + "\n")
  }

  static func run(
    _ invocation: Invocation, environment: Environment
  ) throws(FilenoteError) -> ExitCode {
    let notices = Notices()
    defer { report(notices) }
    switch invocation.action {
    case .version:
      try printOut(Array((HelpText.version + "\n").utf8))
      return .success
    case .prompt:
      guard FileDescriptor.standardInput.isTerminal else { throw .notATerminal }
      // Resolved (and its settings checked) before the prompt opens.
      let store = try FileStore.resolve(
        fileOption: invocation.file, environment: environment, notices: notices)
      return try Prompt(store: store, environment: environment).run()
    case .run(let command, let words):
      return try command.run(
        CommandInput(
          command: command, words: words, options: invocation.commandOptions,
          file: invocation.file, environment: environment, notices: notices))
    }
  }

  /// Writes to standard output; a reader that went away ends the output quietly.
  static func printOut(_ bytes: [UInt8]) throws(FilenoteError) {
    do {
      try FileDescriptor.standardOutput.writeAll(bytes)
    } catch  where error == .brokenPipe {
      return
    } catch {
      throw .system(.write, .standardOutput, errno: error)
    }
  }
}
