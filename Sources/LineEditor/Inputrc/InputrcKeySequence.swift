/// readline's notations for keys in an inputrc, turned into the bytes a
/// terminal sends for them: `"\C-x\C-r"`, `"\M-u"`, `"\e[1;5C"`, octal
/// (`\033`) and hex (`\x1b`) escapes, and key names (`Control-t`,
/// `Meta-Rubout`).
///
/// Meta is sent as Esc before the key, as terminals send Alt (readline's
/// `convert-meta`), whatever the locale.
enum InputrcKeySequence {
  /// The bytes of a quoted key sequence or macro (without its quotes).
  static func bytes(of sequence: ArraySlice<UInt8>) -> [UInt8] {
    var result: [UInt8] = []
    var index = sequence.startIndex
    /// The byte at `offset` from `index`, or 0 past the end.
    func at(_ offset: Int) -> UInt8 {
      index + offset < sequence.endIndex ? sequence[index + offset] : 0
    }
    while index < sequence.endIndex {
      let byte = sequence[index]
      guard byte == UInt8(ascii: "\\"), index + 1 < sequence.endIndex else {
        result.append(byte)
        index += 1
        continue
      }
      let escaped = at(1)
      if (escaped == UInt8(ascii: "C") || escaped == UInt8(ascii: "M"))
        && at(2) == UInt8(ascii: "-")
      {
        index += 3
        if escaped == UInt8(ascii: "M") {
          result.append(0x1B)
          continue
        }
        // \C-x: the next character (itself maybe escaped) with Ctrl.
        var key = at(0)
        index += 1
        if key == UInt8(ascii: "\\") && index < sequence.endIndex {
          if at(0) == UInt8(ascii: "M") && at(1) == UInt8(ascii: "-") {
            // \C-\M-x is \M-\C-x.
            result.append(0x1B)
            index += 2
            key = at(0)
            index += 1
          } else {
            key = simpleEscape(at(0)) ?? at(0)
            index += 1
          }
        }
        result.append(control(key))
        continue
      }
      index += 2
      switch escaped {
      case UInt8(ascii: "0")...UInt8(ascii: "7"):
        var value = Int(escaped - UInt8(ascii: "0"))
        var digits = 1
        while digits < 3, index < sequence.endIndex,
          (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(sequence[index])
        {
          value = value * 8 + Int(sequence[index] - UInt8(ascii: "0"))
          index += 1
          digits += 1
        }
        result.append(UInt8(value & 0xFF))
      case UInt8(ascii: "x"):
        var value = 0
        var digits = 0
        while digits < 2, index < sequence.endIndex, let digit = hexValue(sequence[index]) {
          value = value * 16 + digit
          index += 1
          digits += 1
        }
        result.append(digits == 0 ? UInt8(ascii: "x") : UInt8(value))
      default:
        result.append(simpleEscape(escaped) ?? escaped)
      }
    }
    return result
  }

  /// The bytes of a key name as readline reads one before a colon:
  /// `Control-t`, `C-t`, `Meta-x`, `M-Rubout`, `C-M-h`, `Escape`, `Tab`, or a
  /// character; nil for an empty name.
  static func bytes(ofKeyName name: ArraySlice<UInt8>) -> [UInt8]? {
    guard !name.isEmpty else { return nil }
    // The key is after the last `-` (a name ending in `-` is the key `-`).
    var keyStart = name.startIndex
    if let dash = name.lastIndex(of: UInt8(ascii: "-")), dash + 1 < name.endIndex {
      keyStart = dash + 1
    } else if let dash = name.lastIndex(of: UInt8(ascii: "-")), dash > name.startIndex {
      keyStart = dash
    }
    let modifiers = String(decoding: name[..<keyStart], as: UTF8.self).lowercased()
    let keyName = name[keyStart...]
    var key = namedKey(String(decoding: keyName, as: UTF8.self).lowercased()) ?? keyName.first!
    if modifiers.contains("c-") || modifiers.contains("control-") {
      key = control(key)
    }
    let meta = modifiers.contains("m-") || modifiers.contains("meta-")
    return meta ? [0x1B, key] : [key]
  }

  /// The byte of readline's key names, compared ignoring case.
  private static func namedKey(_ name: String) -> UInt8? {
    switch name {
    case "del", "rubout": 0x7F
    case "esc", "escape": 0x1B
    case "lfd", "newline": 0x0A
    case "ret", "return": 0x0D
    case "spc", "space": 0x20
    case "tab": 0x09
    default: nil
    }
  }

  /// What `\` and `byte` stand for: `\e` ESC, `\n` LF and their kin.
  private static func simpleEscape(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "a"): 0x07
    case UInt8(ascii: "b"): 0x08
    case UInt8(ascii: "d"): 0x7F
    case UInt8(ascii: "e"): 0x1B
    case UInt8(ascii: "f"): 0x0C
    case UInt8(ascii: "n"): 0x0A
    case UInt8(ascii: "r"): 0x0D
    case UInt8(ascii: "t"): 0x09
    case UInt8(ascii: "v"): 0x0B
    default: nil
    }
  }

  /// `key` typed with Ctrl: `?` is DEL, a letter of either case its
  /// control character, anything else its low five bits (readline's CTRL).
  private static func control(_ key: UInt8) -> UInt8 {
    if key == UInt8(ascii: "?") { return 0x7F }
    let upper = (0x61...0x7A).contains(key) ? key - 0x20 : key
    return upper & 0x1F
  }

  private static func hexValue(_ byte: UInt8) -> Int? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
    default: nil
    }
  }
}
