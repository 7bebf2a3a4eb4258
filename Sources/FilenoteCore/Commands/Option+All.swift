// The table of options: one row per option, with its value, what it
// implies and its help. The commands that take one name it on their rows
// (`Command.options`); the order of `all` is the order help lists them in.

extension Option {
  /// The options every command takes, and `filenote` alone too: the
  /// general help lists them.
  static let common: [Option] = [file, help, version]

  /// Every option: the common ones, then each command's own, in the order
  /// of the commands. Built only when an option is looked up by name (an
  /// argument that starts with `-`), so a plain `show` or `save` never
  /// builds it (CONTRIBUTING.md, Hot path).
  static let all: [Option] = {
    var options = common
    for command in Command.all {
      for option in command.options where !options.contains(option) {
        options.append(option)
      }
    }
    return options
  }()

  static let file = Option(
    name: "--file", shortName: nil, value: .path, implies: [],
    generalHelp: [
      "use the note file PATH, not <documents>/datafile.dat",
      "(FILENOTE_FILE in the environment does the same)",
    ],
    commandHelp: "use the note file PATH, not <documents>/datafile.dat")

  static let help = Option(
    name: "--help", shortName: "-h", value: nil, implies: [],
    generalHelp: ["show help and exit"], commandHelp: "show this help and exit")

  static let version = Option(
    name: "--version", shortName: nil, value: nil, implies: [],
    generalHelp: ["show the version and exit"], commandHelp: nil)

  /// `clear --all`.
  static let allVersions = Option(
    name: "--all", shortName: nil, value: nil, implies: [],
    generalHelp: [], commandHelp: "remove every kept version too")

  /// `forget --yes`.
  static let yes = Option(
    name: "--yes", shortName: "-y", value: nil, implies: [],
    generalHelp: [], commandHelp: "forget without asking")

  /// `save --no-version`.
  static let noVersion = Option(
    name: "--no-version", shortName: nil, value: nil, implies: [],
    generalHelp: [], commandHelp: "keep nothing of the note it replaces")

  /// `show --line`: the note as one inert line (doc/INTEGRATION.md).
  static let line = Option(
    name: "--line", shortName: nil, value: nil, implies: [],
    generalHelp: [], commandHelp: "print the note as one inert line, for a prompt or a bar")

  /// `show --line --width N`.
  static let width = Option(
    name: "--width", shortName: nil, value: .columns, implies: [line],
    generalHelp: [], commandHelp: "the line at most N columns (default: the terminal's, or 80)")

  /// `show --line --follow`.
  static let follow = Option(
    name: "--follow", shortName: nil, value: nil, implies: [line],
    generalHelp: [], commandHelp: "print the line again at each change")

  /// `show --line --fail`: a script's test for a note (as curl's `--fail`
  /// fails silently).
  static let failWithoutNote = Option(
    name: "--fail", shortName: nil, value: nil, implies: [line],
    generalHelp: [], commandHelp: "with no note, exit with status 1 (still printing nothing)")

  /// `show --raw`: on a terminal too, the note's bytes as saved (`TerminalText`).
  static let raw = Option(
    name: "--raw", shortName: nil, value: nil, implies: [],
    generalHelp: [], commandHelp: "on a terminal too, print control characters as they are")

  /// `history --json`.
  static let json = Option(
    name: "--json", shortName: nil, value: nil, implies: [],
    generalHelp: [], commandHelp: "print one JSON object a version (JSON Lines)")

  /// `copy --desktop`.
  static let desktop = Option(
    name: "--desktop", shortName: nil, value: nil, implies: [],
    generalHelp: [], commandHelp: "use wl-copy, xclip or xsel, not the terminal")
}

extension Option.Value {
  /// A path, taken as it is given.
  static let path = Option.Value(placeholder: "PATH", noun: "path", rule: nil) { .text($0) }

  /// A number of columns: digits alone, 1 or more (a number too large to
  /// hold is as wide as can be).
  static let columns = Option.Value(
    placeholder: "N", noun: "number of columns", rule: "a number of columns, 1 or more"
  ) { text in
    DecimalNumber.value(of: text.utf8).flatMap { $0 > 0 ? .number($0) : nil }
  }
}
