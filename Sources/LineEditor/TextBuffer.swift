/// The text being edited, as user-perceived characters: a gap buffer of
/// `Character`s (grapheme clusters) indexed `0..<count`.
///
/// The characters live in one contiguous array with a hole in it, the gap, kept
/// where the last edit happened. An edit moves only the characters between the
/// gap and the edit point, so a run of edits near one spot costs the same on a
/// one-line note as on a megabyte one; the array is reallocated only when the
/// gap fills, and then grows by a fraction of its size, which keeps insertion
/// O(1) amortized.
///
/// Every edit re-clusters the characters around it, so the buffer always holds
/// exactly the Characters Swift makes of ``string``: inserting `e` and then
/// U+0301 leaves one `é`, and the two regional indicators of 🇫🇷 inserted one at
/// a time become one flag.
///
/// Copies share storage until one of them is edited. Keep no copy alive across
/// an edit of the original, or that edit has to copy the whole text.
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

  /// Characters before the gap, the gap (filled with `gapFiller`), then the
  /// characters after it.
  private var storage: [Character]
  /// Storage index of the first slot of the gap.
  private var gapStart: Int
  /// Storage index just past the gap.
  private var gapEnd: Int

  /// What gap slots hold: a small character, so the gap owns no heap memory.
  private static let gapFiller: Character = " "

  /// Creates an empty buffer.
  public init() {
    self.init("")
  }

  /// Creates a buffer holding the Characters of `string`.
  public init(_ string: String) {
    // Counting first lets the storage be allocated once at its final size,
    // instead of doubling while the string is split into Characters.
    let count = string.count
    let gapLength = Self.spareGapLength(forCount: count)
    storage = []
    storage.reserveCapacity(count + gapLength)
    storage.append(contentsOf: string)
    storage.append(contentsOf: repeatElement(Self.gapFiller, count: gapLength))
    gapStart = count
    gapEnd = count + gapLength
  }

  /// The text, as one string. O(n): build it when saving, not per key.
  public var string: String {
    var result = String(storage[..<gapStart])
    result.append(contentsOf: storage[gapEnd...])
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

    var removed = String()
    for index in lower..<upper {
      removed.append(self[index])
    }

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

  /// Swaps the Characters in `bounds` for `replacement`, as they are.
  private mutating func replaceStorage(_ bounds: Range<Int>, with replacement: [Character]) {
    moveGap(to: bounds.lowerBound)
    // Overwrite what is removed so that large Characters are freed now rather
    // than lingering in the gap.
    for index in gapEnd..<(gapEnd + bounds.count) {
      storage[index] = Self.gapFiller
    }
    gapEnd += bounds.count
    reserveGap(replacement.count)
    for character in replacement {
      storage[gapStart] = character
      gapStart += 1
    }
  }

  /// Moves the gap so that it starts before the Character at `index`.
  private mutating func moveGap(to index: Int) {
    let gapLength = gapEnd - gapStart
    let start = gapStart
    // Swapping keeps the filler in every slot that falls into the gap; it also
    // moves Characters without retaining and releasing them.
    storage.withUnsafeMutableBufferPointer { slots in
      if index < start {
        for source in stride(from: start - 1, through: index, by: -1) {
          slots.swapAt(source, source + gapLength)
        }
      } else if index > start {
        for source in (start + gapLength)..<(index + gapLength) {
          slots.swapAt(source, source - gapLength)
        }
      }
    }
    gapStart = index
    gapEnd = index + gapLength
  }

  /// Makes the gap hold at least `length` Characters.
  private mutating func reserveGap(_ length: Int) {
    guard gapEnd - gapStart < length else { return }
    let newGapLength = length + Self.spareGapLength(forCount: count + length)
    var grown: [Character] = []
    grown.reserveCapacity(count + newGapLength)
    grown.append(contentsOf: storage[..<gapStart])
    grown.append(contentsOf: repeatElement(Self.gapFiller, count: newGapLength))
    grown.append(contentsOf: storage[gapEnd...])
    storage = grown
    gapEnd = gapStart + newGapLength
  }

  /// How much room to leave for future insertions in a buffer of `count`
  /// Characters: a fixed fraction, so that reallocations get rarer as the text
  /// grows and their cost stays O(1) per inserted Character.
  private static func spareGapLength(forCount count: Int) -> Int {
    Swift.max(64, count / 8)
  }
}

extension TextBuffer: RandomAccessCollection {
  /// Always 0.
  public var startIndex: Int { 0 }

  /// The number of Characters: `count`.
  public var endIndex: Int { storage.count - (gapEnd - gapStart) }

  /// The Character at `position`, in `0..<count`.
  public subscript(position: Int) -> Character {
    precondition(position >= 0 && position < endIndex, "index out of range")
    return storage[position < gapStart ? position : position + (gapEnd - gapStart)]
  }
}

extension TextBuffer: CustomStringConvertible {
  /// The text itself.
  public var description: String { string }
}
