import SystemCalls
import TerminalSession

/// The prompt on a terminal that can move its cursor: read the note, edit it
/// in an `EditingSession`, check that nobody changed it meanwhile, save.
struct EditingPrompt {
  let store: FileStore
  let environment: Environment
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

    let environment = environment
    let keys = session.terminalDescriptor
    let output = terminal
    session.editInEditor = { text in
      Self.edit(text, on: keys, drawingOn: output, environment: environment)
    }

    // The note the user agreed to replace: the one read, or one they
    // confirmed overwriting.
    var expected = note?.version
    var pendingSubmit = false
    // Up and Ctrl-R reach them; versions that cannot be read are simply not
    // offered (a save then says what is wrong with their folder).
    let versions = (try? store.versionTexts()) ?? []
    var ending: EditingSession.LineEnding
    do {
      // The note is not also kept as a String: "unchanged" compares bytes.
      ending = try session.readLine(
        text: note?.text ?? "", hint: hint(), dimmed: (environment["NO_COLOR"] ?? "").isEmpty,
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
        let unchanged = text == (note?.bytes ?? [])
        if unchanged && note == nil {
          session.finish(saying: "Nothing changed.")
          return .success
        }
        if unchanged && expected != nil {
          // Nothing to write, so no lock (the folder may be read-only).
          // Another writer's note stays; a note that vanished is a change
          // on disk: asked about, and "y" saves it back.
          let current: FileStore.Version?
          do { current = try store.currentVersion() } catch {
            session.finish(saying: nil)
            throw error
          }
          if current != nil {
            session.finish(saying: "Nothing changed.")
            return .success
          }
          if session.confirm(Self.question) {
            expected = nil
            pendingSubmit = true
          }
        } else {
          // Saved only when the note is still the one agreed to (the check
          // under the writer lock); never asking while holding it.
          let outcome: FileStore.SaveOutcome
          var finished = false
          do {
            outcome = try store.save(text, ifStill: expected) {
              session.finish(saying: nil)
              finished = true
            }
          } catch {
            if !finished { session.finish(saying: nil) }
            throw error
          }
          guard case .changedOnDisk(let current) = outcome else {
            session.say("Saved.")
            return .success
          }
          // Asked again at every Enter while the file differs from what was
          // agreed to: "y" agrees to replace the version the check found.
          if session.confirm(Self.question) {
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

  static let question = "The note was changed on disk since you opened it. Overwrite it? [y/N] "

  /// Ctrl-X Ctrl-E: the line in the user's editor (see `EditorHandOff`);
  /// its text when it exits 0 and that is UTF-8, else why the line stays.
  private static func edit(
    _ text: String, on terminal: FileDescriptor, drawingOn output: FileDescriptor,
    environment: Environment
  ) -> LineHandOff {
    let handOff: EditorHandOff
    do {
      handOff = try EditorHandOff(Array(text.utf8), environment: environment)
    } catch {
      return .kept(because: "Line kept: \(error.message).")
    }
    defer { handOff.finish(keeping: false) }
    if let failure = handOff.runEditor(on: terminal, drawingOn: output) {
      return .kept(because: "Line kept: \(failure).")
    }
    let bytes: [UInt8]
    do { bytes = try handOff.text() } catch {
      return .kept(because: "Line kept: \(error.message).")
    }
    if let offset = UTF8Validator.firstInvalidOffset(in: bytes) {
      return .kept(
        because:
          "Line kept: the editor's text is not valid UTF-8 (first bad byte at offset \(offset)).")
    }
    return .replaced(String(decoding: bytes, as: UTF8.self))
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
