/// `filenote` on a terminal: edit the saved note and save it with Enter.
///
/// A terminal that can move its cursor gets the line editor
/// (`EditingPrompt`); `TERM=dumb` or no `TERM` gets `PlainPrompt`, which only
/// needs the terminal's own line mode.
struct Prompt {
  let store: FileStore
  let environment: [String: String]

  func run() throws(FilenoteError) -> ExitCode {
    let term = environment["TERM"] ?? ""
    if term.isEmpty || term == "dumb" {
      return try PlainPrompt(store: store).run()
    }
    return try EditingPrompt(store: store, environment: environment).run()
  }
}
