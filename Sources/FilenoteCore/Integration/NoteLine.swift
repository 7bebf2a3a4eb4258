import LineEditor
import SystemCalls

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
/// Only the beginning of the note is read (`byteLimit(columns:)`), a piece
/// at a time, so a 100 MiB note costs what a short one does: in memory and
/// in time. A note's own final newline (an editor's, `echo`'s) ends the line
/// and gets no stand-in. A cluster is drawn as its base and at most
/// `marksKept` combining marks (more stack into one blot anyway), so a long
/// run of them never hides the text after it, within `readLimit`.
enum NoteLine {
  /// The width when none is given and standard output is not a terminal.
  static let defaultColumns = 80
  /// Marks a line that was cut.
  static let ellipsis: Character = "\u{2026}"
  /// The combining marks kept after a base; the others are not drawn.
  static let marksKept = 4
  /// The most of the note read for a line, whatever its width: runs of
  /// combining marks not drawn are read past up to here.
  static let readLimit = 1 << 20

  /// The bytes of the text drawn (marks past `marksKept` left out) that a
  /// line `columns` wide needs: room for four bytes a column, and for the
  /// marks kept. A line of characters that carry many marks each may be cut
  /// sooner than `columns`, never wider.
  static func byteLimit(columns: Int) -> Int {
    columns > (readLimit - 256) / 16 ? readLimit : 16 * columns + 256
  }

  /// The line for a note of `bytes` (valid UTF-8, as `FileStore.read()`
  /// returns them), at most `columns` (1 or more) wide.
  static func line(of bytes: [UInt8], columns: Int) -> String {
    var offset = 0
    let line = try? line(columns: columns) { count throws(FilenoteError) in
      let piece = Array(bytes[offset..<Swift.min(bytes.count, offset + count)])
      offset += piece.count
      return piece
    }
    return line ?? ""
  }

  /// The line for the note `fd` reads (at its start), at most `columns`
  /// wide; `path` names it in errors. What is read must be UTF-8.
  static func line(
    reading fd: FileDescriptor, path: String, columns: Int
  ) throws(FilenoteError) -> String {
    try line(columns: columns, path: path) { count throws(FilenoteError) in
      do throws(Errno) {
        return try fd.read(upTo: count)
      } catch {
        throw .system(.read, .file(path), errno: error)
      }
    }
  }

  /// The line for the note that `read` gives a piece at a time (up to the
  /// count it is asked for; fewer only at its end), at most `columns` wide.
  /// `path` names the note when what is read is not UTF-8.
  static func line(
    columns: Int, path: String = "", read: (Int) throws(FilenoteError) -> [UInt8]
  ) throws(FilenoteError) -> String {
    let limit = byteLimit(columns: columns)
    var drawn = Drawn()
    var validator = UTF8Validator()
    // A scalar the last piece cut, completed by the next.
    var pending: [UInt8] = []
    var ended = false
    // The first read is what the line needs (and a byte to tell a longer
    // note); more only when marks were left out.
    while drawn.bytes.count <= limit && validator.count < readLimit && !ended {
      let wanted = Swift.max(limit + 1 - drawn.bytes.count, validator.count == 0 ? 0 : 4096)
      let piece = try read(Swift.min(wanted, readLimit - validator.count))
      ended = piece.count < Swift.min(wanted, readLimit - validator.count)
      validator.consume(piece)
      if ended { validator.end() }
      if let offset = validator.firstInvalidOffset {
        throw .fileNotUTF8(path: path, offset: offset)
      }
      pending.append(contentsOf: piece)
      // The scalars that are whole; the rest waits for the next piece.
      var end = pending.count
      if !ended {
        var lead = end
        while lead > 0 && pending[lead - 1] & 0xC0 == 0x80 { lead -= 1 }
        if lead > 0 && end - (lead - 1) < scalarLength(pending[lead - 1]) {
          end = lead - 1
        }
      }
      drawn.append(pending[..<end])
      pending.removeFirst(end)
    }
    var bytes = drawn.bytes
    let continues = !ended || bytes.count > limit
    if continues {
      // Cut before a character the limit breaks (back to the start of its
      // first byte); the last Character may still lose a mark that follows,
      // so it is left out and the line counts as cut.
      var end = Swift.min(limit, bytes.count)
      while end > 0 && end < bytes.count && bytes[end] & 0xC0 == 0x80 { end -= 1 }
      bytes.removeSubrange(end...)
    } else {
      bytes.removeLast(TrailingLineEnding.length(in: bytes))
    }
    var text = String(decoding: bytes, as: UTF8.self)
    if continues && !text.isEmpty { text.removeLast() }
    return standaloneLine(of: text, columns: columns, continues: continues)
      ?? line(of: text, columns: columns, continues: continues)
  }

  /// How many bytes the scalar whose first byte is `lead` takes.
  private static func scalarLength(_ lead: UInt8) -> Int {
    lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
  }

  /// The bytes of the text as it is drawn: each run of combining marks after
  /// a base cut to `marksKept`.
  private struct Drawn {
    private(set) var bytes: [UInt8] = []
    /// The combining marks kept since the last other scalar.
    private var marks = 0

    /// Appends whole scalars of valid UTF-8.
    mutating func append(_ piece: ArraySlice<UInt8>) {
      var start = piece.startIndex
      var index = start
      while index < piece.endIndex {
        let lead = piece[index]
        let length = NoteLine.scalarLength(lead)
        // Marks start at U+0300, whose first byte is CC.
        guard lead >= 0xCC, Self.isCombiningMark(piece[index..<index + length]) else {
          marks = 0
          index += length
          continue
        }
        marks += 1
        if marks > marksKept {
          bytes.append(contentsOf: piece[start..<index])
          start = index + length
        }
        index += length
      }
      bytes.append(contentsOf: piece[start..<piece.endIndex])
    }

    /// Whether the scalar of these bytes is a nonspacing or enclosing mark.
    private static func isCombiningMark(_ scalar: ArraySlice<UInt8>) -> Bool {
      // Decoded by hand: most scalars here are CJK, answered by
      // `isStandalone` without a string or Unicode's property tables.
      var bits = UInt32(scalar[scalar.startIndex] & (0xFF >> (scalar.count + 1)))
      for byte in scalar.dropFirst() { bits = bits << 6 | UInt32(byte & 0x3F) }
      guard let value = Unicode.Scalar(bits), !DisplayWidth.isStandalone(value) else {
        return false
      }
      switch value.properties.generalCategory {
      case .nonspacingMark, .enclosingMark: return true
      default: return false
      }
    }
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
