/// The text being edited, as user-perceived characters: `Character`s
/// (grapheme clusters) indexed `0..<count`.
///
/// The text is kept in chunks of a few kilobytes of UTF-8 (``TextChunk``),
/// each with a table of where its Characters start, and the index of every
/// chunk's first Character. Finding a Character is a binary search over the
/// chunks; an edit rewrites one chunk (two, or a few, when it crosses a chunk
/// boundary or a chunk outgrows its limits) and shifts the chunk indexes
/// after it, so a key costs about the same on a one-line note as on a
/// megabyte one, wherever the previous edit was. Loading copies the note's
/// bytes and clusters only what is not ASCII, Latin, CJK or another script
/// of ``StandaloneScalars``; saving joins the
/// chunks' strings. Both grow with the note, but cheaply.
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
    /// The Characters that stood from `position` on before the edit (sharing
    /// the buffer's storage, so a large removal costs no copy).
    var removed: TextBuffer
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
  private(set) var chunks: [TextChunk]
  /// Index of the first Character of each chunk, then `count`: the chunk
  /// `k` holds the Characters `chunkStarts[k]..<chunkStarts[k + 1]`.
  private(set) var chunkStarts: [Int]

  /// How large chunks are: a few kilobytes, so that an edit moves little,
  /// and not so small that there are many chunks to keep track of (their
  /// count is what an edit's bookkeeping is proportional to).
  static let chunkLimits = TextChunk.Limits(target: 2048, minimum: 512, maximum: 4096)

  /// Creates an empty buffer.
  public init() {
    self.init("")
  }

  /// Creates a buffer holding the Characters of `string`.
  public init(_ string: String) {
    self.init(chunks: TextChunk.chunks(of: string, limits: Self.chunkLimits))
  }

  /// Creates a buffer of `chunks`, as they are.
  private init(chunks: [TextChunk]) {
    self.chunks = chunks.isEmpty ? [TextChunk()] : chunks
    chunkStarts = []
    indexChunks(from: 0)
  }

  /// The text, as one string. O(n), a copy of its bytes: build it when
  /// saving, not per key.
  public var string: String {
    var result = String()
    result.reserveCapacity(utf8Count)
    for chunk in chunks {
      result.append(chunk.text)
    }
    return result
  }

  /// How many bytes the text's UTF-8 takes.
  var utf8Count: Int { chunks.reduce(0) { $0 + $1.utf8Count } }

  /// The text's UTF-8, as saving writes it: O(n), a copy of its bytes made
  /// without a String in between.
  public var utf8Bytes: [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(utf8Count)
    for chunk in chunks {
      bytes.append(contentsOf: chunk.text.utf8)
    }
    return bytes
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
    if text.utf8.count > Self.chunkLimits.maximum {
      // A paste or a yank of more than a chunk: cut it the fast way of
      // loading a note, then splice its chunks in.
      let pieces = TextBuffer(String(text))
      if pieces.chunks.count > 1 {
        return splice(bounds, with: pieces)
      }
    }
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

    let removed = slice(lower..<upper)

    var endOfNewText = lower
    var offset = 0
    for character in replacement where offset < endOfNewTextInUTF8 {
      offset += character.utf8.count
      endOfNewText += 1
    }

    // With nothing removed or inserted (where a splice's pieces meet), the
    // storage changes only when the Characters there cluster differently.
    if !(bounds.isEmpty && text.isEmpty && replacement.count == upper - lower) {
      replaceStorage(lower..<upper, with: replacement)
    }
    return Change(
      position: lower, removed: removed, removedCount: upper - lower,
      insertedCount: replacement.count, endOfNewText: endOfNewText)
  }

  /// Replaces the Characters in `bounds` with those of `text`, re-clustering
  /// where they meet, as ``replace(_:with:)-(_,StringProtocol)`` does.
  ///
  /// Text of more than one chunk (a kill being yanked back, an undone kill)
  /// is spliced in chunk by chunk, sharing their storage: the cost grows with
  /// the number of chunks, not of bytes.
  @discardableResult
  mutating func replace(_ bounds: Range<Int>, with text: TextBuffer) -> Change {
    guard text.chunks.count > 1 else { return replace(bounds, with: text.chunks[0].text) }
    return splice(bounds, with: text)
  }

  /// The Characters in `bounds`, as a buffer of their own that shares this
  /// one's storage: the chunks inside `bounds` are not copied.
  func slice(_ bounds: Range<Int>) -> TextBuffer {
    guard !bounds.isEmpty else { return TextBuffer() }
    var pieces: [TextChunk] = []
    var chunk = chunkIndex(containing: bounds.lowerBound)
    while chunk < chunks.count && chunkStarts[chunk] < bounds.upperBound {
      let first = Swift.max(bounds.lowerBound, chunkStarts[chunk]) - chunkStarts[chunk]
      let end = Swift.min(bounds.upperBound, chunkStarts[chunk + 1]) - chunkStarts[chunk]
      let whole = first == 0 && end == chunks[chunk].count
      pieces.append(whole ? chunks[chunk] : chunks[chunk].slice(first..<end))
      chunk += 1
    }
    return TextBuffer(chunks: pieces)
  }

  /// The Characters of `left` followed by those of `right`, re-clustered
  /// where they meet.
  static func + (left: TextBuffer, right: TextBuffer) -> TextBuffer {
    var result = left
    result.replace(result.count..<result.count, with: right)
    return result
  }

  /// Replaces the Characters in `bounds` with the chunks of `text`, then
  /// re-clusters the two places where they meet the text around them.
  ///
  /// Each meeting place is re-clustered by ``replace(_:with:)-(_,StringProtocol)``
  /// with nothing inserted there, which starts at the Character before it
  /// and grows to the right until the clustering agrees with the text's
  /// again; the left one first, so that the right one starts after a true
  /// boundary. The three steps are returned as one change.
  private mutating func splice(_ bounds: Range<Int>, with text: TextBuffer) -> Change {
    let removed = slice(bounds)
    let first = cutChunk(at: bounds.lowerBound)
    let end = cutChunk(at: bounds.upperBound)
    let pieces = text.chunks.filter { !$0.isEmpty }
    chunks.replaceSubrange(first..<end, with: pieces)
    var reindexFrom = first
    if chunks.count > 1 && chunks[0].isEmpty {
      // The buffer was empty: its one empty chunk is no longer needed.
      chunks.removeFirst()
      reindexFrom = 0
    }
    indexChunks(from: Swift.min(reindexFrom, chunks.count - 1))
    // Cutting and the pieces' own ends may have left small chunks at the two
    // meeting places; merge from the right so the indexes on the left hold.
    for index in [first + pieces.count, first + pieces.count - 1, first, first - 1]
    where index >= 0 && index < chunks.count {
      mergeIfSmall(index)
    }

    var change = Change(
      position: bounds.lowerBound, removed: removed, removedCount: bounds.count,
      insertedCount: text.count, endOfNewText: bounds.lowerBound + text.count)
    let left = bounds.lowerBound
    var right = left + text.count
    if left > 0 && left < count {
      let repair = replace(left..<left, with: "")
      change = change.followed(by: repair) ?? change
      guard repair.position + repair.removedCount <= right else {
        // Re-clustering went past the end of the new text: both places are done.
        change.endOfNewText = repair.position + repair.insertedCount
        return change
      }
      right += repair.insertedCount - repair.removedCount
    }
    change.endOfNewText = right
    if right > 0 && right < count {
      let repair = replace(right..<right, with: "")
      change = change.followed(by: repair) ?? change
      change.endOfNewText = repair.endOfNewText
    }
    return change
  }

  /// Makes `position` the first Character of a chunk, cutting the chunk it
  /// falls in two, and returns that chunk's index (`chunks.count` for the
  /// end of the text).
  private mutating func cutChunk(at position: Int) -> Int {
    guard position < count else { return chunks.count }
    let chunk = chunkIndex(containing: position)
    let offset = position - chunkStarts[chunk]
    guard offset > 0 else { return chunk }
    let whole = chunks[chunk]
    chunks.replaceSubrange(
      chunk...chunk, with: [whole.slice(0..<offset), whole.slice(offset..<whole.count)])
    chunkStarts.insert(position, at: chunk + 1)
    return chunk + 1
  }

  /// Swaps the Characters in `bounds` for `replacement`, as they are.
  private mutating func replaceStorage(_ bounds: Range<Int>, with replacement: [Character]) {
    let first = chunkIndex(containing: bounds.lowerBound)
    let offset = bounds.lowerBound - chunkStarts[first]
    if bounds.upperBound <= chunkStarts[first + 1] {
      // Within one chunk, the common case: typing and deleting.
      let removedBytes =
        chunks[first].utf8Offset(of: offset + bounds.count) - chunks[first].utf8Offset(of: offset)
      let insertedBytes = replacement.reduce(0) { $0 + $1.utf8.count }
      if chunks[first].utf8Count - removedBytes + insertedBytes <= Self.chunkLimits.maximum {
        chunks[first].replaceSubrange(offset..<offset + bounds.count, with: replacement)
        let moved = replacement.count - bounds.count
        if moved != 0 {
          for chunk in (first + 1)..<chunkStarts.count {
            chunkStarts[chunk] += moved
          }
        }
        mergeIfSmall(first)
        return
      }
    }
    let last = chunkIndex(containing: Swift.max(bounds.upperBound - 1, bounds.lowerBound))
    recut(first...last, replacing: bounds, with: replacement)
    if first < chunks.count {
      mergeIfSmall(first)
    }
  }

  /// Merges the chunk at `index` with its smaller neighbour when it has
  /// shrunk below the minimum (cutting the two again when together they are
  /// too large).
  private mutating func mergeIfSmall(_ index: Int) {
    guard chunks[index].utf8Count < Self.chunkLimits.minimum && chunks.count > 1 else { return }
    let previous = index > 0 ? chunks[index - 1].utf8Count : Int.max
    let next = index + 1 < chunks.count ? chunks[index + 1].utf8Count : Int.max
    let first = previous <= next ? index - 1 : index
    if chunks[first].utf8Count + chunks[first + 1].utf8Count <= Self.chunkLimits.maximum {
      let second = chunks.remove(at: first + 1)
      chunks[first].append(contentsOf: second)
      indexChunks(from: first)
    } else {
      let junction = chunkStarts[first + 1]
      recut(first...(first + 1), replacing: junction..<junction, with: [])
    }
  }

  /// Cuts the Characters of the chunks in `chunkRange` again, within the
  /// limits, with those in `bounds` (which the chunks hold) replaced by
  /// `replacement`.
  private mutating func recut(
    _ chunkRange: ClosedRange<Int>, replacing bounds: Range<Int>, with replacement: [Character]
  ) {
    var text = String()
    var starts: [Int] = []
    /// Appends, of each chunk, the Characters with buffer indices in `kept`.
    func append(_ kept: Range<Int>) {
      for index in chunkRange {
        let chunk = chunks[index]
        let local = kept.clamped(to: chunkStarts[index]..<chunkStarts[index + 1])
        let characters =
          (local.lowerBound - chunkStarts[index])..<(local.upperBound - chunkStarts[index])
        guard !characters.isEmpty else { continue }
        let shift = text.utf8.count - chunk.utf8Offset(of: characters.lowerBound)
        for character in characters {
          starts.append(shift + chunk.utf8Offset(of: character))
        }
        text.append(chunk.text(characters))
      }
    }
    append(chunkStarts[chunkRange.lowerBound]..<bounds.lowerBound)
    for character in replacement {
      starts.append(text.utf8.count)
      text.append(character)
    }
    append(bounds.upperBound..<chunkStarts[chunkRange.upperBound + 1])

    chunks.replaceSubrange(
      chunkRange,
      with: TextChunk.chunks(of: text, characterStarts: starts, limits: Self.chunkLimits))
    if chunks.isEmpty {
      chunks.append(TextChunk())
    }
    indexChunks(from: Swift.min(chunkRange.lowerBound, chunks.count - 1))
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
  func chunkIndex(containing position: Int) -> Int {
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

extension TextBuffer.Change {
  /// This change and then `next` as one change, or nil when `next` does not
  /// overlap or touch the Characters this one left.
  ///
  /// `next` is in the coordinates of the text after this change. The parts of
  /// its removed text that lie outside what this change inserted were there
  /// before this change too, so they join this change's removed text on
  /// either side; everything between the two ends is what the pair left.
  func followed(by next: Self) -> Self? {
    let insertedEnd = position + insertedCount
    let nextEnd = next.position + next.removedCount
    guard next.position <= insertedEnd, nextEnd >= position else { return nil }

    var joinedRemoved = removed
    var joinedRemovedCount = removedCount
    if next.position < position || nextEnd > insertedEnd {
      let before = next.removed.slice(0..<Swift.max(position - next.position, 0))
      let after = next.removed.slice(
        Swift.min(insertedEnd - next.position, next.removedCount)..<next.removedCount)
      joinedRemoved = before + removed + after
      joinedRemovedCount = before.count + removedCount + after.count
    }
    let start = Swift.min(position, next.position)
    let end = Swift.max(insertedEnd, nextEnd) - next.removedCount + next.insertedCount
    return Self(
      position: start, removed: joinedRemoved, removedCount: joinedRemovedCount,
      insertedCount: end - start, endOfNewText: next.endOfNewText)
  }
}

extension TextBuffer: CustomStringConvertible {
  /// The text itself.
  public var description: String { string }
}
