import Glibc

extension Signal {
  /// Catches this signal with a handler that does nothing and does not
  /// restart system calls, so a blocking read in progress ends with
  /// `interrupted` (Ctrl-C in a terminal's own line mode). Does nothing and
  /// returns false when the signal is ignored (as in a background job).
  /// `release()` the returned value to put the previous action back.
  public func interruptingReads() -> InterruptingCatch {
    var interruption = sigaction()
    interruption.__sigaction_handler.sa_handler = { _ in }
    sigemptyset(&interruption.sa_mask)
    interruption.sa_flags = 0  // no SA_RESTART: the read must end
    var previous = sigaction()
    sigaction(rawValue, nil, &previous)
    let catches =
      unsafeBitCast(previous.__sigaction_handler.sa_handler, to: Int.self)
      != unsafeBitCast(SIG_IGN, to: Int.self)
    if catches { sigaction(rawValue, &interruption, nil) }
    return InterruptingCatch(signal: self, previous: catches ? previous : nil)
  }
}

/// A signal caught by `Signal.interruptingReads()` until `release()`.
public struct InterruptingCatch {
  let signal: Signal
  fileprivate let previous: sigaction?

  /// Whether the signal is caught (false: it was ignored and stays so).
  public var catches: Bool { previous != nil }

  /// Puts the signal's previous action back.
  public func release() {
    guard var previous else { return }
    sigaction(signal.rawValue, &previous, nil)
  }
}
