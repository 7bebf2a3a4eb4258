/// JSON written by hand, as much as `filenote history --json` needs: the
/// library does not link Foundation (CONTRIBUTING.md, Hot path).
enum JSONText {
  /// `text` as a JSON string, quotes included (RFC 8259).
  ///
  /// Besides the quote, the backslash and the C0 controls that JSON
  /// requires to be escaped, DEL, the C1 controls and U+2028, U+2029 are
  /// written as `\u` escapes too: the output stays inert on a terminal (no
  /// escape sequence reaches it from a note) and valid JavaScript.
  static func quoted(_ text: String) -> String {
    var result = "\""
    result.reserveCapacity(text.utf8.count + 2)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case "\u{08}": result += "\\b"
      case "\u{0C}": result += "\\f"
      case "\u{00}"..."\u{1F}", "\u{7F}"..."\u{9F}", "\u{2028}", "\u{2029}":
        result += "\\u" + hexadecimal(scalar.value, digits: 4)
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  /// `value` in lowercase hexadecimal, zero-padded to `digits`.
  private static func hexadecimal(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}
