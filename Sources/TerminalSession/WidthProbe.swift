import LineEditor
import SystemCalls

/// Asks the terminal how wide it draws the kinds of character terminals
/// disagree on (see `WidthKind`): writes a sample of each kind at the start
/// of the edit line, asks where the cursor went (`ESC [ 6 n`), and erases the
/// samples. The session redraws the line right after, so nothing stale stays.
///
/// A terminal that does not answer within `answerMilliseconds` is taken to
/// draw every kind `apart` (what most terminals do), so it costs that wait
/// once and is never asked again.
enum WidthProbe {
  /// Long enough for a terminal over a slow link; short enough that one
  /// that never answers is a hitch of typing, once.
  static let answerMilliseconds: Int64 = 200
  /// The narrowest terminal measured on: the widest sample drawn apart (six
  /// columns) must not wrap. A narrower one is measured once it is widened.
  static let minimumColumns = 16

  /// The bytes that measure `kinds`: each sample at the start of the line,
  /// then a cursor position request; then the line erased.
  static func question(for kinds: [WidthKind]) -> [UInt8] {
    var bytes: [UInt8] = []
    for kind in kinds {
      bytes += TerminalCode.carriageReturn + Array(String(kind.sample).utf8)
      bytes += TerminalCode.requestCursorPosition
    }
    return bytes + TerminalCode.carriageReturn + TerminalCode.clearToEndOfLine
  }

  /// Measures `kinds` on `terminal` into `widths`, waiting at most
  /// `answerMilliseconds` for the answers. Keys read meanwhile are returned
  /// in the order typed, for the session to handle next; signals are put
  /// back for its next read. Every kind is recorded afterwards, measured or
  /// assumed, so no kind is asked twice.
  static func measure(
    _ kinds: [WidthKind], into widths: inout MeasuredWidths, on terminal: Terminal,
    decoding decoder: inout KeyDecoder
  ) throws(TerminalError) -> [Key] {
    try terminal.write(question(for: kinds))
    for _ in kinds { decoder.expectCursorReport() }
    var keys: [Key] = []
    var reports: [KeyDecoder.CursorReport] = []
    var signals: [TerminalSignal] = []
    defer { terminal.putBack(signals) }
    let deadline = CurrentProcess.monotonicMilliseconds + answerMilliseconds
    waiting: while reports.count < kinds.count {
      let left = deadline - CurrentProcess.monotonicMilliseconds
      guard left > 0 else { break }
      switch try terminal.read(timeoutMilliseconds: Int32(left)) {
      case .input(let bytes):
        keys += decoder.decode(bytes)
        reports += decoder.takeCursorReports()
      case .signal(let signal):
        signals.append(signal)
      case .timeout, .endOfFile:
        break waiting
      }
    }
    decoder.stopAwaitingCursorReports()
    for (kind, report) in zip(kinds, reports) {
      // Each sample starts at column 1 and no terminal draws one wider than
      // two columns a code point: any other report explains nothing, and
      // the kind is taken to be drawn apart.
      let columns = report.column - 1
      if (1...2 * kind.sample.unicodeScalars.count).contains(columns) {
        widths.record(columns, for: kind)
      }
    }
    widths.assumeApartWhereUnmeasured(kinds)
    if reports.isEmpty {
      // No answer at all: a terminal that does not report its cursor.
      widths.assumeApartWhereUnmeasured()
    }
    return keys
  }
}
