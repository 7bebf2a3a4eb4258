/// What the user asked for on the command line.
public enum Command: Equatable, Sendable {
  /// `filenote`: edit the note in the prompt.
  case edit
  /// `filenote save [TEXT ...]`: the words' bytes, or nil to read standard input.
  case save(words: [[UInt8]]?)
  /// `filenote show`
  case show
  /// `filenote path`
  case path
  /// `filenote clear`
  case clear
  /// `filenote help [COMMAND]`, `-h`, `--help`: nil for the general help.
  case help(topic: String?)
  /// `filenote --version`
  case version

  /// The names of the commands, as typed.
  public static let names = ["save", "show", "path", "clear", "help"]
}

/// A parsed command line: the command and the options that go with any command.
public struct Invocation: Equatable, Sendable {
  public var command: Command
  /// `--file PATH`, when given.
  public var file: String?

  /// Parses the arguments after the program name. Each argument is given as
  /// its raw bytes, because the words of `save` are saved exactly as typed
  /// and must be checked for UTF-8 rather than silently repaired.
  public static func parse(_ arguments: [[UInt8]]) throws(FilenoteError) -> Invocation {
    var file: String?
    var words: [[UInt8]] = []
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
      if let name, Command.names.contains(name), name != "help" {
        return Invocation(command: .help(topic: name), file: file)
      }
      return Invocation(command: .help(topic: nil), file: file)
    }
    if wantsVersion { return Invocation(command: .version, file: file) }

    let command: Command
    switch name {
    case nil:
      command = .edit
    case "save":
      command = .save(words: rest.isEmpty || rest == [Array("-".utf8)] ? nil : rest)
    case "show", "path", "clear":
      guard rest.isEmpty else {
        let extra = String(decoding: rest[0], as: UTF8.self)
        throw .usage(
          "'\(name!)' takes no arguments, but was given '\(extra)' (see 'filenote help \(name!)')")
      }
      command = name == "show" ? .show : name == "path" ? .path : .clear
    case "help":
      guard rest.count <= 1 else {
        throw .usage("'help' takes one command name at most (see 'filenote --help')")
      }
      let topic = rest.first.map { String(decoding: $0, as: UTF8.self) }
      if let topic, !Command.names.contains(topic) {
        throw .usage(
          "no help for unknown command '\(topic)' (commands: \(Command.names.joined(separator: ", ")))"
        )
      }
      command = .help(topic: topic)
    case let name?:
      throw .usage("unknown command '\(name)' (see 'filenote --help')")
    }
    return Invocation(command: command, file: file)
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
