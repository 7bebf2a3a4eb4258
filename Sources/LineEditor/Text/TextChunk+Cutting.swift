extension TextChunk {
  /// `text` cut into chunks within `limits`, clustered exactly as Swift
  /// clusters `text` into Characters.
  ///
  /// Most notes are mostly ASCII, Latin, CJK: ``StandaloneScalars``, between
  /// two of which there is always a Character boundary. So a run of them is
  /// cut without asking the standard library, which clusters only what lies
  /// between such runs: from the last scalar of a run (which what follows may
  /// extend) to the next place where two ASCII scalars meet (not CR LF),
  /// where a run starts again. Every run starts on a boundary of the whole
  /// text, so clustering it alone gives what clustering the whole text gives.
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

      /// The eight bytes from `offset`, to test them at once.
      func word(at offset: Int) -> UInt64 {
        UnsafeRawPointer(utf8.baseAddress! + offset).loadUnaligned(as: UInt64.self)
      }

      /// Whether the scalar whose UTF-8 starts at `offset` is standalone.
      func isStandalone(at offset: Int) -> Bool {
        let lead = UInt32(utf8[offset])
        switch scalarLength(at: offset) {
        case 1: return lead != 0x0D
        case 2:
          return StandaloneScalars.contains((lead & 0x1F) << 6 | UInt32(utf8[offset + 1] & 0x3F))
        case 3:
          return StandaloneScalars.contains(
            (lead & 0x0F) << 12 | UInt32(utf8[offset + 1] & 0x3F) << 6
              | UInt32(utf8[offset + 2] & 0x3F))
        default: return false
        }
      }

      /// The end of the run of standalone scalars from `offset`, and where its
      /// last scalar starts.
      func standaloneRun(from offset: Int) -> (end: Int, lastStart: Int) {
        var end = offset
        var lastStart = offset
        while end < utf8.count {
          // Eight bytes at a time while none is CR or above ASCII.
          if end + 8 <= utf8.count {
            let word = word(at: end)
            let crs = word ^ 0x0D0D_0D0D_0D0D_0D0D
            let hasZeroByte = (crs &- 0x0101_0101_0101_0101) & ~crs & 0x8080_8080_8080_8080
            if (word & 0x8080_8080_8080_8080) | hasZeroByte == 0 {
              lastStart = end + 7
              end += 8
              continue
            }
          }
          guard isStandalone(at: end) else { break }
          lastStart = end
          end += scalarLength(at: end)
        }
        return (end, lastStart)
      }

      var offset = 0
      while offset < utf8.count {
        let run = standaloneRun(from: offset)
        // The last scalar is a Character of its own only when nothing that
        // could extend it follows.
        let recorded = run.end == utf8.count ? run.end : run.lastStart
        if recorded > offset {
          var start = offset
          while start < recorded {
            if utf8[start] < 0x80 {
              var end = start + 1
              while end + 8 <= recorded && word(at: end) & 0x8080_8080_8080_8080 == 0 {
                end += 8
              }
              while end < recorded && utf8[end] < 0x80 { end += 1 }
              cutter.singleByteCharacters(start..<end)
              start = end
            } else {
              cutter.characterStarts(at: start)
              start += scalarLength(at: start)
            }
          }
          offset = recorded
          continue
        }
        var runEnd = offset + 1
        while runEnd < utf8.count && !isASCIIBoundary(runEnd) { runEnd += 1 }
        // A string of its own, not a substring: the standard library checks
        // every index of a substring that starts at an index it did not make
        // by clustering backwards, which costs as much as clustering again.
        let clustered = String(
          decoding: UnsafeBufferPointer(rebasing: utf8[offset..<runEnd]), as: UTF8.self)
        var index = clustered.startIndex
        while index < clustered.endIndex {
          cutter.characterStarts(
            at: offset + clustered.utf8.distance(from: clustered.startIndex, to: index))
          index = clustered.index(after: index)
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
