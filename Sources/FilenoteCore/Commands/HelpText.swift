/// The text of `filenote --help`, `filenote help COMMAND` and `--version`,
/// put together from the table of commands (`Command.all`).
///
/// Every help has the shape users know from other tools: a usage line, one
/// line that says what it does, the details, the options, examples, and where
/// to read more. The man page (`doc/filenote.1`) and README.md say the same
/// things at more length; the end-to-end tests check that all three name the
/// same commands and options.
enum HelpText {
  /// `filenote --version`: the name and version, as the man page's header gives them.
  static let version = "filenote " + FilenoteVersion.current

  /// `filenote --help`, `filenote -h` and `filenote help`.
  static var general: String {
    // A command's own options where they fit before its summary (`clear
    // [--all]`); where they do not, its help lists them (`save [TEXT ...]`).
    let commands = rows(
      Command.all.map { command in
        let arguments = command.arguments.isEmpty ? "" : " " + command.arguments
        let label = command.synopsis.count <= 16 ? command.synopsis : command.name + arguments
        return (label, [command.summary])
      }, column: 18)
    let options = rows(Option.common.map { ($0.label, $0.generalHelp) }, column: 18)
    return """
      Usage: filenote [COMMAND] [\(Option.file.label)]

      Remember one note: edit it in a prompt, or save and show it from scripts.

      Without a command, filenote opens the saved note in a one-line editor on the
      terminal: Enter saves it, Ctrl-C cancels.

      Commands:
      \(commands)

      Options:
      \(options)

      Examples:
        filenote                          edit the note
        filenote save call the plumber    save a note
        echo "buy milk" | filenote save   save standard input
        filenote show                     print the note

      Exit status: 0 success, 1 failure, 2 usage error, 130 cancelled with Ctrl-C.

      See 'filenote help COMMAND' for a command, and 'man filenote' for the
      prompt's keys, where the note is stored and the environment.
      """
  }

  /// The help of one command: its usage line, description, options (its
  /// own, then those of every command that its help shows) and examples; the
  /// general help for a command without a description.
  static func help(of command: Command) -> String {
    guard let description = command.description else { return general }
    let options = rows(
      (command.options + Option.common).compactMap { option in
        option.commandHelp.map { (option.label, [$0]) }
      }, column: 14)
    let examples = command.examples.map { "  " + $0 }.joined(separator: "\n")
    // The common --file too, when the line has room for it (its options
    // list names it anyway).
    var usage = "Usage: filenote " + command.synopsis
    if usage.count + Option.file.label.count + 3 <= 80 { usage += " [\(Option.file.label)]" }
    return """
      \(usage)

      \(description)

      Options:
      \(options)

      Examples:
      \(examples)

      See 'man filenote' for more.
      """
  }

  /// A list of two columns, each row indented by two spaces: its label, then
  /// its lines from `column` on. A label that leaves fewer than two spaces
  /// before the column puts its lines under it instead, from the next line.
  static func rows(_ rows: [(label: String, lines: [String])], column: Int) -> String {
    let indent = String(repeating: " ", count: 2 + column)
    return rows.flatMap { row in
      var lines = row.lines.map { indent + $0 }
      let gap = column - row.label.count
      if gap >= 2, !lines.isEmpty {
        lines[0] = "  " + row.label + String(repeating: " ", count: gap) + row.lines[0]
      } else {
        lines.insert("  " + row.label, at: 0)
      }
      return lines
    }.joined(separator: "\n")
  }
}
