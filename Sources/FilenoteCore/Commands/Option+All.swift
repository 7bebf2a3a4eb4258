// The table of options: one row per option, with its help and the commands
// that take it. The order is the order help lists them in.

extension Option {
  /// Every option, as help lists them.
  static let all: [Option] = [
    file, help, version, allVersions, raw, line, width, follow, failWithoutNote, json, desktop,
    yes, noVersion,
  ]

  static let file = Option(
    name: "--file", shortName: nil, value: Value(placeholder: "PATH", noun: "path"),
    commands: nil,
    generalHelp: [
      "use the note file PATH, not <documents>/datafile.dat",
      "(FILENOTE_FILE in the environment does the same)",
    ],
    commandHelp: "use the note file PATH, not <documents>/datafile.dat")

  static let help = Option(
    name: "--help", shortName: "-h", value: nil, commands: nil,
    generalHelp: ["show help and exit"], commandHelp: "show this help and exit")

  static let version = Option(
    name: "--version", shortName: nil, value: nil, commands: nil,
    generalHelp: ["show the version and exit"], commandHelp: nil)

  /// `clear --all`.
  static let allVersions = Option(
    name: "--all", shortName: nil, value: nil, commands: ["clear"],
    generalHelp: [], commandHelp: "remove every kept version too")

  /// `forget --yes`.
  static let yes = Option(
    name: "--yes", shortName: "-y", value: nil, commands: ["forget"],
    generalHelp: [], commandHelp: "forget without asking")

  /// `save --no-version`.
  static let noVersion = Option(
    name: "--no-version", shortName: nil, value: nil, commands: ["save"],
    generalHelp: [], commandHelp: "keep nothing of the note it replaces")

  /// `show --line`: the note as one inert line (doc/INTEGRATION.md).
  static let line = Option(
    name: "--line", shortName: nil, value: nil, commands: ["show"],
    generalHelp: [], commandHelp: "print the note as one inert line, for a prompt or a bar")

  /// `show --line --width N`.
  static let width = Option(
    name: "--width", shortName: nil, value: Value(placeholder: "N", noun: "number of columns"),
    commands: ["show"],
    generalHelp: [], commandHelp: "the line at most N columns (default: the terminal's, or 80)")

  /// `show --line --follow`.
  static let follow = Option(
    name: "--follow", shortName: nil, value: nil, commands: ["show"],
    generalHelp: [], commandHelp: "print the line again at each change")

  /// `show --line --fail`: a script's test for a note (as curl's `--fail`
  /// fails silently).
  static let failWithoutNote = Option(
    name: "--fail", shortName: nil, value: nil, commands: ["show"],
    generalHelp: [], commandHelp: "with no note, exit with status 1 (still printing nothing)")

  /// `show --raw`: on a terminal too, the note's bytes as saved (`TerminalText`).
  static let raw = Option(
    name: "--raw", shortName: nil, value: nil, commands: ["show"],
    generalHelp: [], commandHelp: "on a terminal too, print control characters as they are")

  /// `history --json`.
  static let json = Option(
    name: "--json", shortName: nil, value: nil, commands: ["history"],
    generalHelp: [], commandHelp: "print one JSON object a version (JSON Lines)")

  /// `copy --desktop`.
  static let desktop = Option(
    name: "--desktop", shortName: nil, value: nil, commands: ["copy"],
    generalHelp: [], commandHelp: "use wl-copy, xclip or xsel, not the terminal")
}
