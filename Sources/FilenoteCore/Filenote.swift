import SystemCalls

/// filenote's entry point: runs one command line and returns the exit status.
/// The executable's `main` is this and nothing else.
public enum Filenote {
  /// Runs filenote with this process's arguments and environment, and exits.
  public static func main() -> Never {
    // Raw bytes, not `CommandLine.arguments`: that repairs invalid UTF-8,
    // and `save` must refuse it instead.
    var environment: [String: String] = [:]
    var nonUTF8Variables: Set<String> = []
    for bytes in CurrentProcess.environment {
      if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
        let name = String(decoding: bytes[..<equals], as: UTF8.self)
        let value = Array(bytes[(equals + 1)...])
        if UTF8Validator.firstInvalidOffset(in: value) == nil {
          environment[name] = String(decoding: value, as: UTF8.self)
        } else {
          nonUTF8Variables.insert(name)
        }
      }
    }
    let status = run(
      arguments: CurrentProcess.arguments, environment: environment,
      nonUTF8Variables: nonUTF8Variables)
    CurrentProcess.exit(status.rawValue)
  }

  /// Runs filenote with the raw bytes of its arguments (without the program
  /// name) and its environment.
  /// Variables whose values are not UTF-8 are named in `nonUTF8Variables`
  /// (and left out of `environment`), so that a path filenote needs from one
  /// is refused rather than silently repaired into another path.
  public static func run(
    arguments: [[UInt8]], environment: [String: String], nonUTF8Variables: Set<String> = []
  ) -> ExitCode {
    // A closed pipe must end `show` quietly: ignore SIGPIPE and treat EPIPE
    // as the reader having had enough.
    Signal.brokenPipe.ignore()
    // A file size limit (ulimit -f) must fail the write with EFBIG, so the
    // save removes its temporary file and says why, rather than kill us.
    Signal.fileSizeLimitExceeded.ignore()
    do {
      let invocation = try Invocation.parse(arguments)
      return try run(invocation, environment: environment, nonUTF8Variables: nonUTF8Variables)
    } catch {
      report(error)
      return error.exitCode
    }
  }

  /// Prints `filenote: <message>` on standard error.
  public static func report(_ error: FilenoteError) {
    try? FileDescriptor.standardError.writeAll("filenote: " + error.message + "\n")
  }

  static func run(
    _ invocation: Invocation, environment: [String: String], nonUTF8Variables: Set<String>
  ) throws(FilenoteError) -> ExitCode {
    switch invocation.action {
    case .version:
      try printOut(Array((HelpText.version + "\n").utf8))
      return .success
    case .prompt:
      guard FileDescriptor.standardInput.isTerminal else { throw .notATerminal }
      var store = try FileStore.resolve(
        fileOption: invocation.file, environment: environment, nonUTF8Variables: nonUTF8Variables)
      store.versionsSetting = environment["FILENOTE_VERSIONS"]
      return try Prompt(store: store, environment: environment).run()
    case .run(let command, let words):
      return try command.run(
        CommandInput(
          command: command, words: words, options: invocation.commandOptions,
          file: invocation.file, environment: environment, nonUTF8Variables: nonUTF8Variables))
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
