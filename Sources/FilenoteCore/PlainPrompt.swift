#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// The prompt for a terminal that cannot move its cursor (`TERM=dumb` or
/// unset): it shows the note, reads one line in the terminal's own line
/// mode, and keeps the note when that line is empty.
struct PlainPrompt {
  let store: FileStore

  func run() throws(FilenoteError) -> ExitCode {
    let note = try store.read()
    let output = FileDescriptor.standardOutput
    var intro = "Note in \(store.path)\n"
    if let note {
      intro += "Current: \(note.text.replacingControlCharacters())\n"
      intro += "Type a new note and press Enter (an empty line keeps it; Ctrl-D cancels).\n"
    } else {
      intro += "No note yet. Type one and press Enter (Ctrl-D cancels).\n"
    }
    intro += "> "
    try? output.writeAll(intro)

    guard let line = try readLine() else {
      try? output.writeAll("\nCancelled: nothing was saved.\n")
      return .failure
    }
    if line.isEmpty {
      try? output.writeAll(note == nil ? "Nothing saved.\n" : "Nothing changed.\n")
      return .success
    }
    try store.save(bytes: line)
    try? output.writeAll("Saved.\n")
    return .success
  }

  /// One line from standard input without its line ending; nil at end of input.
  private func readLine() throws(FilenoteError) -> [UInt8]? {
    var line: [UInt8] = []
    let byte = UnsafeMutableRawBufferPointer.allocate(byteCount: 1, alignment: 1)
    defer { byte.deallocate() }
    while true {
      let count: Int
      do {
        count = try FileDescriptor.standardInput.read(into: byte)
      } catch {
        throw .system(action: "cannot read", path: "the terminal", errno: error)
      }
      if count == 0 { return line.isEmpty ? nil : line }
      if byte[0] == UInt8(ascii: "\n") {
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        return line
      }
      line.append(byte[0])
    }
  }
}

extension String {
  /// The text with each newline and control character replaced by a visible
  /// stand-in, for showing a note on one line.
  func replacingControlCharacters() -> String {
    var result = ""
    for scalar in unicodeScalars {
      switch scalar.value {
      case 0x0A: result += "\u{21B5}"
      case 0x09: result += "\u{21E5}"
      case 0x00..<0x20: result.unicodeScalars.append(Unicode.Scalar(0x2400 + scalar.value)!)
      case 0x7F: result += "\u{2421}"
      case 0x80..<0xA0, 0x2028, 0x2029: result += "\u{FFFD}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}
