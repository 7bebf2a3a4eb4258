import SystemCalls
import TerminalSession

/// The prompt on a terminal that can move its cursor: read the note, edit it
/// in an `EditingSession`, check that nobody changed it meanwhile, save.
struct EditingPrompt {
  let store: FileStore
  let environment: [String: String]
  /// Where the prompt draws (see `Prompt.openTerminal()`); keys come from
  /// standard input.
  let terminal: FileDescriptor

  func run() throws(FilenoteError) -> ExitCode {
    // Read first: a note that is not UTF-8 is refused before the terminal changes.
    let note = try store.read()
    let session: EditingSession
    do {
      session = try EditingSession(input: .standardInput, output: terminal)
    } catch {
      throw .terminal(error)
    }

    let original = note?.text ?? ""
    let version = note?.version
    // Up and Ctrl-R reach them; versions that cannot be read are simply not
    // offered (a save then says what is wrong with their folder).
    let versions = (try? store.versionTexts()) ?? []
    var ending: EditingSession.LineEnding
    do {
      ending = try session.readLine(
        text: original, hint: hint(), dimmed: (environment["NO_COLOR"] ?? "").isEmpty,
        versions: versions)
    } catch {
      session.finish(saying: nil)
      throw .terminal(error)
    }
    while true {
      switch ending {
      case .cancelled:
        session.finish(saying: "Cancelled: nothing was saved.")
        return .cancelled
      case .endOfInput:
        session.finish(saying: "Cancelled: nothing was saved.")
        return .failure
      case .submitted(let text):
        // Bytes, not String ==, which calls "é" and "e\u{301}" equal.
        let unchanged = text.utf8.elementsEqual(original.utf8)
        if unchanged && note != nil || text.isEmpty && note == nil {
          session.finish(saying: "Nothing changed.")
          return .success
        }
        if text.isEmpty {
          session.finish(saying: nil)
          throw .emptyInput
        }
        let current: FileStore.Version?
        do {
          current = try store.currentVersion()
        } catch {
          session.finish(saying: nil)
          throw error
        }
        // Asked again at every Enter while the file differs from what was read.
        if current == version
          || session.confirm(
            "The note was changed on disk since you opened it. Overwrite it? [y/N] ")
        {
          session.finish(saying: nil)
          try store.save(text)
          session.say("Saved.")
          return .success
        }
      }
      do {
        ending = try session.readLineAgain()
      } catch {
        session.finish(saying: nil)
        throw .terminal(error)
      }
    }
  }

  /// The line above the prompt: where the note is, how to save and cancel.
  private func hint() -> String {
    var path = store.path
    if let home = environment["HOME"], home.count > 1, path.hasPrefix(home + "/") {
      path = "~" + path.dropFirst(home.count)
    }
    return "\(path.replacingControlCharacters()) · Enter saves · Ctrl-C cancels"
  }
}
