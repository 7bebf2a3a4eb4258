/// A parsed command line.
struct Invocation: Sendable {
  /// What the command line asks for.
  enum Action: Sendable {
    /// `filenote` alone: edit the note in the prompt.
    case prompt
    /// `filenote --version`
    case version
    /// A command of `Command.all` with the words after its name.
    case run(Command, words: [[UInt8]])
  }

  var action: Action
  /// `--file PATH`, when given.
  var file: String?
  /// The given options that belong to the command (see `Command.options`).
  var commandOptions: [Option.Given] = []

  /// Parses the arguments after the program name. Each argument is given as
  /// its raw bytes, because the words of `save` are saved exactly as typed
  /// and must be checked for UTF-8 rather than silently repaired. Options may
  /// come before or after the command; `--` ends them.
  static func parse(_ arguments: [[UInt8]]) throws(FilenoteError) -> Invocation {
    var words: [[UInt8]] = []
    var given: [Option.Given] = []
    var index = 0
    var optionsEnded = false
    while index < arguments.count {
      let raw = arguments[index]
      let argument = String(decoding: raw, as: UTF8.self)
      index += 1
      if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
        words.append(raw)
      } else if argument == "--" {
        optionsEnded = true
      } else {
        let option = try option(argument, raw: raw, from: arguments, at: &index)
        given.append(option)
        for implied in option.option.implies where !given.contains(implied) {
          given.append(Option.Given(option: implied, value: nil))
        }
      }
    }

    // Only when an option was given: a plain `show` or `save` builds no row
    // of the table of options (CONTRIBUTING.md, Hot path).
    let file = given.isEmpty ? nil : given.text(of: .file)
    let name = words.first.map { String(decoding: $0, as: UTF8.self) }
    let rest = Array(words.dropFirst())
    if given.contains(.help) {
      // Help on the command named, the general help when none is; an unknown
      // command is a usage error wherever --help stands, and `help TOPIC
      // --help` is `help TOPIC`.
      guard let name else { return Invocation(action: .run(.help, words: []), file: file) }
      guard let command = Command.named(name) else {
        throw unknownCommand(name, words: words, file: file)
      }
      let words = command.name == "help" ? rest : [Array(command.name.utf8)]
      return Invocation(action: .run(.help, words: words), file: file)
    }
    let commandOptions = given.filter { !Option.common.contains($0.option) }
    if given.contains(.version) {
      // It stands alone, as a command that takes no arguments does: a word
      // beside it is a mistake to point out, not one to ignore.
      if let word = words.first {
        throw .usage(
          "'--version' takes no arguments, but was given '\(String(decoding: word, as: UTF8.self))' "
            + "(see 'filenote --help')")
      }
      if let stray = commandOptions.first {
        throw .usage("'--version' takes no option '\(stray.option.name)' (see 'filenote --help')")
      }
      return Invocation(action: .version, file: file)
    }
    guard let name else {
      if let stray = commandOptions.first {
        throw .usage("unknown option '\(stray.option.name)' (see 'filenote --help')")
      }
      return Invocation(action: .prompt, file: file)
    }
    guard let command = Command.named(name) else {
      throw unknownCommand(name, words: words, file: file)
    }
    if let stray = commandOptions.first(where: { !command.options.contains($0.option) }) {
      throw .usage(
        "'\(name)' takes no option '\(stray.option.name)' (see 'filenote help \(name)')")
    }
    return Invocation(
      action: .run(command, words: rest), file: file, commandOptions: commandOptions)
  }

  /// The option `argument` names, with its value: after `=` in the argument
  /// itself (`--file=PATH`), else the next argument, which `index` then passes.
  private static func option(
    _ argument: String, raw: [UInt8], from arguments: [[UInt8]], at index: inout Int
  ) throws(FilenoteError) -> Option.Given {
    var name = argument
    var attached: [UInt8]?
    if argument.hasPrefix("--"), let equals = raw.firstIndex(of: UInt8(ascii: "=")) {
      name = String(decoding: raw[..<equals], as: UTF8.self)
      attached = Array(raw[(equals + 1)...])
    }
    guard let option = Option.named(name), option.value != nil || attached == nil else {
      // A flag given a value (`--all=x`) is no near miss of itself.
      let suggestion = Option.named(name) == nil ? Suggestion.forOption(name) : .none
      throw .usage(
        "unknown option '\(argument)'" + suggestion.text)
    }
    guard let value = option.value else { return Option.Given(option: option, value: nil) }
    guard let raw = attached ?? (index < arguments.count ? arguments[index] : nil) else {
      throw .usage("option '\(option.name)' needs a \(value.noun) (see 'filenote --help')")
    }
    if attached == nil { index += 1 }
    // Values are kept as Swift strings, so one that is not UTF-8 is refused
    // rather than silently turned into another path.
    guard let text = String(validating: raw, as: UTF8.self) else {
      throw .usage(
        "cannot use the \(value.noun) given with '\(option.name)': it is not valid UTF-8")
    }
    guard !text.isEmpty else {
      throw .usage("option '\(option.name)' needs a \(value.noun), not an empty string")
    }
    guard let parsed = value.parse(text) else {
      throw .usage("'\(option.name)' takes \(value.rule ?? value.noun), not '\(text)'")
    }
    return Option.Given(option: option, value: parsed)
  }

  /// `name`, the first of `words`, is no command: what it may have been
  /// (see `Suggestion`).
  private static func unknownCommand(
    _ name: String, words: [[UInt8]], file: String?
  ) -> FilenoteError {
    .usage(
      "unknown command '\(name)'"
        + Suggestion.forCommand(name, words: words, file: file).text)
  }
}
