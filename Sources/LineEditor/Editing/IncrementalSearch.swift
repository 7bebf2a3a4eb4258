/// Readline's incremental search through the entries of a ``HistoryBrowser``
/// (Ctrl-R, Ctrl-S): the query typed so far, the line it was found in and
/// where.
///
/// The search goes on from the match on screen, never from the start: a
/// longer query is tried where the shorter one matched first, Ctrl-R again
/// tries one position older, and only then the entries beyond. A query that
/// failed is not searched for again when it grows, since nothing that holds
/// the longer one was missed by the shorter. So a key costs at most one pass
/// over the entries from the match on, and usually a few bytes.
///
/// Matching is by UTF-8 bytes (case-sensitive, as readline's), and a match
/// must begin and end on a Character boundary, so that what is highlighted
/// is whole Characters.
struct IncrementalSearch: Sendable {
  /// Which way the next match is looked for.
  enum Direction: Sendable {
    /// Ctrl-R: toward older versions.
    case reverse
    /// Ctrl-S: toward newer versions and the line being edited.
    case forward

    /// The step through entry indexes: older entries have larger ones.
    var step: Int { self == .reverse ? 1 : -1 }
  }

  /// What has been typed into the search.
  private(set) var query = ""
  private(set) var direction: Direction
  /// Whether the query was not found, which readline shows as `(failed …)`.
  private(set) var isFailing = false
  /// The entry whose line is on screen: where the last match was found, or
  /// where the search started.
  private(set) var entry: Int
  /// The line on screen, the text of `entry`.
  private(set) var line: TextBuffer
  /// The Characters the last match covers in `line`; nil while nothing is
  /// found.
  private(set) var match: Range<Int>?
  /// Where the cursor is in `line`: the start of the last match, or where it
  /// was when the search began.
  private(set) var cursor: Int
  /// Where in the text of `entry` the next search starts, as a UTF-8 offset
  /// (readline's `sline_index`): the start of the last match.
  private var offset: Int
  /// The text of the line last found: the same text in another entry is
  /// skipped, so one Ctrl-R never shows an identical line twice in a row.
  private var lastFoundText: String?

  /// Starts a search from the entry on screen, whose Characters are `line`,
  /// with the cursor at `cursor`. The browser must hold the entry's current
  /// text.
  init(_ direction: Direction, in browser: HistoryBrowser, line: TextBuffer, cursor: Int) {
    self.direction = direction
    entry = browser.position
    self.line = line
    self.cursor = cursor
    let text = browser.text(of: entry)
    offset = text.utf8.distance(
      from: text.startIndex, to: text.index(text.startIndex, offsetBy: cursor))
  }

  /// What the search shows before the line: readline's look as the man page
  /// writes it under KEYS (readline itself opens the quote with a backquote):
  /// `(reverse-i-search)'milk': `, `(failed i-search)'milk': `.
  var prompt: String {
    let failed = isFailing ? "failed " : ""
    let reverse = direction == .reverse ? "reverse-" : ""
    return "(\(failed)\(reverse)i-search)'\(query)': "
  }

  // MARK: - Keys

  /// Adds typed (or pasted) text to the query and finds it.
  mutating func append(_ text: String, in browser: HistoryBrowser) {
    guard !text.isEmpty else { return }
    let longer = query + text
    // Text that joins the query's last Character (a combining accent) makes
    // a query whose shorter form could not match where this one can.
    let knownToFail =
      isFailing && !query.isEmpty && longer.count == query.count + text.count
    query = longer
    if !knownToFail { find(in: browser) }
  }

  /// Ctrl-R or Ctrl-S: the next match that way, or, when the direction
  /// changes, the same match searched the other way (readline's first Ctrl-S
  /// after Ctrl-R only turns round). An empty query takes `lastQuery`, the
  /// query of the previous search. Returns false when nothing changed.
  mutating func searchAgain(
    _ newDirection: Direction, lastQuery: String?, in browser: HistoryBrowser
  ) -> Bool {
    if query.isEmpty {
      if newDirection != direction {
        direction = newDirection
        return true
      }
      guard let lastQuery, !lastQuery.isEmpty else { return false }
      query = lastQuery
    } else if newDirection != direction {
      direction = newDirection
    } else {
      // Nothing that way was found last time, and nothing has changed since.
      if isFailing { return false }
      offset += direction == .reverse ? -1 : 1
    }
    find(in: browser)
    return true
  }

  /// Backspace: the query without its last Character, searched for from the
  /// match on screen (where it still matches, unless the search failed). An
  /// emptied query shows as failed, as in readline. Returns false when the
  /// query was empty.
  mutating func deleteLast(in browser: HistoryBrowser) -> Bool {
    guard !query.isEmpty else { return false }
    query.removeLast()
    find(in: browser)
    return true
  }

  /// Ctrl-W: adds the word that follows the match on screen to the query
  /// (readline's isearch yank of a word). Returns false when no word follows.
  mutating func appendWord(in browser: HistoryBrowser) -> Bool {
    var end = queryEnd
    while end < line.count, line[end].isLetter || line[end].isNumber { end += 1 }
    return appendLine(upTo: end, in: browser)
  }

  /// Ctrl-Y: adds the rest of the line after the match to the query.
  /// Returns false when nothing follows.
  mutating func appendRestOfLine(in browser: HistoryBrowser) -> Bool {
    appendLine(upTo: line.count, in: browser)
  }

  /// Where the text after the query starts on screen (readline: point plus
  /// the query's length).
  private var queryEnd: Int {
    match?.upperBound ?? min(cursor + query.count, line.count)
  }

  private mutating func appendLine(upTo end: Int, in browser: HistoryBrowser) -> Bool {
    let start = queryEnd
    guard start < end else { return false }
    append(String(line[start..<end]), in: browser)
    return true
  }

  // MARK: - Finding

  /// Looks for the query from `offset` in `entry` on, then in the entries
  /// beyond it in `direction`; on success shows the match, on failure keeps
  /// the last match on screen.
  private mutating func find(in browser: HistoryBrowser) {
    let needle = Array(query.utf8)
    guard !needle.isEmpty else {
      isFailing = true
      match = nil
      return
    }
    var index = entry
    var text = browser.text(of: index)
    var start = offset
    while true {
      if let found = Self.firstMatch(of: needle, in: text, from: start, direction) {
        show(found, length: needle.count, in: text, entry: index)
        return
      }
      repeat {
        index += direction.step
        guard (0..<browser.count).contains(index) else {
          isFailing = true
          match = nil
          return
        }
        text = browser.text(of: index)
      } while text.utf8.count < needle.count || isLastFound(text)
      start = direction == .reverse ? text.utf8.count - needle.count : 0
    }
  }

  private func isLastFound(_ text: String) -> Bool {
    guard let lastFoundText, lastFoundText.utf8.count == text.utf8.count else { return false }
    return lastFoundText.utf8.elementsEqual(text.utf8)
  }

  private mutating func show(_ found: Int, length: Int, in text: String, entry index: Int) {
    if index != entry || lastFoundText == nil {
      line = TextBuffer(text)
    }
    entry = index
    offset = found
    isFailing = false
    lastFoundText = text
    let start = text.utf8.index(text.startIndex, offsetBy: found)
    let end = text.utf8.index(start, offsetBy: length)
    let first = text.distance(from: text.startIndex, to: start)
    match = first..<first + text.distance(from: start, to: end)
    cursor = first
  }

  /// The UTF-8 offset of the first match of `needle` in `text` met going
  /// `direction` from `start` (inclusive) that begins and ends on Character
  /// boundaries, or nil.
  private static func firstMatch(
    of needle: [UInt8], in text: String, from start: Int, _ direction: Direction
  ) -> Int? {
    var bytes = text
    return bytes.withUTF8 { bytes -> Int? in
      let last = bytes.count - needle.count
      guard last >= 0 else { return nil }
      let step = direction == .reverse ? -1 : 1
      var index = direction == .reverse ? min(start, last) : max(start, 0)
      while index >= 0 && index <= last {
        if bytes[index] == needle[0], matches(needle, bytes, at: index),
          isCharacterBoundary(index, in: text),
          isCharacterBoundary(index + needle.count, in: text)
        {
          return index
        }
        index += step
      }
      return nil
    }
  }

  /// Whether `text` holds `needle` on Character boundaries (at its start
  /// when `anchored`): vi's `/` and `?`, which search whole versions.
  static func contains(_ needle: [UInt8], in text: String, anchored: Bool) -> Bool {
    guard !needle.isEmpty else { return true }
    guard let offset = firstMatch(of: needle, in: text, from: 0, .forward) else { return false }
    return !anchored || offset == 0
  }

  private static func matches(
    _ needle: [UInt8], _ bytes: UnsafeBufferPointer<UInt8>, at index: Int
  ) -> Bool {
    for offset in 1..<needle.count where bytes[index + offset] != needle[offset] {
      return false
    }
    return true
  }

  private static func isCharacterBoundary(_ offset: Int, in text: String) -> Bool {
    let index = text.utf8.index(text.startIndex, offsetBy: offset)
    return index.samePosition(in: text) != nil
  }
}
