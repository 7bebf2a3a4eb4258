/// One fuzzer input read as an editing session: the terminal width, the note
/// the prompt opens with, and what the terminal sends, read by read.
///
/// Layout of the input (missing bytes count as 0):
///
/// | bytes | meaning |
/// | --- | --- |
/// | 0 | the width: `1 + byte % 200` columns |
/// | 1 | the marker byte, which splits the rest into reads; its bits also say how the terminal draws each `WidthKind` (`widths`) |
/// | 2 | `L`, the length of the note |
/// | 3 ..< 3 + L | the note, decoded as UTF-8 with repair (a saved note is valid UTF-8) |
/// | the rest | the bytes the terminal sends |
///
/// In the bytes sent, a marker ends a read; an empty read (two markers in a
/// row) means the input went quiet, so the decoder is flushed; a second empty
/// read in a row (three markers) also resizes the terminal to `1 + next % 200`
/// columns, where `next` is the byte after the markers (which is still sent).
/// The marker is chosen per input, so any byte can still be sent.
struct EditorScenario: CustomStringConvertible {
  /// What happens to the editor, in order.
  enum Event {
    /// One read from the terminal, as the decoder gets it.
    case read([UInt8])
    /// No byte came for a while: the session flushes the decoder.
    case quiet
    /// The terminal was resized to this many columns.
    case resize(Int)
  }

  /// The widest terminal tried; wider ones lay out the same way.
  static let maximumWidth = 200

  var width: Int
  var initialText: String
  var events: [Event] = []
  /// The widths the session measured on the terminal: two bits of the
  /// marker per kind, in `WidthKind` order from the lowest: not measured,
  /// apart, one character of two columns, of one column.
  var widths = MeasuredWidths()

  init(_ bytes: [UInt8]) {
    var input = bytes[...]
    width = Self.width(from: input.popFirst() ?? 0)
    let marker = input.popFirst() ?? 0
    for kind in WidthKind.allCases {
      switch (marker >> (2 * kind.rawValue)) & 0b11 {
      case 1: widths[kind] = .apart
      case 2: widths[kind] = .whole(columns: 2)
      case 3: widths[kind] = .whole(columns: 1)
      default: break
      }
    }
    let noteLength = Int(input.popFirst() ?? 0)
    initialText = String(decoding: input.prefix(noteLength), as: UTF8.self)
    input = input.dropFirst(noteLength)

    var read: [UInt8] = []
    var emptyReads = 0
    while let byte = input.popFirst() {
      guard byte == marker else {
        read.append(byte)
        continue
      }
      if !read.isEmpty {
        events.append(.read(read))
        read = []
        emptyReads = 0
        continue
      }
      emptyReads += 1
      if emptyReads == 1 {
        events.append(.quiet)
      } else if emptyReads == 2, let next = input.first {
        events.append(.resize(Self.width(from: next)))
      }
    }
    if !read.isEmpty {
      events.append(.read(read))
    }
  }

  private static func width(from byte: UInt8) -> Int {
    1 + Int(byte) % maximumWidth
  }

  /// The scenario in a form that can be pasted into a regression test.
  var description: String {
    var lines = ["width: \(width)", "initialText: \(Self.literal(initialText))"]
    let measured = WidthKind.allCases.compactMap { kind in
      widths[kind].map { "\(kind.name): \($0)" }
    }
    if !measured.isEmpty {
      lines.append("widths: " + measured.joined(separator: ", "))
    }
    for event in events {
      switch event {
      case .read(let bytes): lines.append("read: \(Self.literal(bytes))")
      case .quiet: lines.append("quiet")
      case .resize(let width): lines.append("resize: \(width)")
      }
    }
    return lines.joined(separator: "\n")
  }

  /// `text` as a Swift string literal, every non-ASCII or control scalar escaped.
  static func literal(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"", "\\": result += "\\\(scalar)"
      case " "..."~": result.unicodeScalars.append(scalar)
      default: result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      }
    }
    return result + "\""
  }

  /// `bytes` as a Swift array literal in hexadecimal.
  static func literal(_ bytes: [UInt8]) -> String {
    let elements = bytes.map { byte in
      let digits = String(byte, radix: 16, uppercase: true)
      return "0x" + (digits.count == 1 ? "0" : "") + digits
    }
    return "[" + elements.joined(separator: ", ") + "]"
  }
}
