// The table of options: one row per option, with its help and the commands
// that take it. The order is the order help lists them in.

extension Option {
  /// Every option, as help lists them.
  public static let all: [Option] = [file, help, version, allVersions, yes, noVersion]

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
}
