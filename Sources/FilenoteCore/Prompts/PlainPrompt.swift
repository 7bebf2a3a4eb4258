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
    if let note, MergeMarkers.found(in: note.bytes) { intro += "It holds merge markers.\n" }
    showing: while true {
      if let note {
        intro += "Current: \(note.text.replacingControlCharacters())\n"
        intro += "Type a new note and press Enter (an empty line keeps it; Ctrl-D cancels).\n"
      } else {
        intro += "No note yet. Type one and press Enter (Ctrl-D cancels).\n"
      }
      write(intro + "> ")

      let line: [UInt8]
      switch try readLine() {
      case .line(let bytes): line = bytes
      case .endOfInput: return cancel(.failure)
      case .interrupted: return cancel(.cancelled)
      }
      if line.isEmpty {
        write(note == nil ? "Nothing saved.\n" : "Nothing changed.\n")
        settle(copies)
        return .success
      }
      // As in the editing prompt: a note changed on disk since it was shown
      // is never overwritten without asking; the check and the save are made
      // under the writer lock, and the question asked outside it.
      var expected = note?.identity
      do {
        while case .changedOnDisk(let current) = Filenote.reporting(
          try store.save(line, ifStill: expected))
        {
          write(YesNoQuestion.overwrite(replacing: current, of: store).text)
          switch try readLine() {
          case .line(let answer) where YesNoQuestion.isYes(answer):
            expected = current  // agreed to replace this one, and only this one
          case .line:
            // Show what is on disk now; the next line is checked against it.
            note = try store.read()
            intro = "Not saved. The note on disk now:\n"
            continue showing
          case .endOfInput: return cancel(.failure)
          case .interrupted: return cancel(.cancelled)
          }
        }
      } catch {
        // The terminal's line mode cannot give the line back to edit: it is
        // kept in a private file the message names.
        throw PrivateTextFile.keep(line, after: error, environment: environment)
      }
      write("Saved.\n")
      settle(copies)
      return .success
    }
  }

  /// Enter settles the conflict copies the prompt told of (doc/SYNC.md);
  /// what fails is said, and they stay listed.
  private func settle(_ copies: [KeptVersion]) {
    guard !copies.isEmpty else { return }
    do { try store.settleConflictCopies(copies) } catch { Filenote.report(error) }
  }

  private func cancel(_ status: ExitCode) -> ExitCode {
    write("\nCancelled: nothing was saved.\n")
    return status
  }

  /// Writes to the terminal; a terminal that went away is noticed by the
  /// next read.
  private func write(_ text: String) {
    try? terminal.writeAll(text)
  }

  /// What reading the answer gave.
  private enum Answer {
    case line([UInt8])
    /// Ctrl-D: with text typed or not, the user asked to stop.
    case endOfInput
    /// Ctrl-C.
    case interrupted
  }

  /// One line from standard input without its line ending. In the terminal's
  /// line mode Ctrl-C is a SIGINT: it is caught (unless it was ignored, as in
  /// a background job) so that the read ends with EINTR and filenote can say
  /// it cancelled.
  private func readLine() throws(FilenoteError) -> Answer {
    let interruption = Signal.interrupt.interruptingReads()
    defer { interruption.release() }

    var line: [UInt8] = []
    var byte: UInt8 = 0
    while true {
      let count: Int
      do {
        count = try withUnsafeMutableBytes(of: &byte) { buffer throws(Errno) in
          try FileDescriptor.standardInput.read(
            into: buffer, retryOnInterrupt: !interruption.catches)
        }
      } catch  where error == .interrupted {
        return .interrupted
      } catch {
        throw .system(.read, .terminal, errno: error)
      }
      if count == 0 { return .endOfInput }
      if byte == UInt8(ascii: "\n") {
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return .line(line)
      }
      line.append(byte)
    }
  }
}
