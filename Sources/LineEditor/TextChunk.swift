/// A run of whole Characters, a piece of a ``TextBuffer``: their text, and
/// where in its UTF-8 each Character starts.
///
/// The text is kept as a string, which is UTF-8 that Swift has checked once:
/// loading copies slices of the note into chunks, and saving joins them,
/// without decoding anything again. The table of starts makes the Character
/// at an index O(1) to find. A chunk never splits a Character, and the buffer
/// keeps each chunk small, so an edit moves at most a few kilobytes.
struct TextChunk: Sendable {
  /// The Characters, one after the other.
  private(set) var text: String
  /// Offset in the UTF-8 of `text` of the first byte of each Character,
  /// ascending; the first is 0.
  private var starts: [UInt32]

  /// An empty chunk.
  init() {
    text = ""
    starts = []
  }

  /// A chunk of `characters`, as they are (they are not re-clustered).
  init(_ characters: some Sequence<Character>) {
    self.init()
    for character in characters {
      starts.append(Self.offset(text.utf8.count))
      text.append(character)
    }
  }

  private init(text: String, starts: [UInt32]) {
    self.text = text
    self.starts = starts
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
    String(text[utf8Range(of: range)])
  }

  /// The Characters in `range`, as a chunk of their own.
  func extracting(_ range: Range<Int>) -> TextChunk {
    let shift = Self.offset(utf8Offset(of: range.lowerBound))
    return TextChunk(text: text(range), starts: starts[range].map { $0 - shift })
  }

  /// Replaces the Characters in `range` with those of `other`, as they are.
  mutating func replaceSubrange(_ range: Range<Int>, with other: TextChunk) {
    let first = utf8Offset(of: range.lowerBound)
    let removedBytes = utf8Offset(of: range.upperBound) - first
    text.replaceSubrange(utf8Range(of: range), with: other.text)
    let shift = Self.offset(first)
    starts.replaceSubrange(range, with: other.starts.map { $0 + shift })
    // The Characters after the edit moved by the difference in bytes; adding
    // its two's complement with wrapping moves them back as well as forward.
    let moved = UInt32(truncatingIfNeeded: other.utf8Count - removedBytes)
    guard moved != 0 else { return }
    starts.withUnsafeMutableBufferPointer { starts in
      for index in (range.lowerBound + other.count)..<starts.count {
        starts[index] &+= moved
      }
    }
  }

  /// The string index of the byte at `offset` of the UTF-8 of `text`: O(1),
  /// the string being native UTF-8.
  private func utf8Index(_ offset: Int) -> String.Index {
    text.utf8.index(text.utf8.startIndex, offsetBy: offset)
  }

  /// The string indices of the Characters in `range`.
  private func utf8Range(of range: Range<Int>) -> Range<String.Index> {
    utf8Index(utf8Offset(of: range.lowerBound))..<utf8Index(utf8Offset(of: range.upperBound))
  }

  /// Appends the Characters of `other`, as they are.
  mutating func append(contentsOf other: TextChunk) {
    replaceSubrange(count..<count, with: other)
  }

  /// The chunk cut into consecutive chunks of about `bytesPerChunk` bytes
  /// each, at Character boundaries. No chunk is longer than `maximumBytes`
  /// unless it holds a single Character that is.
  func split(bytesPerChunk: Int, maximumBytes: Int) -> [TextChunk] {
    var pieces: [TextChunk] = []
    var first = 0
    while first < count {
      let start = utf8Offset(of: first)
      var end = first + 1
      while end < count && Int(starts[end]) - start < bytesPerChunk
        && utf8Offset(of: end + 1) - start <= maximumBytes
      {
        end += 1
      }
      pieces.append(extracting(first..<end))
      first = end
    }
    return pieces
  }

  /// A byte offset as stored in `starts`.
  private static func offset(_ offset: Int) -> UInt32 {
    UInt32(offset)
  }
}

extension TextChunk {
  /// `text` cut into chunks of about `bytesPerChunk` bytes each, clustered
  /// exactly as Swift clusters `text` into Characters.
  ///
  /// Most notes are mostly ASCII, and between two ASCII scalars there is
  /// always a Character boundary, except inside CR LF: no ASCII scalar extends,
  /// joins, prepends or pairs with another. So the text is split there without
  /// asking the standard library, which clusters only the runs between such
  /// boundaries. Every run starts after an ASCII scalar (or at the start), so
  /// clustering it alone gives what clustering the whole text gives.
  ///
  /// A chunk is closed at the first Character that starts `bytesPerChunk` or
  /// more bytes into it, or before a Character that would take it past
  /// `maximumBytes`: no chunk is longer than that unless it holds a single
  /// Character that is.
  static func chunks(of text: String, bytesPerChunk: Int, maximumBytes: Int) -> [TextChunk] {
    var text = text
    text.makeContiguousUTF8()
    let source = text
    let chunks = source.utf8.withContiguousStorageIfAvailable { utf8 in
      var cutter = Cutter(
        source: source, utf8: utf8, bytesPerChunk: bytesPerChunk, maximumBytes: maximumBytes)

      /// Whether the text breaks between the bytes before and at `offset`
      /// because both are ASCII and not CR LF.
      func isASCIIBoundary(_ offset: Int) -> Bool {
        let before = utf8[offset - 1]
        let after = utf8[offset]
        return before < 0x80 && after < 0x80 && !(before == 0x0D && after == 0x0A)
      }

      /// Whether the scalars of `bytes` are all below U+0300 (ASCII and
      /// Latin letters with their accents precomposed, mostly) and none is
      /// CR: between two such scalars there is always a Character boundary
      /// (the standard library's own shortcut), so each is a Character.
      func isBelowU0300WithoutCR(_ bytes: Range<Int>) -> Bool {
        var offset = bytes.lowerBound
        while offset < bytes.upperBound {
          switch utf8[offset] {
          case 0x0D: return false
          case ..<0x80: offset += 1
          // Lead bytes of U+0080...U+02FF.
          case 0xC2...0xCB: offset += 2
          default: return false
          }
        }
        return true
      }

      var offset = 0
      while offset < utf8.count {
        // ASCII but CR, up to the last byte before one that is not ASCII
        // (which may extend it): each byte a Character of its own.
        var asciiEnd = offset
        while asciiEnd < utf8.count && utf8[asciiEnd] < 0x80 && utf8[asciiEnd] != 0x0D {
          asciiEnd += 1
        }
        if asciiEnd < utf8.count && utf8[asciiEnd] >= 0x80 && asciiEnd > offset {
          asciiEnd -= 1
        }
        if asciiEnd > offset {
          cutter.singleByteCharacters(offset..<asciiEnd)
          offset = asciiEnd
          continue
        }
        var runEnd = offset + 1
        while runEnd < utf8.count && !isASCIIBoundary(runEnd) { runEnd += 1 }
        if isBelowU0300WithoutCR(offset..<runEnd) {
          var start = offset
          while start < runEnd {
            cutter.characterStarts(at: start)
            start += utf8[start] < 0x80 ? 1 : 2
          }
          offset = runEnd
          continue
        }
        // A string of its own, not a substring: the standard library checks
        // every index of a substring that starts at an index it did not make
        // by clustering backwards, which costs as much as clustering again.
        let run = String(
          decoding: UnsafeBufferPointer(rebasing: utf8[offset..<runEnd]), as: UTF8.self)
        var index = run.startIndex
        while index < run.endIndex {
          cutter.characterStarts(at: offset + run.utf8.distance(from: run.startIndex, to: index))
          index = run.index(after: index)
        }
        offset = runEnd
      }
      return cutter.finish()
    }
    guard let chunks else { preconditionFailure("a native string's UTF-8 is contiguous") }
    return chunks
  }

  /// Cuts a text's UTF-8 into chunks as the starts of its Characters are
  /// found, in order.
  private struct Cutter {
    /// The text being cut, and its UTF-8.
    let source: String
    let utf8: UnsafeBufferPointer<UInt8>
    let bytesPerChunk: Int
    let maximumBytes: Int
    private var chunks: [TextChunk] = []
    /// Offset in `utf8` of the chunk being filled.
    private var chunkStart = 0
    /// Where the Characters of the chunk being filled start, from
    /// `chunkStart`, in the first `startCount` slots: a chunk never holds
    /// more Characters than bytes, and one scratch array written in place is
    /// much faster to fill than an array appended to.
    private var starts: [UInt32]
    private var startCount = 0

    init(
      source: String, utf8: UnsafeBufferPointer<UInt8>, bytesPerChunk: Int, maximumBytes: Int
    ) {
      self.source = source
      self.utf8 = utf8
      self.bytesPerChunk = bytesPerChunk
      self.maximumBytes = maximumBytes
      starts = Array(repeating: 0, count: bytesPerChunk)
    }

    /// Records a Character that starts at `offset`, first closing the chunk
    /// being filled when it is full.
    mutating func characterStarts(at offset: Int) {
      previousCharacterEnds(at: offset)
      if offset - chunkStart >= bytesPerChunk {
        close(at: offset)
      }
      starts[startCount] = UInt32(truncatingIfNeeded: offset - chunkStart)
      startCount += 1
    }

    /// Records Characters of one byte each at `offsets`, closing chunks as
    /// they fill.
    mutating func singleByteCharacters(_ offsets: Range<Int>) {
      previousCharacterEnds(at: offsets.lowerBound)
      var first = offsets.lowerBound
      while first < offsets.upperBound {
        if first - chunkStart >= bytesPerChunk {
          close(at: first)
        }
        let end = Swift.min(offsets.upperBound, chunkStart + bytesPerChunk)
        let shift = first - chunkStart - startCount
        starts.withUnsafeMutableBufferPointer { starts in
          for slot in startCount..<(startCount + end - first) {
            starts[slot] = UInt32(truncatingIfNeeded: slot + shift)
          }
        }
        startCount += end - first
        first = end
      }
    }

    /// The chunks, the last one closed at the end of the text.
    mutating func finish() -> [TextChunk] {
      if startCount > 0 {
        previousCharacterEnds(at: utf8.count)
        close(at: utf8.count)
      }
      return chunks
    }

    /// When the Character that ends at `offset` takes the chunk past its
    /// maximum, it moves to a chunk of its own.
    private mutating func previousCharacterEnds(at offset: Int) {
      guard offset - chunkStart > maximumBytes && startCount > 1 else { return }
      startCount -= 1
      close(at: chunkStart + Int(starts[startCount]))
      starts[0] = 0
      startCount = 1
    }

    /// The string index of the byte at `offset` of `source`.
    private func utf8Index(_ offset: Int) -> String.Index {
      source.utf8.index(source.utf8.startIndex, offsetBy: offset)
    }

    private mutating func close(at offset: Int) {
      // A slice of a string is copied as it is, not decoded again.
      let text = String(source[utf8Index(chunkStart)..<utf8Index(offset)])
      chunks.append(TextChunk(text: text, starts: Array(starts[..<startCount])))
      chunkStart = offset
      startCount = 0
    }
  }
}
