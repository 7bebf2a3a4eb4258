/// The lines Up, Down and the searches walk through, as readline's history
/// list with the line being edited at its newest end.
///
/// Entry 0 is the line the prompt opened with; entry `k` is version `k`
/// (1 is the newest version, the one the note replaced). Edits made to an
/// entry are kept here when the editor leaves it, so coming back shows them
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

  /// The line being edited, then the versions, newest first.
  private let originals: [String]
  /// Entries that were edited and then left, by index.
  private var edited: [Int: EditedLine] = [:]
  /// The entry on screen.
  private(set) var position = 0

  /// A browser over `line` (entry 0) and `versions`, newest first.
  init(line: String, versions: [String]) {
    originals = [line] + versions
  }

  /// How many entries there are: the versions and the line being edited.
  var count: Int { originals.count }

  /// The oldest entry.
  var oldest: Int { originals.count - 1 }

  /// The text of entry `index`, with its edits when it was edited and left.
  /// For the entry on screen that is the text it had when the editor last
  /// left it or opened it; the editor stores its edits with ``leave(_:)``
  /// before anything reads it here.
  func text(of index: Int) -> String {
    edited[index]?.text ?? originals[index]
  }

  /// Stores the edits of the entry on screen, which the editor is leaving.
  mutating func leave(_ line: EditedLine) {
    edited[position] = line
  }

  /// Moves to entry `index`; returns what is there: the edited line when it
  /// was edited and left, or nil for an entry whose original is in
  /// ``text(of:)``.
  mutating func move(to index: Int) -> EditedLine? {
    precondition(originals.indices.contains(index), "no such entry")
    position = index
    return edited[index]
  }
}
