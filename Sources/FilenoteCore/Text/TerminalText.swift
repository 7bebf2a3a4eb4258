import LineEditor

/// What `filenote show` sends a terminal: the note's bytes, except that each
/// control character a terminal would act on is drawn as the stand-in the
/// prompt draws for it (`DisplayWidth.standIn(for:)`), as `ls` does with
/// names. A note comes from other machines, scripts and pastes: as it is,
/// `ESC ] 0 ;` would set the window's title, `ESC [ 2 J` clear the screen,
/// OSC 52 write the clipboard.
///
/// Replaced: the C0 controls but line feed and tab (a carriage return alone,
/// which can hide the start of its line, but not one before a line feed),
/// ESC among them, DEL, the C1 controls, and the bidirectional controls
/// U+202A–U+202E and U+2066–U+2069, which reorder what follows. Everything
/// else passes as it is, lines and all: this is the note, not one line of it.
///
/// The bytes are valid UTF-8 (a note as `FileStore.read()` returns it), so
/// every replaced character is found by its bytes, without decoding the rest.
enum TerminalText {
  /// How many bytes are handed on at a time: the copy never holds more.
  static let pieceSize = 64 * 1024

  /// `bytes` with their control characters as stand-ins, handed to `write`
  /// a piece of about `pieceSize` bytes at a time.
  static func write(
    _ bytes: [UInt8], to write: ([UInt8]) throws(FilenoteError) -> Void
  ) throws(FilenoteError) {
    var piece: [UInt8] = []
    piece.reserveCapacity(Swift.min(bytes.count, pieceSize) + 16)
    var start = 0
    var index = 0
    while index < bytes.count {
      if let (length, standIn) = standIn(in: bytes, at: index) {
        piece.append(contentsOf: bytes[start..<index])
        piece.append(contentsOf: standIn.utf8)
        index += length
        start = index
      } else {
        index += 1
        // A long run of plain bytes is copied a piece at a time too.
        guard index - start >= pieceSize else { continue }
        piece.append(contentsOf: bytes[start..<index])
        start = index
      }
      if piece.count >= pieceSize {
        try write(piece)
        piece.removeAll(keepingCapacity: true)
      }
    }
    piece.append(contentsOf: bytes[start...])
    try write(piece)
  }

  /// The stand-in of the character whose bytes start at `index`, and how
  /// many bytes it takes; nil for a byte that passes as it is.
  static func standIn(in bytes: [UInt8], at index: Int) -> (length: Int, standIn: String)? {
    let byte = bytes[index]
    let next = index + 1 < bytes.count ? bytes[index + 1] : 0
    var scalar: UInt32
    var length = 1
    switch byte {
    case 0x0A, 0x09:
      return nil
    case 0x0D where next == 0x0A:
      return nil
    case 0x00..<0x20, 0x7F:
      scalar = UInt32(byte)
    case 0xC2 where (0x80...0x9F).contains(next):
      // C1: U+0080–U+009F.
      scalar = UInt32(next)
      length = 2
    case 0xE2 where index + 2 < bytes.count:
      // U+202A–U+202E is E2 80 AA–AE, U+2066–U+2069 is E2 81 A6–A9.
      let last = bytes[index + 2]
      guard
        (next == 0x80 && (0xAA...0xAE).contains(last))
          || (next == 0x81 && (0xA6...0xA9).contains(last))
      else { return nil }
      scalar = 0x2000 | UInt32(next & 0x3F) << 6 | UInt32(last & 0x3F)
      length = 3
    default:
      return nil
    }
    guard let character = Unicode.Scalar(scalar).map(Character.init),
      let standIn = DisplayWidth.standIn(for: character)
    else { return nil }
    return (length, String(standIn))
  }
}
