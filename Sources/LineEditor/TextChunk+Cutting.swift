extension TextChunk {
  /// `text` cut into chunks within `limits`, clustered exactly as Swift
  /// clusters `text` into Characters.
  ///
  /// Most notes are mostly ASCII, and between two ASCII scalars there is
  /// always a Character boundary, except inside CR LF: no ASCII scalar extends,
  /// joins, prepends or pairs with another. So the text is split there without
  /// asking the standard library, which clusters only the runs between such
  /// boundaries. Every run starts after an ASCII scalar (or at the start), so
  /// clustering it alone gives what clustering the whole text gives.
  static func chunks(of text: String, limits: Limits) -> [TextChunk] {
    var text = text
    text.makeContiguousUTF8()
    let source = text
    let chunks = source.utf8.withContiguousStorageIfAvailable { utf8 in
      var cutter = Cutter(source: source, limits: limits)

      /// Whether the text breaks between the bytes before and at `offset`
      /// because both are ASCII and not CR LF.
      func isASCIIBoundary(_ offset: Int) -> Bool {
        let before = utf8[offset - 1]
        let after = utf8[offset]
        return before < 0x80 && after < 0x80 && !(before == 0x0D && after == 0x0A)
      }

      /// How many bytes the scalar whose UTF-8 starts at `offset` takes.
      func scalarLength(at offset: Int) -> Int {
        switch utf8[offset] {
        case ..<0x80: 1
        case ..<0xE0: 2
        case ..<0xF0: 3
        default: 4
        }
      }

      /// Whether the scalars of `bytes` are all ``StandaloneScalars`` (ASCII,
      /// Latin letters with their accents precomposed, CJK, kana...): then
      /// each is a Character.
      func isStandalone(_ bytes: Range<Int>) -> Bool {
        var offset = bytes.lowerBound
        while offset < bytes.upperBound {
          let lead = UInt32(utf8[offset])
          let value: UInt32
          switch scalarLength(at: offset) {
          case 1: value = lead
          case 2: value = (lead & 0x1F) << 6 | UInt32(utf8[offset + 1] & 0x3F)
          case 3:
            value =
              (lead & 0x0F) << 12 | UInt32(utf8[offset + 1] & 0x3F) << 6
              | UInt32(utf8[offset + 2] & 0x3F)
          default: return false
          }
          guard StandaloneScalars.contains(value) else { return false }
          offset += scalarLength(at: offset)
        }
        return true
      }

      var offset = 0
      while offset < utf8.count {
        // ASCII but CR, up to the last byte before one that is not ASCII
        // (which may extend it): each byte a Character of its own.
        var asciiEnd = offset
        // Eight bytes at a time while none is CR or above ASCII: a long
        // note is mostly such runs.
        while asciiEnd + 8 <= utf8.count {
          let word = UnsafeRawPointer(utf8.baseAddress! + asciiEnd).loadUnaligned(as: UInt64.self)
          let crs = word ^ 0x0D0D_0D0D_0D0D_0D0D
          let hasZeroByte = (crs &- 0x0101_0101_0101_0101) & ~crs & 0x8080_8080_8080_8080
          guard (word & 0x8080_8080_8080_8080) | hasZeroByte == 0 else { break }
          asciiEnd += 8
        }
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
        if isStandalone(offset..<runEnd) {
          var start = offset
          while start < runEnd {
            cutter.characterStarts(at: start)
            start += scalarLength(at: start)
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

  /// `text`, whose Characters start at the UTF-8 offsets `characterStarts`
  /// (ascending, the first 0), cut into chunks within `limits`.
  static func chunks(
    of text: String, characterStarts: some Sequence<Int>, limits: Limits
  ) -> [TextChunk] {
    var cutter = Cutter(source: text, limits: limits)
    for start in characterStarts {
      cutter.characterStarts(at: start)
    }
    return cutter.finish()
  }

  /// Cuts a text into chunks as the starts of its Characters are found, in
  /// order.
  ///
  /// Each chunk gets an even share of the bytes, at most the target: it is
  /// closed at the first Character that starts past its share, or before a
  /// Character that would take it past the maximum, which then gets a chunk
  /// of its own. A last chunk left smaller than the minimum joins the one
  /// before, when they fit together.
  private struct Cutter {
    /// The text being cut.
    let source: String
    let limits: Limits
    /// The bytes each chunk is filled to.
    let share: Int
    private var chunks: [TextChunk] = []
    /// Offset in `source`'s UTF-8 of the chunk being filled.
    private var chunkStart = 0
    /// How many Characters the chunk being filled holds so far.
    private var count = 0
    /// Offset in `source`'s UTF-8 of the last Character recorded, whose end
    /// (and so whether it is longer than a byte) is not known yet.
    private var lastStart = 0
    /// The Characters longer than a byte of the chunk being filled, as
    /// ``TextChunk`` keeps them: scratch arrays, reused from chunk to chunk.
    /// A run of one-byte Characters writes nothing here.
    private var longIndices: [UInt16] = []
    private var extraBytes: [UInt32] = []

    init(source: String, limits: Limits) {
      self.source = source
      self.limits = limits
      let length = source.utf8.count
      let chunkCount = Swift.max((length + limits.target - 1) / limits.target, 1)
      share = Swift.max((length + chunkCount - 1) / chunkCount, 1)
    }

    /// Records a Character that starts at `offset`, first closing the chunk
    /// being filled when it is full.
    mutating func characterStarts(at offset: Int) {
      previousCharacterEnds(at: offset)
      if offset - chunkStart >= share {
        close(at: offset)
      }
      lastStart = offset
      count += 1
    }

    /// Records Characters of one byte each at `offsets`, closing chunks as
    /// they fill.
    mutating func singleByteCharacters(_ offsets: Range<Int>) {
      previousCharacterEnds(at: offsets.lowerBound)
      var first = offsets.lowerBound
      while first < offsets.upperBound {
        if first - chunkStart >= share {
          close(at: first)
        }
        let end = Swift.min(offsets.upperBound, chunkStart + share)
        count += end - first
        first = end
      }
      lastStart = offsets.upperBound - 1
    }

    /// The chunks, the last one closed at the end of the text.
    mutating func finish() -> [TextChunk] {
      guard count > 0 else { return chunks }
      let end = source.utf8.count
      previousCharacterEnds(at: end)
      let lastLength = end - chunkStart
      if let previous = chunks.last, lastLength < limits.minimum,
        previous.utf8Count + lastLength <= limits.maximum
      {
        chunks.removeLast()
        var joined = previous
        joined.append(contentsOf: chunk(upTo: end))
        chunks.append(joined)
      } else {
        chunks.append(chunk(upTo: end))
      }
      return chunks
    }

    /// The last Character recorded ends at `offset`: when it takes the chunk
    /// past its maximum, it moves to a chunk of its own; when it is longer
    /// than a byte, it goes in the table of long ones.
    private mutating func previousCharacterEnds(at offset: Int) {
      guard count > 0 else { return }
      if offset - chunkStart > limits.maximum && count > 1 {
        count -= 1
        close(at: lastStart)
        count = 1
      }
      let length = offset - lastStart
      if length > 1 {
        longIndices.append(UInt16(truncatingIfNeeded: count - 1))
        extraBytes.append((extraBytes.last ?? 0) + UInt32(length - 1))
      }
    }

    private mutating func close(at offset: Int) {
      chunks.append(chunk(upTo: offset))
      chunkStart = offset
      count = 0
      longIndices.removeAll(keepingCapacity: true)
      extraBytes.removeAll(keepingCapacity: true)
    }

    /// The chunk being filled, ending at `offset`.
    private func chunk(upTo offset: Int) -> TextChunk {
      // A slice of a string is copied as it is, not decoded again; the
      // tables are copied into arrays no larger than their elements.
      let text = String(source[utf8Index(chunkStart)..<utf8Index(offset)])
      return TextChunk(
        text: text, count: count, longIndices: longIndices.map { $0 },
        extraBytes: extraBytes.map { $0 })
    }

    /// The string index of the byte at `offset` of `source`.
    private func utf8Index(_ offset: Int) -> String.Index {
      source.utf8.index(source.utf8.startIndex, offsetBy: offset)
    }
  }
}
