/// A word of a command line written so that a shell (sh, bash, zsh, fish)
/// reads it back as these very bytes, for messages that show the command to
/// type: `buy` as it is, `it's` as `'it'\''s'`. nil for a word that no
/// quoting all of them read alike can write on one line, or that a message
/// would not show as it is: one with bytes that are not UTF-8, or with a
/// character a message draws as a stand-in (a newline, ESC, a bidirectional
/// control; see `Filenote.reported`).
enum ShellWord {
  static func quoted(_ bytes: [UInt8]) -> String? {
    let text = String(decoding: bytes, as: UTF8.self)
    guard UTF8Validator.firstInvalidOffset(in: bytes) == nil,
      text.replacingControlCharacters() == text
    else { return nil }
    if !bytes.isEmpty && bytes.allSatisfy(isPlain) { return text }
    // Inside single quotes every byte stands for itself, but a quote itself
    // cannot be written: close, add an escaped quote, open again.
    return "'"
      + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#)
      + "'"
  }

  /// Bytes a shell takes literally anywhere in a word: letters, digits,
  /// `@%+=:,./_-` and those of characters beyond ASCII. (`~` and `#` are
  /// special at the start of a word, so they are quoted.)
  private static func isPlain(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), 0x80...0xFF:
      return true
    default:
      return Array("@%+=:,./_-".utf8).contains(byte)
    }
  }
}
