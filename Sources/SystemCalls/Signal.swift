import Glibc

/// A signal number, with the names filenote uses.
public struct Signal: Hashable, Sendable {
  public let rawValue: Int32

  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// SIGINT
  public static let interrupt = Signal(rawValue: SIGINT)
  /// SIGQUIT
  public static let quit = Signal(rawValue: SIGQUIT)
  /// SIGTERM
  public static let terminate = Signal(rawValue: SIGTERM)
  /// SIGHUP
  public static let hangup = Signal(rawValue: SIGHUP)
  /// SIGKILL
  public static let kill = Signal(rawValue: SIGKILL)
  /// SIGWINCH
  public static let windowChanged = Signal(rawValue: SIGWINCH)
  /// SIGTSTP
  public static let terminalStop = Signal(rawValue: SIGTSTP)
  /// SIGTTIN
  public static let terminalInput = Signal(rawValue: SIGTTIN)
  /// SIGTTOU
  public static let terminalOutput = Signal(rawValue: SIGTTOU)
  /// SIGCONT
  public static let `continue` = Signal(rawValue: SIGCONT)
  /// SIGPIPE
  public static let brokenPipe = Signal(rawValue: SIGPIPE)
  /// SIGXFSZ
  public static let fileSizeLimitExceeded = Signal(rawValue: SIGXFSZ)

  /// Ignores the signal from now on (`SIG_IGN`).
  public func ignore() {
    _ = signal(rawValue, SIG_IGN)
  }

  /// Gives the signal its default action (`SIG_DFL`).
  public func resetToDefaultAction() {
    _ = signal(rawValue, SIG_DFL)
  }

  /// Raises the signal in this process with it unblocked, so it is
  /// delivered before this returns.
  public func raiseUnblocked() {
    withUnblocked { _ = raise(rawValue) }
  }

  /// Sends the signal to this process's whole group with it unblocked here,
  /// so this process gets it too before this returns.
  public func sendToOwnProcessGroup() {
    withUnblocked { _ = Glibc.kill(0, rawValue) }
  }

  /// Sends the signal to process `processID` (a negative id: to that group).
  public func send(to processID: Int32) throws(Errno) {
    try valueOrErrno { Glibc.kill(processID, rawValue) }
  }

  /// Runs `body` with this signal blocked in this thread (SIGTTOU while
  /// giving the terminal away); the mask is put back afterwards.
  public func whileBlocked<Result>(_ body: () throws(Errno) -> Result) throws(Errno) -> Result {
    try withMask(SIG_BLOCK, body)
  }

  private func withUnblocked(_ body: () -> Void) {
    _ = try? withMask(SIG_UNBLOCK) { () throws(Errno) in body() }
  }

  private func withMask<Result>(_ how: Int32, _ body: () throws(Errno) -> Result) throws(Errno)
    -> Result
  {
    var changed = sigset_t()
    sigemptyset(&changed)
    sigaddset(&changed, rawValue)
    var previous = sigset_t()
    pthread_sigmask(how, &changed, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    return try body()
  }
}
