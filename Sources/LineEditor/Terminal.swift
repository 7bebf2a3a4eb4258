import CFilenote

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

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
  public let inputDescriptor: Int32
  /// The descriptor the editor draws on.
  public let outputDescriptor: Int32

  /// The settings the terminal had when this value was made, restored by
  /// `restore()` exactly as they were.
  private let originalSettings: termios
  /// Whether raw mode is on (and signals are being caught).
  public private(set) var isRaw = false
  /// The read end of the signal self-pipe while signals are being caught.
  private var signalPipe: Int32?
  /// Signals read from the pipe but not handed out yet, oldest first.
  private var pendingSignals: [TerminalSignal] = []
  private var reachedEndOfFile = false

  /// Turns on bracketed paste: the terminal wraps pasted text in
  /// `ESC [ 200 ~` … `ESC [ 201 ~`, so a newline in a paste is not Enter.
  static let enableBracketedPaste: [UInt8] = Array("\u{1B}[?2004h".utf8)
  /// Turns bracketed paste off again, so the shell gets plain pastes.
  static let disableBracketedPaste: [UInt8] = Array("\u{1B}[?2004l".utf8)

  /// Wraps the terminal open on `fileDescriptor` (keys) and
  /// `outputDescriptor` (drawing), usually standard input and output. Both
  /// must be terminals. Nothing is changed until `enterRawMode()`.
  public init(
    fileDescriptor: Int32 = STDIN_FILENO, outputDescriptor: Int32 = STDOUT_FILENO
  ) throws(TerminalError) {
    guard isatty(fileDescriptor) == 1, isatty(outputDescriptor) == 1 else {
      throw .notATerminal
    }
    var settings = termios()
    guard tcgetattr(fileDescriptor, &settings) == 0 else {
      throw .cannotReadSettings(errno: errno)
    }
    inputDescriptor = fileDescriptor
    self.outputDescriptor = outputDescriptor
    originalSettings = settings
  }

  deinit { restore() }

  // MARK: - Modes

  /// Puts the terminal in raw mode, catches the signals a session must react
  /// to, and turns on bracketed paste. Calling it again while raw applies the
  /// raw settings again, which is what a session does after `.continued`.
  ///
  /// Raw means every key reaches `read` as typed: no line buffering
  /// (ICANON), no echo (ECHO), Ctrl-C, Ctrl-Z and Ctrl-\ arrive as bytes
  /// instead of signals (ISIG), Ctrl-V and Ctrl-O too (IEXTEN), Ctrl-S and
  /// Ctrl-Q too (IXON), Enter arrives as `\r` (no ICRNL), and the high bit
  /// of UTF-8 bytes is kept (no ISTRIP). Output processing (OPOST) stays on,
  /// with ONLCR, as readline leaves it: a `\n` written moves to the start
  /// of the next line. Drawing code can still write `\r\n` and not care.
  public func enterRawMode() throws(TerminalError) {
    // Catch signals first: a SIGTERM between the two steps must not leave
    // the terminal raw behind a dead process.
    if signalPipe == nil {
      signalPipe = try TerminalSignal.startCatching()
    }
    var raw = Terminal.rawSettings(from: originalSettings)
    // TCSADRAIN, not TCSAFLUSH: keys typed ahead while filenote was starting
    // are kept and edited, as readline does, instead of being thrown away.
    if retryingInterrupts({ tcsetattr(inputDescriptor, TCSADRAIN, &raw) }) == -1 {
      let failure = errno
      if !isRaw { stopCatchingSignals() }
      throw .cannotChangeSettings(errno: failure)
    }
    isRaw = true
    try write(Terminal.enableBracketedPaste)
  }

  /// Turns bracketed paste off, puts back the exact settings the terminal
  /// had, and stops catching signals. Does nothing when the terminal is not
  /// raw, so calling it twice is harmless. Failures are ignored: there is
  /// nothing better to do with a terminal that cannot be restored.
  public func restore() {
    guard isRaw else { return }
    isRaw = false
    try? write(Terminal.disableBracketedPaste)
    var settings = originalSettings
    // TCSADRAIN: the output reaches the screen in raw mode, and keys the user
    // typed ahead (the next shell command) are left for the shell.
    _ = retryingInterrupts { tcsetattr(inputDescriptor, TCSADRAIN, &settings) }
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
    withSignalUnblocked(SIGTSTP) { _ = kill(0, SIGTSTP) }
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
  public func terminate(by signal: Int32) -> Never {
    restore()
    resetToDefaultAction(signal)
    withSignalUnblocked(signal) { _ = raise(signal) }
    // Only reached for a signal whose default action is not to terminate.
    _exit(128 + signal)
  }

  // MARK: - Size

  /// The window size in character cells, or 24 rows by 80 columns for what
  /// the terminal does not report (a size of 0 means unknown).
  public var size: (rows: Int, columns: Int) {
    var rows: UInt16 = 0
    var columns: UInt16 = 0
    if filenote_window_size(outputDescriptor, &rows, &columns) == -1 {
      _ = filenote_window_size(inputDescriptor, &rows, &columns)
    }
    return (rows == 0 ? 24 : Int(rows), columns == 0 ? 80 : Int(columns))
  }

  // MARK: - Input and output

  /// Writes all of `bytes`, however many calls it takes: a write can be cut
  /// short by a signal, and a descriptor someone made non-blocking can be
  /// full for a moment.
  public func write(_ bytes: [UInt8]) throws(TerminalError) {
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeBytes { buffer in
        systemWrite(outputDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
      }
      if written >= 0 {
        offset += written
        continue
      }
      switch errno {
      case EINTR:
        continue
      case EAGAIN, EWOULDBLOCK:
        try waitUntilWritable()
      case let failure:
        throw .cannotWrite(errno: failure)
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
    let deadline = timeoutMilliseconds.map { Terminal.monotonicMilliseconds() + Int64($0) }
    while true {
      var descriptors = [pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0)]
      if let signalPipe {
        descriptors.append(pollfd(fd: signalPipe, events: Int16(POLLIN), revents: 0))
      }
      let ready = poll(
        &descriptors, nfds_t(descriptors.count), Terminal.milliseconds(until: deadline))
      if ready == -1 {
        // A caught signal interrupts poll; the next poll finds it in the pipe.
        if errno == EINTR { continue }
        throw .cannotRead(errno: errno)
      }
      if ready == 0 { return .timeout }
      if descriptors.count == 2 && descriptors[1].revents != 0 {
        collectSignals()
        if !pendingSignals.isEmpty { return .signal(pendingSignals.removeFirst()) }
      }
      let terminalEvents = descriptors[0].revents
      if terminalEvents & Int16(POLLNVAL) != 0 { throw .cannotRead(errno: EBADF) }
      // POLLHUP and POLLERR come here too: read tells end of input from data
      // still buffered, and a hung-up terminal must end the loop, not spin it.
      if terminalEvents != 0, let event = try readAvailableInput() {
        return event
      }
    }
  }

  // MARK: - Private

  /// The raw settings described at `enterRawMode()`, derived from the
  /// user's own so everything not listed (speed, special characters, IUTF8)
  /// stays as the user had it.
  static func rawSettings(from original: termios) -> termios {
    var raw = original
    raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INLCR | IGNCR | INPCK | ISTRIP | IXON)
    raw.c_oflag |= tcflag_t(OPOST | ONLCR)
    raw.c_oflag &= ~tcflag_t(OCRNL)
    raw.c_cflag &= ~tcflag_t(CSIZE | PARENB)
    raw.c_cflag |= tcflag_t(CS8)
    raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
    // read returns as soon as one byte is there, with no timer.
    withUnsafeMutableBytes(of: &raw.c_cc) { characters in
      characters[Int(VMIN)] = 1
      characters[Int(VTIME)] = 0
    }
    return raw
  }

  /// The poll timeout left until `deadline` (in `monotonicMilliseconds()`);
  /// -1 (forever) without a deadline.
  private static func milliseconds(until deadline: Int64?) -> Int32 {
    guard let deadline else { return -1 }
    return Int32(clamping: max(deadline - monotonicMilliseconds(), 0))
  }

  /// A clock that never jumps, in milliseconds. clock_gettime rather than
  /// `ContinuousClock`, which would pull the concurrency runtime's start-up
  /// into every run of the static executable (measured: fewer pages touched
  /// by `filenote show`).
  private static func monotonicMilliseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    // Rounded up, so a wait never ends early.
    return Int64(now.tv_sec) * 1000 + (Int64(now.tv_nsec) + 999_999) / 1_000_000
  }

  /// One read of whatever the terminal has; nil when there was nothing after
  /// all and the caller should wait again.
  private func readAvailableInput() throws(TerminalError) -> TerminalEvent? {
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes {
      systemRead(inputDescriptor, $0.baseAddress, $0.count)
    }
    if count > 0 { return .input(Array(buffer[..<count])) }
    if count == 0 {
      reachedEndOfFile = true
      return .endOfFile
    }
    switch errno {
    case EINTR, EAGAIN, EWOULDBLOCK:
      return nil
    case EIO:
      // What a read gets once the terminal hung up, or when a background
      // process may not read it: either way no more keys will come.
      reachedEndOfFile = true
      return .endOfFile
    case let failure:
      throw .cannotRead(errno: failure)
    }
  }

  /// Moves the signals waiting in the pipe to `pendingSignals`, keeping one
  /// of each kind: a burst of SIGWINCH while a window is dragged is one
  /// redraw.
  private func collectSignals() {
    guard let signalPipe else { return }
    for signal in TerminalSignal.drain(pipe: signalPipe) where !pendingSignals.contains(signal) {
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

  private func waitUntilWritable() throws(TerminalError) {
    var descriptor = pollfd(fd: outputDescriptor, events: Int16(POLLOUT), revents: 0)
    while poll(&descriptor, 1, -1) == -1 {
      if errno != EINTR { throw .cannotWrite(errno: errno) }
    }
  }
}

/// Runs `body` with `signal` unblocked in this thread, so a signal raised in
/// `body` is delivered before it returns; the mask is put back afterwards.
private func withSignalUnblocked(_ signal: Int32, _ body: () -> Void) {
  var unblocked = sigset_t()
  sigemptyset(&unblocked)
  sigaddset(&unblocked, signal)
  var previous = sigset_t()
  pthread_sigmask(SIG_UNBLOCK, &unblocked, &previous)
  body()
  pthread_sigmask(SIG_SETMASK, &previous, nil)
}

/// Gives `signal` its default action (`SIG_DFL`). A free function because
/// inside `Terminal.terminate(by:)` the name `signal` is the argument.
private func resetToDefaultAction(_ signalNumber: Int32) {
  _ = signal(signalNumber, SIG_DFL)
}

/// Runs a call that fails with -1 again while a signal interrupts it.
private func retryingInterrupts(_ call: () -> Int32) -> Int32 {
  while true {
    let result = call()
    if result != -1 || errno != EINTR { return result }
  }
}

// Plain names for read(2) and write(2): inside `Terminal` its own methods
// hide them.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int)
  -> Int
{
  read(descriptor, buffer, count)
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}
