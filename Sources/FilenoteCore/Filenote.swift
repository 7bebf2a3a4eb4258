#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// filenote's entry point: runs one command line and returns the exit status.
/// The executable's `main` is this and nothing else.
public enum Filenote {
  /// Runs filenote with this process's arguments and environment, and exits.
  public static func main() -> Never {
    // Raw bytes, not `CommandLine.arguments`: that repairs invalid UTF-8,
    // and `save` must refuse it instead.
    let arguments = (1..<Int(CommandLine.argc)).map { index in
      let argument = CommandLine.unsafeArgv[index]!
      return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
    }
    var environment: [String: String] = [:]
    var entry = environ
    while let pointer = entry.pointee {
      let variable = String(cString: pointer)
      if let equals = variable.firstIndex(of: "=") {
        environment[String(variable[..<equals])] = String(
          variable[variable.index(after: equals)...])
      }
      entry += 1
    }
    exit(run(arguments: arguments, environment: environment).rawValue)
  }

  /// Runs filenote with the raw bytes of its arguments (without the program
  /// name) and its environment.
  public static func run(arguments: [[UInt8]], environment: [String: String]) -> ExitCode {
    // A closed pipe must end `show` quietly: ignore SIGPIPE and treat EPIPE
    // as the reader having had enough.
    signal(SIGPIPE, SIG_IGN)
    do {
      let invocation = try Invocation.parse(arguments)
      return try run(invocation, environment: environment)
    } catch {
      report(error)
      return error.exitCode
    }
  }

  /// Prints `filenote: <message>` on standard error.
  public static func report(_ error: FilenoteError) {
    try? FileDescriptor.standardError.writeAll("filenote: " + error.message + "\n")
  }

  static func run(_ invocation: Invocation, environment: [String: String]) throws(FilenoteError)
    -> ExitCode
  {
    let store = { FileStore.resolve(fileOption: invocation.file, environment: environment) }
    switch invocation.command {
    case .help(let topic):
      let text = topic.flatMap(HelpText.command) ?? HelpText.general
      try printOut(Array((text + "\n").utf8))
    case .version:
      try printOut(Array((HelpText.version + "\n").utf8))
    case .path:
      try printOut(Array((store().path + "\n").utf8))
    case .show:
      let store = store()
      guard var note = try store.read() else { throw .noNote(path: store.path) }
      note.bytes.append(UInt8(ascii: "\n"))
      try printOut(note.bytes)
    case .save(let words?):
      try store().save(bytes: Array(words.joined(separator: [UInt8(ascii: " ")])))
    case .save(nil):
      if FileDescriptor.standardInput.isTerminal {
        try? FileDescriptor.standardError.writeAll(
          "filenote: reading the note from the terminal; end it with Ctrl-D on a new line\n")
      }
      try store().save(streamingFrom: .standardInput)
    case .clear:
      try store().clear()
    case .edit:
      guard FileDescriptor.standardInput.isTerminal else { throw .notATerminal }
      return try Prompt(store: store(), environment: environment).run()
    }
    return .success
  }

  /// Writes to standard output; a reader that went away ends the output quietly.
  static func printOut(_ bytes: [UInt8]) throws(FilenoteError) {
    do {
      try FileDescriptor.standardOutput.writeAll(bytes)
    } catch  where error == .brokenPipe {
      return
    } catch {
      throw .system(action: "cannot write", path: "standard output", errno: error)
    }
  }
}
