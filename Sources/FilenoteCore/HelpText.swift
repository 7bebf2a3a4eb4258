/// The text of `filenote --help`, `filenote help COMMAND` and `--version`.
///
/// Every help has the shape users know from other tools: a usage line, one
/// line that says what it does, the details, the options, examples, and where
/// to read more. The man page (`doc/filenote.1`) and README.md say the same
/// things at more length; the end-to-end tests check that all three name the
/// same commands and options.
public enum HelpText {
  /// `filenote --version`: the name and version, as the man page's header gives them.
  public static let version = "filenote 0.1.0"

  /// `filenote --help`, `filenote -h` and `filenote help`.
  public static let general = """
    Usage: filenote [COMMAND] [--file PATH]

    Remember one note: edit it in a prompt, or save and show it from scripts.

    Without a command, filenote opens the saved note in a one-line editor on the
    terminal: Enter saves it, Ctrl-C cancels.

    Commands:
      save [TEXT ...]   save TEXT (words joined by one space), or standard input
      show              print the saved note
      path              print where the note is stored
      clear             remove the saved note
      help [COMMAND]    show this help, or the help of COMMAND

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

  /// The help of one command, nil when there is no such command.
  public static func command(_ name: String) -> String? {
    switch name {
    case "save": return save
    case "show": return show
    case "path": return path
    case "clear": return clear
    case "help": return general
    default: return nil
    }
  }

  private static let fileOption = """
    Options:
      --file PATH   use the note file PATH, not <documents>/datafile.dat
      -h, --help    show this help and exit
    """

  private static let save = """
    Usage: filenote save [TEXT ...] [--file PATH]

    Save TEXT as the note, its words joined by one space, or standard input.

    Without TEXT (or with '-'), standard input is saved byte for byte, except
    that exactly one trailing line ending is removed, so 'echo hi | filenote save'
    saves "hi". The input must be valid UTF-8 and not empty; otherwise nothing
    is saved. The save is atomic: the old note stays until the new one is
    completely on disk.

    \(fileOption)

    Examples:
      filenote save call the plumber
      printf 'line 1\\nline 2\\n' | filenote save
      filenote save < notes.txt

    See 'man filenote' for more.
    """

  private static let show = """
    Usage: filenote show [--file PATH]

    Print the saved note followed by one newline.

    When no note is saved, nothing is printed on standard output and the exit
    status is 1.

    \(fileOption)

    Examples:
      filenote show
      filenote show | wc -c

    See 'man filenote' for more.
    """

  private static let path = """
    Usage: filenote path [--file PATH]

    Print where the note is stored.

    That is <documents>/datafile.dat, where <documents> is the folder
    'xdg-user-dir DOCUMENTS' names (XDG_DOCUMENTS_DIR in
    ${XDG_CONFIG_HOME:-~/.config}/user-dirs.dirs), else ~/Documents.
    FILENOTE_FILE or --file name another file.

    \(fileOption)

    Examples:
      filenote path
      od -c "$(filenote path)"

    See 'man filenote' for more.
    """

  private static let clear = """
    Usage: filenote clear [--file PATH]

    Remove the saved note.

    Succeeds quietly when there is no note. When the note file is a symbolic
    link, the file it points to is removed and the link stays.

    \(fileOption)

    Examples:
      filenote clear

    See 'man filenote' for more.
    """
}
