import LineEditor

/// The note as one inert line, for a shell prompt or a status bar
/// (`filenote show --line`): the text as the prompt draws it, cut to fit.
///
/// - Every line break is `↵`, a tab `⇥`, every other control character
///   (ESC included, so no escape sequence can reach the terminal) and every
///   invisible character its stand-in (`␛`, `␀`, `�`…): the stand-ins of
///   the line editor (`DisplayWidth.standIn(for:)`), without its reverse
///   video, since the line may not carry escape sequences either.
/// - Each character is as wide as the line editor counts it
///   (`DisplayWidth.columns(of:)`; a stand-in is one column), and the line
///   is at most `columns` wide: when the text is longer, it is cut by whole
///   characters and ends in `…`, which takes one of those columns.
///
/// Only the beginning of the note is looked at (`byteLimit(columns:)`), so a
/// 1 MiB note on one line costs what a short one does.
enum NoteLine {
  /// The width when none is given and standard output is not a terminal.
  static let defaultColumns = 80
  /// Marks a line that was cut.
  static let ellipsis: Character = "\u{2026}"

  /// The bytes of the note read for a line `columns` wide: room for four
  /// bytes a column, and for the combining marks of the first characters. A
  /// line of characters that carry many marks each may be cut sooner than
  /// `columns`, never wider.
  static func byteLimit(columns: Int) -> Int {
    columns > (Int.max - 256) / 16 ? Int.max : 16 * columns + 256
  }

  /// The line for a note of `bytes` (valid UTF-8, as `FileStore.read()`
  /// returns them), at most `columns` (1 or more) wide.
  static func line(of bytes: [UInt8], columns: Int) -> String {
    let limit = byteLimit(columns: columns)
    var text: String
    let continues = bytes.count > limit
    if continues {
      // Cut before a character the limit breaks (back to the start of its
      // first byte); the last Character may still lose a mark that follows,
      // so it is left out and the line counts as cut.
      var end = limit
      while end > 0 && bytes[end] & 0xC0 == 0x80 { end -= 1 }
      text = String(decoding: bytes[..<end], as: UTF8.self)
      if !text.isEmpty { text.removeLast() }
    } else {
      text = String(decoding: bytes, as: UTF8.self)
    }
    return standaloneLine(of: text, columns: columns, continues: continues)
      ?? line(of: text, columns: columns, continues: continues)
  }

  /// `line(of:columns:continues:)` for text that is standalone scalars
  /// (`DisplayWidth.isStandalone`) and CR LF as far as the line reaches,
  /// as most notes are: measured a scalar at a time, without splitting the
  /// text into Characters. Nil for any other text: a scalar that may join
  /// the one before it could change what that one is, so such text goes
  /// the Character way.
  static func standaloneLine(of text: String, columns: Int, continues: Bool) -> String? {
    var line = Builder(columns: columns)
    var scalars = text.unicodeScalars.makeIterator()
    var next = scalars.next()
    while let scalar = next {
      next = scalars.next()
      var character = Character(scalar)
      if scalar == "\r" && next == "\n" {
        character = "\r\n"
        next = scalars.next()
      } else if !DisplayWidth.isStandalone(scalar) {
        return nil
      }
      // This one is standalone, so the one before it is whole: the line may end there.
      guard line.place(character) else { return line.cut }
    }
    // The text ends here, but the note may go on with a scalar that joins
    // the last one.
    return continues ? nil : line.text
  }

  /// The line for `text`, at most `columns` wide; `continues` when more of
  /// the note follows `text`, so the line ends in `…` whatever its width.
  static func line(of text: String, columns: Int, continues: Bool) -> String {
    var line = Builder(columns: columns)
    for character in text {
      guard line.place(character) else { return line.cut }
    }
    return continues ? line.continued : line.text
  }

  /// A line as it is made: the characters placed so far, as their stand-ins.
  private struct Builder {
    let columns: Int
    private(set) var text = ""
    private var used = 0
    /// How many bytes of `text` stay if it turns out to need the `…`: the
    /// characters that leave a column for it.
    private var bytesBeforeEllipsis = 0

    init(columns: Int) { self.columns = columns }

    /// Places `character` (its stand-in, if it has one) after the others;
    /// false, placing nothing, when it does not fit.
    mutating func place(_ character: Character) -> Bool {
      let standIn = DisplayWidth.standIn(for: character)
      let width = standIn == nil ? DisplayWidth.columns(of: character) : 1
      guard used + width <= columns else { return false }
      text.append(standIn ?? character)
      used += width
      if used < columns { bytesBeforeEllipsis = text.utf8.count }
      return true
    }

    /// The line cut where the `…` fits, and the `…`.
    var cut: String {
      String(decoding: text.utf8.prefix(bytesBeforeEllipsis), as: UTF8.self) + String(ellipsis)
    }

    /// The line as the beginning of a longer one: followed by `…`, cut to
    /// make room for it when full.
    var continued: String { used < columns ? text + String(ellipsis) : cut }
  }
}
