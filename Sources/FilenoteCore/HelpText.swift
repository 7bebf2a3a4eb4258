/// The text of `filenote --help`, `filenote help COMMAND` and `--version`.
public enum HelpText {
  public static let version = "filenote 0.1.0"

  public static let general = """
    Usage: filenote [COMMAND] [--file PATH]

    Remember one line of text: run filenote to edit the saved note in a prompt
    (Enter saves, Ctrl-C cancels), or save and show it from scripts.

    Commands:
      (none)            edit the saved note in a prompt; Enter saves it
      save [TEXT ...]   save TEXT (words joined by one space), or standard input
      show              print the saved note
      path              print where the note is stored
      clear             remove the saved note
      help [COMMAND]    show this help, or a command's

    Options:
      --file PATH       use PATH instead of <documents>/datafile.dat
                        (the environment variable FILENOTE_FILE does the same)
      -h, --help        show help
      --version         show the version

    Examples:
      filenote                        edit the note
      echo "buy milk" | filenote save
      filenote save call the plumber
      filenote show

    Exit status: 0 success, 1 failure, 2 usage error, 130 cancelled with Ctrl-C.
    More: see README.md, or 'filenote help COMMAND'.
    """

  /// The help of one command, nil when there is no such command.
  public static func command(_ name: String) -> String? {
    switch name {
    case "save":
      return """
        Usage: filenote save [TEXT ...] [--file PATH]

        Save TEXT as the note: the words joined by one space. Without TEXT (or with
        '-'), save standard input byte for byte, minus exactly one trailing line
        ending, so 'echo hi | filenote save' saves "hi". Input must be UTF-8 and not
        empty; otherwise nothing is saved. The save is atomic: the old note stays
        until the new one is completely on disk.

        Examples:
          filenote save buy milk
          printf 'line 1\\nline 2\\n' | filenote save
        """
    case "show":
      return """
        Usage: filenote show [--file PATH]

        Print the saved note followed by one newline. Exits 1, printing nothing on
        standard output, when no note is saved.
        """
    case "path":
      return """
        Usage: filenote path [--file PATH]

        Print where the note is stored: <documents>/datafile.dat, where <documents>
        is the folder 'xdg-user-dir DOCUMENTS' names, else ~/Documents.
        """
    case "clear":
      return """
        Usage: filenote clear [--file PATH]

        Remove the saved note. Succeeds quietly when there is none.
        """
    case "help":
      return general
    default:
      return nil
    }
  }
}
