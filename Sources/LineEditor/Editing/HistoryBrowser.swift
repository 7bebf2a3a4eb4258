/// The lines Up, Down and the searches walk through, as readline's history
/// list with the line being edited at its newest end.
///
/// Entry 0 is the line the prompt opened with; entry `k` is version `k`
/// (1 is the newest version, the one the note replaced). Edits made to an
/// entry are kept here when the line editor leaves it, so coming back shows them
/// again; they live only as long as the browser, so they are dropped when the
/// prompt ends, as readline reverts its history lines after accept-line.
struct HistoryBrowser: Sendable {
  /// An entry as it was left after editing: its text and its own undo steps.
  struct EditedLine: Sendable {
    var buffer: TextBuffer
    var undoHistory: UndoHistory
    /// `buffer`'s text, made once when the entry is left, for the searches.
    var text: String
  }

  /// The line the prompt opened with, as the line editor's chunks: shared with
  /// the line editor's buffer rather than kept as a String too, so a large note
  /// is not held twice while it is edited.
  private let line: TextBuffer
  /// `line` as a String, made when the first search needs it.
  private var lineText: String?
  /// The versions, newest first.
  private let versions: [String]
  /// Entries that were edited and then left, by index.
  private var edited: [Int: EditedLine] = [:]
  /// The entry on screen.
  private(set) var position = 0

  /// A browser over `line` (entry 0) and `versions`, newest first.
  init(line: TextBuffer, versions: [String]) {
    self.line = line
    self.versions = versions
  }

  /// How many entries there are: the versions and the line being edited.
  var count: Int { versions.count + 1 }

  /// The oldest entry.
  var oldest: Int { versions.count }

  /// The text of entry `index`, with its edits when it was edited and left.
  /// For the entry on screen that is the text it had when the line editor last
  /// left it or opened it; the line editor stores its edits with ``leave(_:)``
  /// before anything reads it here. Entry 0 unedited costs a copy of the
  /// line until ``prepareForSearch()`` has made its text.
  func text(of index: Int) -> String {
    if let editedLine = edited[index] { return editedLine.text }
    return index == 0 ? lineText ?? line.string : versions[index - 1]
  }

  /// Whether entry `index` was edited and then left.
  func wasEdited(_ index: Int) -> Bool {
    edited[index] != nil
  }

  /// Entry `index` as it was before any edit, as the line editor's chunks.
  func original(_ index: Int) -> TextBuffer {
    index == 0 ? line : TextBuffer(versions[index - 1])
  }

  /// Makes the text of the line the prompt opened with, which a search reads
  /// at every key, once.
  mutating func prepareForSearch() {
    if lineText == nil && edited[0] == nil { lineText = line.string }
  }

  /// Stores the edits of the entry on screen, which the line editor is leaving.
  mutating func leave(_ line: EditedLine) {
    edited[position] = line
  }

  /// Moves to entry `index`; returns what is there: the edited line when it
  /// was edited and left, or nil for an entry whose original is
  /// ``original(_:)``.
  mutating func move(to index: Int) -> EditedLine? {
    precondition((0..<count).contains(index), "no such entry")
    position = index
    return edited[index]
  }
}
