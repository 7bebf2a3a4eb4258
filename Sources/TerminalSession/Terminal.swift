import LineEditor
import SystemCalls

/// What `Terminal.read` waited for.
public enum TerminalEvent: Equatable, Sendable {
  /// Bytes from the keyboard (or a paste), as many as were available; an
  /// escape sequence may be split across two events.
  case input([UInt8])
  /// A signal arrived; see `TerminalSignal` for what to do about each.
  case signal(TerminalSignal)
  /// Nothing arrived before the timeout.
  case timeout
  /// The terminal is gone (hung up, closed, or no longer ours to read). It
  /// stays gone: end the session instead of reading again.
  case endOfFile
}

/// The user's terminal: raw mode for the line editor, and always a way back
/// to the settings it had.
///
/// A session enters raw mode, then loops on `read`, reacting to keys and
/// signals, and calls `restore()` (or lets the terminal go) when it is done.
/// Until `restore()`, the signals listed in `TerminalSignal` are caught and
/// delivered by `read`, so the terminal is never left raw by a signal the
/// session did not see. Only one terminal per process can be raw at a time,
/// because signal dispositions belong to the whole process.
public final class Terminal {
  /// The descriptor keys are read from.
  public let input: FileDescriptor
  /// The descriptor the editor draws on.
  public let output: FileDescriptor

  /// The settings the terminal had when this value was made, restored by
  /// `restore()` exactly as they were.
  private let originalSettings: TerminalSettings
  /// Whether raw mode is on (and signals are being caught).
  public private(set) var isRaw = false
  /// The read end of the signal self-pipe while signals are being caught.
  private var signalPipe: FileDescriptor?
  /// Signals read from the pipe but not handed out yet, oldest first.
  private var pendingSignals: [TerminalSignal] = []
  private var reachedEndOfFile = false

  /// Wraps the terminal open on `fileDescriptor` (keys) and
  /// `outputDescriptor` (drawing), usually standard input and output. Both
  /// must be terminals. Nothing is changed until `enterRawMode()`.
  public init(
    fileDescriptor: Int32 = FileDescriptor.standardInput.rawValue,
    outputDescriptor: Int32 = FileDescriptor.standardOutput.rawValue
  ) throws(TerminalError) {
    let input = FileDescriptor(rawValue: fileDescriptor)
    let output = FileDescriptor(rawValue: outputDescriptor)
    guard input.isTerminal, output.isTerminal else { throw .notATerminal }
    do {
      originalSettings = try input.terminalSettings()
    } catch {
      throw .cannotReadSettings(errno: error)
    }
    self.input = input
    self.output = output
  }

  deinit { restore() }

  // MARK: - Modes

  /// Puts the terminal in raw mode (see `TerminalSettings.raw`), catches the
  /// signals a session must react to, and turns on bracketed paste. Calling
  /// it again while raw applies the raw settings again, which is what a
  /// session does after `.continued`. Output processing stays on, so drawing
  /// code can write `\n` or `\r\n` and not care.
  public func enterRawMode() throws(TerminalError) {
    // Catch signals first: a SIGTERM between the two steps must not leave
    // the terminal raw behind a dead process.
    if signalPipe == nil {
      signalPipe = try TerminalSignal.startCatching()
    }
    // TCSADRAIN, not TCSAFLUSH: keys typed ahead while filenote was starting
    // are kept and edited, as readline does, instead of being thrown away.
    do {
      try input.apply(originalSettings.raw)
    } catch {
      if !isRaw { stopCatchingSignals() }
      throw .cannotChangeSettings(errno: error)
    }
    isRaw = true
    if marksPastes { try write(TerminalCode.enableBracketedPaste) }
  }

  /// Whether raw mode asks the terminal to mark pastes (bracketed paste):
  /// readline's `enable-bracketed-paste`, on unless an inputrc turns it off.
  public var marksPastes = true

  /// Turns bracketed paste off, puts back the exact settings the terminal
  /// had, and stops catching signals. Does nothing when the terminal is not
  /// raw, so calling it twice is harmless. Failures are ignored: there is
  /// nothing better to do with a terminal that cannot be restored.
  public func restore() {
    guard isRaw else { return }
    isRaw = false
    try? write(TerminalCode.disableBracketedPaste)
    // TCSADRAIN: the output reaches the screen in raw mode, and keys the user
    // typed ahead (the next shell command) are left for the shell.
    try? input.apply(originalSettings)
    stopCatchingSignals()
  }

  /// Suspends the process as Ctrl-Z does in a shell: restores the terminal,
  /// stops, and when the shell resumes it (`fg`), enters raw mode again.
  /// The session redraws after it returns. Call it for the Ctrl-Z key and
  /// for `.suspendRequested`.
  ///
  /// In raw mode the terminal does not turn Ctrl-Z into SIGTSTP, so this
  /// does what the terminal would have done: send SIGTSTP to the whole
  /// process group, so a shell script or pipeline around filenote stops with
  /// it (as vim does). SIGTSTP, not SIGSTOP: when no job-control shell could
  /// ever resume the group (it is orphaned) the kernel discards SIGTSTP and
  /// this returns at once, instead of stopping for good. SIGTSTP has its
  /// previous disposition back by then (the default, or ignored when the
  /// process was started with it ignored, in which case nothing stops).
  public func suspend() throws(TerminalError) {
    let wasRaw = isRaw
    restore()
    Signal.terminalStop.sendToOwnProcessGroup()
    // Running again. If the shell resumed us in the background (`bg`),
    // changing the settings stops us with SIGTTOU until `fg`, as it should.
    if wasRaw {
      try enterRawMode()
    }
  }

  /// Restores the terminal and dies of `signal` with its default action, so
  /// the parent sees the process killed by that signal (a shell reports
  /// 128 + the number). For `.terminationRequested`. Flush your own output
  /// first: nothing else runs after this.
  public func terminate(by signalNumber: Int32) -> Never {
    restore()
    let signal = Signal(rawValue: signalNumber)
    signal.resetToDefaultAction()
    signal.raiseUnblocked()
    // Only reached for a signal whose default action is not to terminate.
    CurrentProcess.exitImmediately(128 + signalNumber)
  }

  // MARK: - Size

  /// The window size in character cells, or 24 rows by 80 columns for what
  /// the terminal does not report (a size of 0 means unknown).
  public var size: (rows: Int, columns: Int) {
    let (rows, columns) =
      (try? output.windowSize()) ?? (try? input.windowSize()) ?? (rows: 0, columns: 0)
    return (rows == 0 ? 24 : rows, columns == 0 ? 80 : columns)
  }

  // MARK: - Input and output

  /// Writes all of `bytes`, however many calls it takes: a write can be cut
  /// short by a signal, and a descriptor someone made non-blocking can be
  /// full for a moment.
  public func write(_ bytes: [UInt8]) throws(TerminalError) {
    var offset = 0
    while offset < bytes.count {
      do throws(Errno) {
        offset += try bytes.withUnsafeBytesTyped { buffer throws(Errno) in
          try output.write(UnsafeRawBufferPointer(rebasing: buffer[offset...]))
        }
      } catch  where error == .wouldBlock {
        do {
          _ = try Poll.wait(for: [(output, .writable)], deadline: nil)
        } catch {
          throw .cannotWrite(errno: error)
        }
      } catch {
        throw .cannotWrite(errno: error)
      }
    }
  }

  /// Waits for input or a signal, at most `timeoutMilliseconds` (forever
  /// when nil), and returns the first thing that happened. Signals come
  /// before input that arrived with them, so a SIGTERM is not stuck behind a
  /// long paste.
  public func read(timeoutMilliseconds: Int32?) throws(TerminalError) -> TerminalEvent {
    if !pendingSignals.isEmpty { return .signal(pendingSignals.removeFirst()) }
    if reachedEndOfFile { return .endOfFile }
    let deadline = timeoutMilliseconds.map { CurrentProcess.monotonicMilliseconds + Int64($0) }
    while true {
      var descriptors: [(FileDescriptor, Poll.Events)] = [(input, .readable)]
      if let signalPipe { descriptors.append((signalPipe, .readable)) }
      // A caught signal interrupts poll; the next poll finds it in the pipe.
      let ready: [Poll.Events]
      do {
        ready = try Poll.wait(for: descriptors, deadline: deadline)
      } catch {
        throw .cannotRead(errno: error)
      }
      if ready.allSatisfy(\.isEmpty) { return .timeout }
      if ready.count == 2 && !ready[1].isEmpty {
        collectSignals()
        if !pendingSignals.isEmpty { return .signal(pendingSignals.removeFirst()) }
      }
      let terminalEvents = ready[0]
      if terminalEvents.contains(.invalid) {
        throw .cannotRead(errno: .badFileDescriptor)
      }
      // POLLHUP and POLLERR come here too: read tells end of input from data
      // still buffered, and a hung-up terminal must end the loop, not spin it.
      if !terminalEvents.isEmpty, let event = try readAvailableInput() {
        return event
      }
    }
  }

  /// Hands `signals` out again, oldest first, before anything else the next
  /// `read`s find: for a caller that read them at a moment it could not act
  /// on them (while it awaited the terminal's answer to a question).
  public func putBack(_ signals: [TerminalSignal]) {
    let notPending = signals.filter { !pendingSignals.contains($0) }
    pendingSignals.insert(contentsOf: notPending, at: 0)
  }

  // MARK: - Private

  /// One read of whatever the terminal has; nil when there was nothing after
  /// all and the caller should wait again.
  private func readAvailableInput() throws(TerminalError) -> TerminalEvent? {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes { bytes -> Result<Int, Errno> in
      do throws(Errno) { return .success(try input.read(into: bytes)) } catch {
        return .failure(error)
      }
    }
    let failure: Errno
    switch count {
    case .success(let count) where count > 0: return .input(Array(buffer[..<count]))
    case .success:
      reachedEndOfFile = true
      return .endOfFile
    case .failure(let error): failure = error
    }
    switch failure {
    case .wouldBlock:
      return nil
    case .ioError:
      // What a read gets once the terminal hung up, or when a background
      // process may not read it: either way no more keys will come.
      reachedEndOfFile = true
      return .endOfFile
    default:
      throw .cannotRead(errno: failure)
    }
  }

  /// Moves the signals waiting in the pipe to `pendingSignals`, keeping one
  /// of each kind: a burst of SIGWINCH while a window is dragged is one
  /// redraw.
  private func collectSignals() {
    guard let signalPipe else { return }
    for signal in TerminalSignal.drain(signalPipe) where !pendingSignals.contains(signal) {
      pendingSignals.append(signal)
    }
  }

  private func stopCatchingSignals() {
    guard signalPipe != nil else { return }
    TerminalSignal.stopCatching()
    // Signals caught before this point are still handed out by `read`.
    collectSignals()
    signalPipe = nil
  }
}
