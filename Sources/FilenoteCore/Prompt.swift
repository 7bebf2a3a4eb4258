/// `filenote` on a terminal: edit the saved note and save it with Enter.
struct Prompt {
  let store: FileStore
  let environment: [String: String]

  func run() throws(FilenoteError) -> ExitCode {
    try PlainPrompt(store: store).run()
  }
}
