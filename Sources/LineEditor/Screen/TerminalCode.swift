/// Every escape sequence filenote writes to a terminal (ECMA-48 and xterm's
/// private modes, understood by every terminal that is not `dumb`), named in
/// this one place.
public enum TerminalCode {
  public static let carriageReturn: [UInt8] = [0x0D]
  /// CR LF: the start of the next line, whatever the terminal's output settings.
  public static let newLine: [UInt8] = [0x0D, 0x0A]
  /// EL 0: erase from the cursor to the end of the line.
  public static let clearToEndOfLine: [UInt8] = Array("\u{1B}[K".utf8)
  /// ED 0: erase from the cursor to the end of the screen.
  public static let clearToEndOfScreen: [UInt8] = Array("\u{1B}[J".utf8)
  /// CUP to the top left, then ED 2: an empty screen.
  public static let clearScreen: [UInt8] = Array("\u{1B}[H\u{1B}[2J".utf8)
  /// SGR 7: reverse video on.
  public static let reverseVideo: [UInt8] = Array("\u{1B}[7m".utf8)
  /// SGR 27: reverse video off (leaves other attributes alone).
  public static let noReverseVideo: [UInt8] = Array("\u{1B}[27m".utf8)
  /// SGR 2: faint (dim) text on.
  public static let dim: [UInt8] = Array("\u{1B}[2m".utf8)
  /// SGR 22: normal intensity again.
  public static let normalIntensity: [UInt8] = Array("\u{1B}[22m".utf8)
  /// Turns on bracketed paste: the terminal wraps pasted text in
  /// `ESC [ 200 ~` … `ESC [ 201 ~`, so a newline in a paste is not Enter.
  public static let enableBracketedPaste: [UInt8] = Array("\u{1B}[?2004h".utf8)
  /// Turns bracketed paste off again, so the shell gets plain pastes.
  public static let disableBracketedPaste: [UInt8] = Array("\u{1B}[?2004l".utf8)
  /// DSR 6: asks the terminal where its cursor is; it answers as if typed,
  /// `ESC [ row ; column R` (see `KeyDecoder.expectCursorReport()`).
  public static let requestCursorPosition: [UInt8] = Array("\u{1B}[6n".utf8)

  /// CUU: move the cursor `rows` rows up (stopping at the top).
  public static func cursorUp(_ rows: Int) -> [UInt8] {
    Array("\u{1B}[\(rows)A".utf8)
  }

  /// CUD: move the cursor `rows` rows down (stopping at the bottom, never
  /// scrolling).
  public static func cursorDown(_ rows: Int) -> [UInt8] {
    Array("\u{1B}[\(rows)B".utf8)
  }

  /// CUF: move the cursor `columns` columns right.
  public static func cursorForward(_ columns: Int) -> [UInt8] {
    Array("\u{1B}[\(columns)C".utf8)
  }
}
