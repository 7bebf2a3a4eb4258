/// The escape sequence that asks a terminal to put text on the clipboard
/// (OSC 52, as xterm defines it): `ESC ] 52 ; c ; <base64> BEL`.
///
/// Terminals limit how much they take: 100,000 characters of base64 is the
/// most the smallest common limit lets through (hterm's; vim-oscyank uses
/// the same), so a text of more than `textLimit` bytes is not sent this way.
enum OSC52 {
  /// The largest text sent: 75,000 bytes are 100,000 characters of base64.
  static let textLimit = 75_000

  /// The sequence that puts `bytes` on the clipboard. `throughTmux` wraps
  /// it for tmux's passthrough (`ESC P tmux; … ESC \`, every ESC inside
  /// doubled), which hands it to the terminal tmux runs in when the pane
  /// allows it (`allow-passthrough`).
  static func sequence(for bytes: [UInt8], throughTmux: Bool) -> [UInt8] {
    let escape: UInt8 = 0x1B
    var sequence: [UInt8] = [escape] + Array("]52;c;".utf8)
    sequence += base64(bytes)
    sequence.append(0x07)
    guard throughTmux else { return sequence }
    var wrapped: [UInt8] = [escape] + Array("Ptmux;".utf8)
    for byte in sequence {
      if byte == escape { wrapped.append(escape) }
      wrapped.append(byte)
    }
    return wrapped + [escape, UInt8(ascii: "\\")]
  }

  /// `bytes` in base64 (RFC 4648, with `=` padding, no line breaks).
  static func base64(_ bytes: [UInt8]) -> [UInt8] {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count + 2) / 3 * 4)
    var index = 0
    while index + 3 <= bytes.count {
      let group =
        UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
      for shift in [18, 12, 6, 0] { output.append(alphabet[Int(group >> UInt32(shift) & 0x3F)]) }
      index += 3
    }
    let rest = bytes.count - index
    if rest > 0 {
      let group = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
      output.append(alphabet[Int(group >> 18 & 0x3F)])
      output.append(alphabet[Int(group >> 12 & 0x3F)])
      output.append(rest == 2 ? alphabet[Int(group >> 6 & 0x3F)] : UInt8(ascii: "="))
      output.append(UInt8(ascii: "="))
    }
    return output
  }
}
