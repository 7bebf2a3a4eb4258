import CFilenote

/// The CPU's wider vectors for checking UTF-8, where it has them (AVX2,
/// chosen at run time): Swift compiles for the x86-64 baseline, 16 bytes at
/// a time, and cannot do this itself (CFilenote's `UTF8Blocks.c` says why
/// and how).
public enum VectorUTF8 {
  /// Where the run of 32-byte blocks of `bytes` from `start` (at least 3)
  /// that are well-formed UTF-8, each given the three bytes before it, ends:
  /// at the first block that is not, or where fewer than 32 bytes are left;
  /// `start` itself where the CPU has no AVX2. The bytes before `start`
  /// must be well formed.
  public static func wellFormedBlocksEnd(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
    guard let base = bytes.baseAddress, start >= 3, start < bytes.count else { return start }
    return filenote_utf8_well_formed_blocks(
      base.assumingMemoryBound(to: UInt8.self), start, bytes.count)
  }
}
