import LineEditor
import SystemCalls

/// What `filenote history` prints: the note itself as 0, then one line per
/// version, newest first,
///
///     <N>  <YYYY-MM-DD HH:MM:SS>  <size>  <first line>
///
/// the number and size right-aligned, the date and time when that text was
/// saved (a restored version keeps its own, so the dates need not follow the
/// numbers), the first line with control characters as stand-ins, followed
/// by `↵…` when more lines follow and by `…` when it is cut. This is the
/// format scripts read, and README.md documents it. On a terminal a header
/// comes first, each line also says how long ago its text was saved, and
/// the first line is cut to the window's width.
struct VersionHistory {
  /// nil when the note's folder is missing, so no version is kept.
  let store: VersionStore?

  /// How much of each version is read for its first line when the output
  /// is not a terminal: enough to tell versions apart, and a 64 MiB
  /// one-line note costs no more than a short one (bench/README.md,
  /// "Measured choices in the code").
  static let beginningLimit = 256

  /// The fewest columns a first line gets on a terminal before the ages
  /// make way for it.
  static let narrowestFirstLine = 20

  /// The fewest columns a first line gets on a terminal before the date,
  /// then the size, make way for it.
  static let narrowestText = 8

  /// The mark after a first line that more lines follow.
  static let moreLinesMark = "↵…"
  /// The mark after a first line that is cut.
  static let cutMark = "…"

  /// One line of the listing, before it is laid out.
  private struct Entry {
    let number: Int
    let saved: Int64
    let size: Int64
    let firstLine: (text: String, mark: String)
  }

  /// The lines, or nil when there is neither a note nor a version. `width`
  /// is the terminal's, nil when the output is not a terminal; `now` (on a
  /// terminal) gives each line its age.
  func lines(width: Int?, now: Int64? = nil) throws(FilenoteError) -> [UInt8]? {
    guard let store else { return nil }
    // On a terminal, what the window can show (a Character of 4 bytes in
    // each column, and room for a few combining ones).
    let limit = width.map { 4 * $0 + 64 } ?? Self.beginningLimit
    var entries: [Entry] = []
    // An empty note file is no note, and not listed.
    if let note = try store.regularNoteStatus(), note.holdsNote {
      entries.append(
        Entry(
          number: 0, saved: note.modified.seconds, size: note.size,
          firstLine: Self.firstLine(
            of: store.beginning(of: store.noteName, in: store.noteFolder, limit: limit) ?? [],
            size: note.size)))
    }
    let folder = try store.open()
    defer { folder?.close() }
    // A version removed since the listing (by another machine's pruning,
    // through a sync engine) is not listed: each is read first.
    var number = 0
    for version in try store.listed(in: folder) {
      guard let beginning = store.beginning(of: version, in: folder, limit: limit) else {
        continue
      }
      number += 1
      entries.append(
        Entry(
          number: number, saved: version.saved, size: version.size,
          firstLine: Self.firstLine(of: beginning, size: version.size, marking: version)))
    }
    guard !entries.isEmpty else { return nil }
    return Array(Self.layOut(entries, width: width, now: now).utf8)
  }

  /// Version `number` and its line as `lines` shows it off a terminal, for
  /// the question `forget N` asks (no lock is taken: a reader's look).
  /// `note` names the note in messages when its folder is missing.
  func line(
    of number: Int, note: String
  ) throws(FilenoteError) -> (version: KeptVersion, line: String) {
    guard let store else { throw .noVersion(number: number, kept: 0, note: note) }
    let folder = try store.open()
    defer { folder?.close() }
    let versions = try store.listed(in: folder)
    guard number >= 1, number <= versions.count else {
      throw .noVersion(number: number, kept: versions.count, note: store.note)
    }
    let version = versions[number - 1]
    let entry = Entry(
      number: number, saved: version.saved, size: version.size,
      firstLine: Self.firstLine(
        of: store.beginning(of: version, in: folder, limit: Self.beginningLimit) ?? [],
        size: version.size, marking: version))
    return (version, String(Self.layOut([entry], width: nil, now: nil).dropLast()))
  }

  /// The entries as lines: the fields separated by two spaces, numbers and
  /// sizes right-aligned; on a terminal, a header, ages, and first lines
  /// cut to `width`.
  private static func layOut(_ entries: [Entry], width: Int?, now: Int64?) -> String {
    var ages = entries.map { entry in now.map { Age(seconds: $0 - entry.saved).text } }
    let onTerminal = width != nil
    let numberWidth = max(onTerminal ? 1 : 0, String(entries.last?.number ?? 0).count)
    let sizeWidth = max(
      onTerminal ? 4 : 0, entries.map { String($0.size).count }.max() ?? 1)
    let ageWidth = max(3, ages.map { $0?.count ?? 0 }.max() ?? 0)
    // The date, the size and two spaces after each field; in a narrow window
    // the first line matters more than the ages, which then go; narrower
    // still, the date and then the size go too, so that some of the text
    // always shows.
    var fixedWidth = numberWidth + 2 + 19 + 2 + sizeWidth + 2
    var showsDate = true
    var showsSize = true
    if let width, width - fixedWidth - ageWidth - 2 < Self.narrowestFirstLine {
      ages = ages.map { _ in nil }
      if width - fixedWidth < Self.narrowestText {
        showsDate = false
        fixedWidth -= 19 + 2
      }
      if width - fixedWidth < Self.narrowestText {
        showsSize = false
        fixedWidth -= sizeWidth + 2
      }
    }
    let showsAges = ages.contains { $0 != nil }
    var output = ""
    output.reserveCapacity(entries.count * 100)
    func append(_ fields: [String], _ firstLine: String, mark: String) {
      let prefix = fields.joined(separator: "  ") + "  "
      var line = firstLine + mark
      if let width {
        line = Self.fit(firstLine, mark: mark, toColumns: width - prefix.utf8.count)
      }
      output += prefix + line + "\n"
    }
    if onTerminal {
      var header = [padded("N", to: numberWidth)]
      if showsDate { header.append("SAVED" + String(repeating: " ", count: 14)) }
      if showsAges { header.append("AGE" + String(repeating: " ", count: ageWidth - 3)) }
      if showsSize { header.append(padded("SIZE", to: sizeWidth)) }
      append(header, "FIRST LINE", mark: "")
    }
    for (entry, age) in zip(entries, ages) {
      var fields = [padded(String(entry.number), to: numberWidth)]
      if showsDate { fields.append(LocalTime(secondsSinceEpoch: entry.saved).text) }
      if let age { fields.append(age + String(repeating: " ", count: ageWidth - age.count)) }
      if showsSize { fields.append(padded(String(entry.size), to: sizeWidth)) }
      append(fields, entry.firstLine.text, mark: entry.firstLine.mark)
    }
    return output
  }

  /// What comes before the first line of a sync engine's conflict copy:
  /// `[conflict copy, Syncthing, device Y6OAA4V] ` while it is beside the
  /// note, `[settled conflict copy, …] ` once it was settled; nothing for
  /// a version of a save.
  static func mark(of version: KeptVersion) -> String {
    guard let conflict = version.conflict else { return "" }
    return (version.isUnsettledCopy ? "[conflict copy, " : "[settled conflict copy, ")
      + conflict.source.replacingControlCharacters() + "] "
  }

  /// `firstLine(of:size:)` of `version`, its conflict copy's mark before it.
  static func firstLine(
    of bytes: [UInt8], size: Int64, marking version: KeptVersion
  ) -> (text: String, mark: String) {
    let line = firstLine(of: bytes, size: size)
    return (mark(of: version) + line.text, line.mark)
  }

  /// The first line of a text of `size` bytes whose first bytes are
  /// `bytes`: up to the first newline, control characters as stand-ins,
  /// and its mark (`↵…` when more lines follow, `…` when only the
  /// beginning of a longer line was read). A character the read limit
  /// broke is left out, not shown broken.
  static func firstLine(of bytes: [UInt8], size: Int64) -> (text: String, mark: String) {
    var line = bytes.prefix { $0 != UInt8(ascii: "\n") }
    // The text's own final newline (an editor's, `echo`'s) ends the line:
    // no more lines follow it.
    let found = line.count < bytes.count
    let endsText = found && Int64(line.count + 1) == size
    if endsText { line = line.dropLast(TrailingLineEnding.length(in: bytes) - 1) }
    let moreLines = found && !endsText
    let isCut = !found && Int64(bytes.count) < size
    if isCut, let lead = line.lastIndex(where: { $0 & 0xC0 != 0x80 }), line[lead] >= 0xC0 {
      let length = line[lead] >= 0xF0 ? 4 : line[lead] >= 0xE0 ? 3 : 2
      if line.endIndex - lead < length { line = line[..<lead] }
    }
    var text = String(decoding: line, as: UTF8.self)
    // Most lines have nothing to stand in for: checking scalars is much
    // cheaper than splitting the line into Characters.
    if text.unicodeScalars.contains(where: mayNeedStandIn) {
      text = text.replacingControlCharacters()
    }
    return (text, moreLines ? moreLinesMark : isCut ? cutMark : "")
  }

  /// `line` and its `mark` in at most `columns` columns: when they do not
  /// fit, the line is cut by whole characters and ends with `…`.
  static func fit(_ line: String, mark: String, toColumns columns: Int) -> String {
    guard columns > 0 else { return "" }
    let whole = line + mark
    if cut(whole, toColumns: columns) == whole { return whole }
    return cut(line, toColumns: columns - 1) + cutMark
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
    String(text[..<DisplayWidth.end(of: text, fittingColumns: columns).end])
  }

  private static func padded(_ text: String, to width: Int) -> String {
    String(repeating: " ", count: max(0, width - text.count)) + text
  }
}
