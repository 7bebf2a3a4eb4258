/// One option of the command line, with everything about it in one place:
/// its names, the value it takes, its help and the commands that take it.
/// `Option.all` is the table; `Invocation.parse`, the options of `--help` and
/// `help COMMAND`, the usage lines and the tests that check the man page,
/// README and completions are derived from it, so a new option is a new row
/// there and the code of the commands that read it, nothing else.
struct Option: Sendable {
  /// The value an option takes.
  struct Value: Sendable {
    /// As help shows it, e.g. `PATH`.
    let placeholder: String
    /// What it is, for messages: `path` gives "needs a path" and "the path
    /// given with '--file'".
    let noun: String
  }

  /// An option as given on the command line, with its value.
  struct Given: Sendable {
    let option: Option
    /// The value, for an option that takes one: valid UTF-8 and not empty.
    let value: String?
  }

  /// The long name as typed, e.g. `--help`; messages use it.
  let name: String
  /// The one-letter name, e.g. `-h`; nil for none.
  let shortName: String?
  /// The value it takes, nil for a flag: the next argument, or what follows
  /// `=` in the same one (`--file=PATH`).
  let value: Value?
  /// The names of the commands that take it; nil when every command takes
  /// it, and `filenote` alone too. A command's own options show in its usage
  /// line.
  let commands: [String]?
  /// Its lines in `filenote --help`, which lists the options every command
  /// takes; empty for an option of some commands only.
  let generalHelp: [String]
  /// Its line in the help of a command that takes it; nil when that help
  /// leaves it out, as it does `--version`, which is not about the command.
  let commandHelp: String?

  /// Its names as typed, the short one first.
  var names: [String] { (shortName.map { [$0] } ?? []) + [name] }

  /// The options every command takes.
  static var common: [Option] { all.filter { $0.commands == nil } }

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
}
