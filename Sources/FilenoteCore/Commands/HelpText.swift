/// The text of `filenote --help`, `filenote help COMMAND` and `--version`,
/// put together from the table of commands (`Command.all`).
///
/// Every help has the shape users know from other tools: a usage line, one
/// line that says what it does, the details, the options, examples, and where
/// to read more. The man page (`doc/filenote.1`) and README.md say the same
/// things at more length; the end-to-end tests check that all three name the
/// same commands and options.
public enum HelpText {
  /// `filenote --version`: the name and version, as the man page's header gives them.
  public static let version = "filenote " + FilenoteVersion.number

  /// `filenote --help`, `filenote -h` and `filenote help`.
  public static var general: String {
    let commands = Command.all.map { command in
      "  " + command.synopsis.padding(toWidth: 18) + command.summary
    }
    return """
      Usage: filenote [COMMAND] [--file PATH]

      Remember one note: edit it in a prompt, or save and show it from scripts.

      Without a command, filenote opens the saved note in a one-line editor on the
      terminal: Enter saves it, Ctrl-C cancels.

      Commands:
      \(commands.joined(separator: "\n"))

      Options:
        --file PATH       use the note file PATH, not <documents>/datafile.dat
                          (FILENOTE_FILE in the environment does the same)
        -h, --help        show help and exit
        --version         show the version and exit

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

  /// The help of one command: its usage line, description, options and
  /// examples; the general help for a command without a description.
  static func help(of command: Command) -> String {
    guard let description = command.description else { return general }
    let examples = command.examples.map { "  " + $0 }.joined(separator: "\n")
    return """
      Usage: filenote \(command.synopsis) [--file PATH]

      \(description)

      Options:
        --file PATH   use the note file PATH, not <documents>/datafile.dat
        -h, --help    show this help and exit

      Examples:
      \(examples)

      See 'man filenote' for more.
      """
  }
}

extension String {
  /// The string followed by spaces up to `width` characters (at least one).
  fileprivate func padding(toWidth width: Int) -> String {
    self + String(repeating: " ", count: Swift.max(1, width - count))
  }
}
