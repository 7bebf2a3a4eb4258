import SystemCalls

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
  static let caughtSignals: [Signal] = [
    .windowChanged, .terminalStop, .continue, .terminate, .hangup, .interrupt, .quit,
  ]

  /// The terminal signal for a caught signal; nil for any other.
  init?(_ signal: Signal) {
    switch signal {
    case .windowChanged: self = .windowResized
    case .terminalStop: self = .suspendRequested
    case .continue: self = .continued
    case .terminate, .hangup, .interrupt, .quit:
      self = .terminationRequested(signalNumber: signal.rawValue)
    default: return nil
    }
  }

  /// The signal's number, e.g. `SIGWINCH`.
  public var signalNumber: Int32 {
    switch self {
    case .windowResized: return Signal.windowChanged.rawValue
    case .suspendRequested: return Signal.terminalStop.rawValue
    case .continued: return Signal.continue.rawValue
    case .terminationRequested(let signalNumber): return signalNumber
    }
  }

  /// Starts catching the signals above into the self-pipe, whose
  /// non-blocking read end is returned. A signal the process ignores stays
  /// ignored (see `SignalPipe.startCatching`).
  static func startCatching() throws(TerminalError) -> FileDescriptor {
    do {
      return try SignalPipe.startCatching(caughtSignals)
    } catch {
      throw .cannotCatchSignals(errno: error)
    }
  }

  /// Gives the signals back the dispositions they had before `startCatching`.
  static func stopCatching() {
    SignalPipe.stopCatching()
  }

  /// The signals written to the self-pipe since it was last read, in the
  /// order they arrived. Returns without waiting when the pipe is empty.
  static func drain(_ pipe: FileDescriptor) -> [TerminalSignal] {
    SignalPipe.drain(pipe).compactMap(TerminalSignal.init)
  }
}
