#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// An open file descriptor, with the few operations filenote needs, each
/// retrying `EINTR` and looping over partial reads and writes.
///
/// It does not close itself: the owner closes it in a `defer`, so that the
/// moment a descriptor is released is always visible at the call site.
public struct FileDescriptor: Sendable {
  public let rawValue: Int32

  public init(rawValue: Int32) { self.rawValue = rawValue }

  public static let standardInput = FileDescriptor(rawValue: STDIN_FILENO)
  static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
  static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

  /// Opens `path`; always close-on-exec, so no descriptor leaks into a child.
  static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(Errno) -> FileDescriptor
  {
    let fd = try retryingInterrupts { Glibc.open(path, flags | O_CLOEXEC, mode) }
    return FileDescriptor(rawValue: fd)
  }

  func close() {
    // Linux releases the descriptor even when close reports EINTR: never retry.
    _ = Glibc.close(rawValue)
  }

  /// Reads up to `buffer.count` bytes; 0 means end of file.
  func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
    try retryingInterrupts { Glibc.read(rawValue, buffer.baseAddress, buffer.count) }
  }

  /// Writes all of `bytes`, however many calls it takes.
  func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
    var offset = 0
    while offset < bytes.count {
      let written = try retryingInterrupts {
        Glibc.write(rawValue, bytes.baseAddress! + offset, bytes.count - offset)
      }
      offset += written
    }
  }

  func writeAll(_ bytes: [UInt8]) throws(Errno) {
    // withUnsafeBytes rethrows untyped errors: carry the Errno out by hand.
    var failure: Errno?
    bytes.withUnsafeBytes { buffer in
      do throws(Errno) { try writeAll(buffer) } catch { failure = error }
    }
    if let failure { throw failure }
  }

  func writeAll(_ text: String) throws(Errno) {
    try writeAll(Array(text.utf8))
  }

  /// Reads everything until end of file.
  func readToEnd(sizeHint: Int = 0) throws(Errno) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(sizeHint + 1)
    // No bigger than needed: a small note then touches one page, not sixteen.
    var chunk = [UInt8](repeating: 0, count: Swift.min(64 * 1024, Swift.max(4096, sizeHint + 1)))
    while true {
      var failure: Errno?
      let count = chunk.withUnsafeMutableBytes { buffer in
        do throws(Errno) { return try read(into: buffer) } catch {
          failure = error
          return 0
        }
      }
      if let failure { throw failure }
      if count == 0 { return bytes }
      bytes.append(contentsOf: chunk[0..<count])
    }
  }

  /// Asks the kernel to write this file's dirty pages out now, without
  /// waiting, and to drop the ones already written from the page cache.
  func startWriteback() {
    _ = posix_fadvise(rawValue, 0, 0, POSIX_FADV_DONTNEED)
  }

  /// Makes the pipe this descriptor reads from hold up to 1 MiB, so its
  /// writer can run ahead while we write; nothing happens when it is not a pipe.
  func growPipeBuffer() {
    let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ, which Glibc's module does not export
    _ = fcntl(rawValue, setPipeSize, Int32(1 << 20))
  }

  func sync() throws(Errno) {
    try retryingInterrupts { fsync(rawValue) }
  }

  func status() throws(Errno) -> stat {
    var info = stat()
    try retryingInterrupts { fstat(rawValue, &info) }
    return info
  }

  func changeMode(_ mode: mode_t) throws(Errno) {
    try retryingInterrupts { fchmod(rawValue, mode) }
  }

  /// Takes an exclusive advisory lock without waiting; false when another
  /// process holds it.
  func tryLockExclusive() throws(Errno) -> Bool {
    do {
      try retryingInterrupts { flock(rawValue, LOCK_EX | LOCK_NB) }
      return true
    } catch  where error == .wouldBlock {
      return false
    }
  }

  var isTerminal: Bool { isatty(rawValue) == 1 }
}
