import SystemCalls

// Byte compares of a save: the text with the note it replaces (`IncomingText`),
// and the note with the newest version (`VersionWriter`), so that nothing is
// written or kept twice.

extension FileDescriptor {
  /// Whether this file and `other`, read from where each is now to its end,
  /// hold the same bytes; false when their sizes differ or either cannot be read.
  func hasSameBytes(as other: FileDescriptor) -> Bool {
    guard let size = try? status().size, let otherSize = try? other.status().size,
      size == otherSize
    else { return false }
    // No bigger than the files and not zero-filled: a short note's compare
    // touches a page or two, not 128 KiB of fresh heap.
    let chunkSize = Int(min(max(size, 1), 64 * 1024))
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
    defer { buffer.deallocate() }
    let otherBuffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
    defer { otherBuffer.deallocate() }
    while true {
      guard let count = try? read(into: buffer),
        let otherCount = try? other.read(into: otherBuffer),
        count == otherCount
      else { return false }
      if count == 0 { return true }
      let (mine, theirs) = (
        UnsafeRawBufferPointer(rebasing: buffer[0..<count]),
        UnsafeRawBufferPointer(rebasing: otherBuffer[0..<count])
      )
      if !mine.hasSameBytes(as: theirs) { return false }
    }
  }
}

extension UnsafeRawBufferPointer {
  /// Whether this and `other` (of the same length) hold the same bytes:
  /// 64 at a time, as four 16-byte vectors whose differences are OR-ed, so
  /// the loop runs at the speed of memory (twice the speed of one 8-byte
  /// word at a time: bench/README.md, "Measured choices in the code").
  func hasSameBytes(as other: UnsafeRawBufferPointer) -> Bool {
    typealias Block = SIMD16<UInt8>
    var offset = 0
    while offset + 64 <= count {
      // Spelled out: a nested function for the XOR was left out of line,
      // which made the compare several times slower.
      let x0: Block =
        loadUnaligned(fromByteOffset: offset, as: Block.self)
        ^ other.loadUnaligned(fromByteOffset: offset, as: Block.self)
      let x1: Block =
        loadUnaligned(fromByteOffset: offset + 16, as: Block.self)
        ^ other.loadUnaligned(fromByteOffset: offset + 16, as: Block.self)
      let x2: Block =
        loadUnaligned(fromByteOffset: offset + 32, as: Block.self)
        ^ other.loadUnaligned(fromByteOffset: offset + 32, as: Block.self)
      let x3: Block =
        loadUnaligned(fromByteOffset: offset + 48, as: Block.self)
        ^ other.loadUnaligned(fromByteOffset: offset + 48, as: Block.self)
      let any: Block = (x0 | x1) | (x2 | x3)
      // `any()` on a mask is an out-of-line call; OR-ing two words is not.
      let words = unsafeBitCast(any, to: SIMD2<UInt64>.self)
      if words[0] | words[1] != 0 { return false }
      offset += 64
    }
    while offset + 8 <= count {
      if loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        != other.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      {
        return false
      }
      offset += 8
    }
    while offset < count {
      if self[offset] != other[offset] { return false }
      offset += 1
    }
    return true
  }
}
