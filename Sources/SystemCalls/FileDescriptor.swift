import Glibc

/// An open file descriptor, with the operations filenote needs, each
/// retrying `EINTR` (in `valueOrErrno`) and looping over partial reads and writes.
///
/// It does not close itself: the owner closes it in a `defer`, so that the
/// moment a descriptor is released is always visible at the call site.
public struct FileDescriptor: Hashable, Sendable {
  public let rawValue: Int32

  public init(rawValue: Int32) { self.rawValue = rawValue }

  public static let standardInput = FileDescriptor(rawValue: STDIN_FILENO)
  public static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)
  public static let standardError = FileDescriptor(rawValue: STDERR_FILENO)

  /// How a file is opened for reading or writing.
  public enum AccessMode: Sendable {
    case readOnly, writeOnly, readWrite

    var flags: Int32 {
      switch self {
      case .readOnly: return O_RDONLY
      case .writeOnly: return O_WRONLY
      case .readWrite: return O_RDWR
      }
    }
  }

  /// What else `open` does (`O_` flags).
  public struct OpenOptions: OptionSet, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// O_NONBLOCK: a FIFO cannot hang the open or the reads.
    public static let nonBlocking = OpenOptions(rawValue: O_NONBLOCK)
    /// O_CREAT
    public static let create = OpenOptions(rawValue: O_CREAT)
    /// O_EXCL: with `create`, fail with `fileExists` when the file exists.
    public static let exclusiveCreate = OpenOptions(rawValue: O_EXCL)
    /// O_DIRECTORY: fail unless the path is a folder.
    public static let directory = OpenOptions(rawValue: O_DIRECTORY)
    /// O_NOFOLLOW: fail on a symbolic link.
    public static let noFollow = OpenOptions(rawValue: O_NOFOLLOW)
    /// O_NOCTTY: never become the controlling terminal.
    public static let noControllingTerminal = OpenOptions(rawValue: O_NOCTTY)
  }

  /// Opens `path`; always close-on-exec, so no descriptor leaks into a child.
  public static func open(
    _ path: String, _ mode: AccessMode, options: OpenOptions = [], permissions: UInt32 = 0
  ) throws(Errno) -> FileDescriptor {
    let fd = try valueOrErrno {
      Glibc.open(path, mode.flags | options.rawValue | O_CLOEXEC, mode_t(permissions))
    }
    return FileDescriptor(rawValue: fd)
  }

  /// A pipe, both ends close-on-exec: `(readEnd, writeEnd)`.
  public static func pipe() throws(Errno) -> (readEnd: FileDescriptor, writeEnd: FileDescriptor) {
    var ends: [Int32] = [-1, -1]
    try valueOrErrno { Glibc.pipe(&ends) }
    for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
  }

  public func close() {
    // Linux releases the descriptor even when close reports EINTR: never retry.
    _ = Glibc.close(rawValue)
  }

  /// Reads up to `buffer.count` bytes; 0 means end of file.
  /// `retryOnInterrupt: false` ends the read with `interrupted` when a
  /// caught signal arrives.
  public func read(
    into buffer: UnsafeMutableRawBufferPointer, retryOnInterrupt: Bool = true
  ) throws(Errno) -> Int {
    try valueOrErrno(retryOnInterrupt: retryOnInterrupt) {
      Glibc.read(rawValue, buffer.baseAddress, buffer.count)
    }
  }

  /// pread(2): reads up to `buffer.count` bytes from `offset` in the file,
  /// leaving the descriptor's own position where it was; 0 means end of file.
  public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(Errno)
    -> Int
  {
    try valueOrErrno { pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset)) }
  }

  /// One write of as much of `bytes` as the descriptor takes; returns how much.
  public func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
    try valueOrErrno { Glibc.write(rawValue, bytes.baseAddress, bytes.count) }
  }

  /// Writes all of `bytes`, however many calls it takes.
  public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
    var offset = 0
    while offset < bytes.count {
      offset += try write(UnsafeRawBufferPointer(rebasing: bytes[offset...]))
    }
  }

  public func writeAll(_ bytes: [UInt8]) throws(Errno) {
    try bytes.withUnsafeBytesTyped { buffer throws(Errno) in try writeAll(buffer) }
  }

  public func writeAll(_ text: String) throws(Errno) {
    try writeAll(Array(text.utf8))
  }

  /// Reads everything until end of file.
  public func readToEnd(sizeHint: Int = 0) throws(Errno) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(sizeHint + 1)
    // No bigger than needed: a small note then touches one page, not sixteen.
    var chunk = [UInt8](repeating: 0, count: Swift.min(64 * 1024, Swift.max(4096, sizeHint + 1)))
    while true {
      let count = try chunk.withUnsafeMutableBytesTyped { buffer throws(Errno) in
        try read(into: buffer)
      }
      if count == 0 { return bytes }
      bytes.append(contentsOf: chunk[0..<count])
    }
  }

  /// Reads until end of file or until `maximum` bytes have come, whichever
  /// is first: a caller that wants at most `limit` bytes asks for one more
  /// to tell a file of exactly `limit` bytes from a longer one.
  public func read(upTo maximum: Int) throws(Errno) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: maximum)
    var count = 0
    while count < maximum {
      let got = try bytes.withUnsafeMutableBytesTyped { buffer throws(Errno) in
        try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
      }
      if got == 0 { break }
      count += got
    }
    return Array(bytes[..<count])
  }

  /// Asks the kernel to write the dirty pages of `count` bytes of this file
  /// from `offset` out now, without waiting, and to drop those of them
  /// already written from the page cache.
  public func startWriteback(offset: Int, count: Int) {
    _ = posix_fadvise(rawValue, off_t(offset), off_t(count), POSIX_FADV_DONTNEED)
  }

  /// Makes the pipe this descriptor reads from hold up to 1 MiB, so its
  /// writer can run ahead while we write; nothing happens when it is not a pipe.
  public func growPipeBuffer() {
    let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ, which Glibc's module does not export
    _ = fcntl(rawValue, setPipeSize, Int32(1 << 20))
  }

  /// lseek(2) to where it is: the offset the next read starts at.
  public func position() throws(Errno) -> Int64 {
    let offset: Int = try valueOrErrno { lseek(rawValue, 0, SEEK_CUR) }
    return Int64(offset)
  }

  /// fsync(2)
  public func sync() throws(Errno) {
    try valueOrErrno { fsync(rawValue) }
  }

  /// fstat(2)
  public func status() throws(Errno) -> FileStatus {
    var info = stat()
    try valueOrErrno { fstat(rawValue, &info) }
    return FileStatus(info)
  }

  /// fchmod(2)
  public func changePermissions(_ permissions: UInt32) throws(Errno) {
    try valueOrErrno { fchmod(rawValue, mode_t(permissions)) }
  }

  /// futimens(2): sets the modification time (the access time is left as it is).
  public func setModificationTime(seconds: Int64, nanoseconds: Int64) throws(Errno) {
    var times = [
      // UTIME_OMIT ((1 << 30) - 2), which the Glibc module does not export.
      timespec(tv_sec: 0, tv_nsec: (1 << 30) - 2),
      timespec(tv_sec: time_t(seconds), tv_nsec: Int(nanoseconds)),
    ]
    try valueOrErrno { futimens(rawValue, &times) }
  }

  /// fchown(2)
  public func changeOwner(user: UInt32, group: UInt32) throws(Errno) {
    try valueOrErrno { fchown(rawValue, uid_t(user), gid_t(group)) }
  }

  /// Waits for, then takes, the exclusive advisory lock (flock(2)); the
  /// kernel releases it when the descriptor is closed or the process dies.
  public func lockExclusive() throws(Errno) {
    try valueOrErrno { flock(rawValue, LOCK_EX) }
  }

  /// Takes an exclusive advisory lock without waiting; false when another
  /// process holds it.
  public func tryLockExclusive() throws(Errno) -> Bool {
    do {
      try valueOrErrno { flock(rawValue, LOCK_EX | LOCK_NB) }
      return true
    } catch  where error == .wouldBlock {
      return false
    }
  }
}
