/// The edit line as a terminal shows it, rebuilt from the bytes `Renderer`
/// writes: what it drew, scalar by scalar with its video attribute, and the
/// column the cursor was left at.
///
/// It accepts only the renderer's documented vocabulary: CR, the drawn text,
/// SGR 7 and 27 around stand-ins and markers, EL 0, CR and an optional CUF. A
/// byte outside it (a raw control character in the text, a newline, another
/// escape sequence) is a defect. Columns are not counted here but from the
/// cells the line is compared with, because a terminal and Swift do not split
/// a string into characters the same way.
struct TerminalLine: Equatable {
  /// One scalar written, and whether reverse video was on for it.
  struct Glyph: Equatable {
    var scalar: Unicode.Scalar
    var isReversed: Bool
  }

  /// Everything drawn on the line since its start, in order.
  private(set) var glyphs: [Glyph] = []
  /// The column the cursor rests at.
  private(set) var cursorColumn = 0

  /// Applies one render's bytes. An empty render leaves the line as it was.
  ///
  /// - Returns: why the bytes are not a valid redraw of the line, or nil.
  mutating func apply(_ bytes: [UInt8]) -> String? {
    guard !bytes.isEmpty else { return nil }
    var input = bytes[...]
    guard input.popFirst() == 0x0D else { return "a render does not start with CR" }
    var drawn: [Glyph] = []
    var isReversed = false
    while true {
      // The text up to the next escape sequence.
      let text = input.prefix { $0 != 0x1B }
      input = input.dropFirst(text.count)
      guard let string = String(validating: text, as: UTF8.self) else {
        return "ill-formed UTF-8 written to the terminal"
      }
      for scalar in string.unicodeScalars {
        if Self.isControl(scalar) {
          return "raw control U+\(String(scalar.value, radix: 16)) written to the terminal"
        }
        drawn.append(Glyph(scalar: scalar, isReversed: isReversed))
      }
      guard !input.isEmpty else { return "a render does not end with EL (ESC [ K)" }
      let sequence = Self.escapeSequence(from: &input)
      if sequence == "[7m" {
        isReversed = true
      } else if sequence == "[27m" {
        isReversed = false
      } else if sequence == "[K" {
        break
      } else {
        return "unexpected escape sequence ESC\(sequence) in the drawn line"
      }
    }
    if isReversed { return "reverse video still on when the line is erased" }
    guard input.popFirst() == 0x0D else { return "no CR after EL" }
    var column = 0
    if !input.isEmpty {
      let sequence = Self.escapeSequence(from: &input)
      guard sequence.hasPrefix("["), sequence.hasSuffix("C"),
        let columns = Int(sequence.dropFirst().dropLast()), columns > 0
      else { return "unexpected bytes after the line: ESC\(sequence)" }
      column = columns
      if !input.isEmpty { return "bytes after the cursor movement" }
    }
    glyphs = drawn
    cursorColumn = column
    return nil
  }

  /// Takes a CSI sequence off the front of `input`, which starts with its ESC,
  /// and returns it without the ESC up to and including its final byte
  /// (`[27m`), or what there was of it.
  private static func escapeSequence(from input: inout ArraySlice<UInt8>) -> String {
    var sequence = ""
    guard input.popFirst() == 0x1B else { return sequence }
    while let byte = input.popFirst() {
      sequence.unicodeScalars.append(Unicode.Scalar(byte))
      if sequence.unicodeScalars.count > 1 && (0x40...0x7E).contains(byte) { break }
    }
    return sequence
  }

  /// C0, DEL and C1 controls, which a terminal acts on instead of drawing.
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
  }
}
