/// A parsed command line.
public struct Invocation: Sendable {
  /// What the command line asks for.
  public enum Action: Sendable {
    /// `filenote` alone: edit the note in the prompt.
    case prompt
    /// `filenote --version`
    case version
    /// A command of `Command.all` with the words after its name.
    case run(Command, words: [[UInt8]])
  }

  public var action: Action
  /// `--file PATH`, when given.
  public var file: String?
  /// The given options that belong to the command (see `Command.options`).
  public var commandOptions: [String] = []

  /// Parses the arguments after the program name. Each argument is given as
  /// its raw bytes, because the words of `save` are saved exactly as typed
  /// and must be checked for UTF-8 rather than silently repaired.
  public static func parse(_ arguments: [[UInt8]]) throws(FilenoteError) -> Invocation {
    let commandOptions = Command.all.flatMap(\.options)
    var file: String?
    var words: [[UInt8]] = []
    var given: [String] = []
    var wantsHelp = false
    var wantsVersion = false
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let raw = arguments[index]
      let argument = String(decoding: raw, as: UTF8.self)
      index += 1
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        words.append(raw)
        continue
      }
      switch argument {
      case "--":
        optionsEnded = true
      case "-h", "--help":
        wantsHelp = true
      case "--version":
        wantsVersion = true
      case "--file":
        guard index < arguments.count else {
          throw .usage("option '--file' needs a path (see 'filenote --help')")
        }
        file = try pathArgument(arguments[index])
        index += 1
      case _ where argument.hasPrefix("--file="):
        file = try pathArgument(Array(raw.dropFirst("--file=".utf8.count)))
      case _ where commandOptions.contains(argument):
        given.append(argument)
      default:
        throw .usage("unknown option '\(argument)' (see 'filenote --help')")
      }
      if let path = file, path.isEmpty {
        throw .usage("option '--file' needs a path, not an empty string")
      }
    }

    let name = words.first.map { String(decoding: $0, as: UTF8.self) }
    let rest = Array(words.dropFirst())
    if wantsHelp {
      // Help on the command named, the general help when none is; an unknown
      // command is a usage error wherever --help stands, and `help TOPIC
      // --help` is `help TOPIC`.
      guard let name else { return Invocation(action: .run(.help, words: []), file: file) }
      guard let command = Command.named(name) else { throw unknownCommand(name) }
      let words = command.name == "help" ? rest : [Array(command.name.utf8)]
      return Invocation(action: .run(.help, words: words), file: file)
    }
    if wantsVersion { return Invocation(action: .version, file: file) }
    guard let name else {
      if let option = given.first {
        throw .usage("unknown option '\(option)' (see 'filenote --help')")
      }
      return Invocation(action: .prompt, file: file)
    }
    guard let command = Command.named(name) else { throw unknownCommand(name) }
    if let option = given.first(where: { !command.options.contains($0) }) {
      throw .usage("'\(name)' takes no option '\(option)' (see 'filenote help \(name)')")
    }
    return Invocation(
      action: .run(command, words: rest), file: file, commandOptions: given)
  }

  private static func unknownCommand(_ name: String) -> FilenoteError {
    .usage("unknown command '\(name)' (see 'filenote --help')")
  }

  /// A `--file` value; paths are kept as Swift strings, so one that is not
  /// UTF-8 is refused rather than silently turned into another path.
  private static func pathArgument(_ raw: [UInt8]) throws(FilenoteError) -> String {
    guard let path = String(validating: raw, as: UTF8.self) else {
      throw .usage("cannot use the path given with '--file': it is not valid UTF-8")
    }
    return path
  }
}
