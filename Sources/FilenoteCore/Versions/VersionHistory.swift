import LineEditor
import SystemCalls

/// What `filenote history` prints: one line per version, newest first,
///
///     <N>  <YYYY-MM-DD HH:MM:SS>  <size>  <first line>
///
/// the number and size right-aligned, the first line with control
/// characters as stand-ins and, on a terminal, cut to its width.
struct VersionHistory {
  /// nil when the note's folder is missing, so no version is kept.
  let store: VersionStore?

  /// How much of each version is read for its first line when the output
  /// is not a terminal: enough to tell versions apart, and a 64 MiB
  /// one-line note costs no more than a short one (`history` of 100
  /// versions stays within 1.5 × `ls -l` of their folder).
  static let beginningLimit = 256

  /// The lines, or nil when no version is kept. `width` is the terminal's,
  /// nil when the output is not a terminal.
  func lines(width: Int?) throws(FilenoteError) -> [UInt8]? {
    guard let store, let folder = try store.open() else { return nil }
    defer { folder.close() }
    let versions = try store.listed(in: folder)
    guard !versions.isEmpty else { return nil }
    let numberWidth = String(versions.count).count
    let sizeWidth = versions.map { String($0.size).count }.max() ?? 1
    var output: [UInt8] = []
    output.reserveCapacity(versions.count * 100)
    for (index, version) in versions.enumerated() {
      let prefix =
        Self.padded(String(index + 1), to: numberWidth) + "  "
        + LocalTime(secondsSinceEpoch: version.saved).text + "  "
        + Self.padded(String(version.size), to: sizeWidth) + "  "
      // On a terminal, what the window can show (a Character of 4 bytes in
      // each column, and room for a few combining ones).
      let limit = width.map { 4 * $0 + 64 } ?? Self.beginningLimit
      let beginning = store.beginning(of: version.name, in: folder, limit: limit)
      var line = Self.firstLine(of: beginning, isCut: beginning.count == limit)
      if let width { line = Self.cut(line, toColumns: width - prefix.utf8.count) }
      output.append(contentsOf: prefix.utf8)
      output.append(contentsOf: line.utf8)
      output.append(UInt8(ascii: "\n"))
    }
    return output
  }

  /// The first line of `bytes` (up to the first newline), control
  /// characters as stand-ins. When `bytes` is only the beginning of the
  /// version (`isCut`), a character the cut broke is left out, not shown broken.
  static func firstLine(of bytes: [UInt8], isCut: Bool) -> String {
    var line = bytes.prefix { $0 != UInt8(ascii: "\n") }
    if isCut && line.count == bytes.count,
      let lead = line.lastIndex(where: { $0 & 0xC0 != 0x80 }), line[lead] >= 0xC0
    {
      let length = line[lead] >= 0xF0 ? 4 : line[lead] >= 0xE0 ? 3 : 2
      if line.endIndex - lead < length { line = line[..<lead] }
    }
    let text = String(decoding: line, as: UTF8.self)
    // Most lines have nothing to stand in for: checking scalars is much
    // cheaper than splitting the line into Characters.
    guard text.unicodeScalars.contains(where: mayNeedStandIn) else { return text }
    return text.replacingControlCharacters()
  }

  /// Whether a Character starting with `scalar` may be drawn as a stand-in:
  /// a control character, or one that takes no column when alone.
  private static func mayNeedStandIn(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00..<0x20, 0x7F...0x9F, 0x2028, 0x2029: return true
    case 0x20..<0x300: return false
    default: return DisplayWidth.columns(of: Character(scalar)) == 0
    }
  }

  /// `text` cut to at most `columns` columns, by whole characters.
  static func cut(_ text: String, toColumns columns: Int) -> String {
    var used = 0
    var end = text.startIndex
    for index in text.indices {
      let width = DisplayWidth.columns(of: text[index])
      if used + width > columns { return String(text[..<end]) }
      used += width
      end = text.index(after: index)
    }
    return text
  }

  private static func padded(_ text: String, to width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }
}
