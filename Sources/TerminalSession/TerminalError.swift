import SystemCalls

/// What can go wrong with the terminal, each with a short lowercase message
/// meant to follow `filenote: ` on standard error, and the `Errno` behind it.
public enum TerminalError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The descriptor is not a terminal (a pipe, a file, `/dev/null`).
  case notATerminal
  /// The terminal's settings could not be read (`tcgetattr`).
  case cannotReadSettings(errno: Errno)
  /// The terminal's settings could not be changed (`tcsetattr`).
  case cannotChangeSettings(errno: Errno)
  /// Waiting for input or reading it failed.
  case cannotRead(errno: Errno)
  /// Writing to the terminal failed.
  case cannotWrite(errno: Errno)
  /// The signals a session reacts to could not be caught; `EBUSY` means
  /// another `Terminal` in this process is already in raw mode.
  case cannotCatchSignals(errno: Errno)

  /// The C library's error behind the failure.
  public var errno: Errno {
    switch self {
    case .notATerminal: return .inappropriateIOCTLForDevice
    case .cannotReadSettings(let errno), .cannotChangeSettings(let errno),
      .cannotRead(let errno), .cannotWrite(let errno), .cannotCatchSignals(let errno):
      return errno
    }
  }

  /// The one-line message, e.g. `cannot read the terminal: Input/output error`.
  public var message: String {
    switch self {
    case .notATerminal: return "not a terminal"
    case .cannotReadSettings: return "cannot read the terminal settings: \(errno)"
    case .cannotChangeSettings: return "cannot change the terminal settings: \(errno)"
    case .cannotRead: return "cannot read the terminal: \(errno)"
    case .cannotWrite: return "cannot write to the terminal: \(errno)"
    case .cannotCatchSignals: return "cannot catch signals: \(errno)"
    }
  }

  public var description: String { message }
}
