// The table of options: one row per option, with its value, what it
// implies and its help. The commands that take one name it on their rows
// (`Command.options`); the order of `all` is the order help lists them in.
//
// Each row is a computed property, made where it is asked for: as a stored
// `static let`, each would be set up once per run behind a lock the first
// time a command line names it, and a plain `show` or `save` asks for some
// (measured with a breakpoint on swift_once; CONTRIBUTING.md, Hot path).

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

  static var file: Option {
    Option(
      name: "--file", shortName: nil, value: .path, implies: [],
      generalHelp: [
        "use the note file PATH, not <documents>/datafile.dat",
        "(FILENOTE_FILE in the environment does the same)",
      ],
      commandHelp: "use the note file PATH, not <documents>/datafile.dat")
  }

  static var help: Option {
    Option(
      name: "--help", shortName: "-h", value: nil, implies: [],
      generalHelp: ["show help and exit"], commandHelp: "show this help and exit")
  }

  static var version: Option {
    Option(
      name: "--version", shortName: nil, value: nil, implies: [],
      generalHelp: ["show the version and exit"], commandHelp: nil)
  }

  /// `clear --all`.
  static var allVersions: Option {
    Option(
      name: "--all", shortName: nil, value: nil, implies: [],
      generalHelp: [], commandHelp: "remove every kept version too")
  }

  /// `forget --yes`.
  static var yes: Option {
    Option(
      name: "--yes", shortName: "-y", value: nil, implies: [],
      generalHelp: [], commandHelp: "forget without asking")
  }

  /// `save --no-version`.
  static var noVersion: Option {
    Option(
      name: "--no-version", shortName: nil, value: nil, implies: [],
      generalHelp: [], commandHelp: "keep nothing of the note it replaces")
  }

  /// `show --line`: the note as one inert line (doc/INTEGRATION.md).
  static var line: Option {
    Option(
      name: "--line", shortName: nil, value: nil, implies: [],
      generalHelp: [], commandHelp: "print the note as one inert line, for a prompt or a bar")
  }

  /// `show --line --width N`.
  static var width: Option {
    Option(
      name: "--width", shortName: nil, value: .columns, implies: [line],
      generalHelp: [], commandHelp: "the line at most N columns (default: the terminal's, or 80)")
  }

  /// `show --line --follow`.
  static var follow: Option {
    Option(
      name: "--follow", shortName: nil, value: nil, implies: [line],
      generalHelp: [], commandHelp: "print the line again at each change")
  }

  /// `show --line --fail`: a script's test for a note (as curl's `--fail`
  /// fails silently).
  static var failWithoutNote: Option {
    Option(
      name: "--fail", shortName: nil, value: nil, implies: [line],
      generalHelp: [], commandHelp: "with no note, exit with status 1 (still printing nothing)")
  }

  /// `show --raw`: on a terminal too, the note's bytes as saved (`TerminalText`).
  static let raw = Option(
    name: "--raw", shortName: nil, value: nil, implies: [],
    generalHelp: [], commandHelp: "on a terminal too, print control characters as they are")

  /// `history --json`.
  static var json: Option {
    Option(
      name: "--json", shortName: nil, value: nil, implies: [],
      generalHelp: [], commandHelp: "print one JSON object a version (JSON Lines)")
  }

  /// `copy --desktop`.
  static var desktop: Option {
    Option(
      name: "--desktop", shortName: nil, value: nil, implies: [],
      generalHelp: [], commandHelp: "use wl-copy, xclip or xsel, not the terminal")
  }
}

extension Option.Value {
  /// A path, taken as it is given.
  static var path: Option.Value {
    Option.Value(placeholder: "PATH", noun: "path", rule: nil) { .text($0) }
  }

  /// A number of columns: digits alone, 1 or more (a number too large to
  /// hold is as wide as can be).
  static var columns: Option.Value {
    Option.Value(
      placeholder: "N", noun: "number of columns", rule: "a number of columns, 1 or more"
    ) { text in
      DecimalNumber.value(of: text.utf8).flatMap { $0 > 0 ? .number($0) : nil }
    }
  }
}
