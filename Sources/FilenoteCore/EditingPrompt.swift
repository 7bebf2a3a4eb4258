import SystemCalls
import TerminalSession

/// The prompt on a terminal that can move its cursor: read the note, edit it
/// in an `EditingSession`, check that nobody changed it meanwhile, save.
struct EditingPrompt {
  let store: FileStore
  let environment: [String: String]

  func run() throws(FilenoteError) -> ExitCode {
    // Read first: a note that is not UTF-8 is refused before the terminal changes.
    let note = try store.read()
    // Draw where the keys come from, even when standard output is redirected.
    let output: FileDescriptor =
      FileDescriptor.standardOutput.isTerminal ? .standardOutput : .standardInput
    let session: EditingSession
    do {
      session = try EditingSession(input: .standardInput, output: output)
    } catch {
      throw .terminal(error)
    }

    let original = note?.text ?? ""
    // The note the user agreed to replace: the one read, or one they
    // confirmed overwriting.
    var expected = note?.version
    var pendingSubmit = false
    var ending: EditingSession.LineEnding
    do {
      ending = try session.readLine(
        text: original, hint: hint(), dimmed: (environment["NO_COLOR"] ?? "").isEmpty)
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
        if unchanged && note == nil {
          session.finish(saying: "Nothing changed.")
          return .success
        }
        if text.isEmpty && !unchanged {
          session.finish(saying: nil)
          throw .emptyInput
        }
        // The check and the save under one writer lock, so a writer that
        // saved in between is always seen; never asking while holding it.
        let outcome: PromptSave
        do {
          outcome = try store.withWriterLock { locked throws(FilenoteError) -> PromptSave in
            let current = try locked.currentVersion()
            guard current == expected else { return .changedOnDisk(current) }
            // The same text as the file on disk: nothing to do. (After a
            // "y" about a note that vanished, there is none: save it back.)
            if unchanged && current != nil { return .unchanged }
            session.finish(saying: nil)
            try locked.save(bytes: Array(text.utf8))
            return .saved
          }
        } catch {
          session.finish(saying: nil)
          throw error
        }
        switch outcome {
        case .saved:
          session.say("Saved.")
          return .success
        case .unchanged:
          session.finish(saying: "Nothing changed.")
          return .success
        case .changedOnDisk(let current):
          // Unchanged text over another writer's note would only undo theirs;
          // over a note that vanished (cleared), it brings it back: ask.
          if unchanged && current != nil {
            session.finish(saying: "Nothing changed.")
            return .success
          }
          // Asked again at every Enter while the file differs from what was agreed to.
          if session.confirm(
            "The note was changed on disk since you opened it. Overwrite it? [y/N] ")
          {
            expected = current
            pendingSubmit = true
          }
        }
      }
      if pendingSubmit {
        pendingSubmit = false
        continue  // the same text, checked again under the lock
      }
      do {
        ending = try session.readLineAgain()
      } catch {
        session.finish(saying: nil)
        throw .terminal(error)
      }
    }
  }

  /// What one Enter came to, decided under the writer lock.
  private enum PromptSave {
    case saved, unchanged
    case changedOnDisk(FileStore.Version?)
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
