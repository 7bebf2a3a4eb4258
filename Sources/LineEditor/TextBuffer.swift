/// The text being edited, as user-perceived characters: `Character`s
/// (grapheme clusters) indexed `0..<count`.
///
/// The text is kept as its UTF-8 bytes, cut into chunks of a few kilobytes
/// (``TextChunk``), each with a table of where its Characters start, and the
/// index of every chunk's first Character. Finding a Character is a binary
/// search over the chunks; an edit rewrites one or two chunks and shifts the
/// chunk indexes after them, so a key costs about the same on a one-line note
/// as on a megabyte one, wherever the previous edit was. Loading and saving
/// copy bytes and cluster only what is not ASCII, so they grow with the note
/// but cheaply.
///
/// Every edit re-clusters the characters around it, so the buffer always holds
/// exactly the Characters Swift makes of ``string``: inserting `e` and then
/// U+0301 leaves one `é`, and the two regional indicators of 🇫🇷 inserted one at
/// a time become one flag.
///
/// Copies share storage until one of them is edited; an edit of a copy then
/// copies the list of chunks and the chunks it changes, not the whole text.
public struct TextBuffer: Sendable {
  /// What one edit did, in enough detail to undo it exactly.
  ///
  /// Re-clustering can merge new text with the characters around it, so the
  /// range that changed is often wider than the range that was asked for.
  struct Change: Sendable {
    /// Index of the first Character that changed.
    var position: Int
    /// The Characters that stood from `position` on before the edit, as text.
    var removed: String
    /// How many Characters `removed` holds.
    var removedCount: Int
    /// How many Characters stand from `position` on now, in place of `removed`.
    var insertedCount: Int
    /// Where a cursor belongs that stood at the end of the new text: the first
    /// Character boundary at or after that point, which is past any Character
    /// the new text merged into.
    var endOfNewText: Int
  }

  /// The text, in order. Never empty: an empty text is one empty chunk, so
  /// that there is always a chunk to insert into.
  private var chunks: [TextChunk]
  /// Index of the first Character of each chunk, then `count`: the chunk
  /// `k` holds the Characters `chunkStarts[k]..<chunkStarts[k + 1]`.
  private var chunkStarts: [Int]

  /// How many bytes a chunk is filled with when the text is loaded or a chunk
  /// is split, leaving room to type before it must be split again.
  static let bytesPerChunk = 2048
  /// A chunk that grows past this is split; an edit moves at most this many
  /// bytes (and their Character starts) in one chunk.
  static let maximumBytesPerChunk = 4096
  /// A chunk that shrinks below this is merged with a neighbour, which keeps
  /// the number of chunks, and so the cost of an edit's bookkeeping, about
  /// proportional to the length of the text.
  static let minimumBytesPerChunk = 512

  /// Creates an empty buffer.
  public init() {
    self.init("")
  }

  /// Creates a buffer holding the Characters of `string`.
  public init(_ string: String) {
    let chunks = TextChunk.chunks(
      of: string, bytesPerChunk: Self.bytesPerChunk, maximumBytes: Self.maximumBytesPerChunk)
    self.chunks = chunks.isEmpty ? [TextChunk()] : chunks
    chunkStarts = []
    indexChunks(from: 0)
  }

  /// The text, as one string. O(n), a copy of its bytes: build it when
  /// saving, not per key.
  public var string: String {
    var result = String()
    result.reserveCapacity(chunks.reduce(0) { $0 + $1.utf8Count })
    for chunk in chunks {
      result.append(chunk.text)
    }
    return result
  }

  /// Inserts `text` before the Character at `index` (or at the end when
  /// `index == count`), then re-clusters around it.
  ///
  /// - Returns: The index just past the inserted text; when the text merged with
  ///   the Character after it (a combining mark joining its base, say), the
  ///   index past that merged Character.
  @discardableResult
  public mutating func insert(contentsOf text: some StringProtocol, at index: Int) -> Int {
    replace(index..<index, with: text).endOfNewText
  }

  /// Removes the Characters in `bounds`, then re-clusters where the two sides
  /// meet.
  ///
  /// - Returns: The index where the removed text was; when the two sides merged
  ///   into one Character, the index past it.
  @discardableResult
  public mutating func removeSubrange(_ bounds: Range<Int>) -> Int {
    replace(bounds, with: "").endOfNewText
  }

  /// Replaces the Characters in `range` with `text`, then re-clusters around
  /// the edit.
  ///
  /// - Returns: The index just past the new text, or past the Character it
  ///   merged into.
  @discardableResult
  public mutating func replaceSubrange(_ range: Range<Int>, with text: some StringProtocol) -> Int {
    replace(range, with: text).endOfNewText
  }

  /// Replaces the Characters in `bounds` with `text` and re-clusters the
  /// characters around the edit, so that the buffer stays equal to
  /// `Array(string)`; returns what changed.
  ///
  /// Only the edited text and its neighbours are re-clustered. The boundary
  /// before the Character preceding the edit cannot move: whether text breaks
  /// there depends only on the text before it and on that Character's first
  /// scalar, none of which changed. The boundary after the Character following
  /// the edit can move (🇫 x 🇷🇩 🇪 with `x` deleted is 🇫🇷 🇩🇪, and a ZWJ
  /// sequence can reach past it), so the re-clustered range grows to the right
  /// until its end is a boundary of the whole text again.
  mutating func replace(_ bounds: Range<Int>, with text: some StringProtocol) -> Change {
    precondition(bounds.lowerBound >= 0 && bounds.upperBound <= count, "range out of bounds")
    let lower = Swift.max(bounds.lowerBound - 1, 0)
    var upper = Swift.min(bounds.upperBound + 1, count)

    var joined = String()
    for index in lower..<bounds.lowerBound {
      joined.append(self[index])
    }
    joined.append(contentsOf: text)
    let endOfNewTextInUTF8 = joined.utf8.count
    for index in bounds.upperBound..<upper {
      joined.append(self[index])
    }
    var replacement = Array(joined)

    while upper < count, let last = replacement.last {
      // `last` starts on a true boundary, so clustering it with the next
      // Character alone decides the boundary between them as the whole text would.
      let next = self[upper]
      let pair = String(last) + String(next)
      if pair.first?.utf8.count == last.utf8.count { break }
      replacement.removeLast()
      replacement.append(contentsOf: pair)
      upper += 1
    }

    let removed = string(in: lower..<upper)

    var endOfNewText = lower
    var offset = 0
    for character in replacement where offset < endOfNewTextInUTF8 {
      offset += character.utf8.count
      endOfNewText += 1
    }

    replaceStorage(lower..<upper, with: replacement)
    return Change(
      position: lower, removed: removed, removedCount: upper - lower,
      insertedCount: replacement.count, endOfNewText: endOfNewText)
  }

  /// The Characters in `bounds`, as one string.
  private func string(in bounds: Range<Int>) -> String {
    guard !bounds.isEmpty else { return "" }
    var result = String()
    var chunk = chunkIndex(containing: bounds.lowerBound)
    while chunk < chunks.count && chunkStarts[chunk] < bounds.upperBound {
      let first = Swift.max(bounds.lowerBound, chunkStarts[chunk]) - chunkStarts[chunk]
      let end = Swift.min(bounds.upperBound, chunkStarts[chunk + 1]) - chunkStarts[chunk]
      result.append(chunks[chunk].text(first..<end))
      chunk += 1
    }
    return result
  }

  /// Swaps the Characters in `bounds` for `replacement`, as they are.
  private mutating func replaceStorage(_ bounds: Range<Int>, with replacement: [Character]) {
    let inserted = TextChunk(replacement)
    let first = chunkIndex(containing: bounds.lowerBound)
    let offset = bounds.lowerBound - chunkStarts[first]
    if bounds.upperBound <= chunkStarts[first + 1] {
      // Within one chunk, the common case: typing and deleting.
      chunks[first].replaceSubrange(offset..<offset + bounds.count, with: inserted)
      let moved = inserted.count - bounds.count
      if moved != 0 {
        for chunk in (first + 1)..<chunkStarts.count {
          chunkStarts[chunk] += moved
        }
      }
    } else {
      let last = chunkIndex(containing: bounds.upperBound - 1)
      var joined = chunks[first].extracting(0..<offset)
      joined.append(contentsOf: inserted)
      let lastChunk = chunks[last]
      joined.append(
        contentsOf: lastChunk.extracting(
          (bounds.upperBound - chunkStarts[last])..<lastChunk.count))
      chunks.replaceSubrange(first...last, with: CollectionOfOne(joined))
      indexChunks(from: first)
    }
    rebalance(first)
  }

  /// Splits the chunk at `index` when it has grown too large, or merges it
  /// with its smaller neighbour when it has shrunk too small (and splits the
  /// two again when together they are too large).
  private mutating func rebalance(_ index: Int) {
    let chunk = chunks[index]
    var first = index
    var last = index
    if chunk.utf8Count < Self.minimumBytesPerChunk && chunks.count > 1 {
      let previous = index > 0 ? chunks[index - 1].utf8Count : Int.max
      let next = index + 1 < chunks.count ? chunks[index + 1].utf8Count : Int.max
      if previous <= next { first -= 1 } else { last += 1 }
    } else if chunk.utf8Count <= Self.maximumBytesPerChunk {
      return
    }
    var joined = chunks[first]
    if last > first {
      joined.append(contentsOf: chunks[last])
    }
    chunks.replaceSubrange(first...last, with: Self.cut(joined))
    indexChunks(from: first)
  }

  /// `chunk` as it is, or, when it is too large, cut into pieces of about
  /// `bytesPerChunk` bytes, evenly, so that no piece is left too small.
  private static func cut(_ chunk: TextChunk) -> [TextChunk] {
    let bytes = chunk.utf8Count
    guard bytes > maximumBytesPerChunk && chunk.count > 1 else { return [chunk] }
    let pieceCount = (bytes + bytesPerChunk - 1) / bytesPerChunk
    var pieces = chunk.split(
      bytesPerChunk: (bytes + pieceCount - 1) / pieceCount, maximumBytes: maximumBytesPerChunk)
    // Pieces end after the Character that crosses their share of the bytes,
    // so the last one gets less than its share; when that leaves it too
    // small, it joins the one before.
    if pieces.count > 1, let last = pieces.last, last.utf8Count < minimumBytesPerChunk,
      pieces[pieces.count - 2].utf8Count + last.utf8Count <= maximumBytesPerChunk
    {
      pieces.removeLast()
      pieces[pieces.count - 1].append(contentsOf: last)
    }
    return pieces
  }

  /// Recomputes `chunkStarts` for the chunks from `index` on.
  private mutating func indexChunks(from index: Int) {
    chunkStarts.removeSubrange(Swift.min(index + 1, chunkStarts.count)...)
    if chunkStarts.isEmpty {
      chunkStarts.append(0)
    }
    for chunk in chunks[index...] {
      chunkStarts.append(chunkStarts[chunkStarts.count - 1] + chunk.count)
    }
  }

  /// How many Characters and bytes each chunk holds, in order: to test how
  /// the text is cut.
  var chunkSizes: [(characters: Int, bytes: Int)] {
    chunks.map { ($0.count, $0.utf8Count) }
  }

  /// Index of the chunk that holds the Character at `position`; for
  /// `position == count`, the last chunk.
  private func chunkIndex(containing position: Int) -> Int {
    // The last chunk whose first Character is at or before `position`.
    var low = 0
    var high = chunks.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if chunkStarts[middle] <= position {
        low = middle
      } else {
        high = middle - 1
      }
    }
    return low
  }
}

extension TextBuffer: RandomAccessCollection {
  /// Always 0.
  public var startIndex: Int { 0 }

  /// The number of Characters: `count`.
  public var endIndex: Int { chunkStarts[chunkStarts.count - 1] }

  /// The Character at `position`, in `0..<count`.
  public subscript(position: Int) -> Character {
    precondition(position >= 0 && position < endIndex, "index out of range")
    let chunk = chunkIndex(containing: position)
    return chunks[chunk][position - chunkStarts[chunk]]
  }
}

extension TextBuffer: CustomStringConvertible {
  /// The text itself.
  public var description: String { string }
}
