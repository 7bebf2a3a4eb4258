import CFilenote

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A signal a terminal session must react to. While a `Terminal` is in raw
/// mode these signals are caught and handed out by `Terminal.read` as events,
/// so the session reacts to them between keys, never inside a signal handler.
/// Outside raw mode they have their usual effect.
public enum TerminalSignal: Hashable, Sendable {
  /// SIGWINCH: the window changed size. Redraw at the new `Terminal.size`.
  case windowResized
  /// SIGTSTP sent by another process (in raw mode Ctrl-Z arrives as a key,
  /// 0x1A, instead). Call `Terminal.suspend()`, then redraw.
  case suspendRequested
  /// SIGCONT: the process was stopped by something else (SIGSTOP) and is
  /// running again; the shell may have changed the terminal settings
  /// meanwhile. Call `Terminal.enterRawMode()` again, then redraw.
  case continued
  /// SIGTERM, SIGHUP, SIGINT or SIGQUIT. Call
  /// `Terminal.terminate(by: signalNumber)` after any cleanup of your own.
  case terminationRequested(signalNumber: Int32)

  /// The signals caught in raw mode, each one of the cases above.
  static let caughtSignalNumbers: [Int32] = [
    SIGWINCH, SIGTSTP, SIGCONT, SIGTERM, SIGHUP, SIGINT, SIGQUIT,
  ]

  /// The signal for a caught signal number; nil for any other.
  init?(signalNumber: Int32) {
    switch signalNumber {
    case SIGWINCH: self = .windowResized
    case SIGTSTP: self = .suspendRequested
    case SIGCONT: self = .continued
    case SIGTERM, SIGHUP, SIGINT, SIGQUIT: self = .terminationRequested(signalNumber: signalNumber)
    default: return nil
    }
  }

  /// The signal's number, e.g. `SIGWINCH`.
  public var signalNumber: Int32 {
    switch self {
    case .windowResized: return SIGWINCH
    case .suspendRequested: return SIGTSTP
    case .continued: return SIGCONT
    case .terminationRequested(let signalNumber): return signalNumber
    }
  }

  /// Starts catching the signals above into the self-pipe, whose
  /// non-blocking read end is returned. A signal the process ignores stays
  /// ignored (see `filenote_signal_pipe_install`).
  static func startCatching() throws(TerminalError) -> Int32 {
    let pipe = caughtSignalNumbers.withUnsafeBufferPointer { numbers in
      filenote_signal_pipe_install(numbers.baseAddress, Int32(numbers.count))
    }
    guard pipe != -1 else { throw .cannotCatchSignals(errno: errno) }
    return pipe
  }

  /// Gives the signals back the dispositions they had before
  /// `startCatching`.
  static func stopCatching() {
    // It can only fail for a signal number sigaction rejects, and
    // startCatching already proved each one valid.
    _ = filenote_signal_pipe_uninstall()
  }

  /// The signals written to the self-pipe since it was last read, in the
  /// order they arrived. Returns without waiting when the pipe is empty.
  static func drain(pipe: Int32) -> [TerminalSignal] {
    var signals: [TerminalSignal] = []
    var buffer = [UInt8](repeating: 0, count: 64)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(pipe, $0.baseAddress, $0.count) }
      if count > 0 {
        signals += buffer[..<count].compactMap { TerminalSignal(signalNumber: Int32($0)) }
      } else if count == -1 && errno == EINTR {
        continue
      } else {
        // EAGAIN: empty. Nothing else can happen to a pipe we never close.
        return signals
      }
    }
  }
}
