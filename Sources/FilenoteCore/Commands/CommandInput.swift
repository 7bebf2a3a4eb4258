/// What a running command gets: its words and options from the command line,
/// and the environment its note file is resolved from.
struct CommandInput {
  let command: Command
  /// The words after the command's name, as raw bytes.
  let words: [[UInt8]]
  /// The command's own options that were given (see `Command.options`).
  let options: [Option.Given]
  /// `--file PATH`, when given.
  let file: String?
  let environment: Environment
  /// Where storage puts what it has to tell the user, said when the
  /// command is done (`Filenote.report(_:)`).
  let notices: Notices

  /// The note file this command works on (see `FileStore.resolve`).
  func store(ignoringVersionCount: Bool = false) throws(FilenoteError) -> FileStore {
    try FileStore.resolve(
      fileOption: file, environment: environment, ignoringVersionCount: ignoringVersionCount,
      notices: notices)
  }

  /// Refuses any word after the command's name.
  func expectNoArguments() throws(FilenoteError) {
    guard let extra = words.first else { return }
    throw .usage(
      "'\(command.name)' takes no arguments, but was given '\(String(decoding: extra, as: UTF8.self))' "
        + "(see 'filenote help \(command.name)')")
  }
}
