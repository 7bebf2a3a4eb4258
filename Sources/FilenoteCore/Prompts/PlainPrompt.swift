import SystemCalls
import TerminalSession

/// The prompt for a terminal that cannot move its cursor (`TERM=dumb` or
/// unset): it shows the note, reads one line in the terminal's own line
/// mode, and keeps the note when that line is empty.
struct PlainPrompt {
  let store: FileStore
  /// For `$TMPDIR`, where a line that could not be saved is kept.
  let environment: Environment
  /// Where the prompt writes (see `Prompt.openTerminal()`); the line is
  /// read from standard input.
  let terminal: FileDescriptor

  func run() throws(FilenoteError) -> ExitCode {
    var note = try store.read()
    var intro = "Note in \(store.path)\n"
    // As the editing prompt's hint: said first, and settled by Enter.
    let copies = (try? store.conflictCopies()) ?? []
    if !copies.isEmpty {
      let notice = ConflictNotice(copies: copies)
      intro +=
        "It has \(notice.count) beside it (\(notice.sources)): 'filenote history' lists "
        + (copies.count == 1 ? "it" : "them") + "; Enter keeps "
        + (copies.count == 1 ? "it as a version" : "them as versions") + ".\n"
    }
    // What an earlier prompt could not save is named: this prompt has no Up.
    for kept in KeptText.find(in: environment) {
      let path = kept.path.replacingControlCharacters()
      intro +=
        "Unsaved text from an earlier prompt is kept in \(path) "
        + "('filenote save < FILE' saves it, 'filenote forget FILE' removes it).\n"
    }
    // In the terminal's line mode Ctrl-C is a SIGINT: caught (unless it was
    // ignored, as in a background job) so that filenote can say it cancelled.
    let signals: FileDescriptor
    do { signals = try SignalPipe.startCatching([.interrupt]) } catch {
      throw .terminal(.cannotCatchSignals(errno: error))
    }
    defer { SignalPipe.stopCatching() }
    if let note, MergeMarkers.found(in: note.bytes) { intro += "It holds merge markers.\n" }
    let saving = CheckedSave(store: store, copies: copies, say: { write($0 + "\n") })
    while true {
      if let note {
        intro += "Current: \(note.text.replacingControlCharacters())\n"
        intro += "Type a new note and press Enter (an empty line keeps it; Ctrl-D cancels).\n"
      } else {
        intro += "No note yet. Type one and press Enter (Ctrl-D cancels).\n"
      }
      write(intro + "> ")

      let line: [UInt8]
      switch TerminalLine.read(from: .standardInput, interruptedBy: signals) {
      case .line(let bytes): line = bytes
      case .endOfInput: return cancel(.failure)
      case .interrupted: return cancel(.cancelled)
      case .failed(let errno): throw .system(.read, .terminal, errno: errno)
      }
      if line.isEmpty {
        write(note == nil ? "Nothing saved.\n" : "Nothing changed.\n")
        saving.settle()
        return .success
      }
      var expected = note?.identity
      let outcome: CheckedSave.Outcome
      do throws(FilenoteError) {
        outcome = try saving.save(line, over: &expected) { question in
          question.ask(reading: .standardInput, writingTo: terminal, interruptedBy: signals)
        }
        if case .notAgreed(.failed(let errno)) = outcome {
          throw .system(.read, .terminal, errno: errno)
        }
      } catch {
        // The terminal's line mode cannot give the line back to edit: it is
        // kept in a private file the message names.
        throw PrivateTextFile.keep(line, after: error, environment: environment)
      }
      switch outcome {
      case .saved: return .success
      case .notAgreed(.endOfInput): return cancel(.failure, endingTheLine: false)
      case .notAgreed(.interrupted): return cancel(.cancelled, endingTheLine: false)
      case .notAgreed:
        // Show what is on disk now; the next line is checked against it.
        note = try store.read()
        intro = "Not saved. The note on disk now:\n"
      }
    }
  }

  /// Says that nothing was saved, on a line of its own (`endingTheLine`:
  /// the one the cursor is on is ended first).
  private func cancel(_ status: ExitCode, endingTheLine: Bool = true) -> ExitCode {
    write((endingTheLine ? "\n" : "") + "Cancelled: nothing was saved.\n")
    return status
  }

  /// Writes to the terminal; a terminal that went away is noticed by the
  /// next read.
  private func write(_ text: String) {
    try? terminal.writeAll(text)
  }
}
