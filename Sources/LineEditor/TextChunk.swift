/// A run of whole Characters, a piece of a ``TextBuffer``: their text, and
/// where in its UTF-8 each Character starts.
///
/// The text is kept as a string, which is UTF-8 that Swift has checked once:
/// loading copies slices of the note into chunks, and saving joins them,
/// without decoding anything again. The table of starts makes the Character
/// at an index O(1) to find. A chunk never splits a Character, and is kept
/// within its ``Limits``, so an edit moves at most a few kilobytes.
struct TextChunk: Sendable {
  /// How large chunks are made and kept.
  struct Limits: Sendable {
    /// What text is cut into: chunks of an even share of its bytes, at most
    /// this many each (plus the rest of the Character that crosses it).
    var target: Int
    /// A chunk smaller than this is merged with a neighbour.
    var minimum: Int
    /// A chunk larger than this is cut again, unless it is one Character.
    var maximum: Int

    init(target: Int, minimum: Int, maximum: Int) {
      // Every Character but a chunk's first starts before `maximum`.
      precondition(0 < target && target <= maximum && maximum <= Int(UInt16.max))
      self.target = target
      self.minimum = minimum
      self.maximum = maximum
    }
  }

  /// The Characters, one after the other.
  private(set) var text: String
  /// Offset in the UTF-8 of `text` of the first byte of each Character,
  /// ascending; the first is 0. Two bytes each, which a chunk within its
  /// limits never outgrows: a chunk longer than that holds one Character.
  private var starts: [UInt16]
  /// The kinds of all its Characters together, so that a word move can tell
  /// without reading them whether a word starts or ends in the chunk.
  private(set) var kinds: CharacterKinds

  /// An empty chunk.
  init() {
    text = ""
    starts = []
    kinds = []
  }

  /// A chunk of the Characters of `text` that start at `starts`, which must
  /// be where Swift clusters them.
  init(text: String, starts: [UInt16]) {
    self.text = text
    self.starts = starts
    kinds = []
    kinds = kinds(in: 0..<starts.count)
  }

  /// How many Characters the chunk holds.
  var count: Int { starts.count }

  /// Whether the chunk holds no Character.
  var isEmpty: Bool { starts.isEmpty }

  /// How many bytes the chunk's text takes in UTF-8.
  var utf8Count: Int { text.utf8.count }

  /// The Character at `index`, in `0..<count`.
  subscript(index: Int) -> Character {
    let start = Int(starts[index])
    let end = utf8Offset(of: index + 1)
    if end - start == 1 {
      // Most text is ASCII: build its Characters from their byte.
      return Character(Unicode.Scalar(text.utf8[utf8Index(start)]))
    }
    return Character(String(text[utf8Index(start)..<utf8Index(end)]))
  }

  /// Offset in the UTF-8 of `text` where the Character at `index` starts, or
  /// the length of that UTF-8 for `index == count`.
  func utf8Offset(of index: Int) -> Int {
    index < starts.count ? Int(starts[index]) : text.utf8.count
  }

  /// The Characters in `range`, as one string.
  func text(_ range: Range<Int>) -> String {
    String(
      text[
        utf8Index(utf8Offset(of: range.lowerBound))..<utf8Index(utf8Offset(of: range.upperBound))])
  }

  /// Replaces the Characters in `range` with `characters`, as they are. The
  /// chunk must stay within its maximum, or be one Character.
  mutating func replaceSubrange(_ range: Range<Int>, with characters: [Character]) {
    let first = utf8Offset(of: range.lowerBound)
    let end = utf8Offset(of: range.upperBound)
    var inserted = String()
    var insertedStarts: [UInt16] = []
    insertedStarts.reserveCapacity(characters.count)
    for character in characters {
      insertedStarts.append(UInt16(first + inserted.utf8.count))
      inserted.append(character)
    }
    text.replaceSubrange(utf8Index(first)..<utf8Index(end), with: inserted)
    starts.replaceSubrange(range, with: insertedStarts)
    // The Characters after the edit moved by the difference in bytes; adding
    // its two's complement with wrapping moves them back as well as forward.
    let moved = UInt16(truncatingIfNeeded: inserted.utf8.count - (end - first))
    if moved != 0 {
      starts.withUnsafeMutableBufferPointer { starts in
        for index in (range.lowerBound + characters.count)..<starts.count {
          starts[index] &+= moved
        }
      }
    }
    // A removed Character may have been the only one of its kind: count again
    // (usually a few Characters in, once every kind has been seen).
    kinds = kinds(in: 0..<starts.count)
  }

  /// Appends the Characters of `other`, as they are. Together they must stay
  /// within the maximum.
  mutating func append(contentsOf other: TextChunk) {
    let shift = text.utf8.count
    starts.append(contentsOf: other.starts.lazy.map { UInt16(Int($0) + shift) })
    text.append(other.text)
    kinds.formUnion(other.kinds)
  }

  /// The Characters in `range` as a chunk of their own.
  func slice(_ range: Range<Int>) -> TextChunk {
    let shift = utf8Offset(of: range.lowerBound)
    return TextChunk(
      text: text(range), starts: starts[range].map { UInt16(Int($0) - shift) })
  }

  /// The kinds of the Character at `index`, in `0..<count`.
  func kinds(at index: Int) -> CharacterKinds {
    let start = Int(starts[index])
    if utf8Offset(of: index + 1) - start == 1 {
      return CharacterKinds.ofASCII[Int(text.utf8[utf8Index(start)])]
    }
    return CharacterKinds(self[index])
  }

  /// The kinds of the Characters in `range` together; stops reading once it
  /// has seen every kind.
  func kinds(in range: Range<Int>) -> CharacterKinds {
    // Reading the bytes in place, with raw bits: a long word of ASCII costs a
    // table look-up a byte.
    let bits = text.utf8.withContiguousStorageIfAvailable { utf8 in
      starts.withUnsafeBufferPointer { starts in
        CharacterKinds.ofASCII.withUnsafeBufferPointer { ofASCII in
          var bits: UInt8 = 0
          var index = range.lowerBound
          while index < range.upperBound && bits != CharacterKinds.all.rawValue {
            let start = Int(starts[index])
            let end = index + 1 < starts.count ? Int(starts[index + 1]) : utf8.count
            bits |=
              end - start == 1 ? ofASCII[Int(utf8[start])].rawValue : kinds(at: index).rawValue
            index += 1
          }
          return bits
        }
      }
    }
    guard let bits else { return range.reduce(into: []) { $0.formUnion(self.kinds(at: $1)) } }
    return CharacterKinds(rawValue: bits)
  }

  /// The string index of the byte at `offset` of the UTF-8 of `text`: O(1),
  /// the string being native UTF-8.
  private func utf8Index(_ offset: Int) -> String.Index {
    text.utf8.index(text.utf8.startIndex, offsetBy: offset)
  }
}
