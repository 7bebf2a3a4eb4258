/// One option of the command line, with everything about it in one place:
/// its names, the value it takes (how help shows it, how it is parsed), the
/// options it implies and its help. The rows are in `Option+All.swift`; the
/// options every command takes are `Option.common`, and each command's row
/// of `Command.all` names its own (`Command.options`). `Invocation.parse`,
/// the options of `--help` and `help COMMAND`, the usage lines and the tests
/// that check the man page, README and completions are derived from them, so
/// a new option is a new row, its name on the rows of the commands that take
/// it, and the code that reads it, nothing else.
struct Option: Sendable {
  /// The value an option takes, and how the text given becomes it.
  struct Value: Sendable {
    /// As help shows it, e.g. `PATH`.
    let placeholder: String
    /// What it is, for messages: `path` gives "needs a path" and "the path
    /// given with '--file'".
    let noun: String
    /// What a text must be to be one, for the message that refuses another:
    /// "a number of columns, 1 or more"; nil when any text is one.
    let rule: String?
    /// The value of `text` (valid UTF-8 and not empty), nil when it is not
    /// one (see `rule`).
    let parse: @Sendable (String) -> Argument?
  }

  /// A value given with an option, as its `Value` parsed it.
  enum Argument: Sendable, Equatable {
    /// Text taken as it is: a path.
    case text(String)
    /// A number written in digits alone.
    case number(Int)
  }

  /// An option as given on the command line, with its value.
  struct Given: Sendable {
    let option: Option
    /// The value, for an option that takes one.
    let value: Argument?
  }

  /// The long name as typed, e.g. `--help`; messages use it.
  let name: String
  /// The one-letter name, e.g. `-h`; nil for none.
  let shortName: String?
  /// The value it takes, nil for a flag: the next argument, or what follows
  /// `=` in the same one (`--file=PATH`).
  let value: Value?
  /// The options that giving it gives too: `--width` is about the line, so
  /// it implies `--line`. Options of the same commands.
  let implies: [Option]
  /// Its lines in `filenote --help`, which lists the options every command
  /// takes; empty for an option of some commands only.
  let generalHelp: [String]
  /// Its line in the help of a command that takes it; nil when that help
  /// leaves it out, as it does `--version`, which is not about the command.
  let commandHelp: String?

  /// Its names as typed, the short one first.
  var names: [String] { (shortName.map { [$0] } ?? []) + [name] }

  /// The option one of whose names is `name`, nil for none.
  static func named(_ name: String) -> Option? {
    all.first { $0.name == name || $0.shortName == name }
  }

  /// Its names and value as help shows them, e.g. `-h, --help` or `--file PATH`.
  var label: String {
    names.joined(separator: ", ") + (value.map { " " + $0.placeholder } ?? "")
  }
}

extension Option: Equatable {
  static func == (left: Option, right: Option) -> Bool { left.name == right.name }
}

extension [Option.Given] {
  /// Whether `option` was given.
  func contains(_ option: Option) -> Bool { contains { $0.option == option } }

  /// The text given with `option` (the last, when it was given more than
  /// once), nil when it was not given.
  func text(of option: Option) -> String? {
    guard case .text(let text)? = last(where: { $0.option == option })?.value else { return nil }
    return text
  }

  /// The number given with `option` (the last, when it was given more than
  /// once), nil when it was not given.
  func number(of option: Option) -> Int? {
    guard case .number(let number)? = last(where: { $0.option == option })?.value else {
      return nil
    }
    return number
  }
}
