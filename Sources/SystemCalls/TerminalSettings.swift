import Glibc

/// A terminal's settings (termios), read with `FileDescriptor.terminalSettings()`
/// and applied with `FileDescriptor.apply(_:)`.
public struct TerminalSettings: Sendable {
  var value: termios

  /// The raw settings a line editor needs, derived from these so that
  /// everything not listed (speed, special characters, IUTF8) stays as the
  /// user had it.
  ///
  /// Raw means every key reaches `read` as typed: no line buffering
  /// (ICANON), no echo (ECHO), Ctrl-C, Ctrl-Z and Ctrl-\ arrive as bytes
  /// instead of signals (ISIG), Ctrl-V and Ctrl-O too (IEXTEN), Ctrl-S and
  /// Ctrl-Q too (IXON), Enter arrives as `\r` (no ICRNL), and the high bit
  /// of UTF-8 bytes is kept (no ISTRIP). Output processing (OPOST) stays on,
  /// with ONLCR, as readline leaves it: a `\n` written moves to the start
  /// of the next line. A read returns as soon as one byte is there.
  public var raw: TerminalSettings {
    var raw = value
    raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INLCR | IGNCR | INPCK | ISTRIP | IXON)
    raw.c_oflag |= tcflag_t(OPOST | ONLCR)
    raw.c_oflag &= ~tcflag_t(OCRNL)
    raw.c_cflag &= ~tcflag_t(CSIZE | PARENB)
    raw.c_cflag |= tcflag_t(CS8)
    raw.c_lflag &= ~tcflag_t(ECHO | ECHONL | ICANON | ISIG | IEXTEN)
    withUnsafeMutableBytes(of: &raw.c_cc) { characters in
      characters[Int(VMIN)] = 1
      characters[Int(VTIME)] = 0
    }
    return TerminalSettings(value: raw)
  }

  /// Whether the terminal edits lines itself (ICANON), as outside raw mode.
  public var isLineMode: Bool { value.c_lflag & tcflag_t(ICANON) != 0 }

  /// The settings' bytes, to compare two readings exactly.
  public var bytes: [UInt8] { withUnsafeBytes(of: value) { Array($0) } }
}

extension FileDescriptor {
  /// Whether this descriptor is a terminal (isatty).
  public var isTerminal: Bool { isatty(rawValue) == 1 }

  /// tcgetattr(3)
  public func terminalSettings() throws(Errno) -> TerminalSettings {
    var settings = termios()
    try valueOrErrno { tcgetattr(rawValue, &settings) }
    return TerminalSettings(value: settings)
  }

  /// tcsetattr(3) with TCSADRAIN: output already written reaches the screen
  /// first, and keys typed ahead are kept (TCSAFLUSH would throw them away).
  public func apply(_ settings: TerminalSettings) throws(Errno) {
    var value = settings.value
    try valueOrErrno { tcsetattr(rawValue, TCSADRAIN, &value) }
  }

  /// The window size of the terminal (TIOCGWINSZ); 0 means unknown.
  public func windowSize() throws(Errno) -> (rows: Int, columns: Int) {
    var size = winsize()
    // The Glibc module's own ioctl for a pointer argument (C's is variadic).
    try valueOrErrno { ioctl(rawValue, UInt(TIOCGWINSZ), &size) }
    return (Int(size.ws_row), Int(size.ws_col))
  }

  /// Makes process group `group` the terminal's foreground group
  /// (tcsetpgrp), with SIGTTOU blocked so that a background caller is not
  /// stopped for it.
  public func setForegroundProcessGroup(_ group: Int32) throws(Errno) {
    try Signal.terminalOutput.whileBlocked { () throws(Errno) in
      _ = try valueOrErrno { tcsetpgrp(rawValue, group) }
    }
  }
}
