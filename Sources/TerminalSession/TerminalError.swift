import SystemCalls

/// What can go wrong with the terminal, each with a short lowercase message
/// meant to follow `filenote: ` on standard error.
public enum TerminalError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The descriptor is not a terminal (a pipe, a file, `/dev/null`).
  case notATerminal
  /// The terminal's settings could not be read (`tcgetattr`).
  case cannotReadSettings(errno: Int32)
  /// The terminal's settings could not be changed (`tcsetattr`).
  case cannotChangeSettings(errno: Int32)
  /// Waiting for input or reading it failed.
  case cannotRead(errno: Int32)
  /// Writing to the terminal failed.
  case cannotWrite(errno: Int32)
  /// The signals a session reacts to could not be caught; `EBUSY` means
  /// another `Terminal` in this process is already in raw mode.
  case cannotCatchSignals(errno: Int32)

  /// The C library's error number behind the failure.
  public var errno: Int32 {
    switch self {
    case .notATerminal: return Errno.inappropriateIOCTLForDevice.code
    case .cannotReadSettings(let errno), .cannotChangeSettings(let errno),
      .cannotRead(let errno), .cannotWrite(let errno), .cannotCatchSignals(let errno):
      return errno
    }
  }

  /// The one-line message, e.g. `cannot read the terminal: Input/output error`.
  public var message: String {
    switch self {
    case .notATerminal: return "not a terminal"
    case .cannotReadSettings: return "cannot read the terminal settings: \(reason)"
    case .cannotChangeSettings: return "cannot change the terminal settings: \(reason)"
    case .cannotRead: return "cannot read the terminal: \(reason)"
    case .cannotWrite: return "cannot write to the terminal: \(reason)"
    case .cannotCatchSignals: return "cannot catch signals: \(reason)"
    }
  }

  public var description: String { message }

  private var reason: String { Errno(errno).description }
}
