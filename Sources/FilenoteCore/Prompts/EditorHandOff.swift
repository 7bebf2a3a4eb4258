import SystemCalls
import TerminalSession

// Handing text to the user's editor, as `crontab -e` and `git commit` do:
//
// 1. catch SIGTERM, SIGHUP, SIGINT, SIGQUIT (and SIGCHLD, to hear of the
//    editor) before anything exists that a signal could leave behind;
// 2. make a folder only the user can enter (mkdtemp, 0700) under $TMPDIR or
//    /tmp, and in it `note.txt` (0600, created exclusively) holding the text
//    and a line ending after it, as a text file ends (and as bash's
//    Ctrl-X Ctrl-E writes the line): step 5 drops it again, so text the
//    user leaves alone comes back byte for byte, even one that ends in "\n";
// 3. run `/bin/sh -c '<editor> "$@"' sh <file>` in the terminal's
//    foreground, where <editor> is $VISUAL, else $EDITOR, else vi: the shell
//    splits it as git does, so `code --wait` and `vim -u NONE` work; Ctrl-C
//    and Ctrl-Z reach the editor, and a stopped editor stops filenote too;
// 4. when it has ended, put the terminal's settings back as they were
//    before it (an editor that was killed leaves them raw);
// 5. read the file back, one trailing line ending dropped (its UTF-8 is
//    checked where it is used: by the save, or by the prompt's line);
// 6. remove the file, whatever else the editor left beside it (a swap
//    file), and the folder; only `filenote edit` keeps the file, when it
//    could not save what the user wrote.
//
// SIGTERM or SIGHUP while the editor runs is passed on to it (as a shell
// passes SIGHUP on to its jobs) and, once it has ended, filenote dies of the
// signal as it would have without an editor. For the prompt's Ctrl-X Ctrl-E
// the file then stays, and the message names it, when it holds text other
// than the note as it was opened: a prompt that cannot stay keeps what the
// user typed. For `edit` it is removed, as on every way out but the two
// that name it (doc/filenote.1, edit). SIGINT and SIGQUIT from elsewhere end
// filenote the same way after the editor ends.

/// One hand-off of text to the user's editor through a private temporary
/// file. Call `finish(keeping:)` when done with it; until then the signals
/// listed above are caught, so that nothing can end the process without
/// removing the file.
final class EditorHandOff {
  /// The editor's command line, as the shell runs it.
  let editor: String
  /// The file the editor edits.
  var path: String { file.path }
  private let file: PrivateTextFile
  /// The read end of the signal self-pipe.
  private let signals: FileDescriptor
  /// A signal that asked filenote to end; it does at `finish`.
  private var termination: Signal?
  /// The text that needs no keeping when a signal ends filenote (the note
  /// as it was opened); nil: the file is never kept then.
  private let safe: [UInt8]?
  private var isFinished = false

  /// How long an editor that was passed SIGTERM or SIGHUP has to end
  /// before it is killed.
  private static let graceMilliseconds: Int64 = 5000

  /// The editor command for `environment`: `VISUAL`, else `EDITOR`, else `vi`.
  static func editor(in environment: Environment) -> String {
    for name in ["VISUAL", "EDITOR"] {
      if let value = environment[name], !value.allSatisfy(\.isWhitespace) { return value }
    }
    return "vi"
  }

  /// Starts catching the signals, then writes `bytes` to a new private file,
  /// with a line ending after them unless they are empty. A signal that
  /// ends filenote keeps the file when it holds anything but `safe` (the
  /// note as it was opened); with `safe` nil, never.
  init(
    _ bytes: [UInt8], keepingOnSignalUnless safe: [UInt8]?, environment: Environment
  ) throws(FilenoteError) {
    editor = Self.editor(in: environment)
    self.safe = safe
    do {
      signals = try SignalPipe.startCatching([
        .terminate, .hangup, .interrupt, .quit, .childChanged,
      ])
    } catch {
      throw .terminal(.cannotCatchSignals(errno: error))
    }
    do {
      file = try PrivateTextFile(bytes, environment: environment)
    } catch {
      SignalPipe.stopCatching()
      throw error
    }
  }

  deinit { finish(keeping: false) }

  /// Runs the editor on the file with `terminal` (where the keys come
  /// from) as its standard input and `output` (where filenote draws: the
  /// terminal even when standard output is redirected) as its standard
  /// output, and returns nil when it exited 0, else why it did not. When
  /// SIGTERM or SIGHUP came meanwhile, this does not return: the file is
  /// removed and the process dies of the signal once the editor has ended.
  func runEditor(on terminal: FileDescriptor, drawingOn output: FileDescriptor) -> EditorFailure? {
    let settings = try? terminal.terminalSettings()
    let child: ChildProcess
    do {
      child = try ChildProcess.spawn(
        "/bin/sh", arguments: ["sh", "-c", editor + " \"$@\"", "sh", path],
        standardInput: .descriptor(terminal), standardOutput: .descriptor(output),
        foregroundOf: terminal)
    } catch {
      return .cannotRun(editor: editor, errno: error)
    }
    let ending = wait(for: child)
    if let settings { try? terminal.apply(settings) }
    if let termination, Self.endsTheEditor(termination) { end(by: termination) }
    switch ending {
    case .success(.exited(0)): return nil
    case .success(.exited(let status)): return .exited(editor: editor, status: status)
    case .success(.killed(let signal)): return .killed(editor: editor, signal: signal.rawValue)
    case .failure(let error): return .cannotRun(editor: editor, errno: error)
    }
  }

  /// What the editor left in the file, with one trailing line ending
  /// ("\n" or "\r\n") dropped, read as `filenote save` reads its input
  /// (`IncomingText.read`). Not checked as UTF-8 here: the save checks it,
  /// and so does the prompt before the text becomes its line.
  func text() throws(FilenoteError) -> [UInt8] {
    let file: FileDescriptor
    do {
      file = try FileDescriptor.open(path, .readOnly, options: [.nonBlocking, .noFollow])
    } catch {
      throw .system(.read, .file(path), errno: error)
    }
    defer { file.close() }
    var bytes: [UInt8] = []
    try IncomingText.read(file, from: .file(path), checking: nil) { piece in
      bytes.append(contentsOf: piece)
    }
    return bytes
  }

  /// Asks `question` on `output`, the answer read from `terminal` (see
  /// `YesNoQuestion.ask`). A signal that asks filenote to end cuts it
  /// short, unanswered, and ends filenote at `finish`.
  func ask(
    _ question: YesNoQuestion, on terminal: FileDescriptor, output: FileDescriptor
  ) -> YesNoQuestion.Answer {
    noteSignals()  // the editor's SIGCHLD, and what came while it ran
    guard termination == nil else {
      try? output.writeAll(question.text + "\n")
      return .interrupted
    }
    return question.ask(reading: terminal, writingTo: output, interruptedBy: signals)
  }

  /// Removes the file, anything the editor left beside it and the folder
  /// (unless `keeping`), and stops catching signals. A signal that asked
  /// filenote to end meanwhile ends it now. Calling it again does nothing.
  func finish(keeping: Bool) {
    guard !isFinished else { return }
    isFinished = true
    if !keeping { file.remove() }
    file.release()
    noteSignals()
    SignalPipe.stopCatching()
    if let termination { Self.die(of: termination) }
  }

  // MARK: - Private

  /// Waits for the editor to end, passing SIGTERM and SIGHUP on to it.
  private func wait(for child: ChildProcess) -> Result<ChildProcess.Termination, Errno> {
    var killDeadline: Int64?
    var passedOn = false
    while true {
      do {
        if let termination = try child.endedYet() { return .success(termination) }
      } catch {
        return .failure(error)
      }
      let now = CurrentProcess.monotonicMilliseconds
      if let deadline = killDeadline, now >= deadline {
        try? Signal.kill.send(to: -child.id)
        killDeadline = nil
      }
      // SIGCHLD wakes this up; the deadline is only a safety net for a
      // parent that left SIGCHLD ignored.
      _ = try? Poll.wait(
        for: [(signals, .readable)], deadline: min(killDeadline ?? .max, now + 1000))
      noteSignals()
      if !passedOn, let signal = termination, Self.endsTheEditor(signal) {
        passedOn = true
        // The editor's whole group, as the terminal would signal it.
        try? signal.send(to: -child.id)
        killDeadline = CurrentProcess.monotonicMilliseconds + Self.graceMilliseconds
      }
    }
  }

  /// Reads the signal pipe into `termination`: the first signal that asks
  /// filenote to end, or a SIGTERM or SIGHUP that came after a SIGINT or
  /// SIGQUIT (it must still reach the editor).
  private func noteSignals() {
    for signal in SignalPipe.drain(signals) where signal != .childChanged {
      if termination.map({ !Self.endsTheEditor($0) && Self.endsTheEditor(signal) }) ?? true {
        termination = signal
      }
    }
  }

  /// Whether `signal` is passed on to the editor (SIGTERM, SIGHUP) rather
  /// than only ending filenote after it (SIGINT, SIGQUIT).
  private static func endsTheEditor(_ signal: Signal) -> Bool {
    signal == .terminate || signal == .hangup
  }

  /// For a signal that came while the editor ran: the file stays when it
  /// may hold what the user wrote (with `safe` given: anything but nothing
  /// or that text; a file that cannot be read stays too), and the message
  /// names it; else it goes. Then the process dies of the signal.
  private func end(by signal: Signal) -> Never {
    var keeping = false
    if let safe {
      // A file that cannot be read may hold what the user wrote.
      keeping = (try? text()).map { PrivateTextFile.needsKeeping($0, opened: safe) } ?? true
    }
    if keeping { Filenote.report(FilenoteError.notSaved(because: nil, keptIn: path)) }
    finish(keeping: keeping)
    Self.die(of: signal)
  }

  /// Dies of `signal` with its default action, so the parent sees the
  /// process killed by it.
  private static func die(of signal: Signal) -> Never {
    signal.resetToDefaultAction()
    signal.raiseUnblocked()
    // Only reached for a signal whose default action is not to terminate.
    CurrentProcess.exitImmediately(128 + signal.rawValue)
  }
}
