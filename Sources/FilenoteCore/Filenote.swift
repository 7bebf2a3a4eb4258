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
    var nonUTF8Variables: Set<String> = []
    var entry = environ
    while let pointer = entry.pointee {
      let bytes = UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))
      if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
        let name = String(decoding: bytes[..<equals], as: UTF8.self)
        let value = UnsafeRawBufferPointer(rebasing: bytes[(equals + 1)...])
        if UTF8Validator.firstInvalidOffset(in: value) == nil {
          environment[name] = String(decoding: value, as: UTF8.self)
        } else {
          nonUTF8Variables.insert(name)
        }
      }
      entry += 1
    }
    let status = run(
      arguments: arguments, environment: environment, nonUTF8Variables: nonUTF8Variables)
    exit(status.rawValue)
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
    signal(SIGPIPE, SIG_IGN)
    // A file size limit (ulimit -f) must fail the write with EFBIG, so the
    // save removes its temporary file and says why, rather than kill us.
    signal(SIGXFSZ, SIG_IGN)
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
    let store = { () throws(FilenoteError) in
      try FileStore.resolve(
        fileOption: invocation.file, environment: environment, nonUTF8Variables: nonUTF8Variables)
    }
    switch invocation.command {
    case .help(let topic):
      let text = topic.flatMap(HelpText.command) ?? HelpText.general
      try printOut(Array((text + "\n").utf8))
    case .version:
      try printOut(Array((HelpText.version + "\n").utf8))
    case .path:
      try printOut(Array((store().path + "\n").utf8))
    case .show:
      let store = try store()
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
