/// A run of whole Characters, a piece of a ``TextBuffer``: their text, and
/// where in its UTF-8 its Characters of more than one byte stand.
///
/// The text is kept as a string, which is UTF-8 that Swift has checked once:
/// loading copies slices of the note into chunks, and saving joins them,
/// without decoding anything again. Every Character not in the table of long
/// ones is one byte (an ASCII scalar alone), so the Character at an index is
/// found by a binary search in that table, which costs nothing for ASCII and
/// six bytes for each longer Character: a note of mostly ASCII words takes
/// little more memory than its text. A chunk never splits a Character, and is
/// kept within its ``Limits``, so an edit moves at most a few kilobytes.
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
  /// How many Characters the chunk holds.
  private(set) var count: Int
  /// The index of each Character of more than one byte, ascending (a chunk
  /// within its limits has fewer Characters than two bytes can count; a
  /// longer one holds one Character).
  private var longIndices: [UInt16]
  /// For each of `longIndices`, how many bytes beyond one the Characters up
  /// to and including it take together: the Character at index `i` starts
  /// `i` bytes plus the extra bytes of the long ones before it into `text`.
  private var extraBytes: [UInt32]
  /// The kinds of all its Characters together, so that a word move can tell
  /// without reading them whether a word starts or ends in the chunk.
  private(set) var kinds: CharacterKinds

  /// An empty chunk.
  init() {
    self.init(text: "", count: 0, longIndices: [], extraBytes: [])
  }

  /// A chunk of the `count` Characters of `text`, which must be where Swift
  /// clusters them, with the long ones at `longIndices` taking `extraBytes`
  /// (as the properties of those names hold them).
  init(text: String, count: Int, longIndices: [UInt16], extraBytes: [UInt32]) {
    self.text = text
    self.count = count
    self.longIndices = longIndices
    self.extraBytes = extraBytes
    kinds = []
    kinds = kinds(in: 0..<count)
  }

  /// Whether the chunk holds no Character.
  var isEmpty: Bool { count == 0 }

  /// How many bytes the chunk's text takes in UTF-8.
  var utf8Count: Int { text.utf8.count }

  /// The Character at `index`, in `0..<count`.
  subscript(index: Int) -> Character {
    let bytes = utf8Range(of: index)
    if bytes.count == 1 {
      // Most text is ASCII: build its Characters from their byte.
      return Character(Unicode.Scalar(text.utf8[utf8Index(bytes.lowerBound)]))
    }
    return Character(String(text[utf8Index(bytes.lowerBound)..<utf8Index(bytes.upperBound)]))
  }

  /// How many of the long Characters stand before `index`.
  private func longCount(before index: Int) -> Int {
    var low = 0
    var high = longIndices.count
    while low < high {
      let middle = (low + high) / 2
      if Int(longIndices[middle]) < index {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low
  }

  /// The extra bytes of the first `longCount` long Characters.
  private func extraBytes(ofFirst longCount: Int) -> Int {
    longCount > 0 ? Int(extraBytes[longCount - 1]) : 0
  }

  /// Offset in the UTF-8 of `text` where the Character at `index` starts, or
  /// the length of that UTF-8 for `index == count`.
  func utf8Offset(of index: Int) -> Int {
    index < count ? index + extraBytes(ofFirst: longCount(before: index)) : text.utf8.count
  }

  /// Where the UTF-8 of the Character at `index` stands in `text`.
  private func utf8Range(of index: Int) -> Range<Int> {
    let long = longCount(before: index)
    let start = index + extraBytes(ofFirst: long)
    guard long < longIndices.count && Int(longIndices[long]) == index else {
      return start..<start + 1
    }
    return start..<start + 1 + Int(extraBytes[long]) - extraBytes(ofFirst: long)
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
    let longBefore = longCount(before: range.lowerBound)
    let longAfter = longCount(before: range.upperBound)
    var inserted = String()
    var indices = Array(longIndices[..<longBefore])
    var extras = Array(extraBytes[..<longBefore])
    var extra = extraBytes(ofFirst: longBefore)
    for (offset, character) in characters.enumerated() {
      inserted.append(character)
      let length = character.utf8.count
      if length > 1 {
        extra += length - 1
        indices.append(UInt16(truncatingIfNeeded: range.lowerBound + offset))
        extras.append(UInt32(extra))
      }
    }
    // The long Characters after the edit moved by the difference in
    // Characters, and their extra bytes by the difference in extra bytes.
    let moved = characters.count - range.count
    let grown = extra - extraBytes(ofFirst: longAfter)
    for long in longAfter..<longIndices.count {
      indices.append(UInt16(truncatingIfNeeded: Int(longIndices[long]) + moved))
      extras.append(UInt32(Int(extraBytes[long]) + grown))
    }
    text.replaceSubrange(utf8Index(first)..<utf8Index(end), with: inserted)
    longIndices = indices
    extraBytes = extras
    count += moved
    // A removed Character may have been the only one of its kind: count again
    // (usually a few Characters in, once every kind has been seen).
    kinds = kinds(in: 0..<count)
  }

  /// Appends the Characters of `other`, as they are. Together they must stay
  /// within the maximum.
  mutating func append(contentsOf other: TextChunk) {
    let extra = UInt32(text.utf8.count - count)
    let shift = count
    longIndices.append(contentsOf: other.longIndices.lazy.map { UInt16(Int($0) + shift) })
    extraBytes.append(contentsOf: other.extraBytes.lazy.map { $0 + extra })
    text.append(other.text)
    count += other.count
    kinds.formUnion(other.kinds)
  }

  /// The Characters in `range` as a chunk of their own.
  func slice(_ range: Range<Int>) -> TextChunk {
    let longBefore = longCount(before: range.lowerBound)
    let longAfter = longCount(before: range.upperBound)
    let extra = UInt32(extraBytes(ofFirst: longBefore))
    return TextChunk(
      text: text(range), count: range.count,
      longIndices: longIndices[longBefore..<longAfter].map {
        UInt16(Int($0) - range.lowerBound)
      },
      extraBytes: extraBytes[longBefore..<longAfter].map { $0 - extra })
  }

  /// The kinds of the Character at `index`, in `0..<count`.
  func kinds(at index: Int) -> CharacterKinds {
    let bytes = utf8Range(of: index)
    if bytes.count == 1 {
      return CharacterKinds.ofASCII[Int(text.utf8[utf8Index(bytes.lowerBound)])]
    }
    return CharacterKinds(self[index])
  }

  /// The kinds of the Characters in `range` together; stops reading once it
  /// has seen every kind.
  func kinds(in range: Range<Int>) -> CharacterKinds {
    var long = longCount(before: range.lowerBound)
    var offset = utf8Offset(of: range.lowerBound)
    // Reading the bytes in place, with raw bits: a long word of ASCII costs a
    // table look-up a byte.
    let bits = text.utf8.withContiguousStorageIfAvailable { utf8 in
      CharacterKinds.ofASCII.withUnsafeBufferPointer { ofASCII in
        var bits: UInt8 = 0
        var index = range.lowerBound
        while index < range.upperBound && bits != CharacterKinds.all.rawValue {
          if long < longIndices.count && Int(longIndices[long]) == index {
            let length = 1 + Int(extraBytes[long]) - extraBytes(ofFirst: long)
            let character = String(
              decoding: UnsafeBufferPointer(rebasing: utf8[offset..<offset + length]),
              as: UTF8.self)
            bits |= CharacterKinds(Character(character)).rawValue
            offset += length
            long += 1
          } else {
            bits |= ofASCII[Int(utf8[offset])].rawValue
            offset += 1
          }
          index += 1
        }
        return bits
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
