import SystemCalls

/// `filenote edit`: the note in the user's editor, as `crontab -e` edits a
/// crontab. The note (empty when there is none) goes to a private
/// temporary file (`EditorHandOff`); when the editor exits 0, what it left
/// is saved with the rules of `save`.
struct EditorRun {
  let store: FileStore
  let environment: Environment

  func run() throws(FilenoteError) -> ExitCode {
    let terminal = FileDescriptor.standardInput
    guard terminal.isTerminal else { throw .editNeedsTerminal }
    // Read first: a note that is not UTF-8 is refused before the editor runs.
    let note = try store.read()
    // Said before the editor opens, and settled when what the user wrote
    // is saved: they chose, knowing of the copies (doc/SYNC.md).
    let copies = (try? store.conflictCopies()) ?? []
    if !copies.isEmpty { Filenote.report(ConflictNotice(copies: copies).editLine) }
    // The editor and the question draw where the prompt draws.
    let output = Prompt.openTerminal()
    defer { if output != .standardInput && output != .standardOutput { output.close() } }
    // A signal removes the file (doc/filenote.1, edit): only a refused save
    // and an unconfirmed overwrite keep it, and name it.
    let handOff = try EditorHandOff(
      note?.bytes ?? [], keepingOnSignalUnless: nil, environment: environment)
    defer { handOff.finish(keeping: false) }

    if let failure = handOff.runEditor(on: terminal, drawingOn: output) {
      throw .editor(failure)
    }
    do {
      return try save(handOff, over: note, settling: copies, asking: terminal, on: output)
    } catch .emptyInput {
      throw .emptyInput
    } catch {
      // What the user wrote is never lost: it stays in the editor's file,
      // which the message names (said before `finish`, as below).
      let kept = FilenoteError.notSaved(because: error, keptIn: handOff.path)
      Filenote.report(kept)
      handOff.finish(keeping: true)
      return kept.exitCode
    }
  }

  /// Saves what the editor left in `handOff`'s file over `note` (the note as
  /// the editor got it), asking on `output` before a note changed on disk
  /// meanwhile is overwritten, and settles `copies` (the conflict copies
  /// the user was told of) once it is saved.
  private func save(
    _ handOff: EditorHandOff, over note: FileStore.Note?, settling copies: [KeptVersion],
    asking terminal: FileDescriptor, on output: FileDescriptor
  ) throws(FilenoteError) -> ExitCode {
    // Checked as UTF-8 and for emptiness once, by the save.
    let text = try handOff.text()
    if let note, text == note.bytes {
      say("Nothing changed.")
      return .success
    }
    // The note as the user agreed to replace it: as it was read, or as it
    // was when they said y.
    var expected = note?.identity
    while true {
      // Saved only when the note is still the one agreed to (the check under
      // the writer lock); never asking while holding it.
      guard
        case .changedOnDisk(let current) = Filenote.reporting(
          try store.save(text, ifStill: expected))
      else {
        say("Saved.")
        // What fails leaves the copies beside the note, still listed.
        do { try store.settleConflictCopies(copies) } catch { Filenote.report(error) }
        return .success
      }
      if handOff.confirm(.overwrite(replacing: current, of: store), on: terminal, output: output) {
        expected = current
        continue
      }
      let error = FilenoteError.editConflict(keptIn: handOff.path)
      // Said before `finish`, which ends the process when a signal (Ctrl-C)
      // cut the question short.
      Filenote.report(error)
      handOff.finish(keeping: true)
      return error.exitCode
    }
  }

  /// A word to the user, on standard error: standard output stays for the
  /// programs `filenote edit > file` would feed.
  private func say(_ message: String) {
    Filenote.printError(message)
  }
}
