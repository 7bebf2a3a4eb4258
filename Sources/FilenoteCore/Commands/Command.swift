/// One command of filenote, with everything about it in one place: its
/// name, arguments, help and the code that runs it. `Command.all` is the
/// table; parsing, `--help`, `help COMMAND` and the tests that check the man
/// page, README and completions are derived from it, so a new command is a
/// new row there and its own code, nothing else.
struct Command: Sendable {
  /// The name as typed, e.g. `save`.
  let name: String
  /// The arguments as usage lines show them, after its options (see
  /// `synopsis`), e.g. `[TEXT ...]`; empty for none.
  let arguments: String
  /// The options of this command alone, beside the ones every command takes
  /// (`Option.common`), e.g. `--all` of `clear`, in the order its help
  /// lists them (see `options`).
  ///
  /// A function that returns them rather than the array: a row made only
  /// of literals and functions is laid out by the compiler, so the table
  /// costs a plain `show` nothing, where a row holding an array of options is
  /// built at run time, every row on every run (measured with a breakpoint
  /// on swift_once: 14 calls instead of 2; CONTRIBUTING.md, Hot path). Each
  /// row therefore passes it as a closure beside its trailing one, which
  /// swift-format's OnlyOneTrailingClosureArgument is told to allow there.
  let ownOptions: @Sendable () -> [Option]
  /// Its line in the general help's command list.
  let summary: String
  /// What it does, for `filenote help NAME`: one line, a blank line, details.
  /// nil for a command whose help is the general help (`help` itself).
  let description: String?
  /// Example command lines for its help.
  let examples: [String]
  /// Runs it: checks its arguments, does the work, returns the exit status.
  let run: @Sendable (CommandInput) throws(FilenoteError) -> ExitCode

  /// The options of this command alone (`ownOptions`).
  var options: [Option] { ownOptions() }

  /// The names of the commands, as typed, in the order help lists them.
  static var names: [String] { all.map(\.name) }

  /// The command called `name`, nil for none.
  static func named(_ name: String) -> Command? {
    all.first { $0.name == name }
  }

  /// `name`, its own options and its arguments, as usage lines show them,
  /// e.g. `save [TEXT ...]` or `clear [--all]`.
  var synopsis: String {
    // By long name alone, as usage lines do (`[--yes]`); the options list
    // of its help gives the short one too.
    let options = options.map { option in
      " [" + option.name + (option.value.map { " " + $0.placeholder } ?? "") + "]"
    }.joined()
    return name + options + (arguments.isEmpty ? "" : " " + arguments)
  }
}
