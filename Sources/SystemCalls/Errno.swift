import Glibc

/// A failed system call's error number, with the C library's text for it.
/// The names of the constants are swift-system's.
public struct Errno: Error, Hashable, Sendable, CustomStringConvertible {
  /// The raw `errno` value.
  public let code: Int32

  public init(_ code: Int32) { self.code = code }

  /// The value of `errno` right now.
  static var current: Errno { Errno(Glibc.errno) }

  /// What `strerror` says, e.g. "No such file or directory".
  public var description: String { String(cString: strerror(code)) }

  /// EPERM
  public static let notPermitted = Errno(EPERM)
  /// ENOENT
  public static let noSuchFileOrDirectory = Errno(ENOENT)
  /// EINTR
  public static let interrupted = Errno(EINTR)
  /// EIO
  public static let ioError = Errno(EIO)
  /// EBADF
  public static let badFileDescriptor = Errno(EBADF)
  /// EAGAIN, which is EWOULDBLOCK on Linux.
  public static let wouldBlock = Errno(EWOULDBLOCK)
  /// EBUSY
  public static let resourceBusy = Errno(EBUSY)
  /// EEXIST
  public static let fileExists = Errno(EEXIST)
  /// ENOTDIR
  public static let notDirectory = Errno(ENOTDIR)
  /// EISDIR
  public static let isDirectory = Errno(EISDIR)
  /// EINVAL
  public static let invalidArgument = Errno(EINVAL)
  /// ENOTTY
  public static let inappropriateIOCTLForDevice = Errno(ENOTTY)
  /// EROFS
  public static let readOnlyFileSystem = Errno(EROFS)
  /// EPIPE
  public static let brokenPipe = Errno(EPIPE)
  /// ELOOP
  public static let tooManySymbolicLinkLevels = Errno(ELOOP)
  /// EACCES
  public static let permissionDenied = Errno(EACCES)
  /// EXDEV
  public static let improperLink = Errno(EXDEV)
  /// EMLINK
  public static let tooManyLinks = Errno(EMLINK)
  /// EOPNOTSUPP (ENOTSUP on Linux)
  public static let notSupported = Errno(EOPNOTSUPP)
  /// ENOSPC
  public static let noSpace = Errno(ENOSPC)
  /// ENOTEMPTY
  public static let directoryNotEmpty = Errno(ENOTEMPTY)
  /// ENAMETOOLONG
  public static let nameTooLong = Errno(ENAMETOOLONG)
  /// ENOSYS
  public static let noFunction = Errno(ENOSYS)
  /// ESTALE
  public static let staleFileHandle = Errno(ESTALE)
}

/// Runs a system call that returns -1 on failure and turns the failure into a
/// typed `Errno`. This is the one place where a call interrupted by a signal
/// (`EINTR`) is retried: every wrapper in this target goes through it.
/// `retryOnInterrupt: false` is for a call whose interruption is the answer
/// (a read that Ctrl-C must end).
@discardableResult
func valueOrErrno<Result: FixedWidthInteger>(
  retryOnInterrupt: Bool = true, _ call: () -> Result
) throws(Errno) -> Result {
  while true {
    let result = call()
    if result != -1 { return result }
    let failure = Errno.current
    if retryOnInterrupt && failure == .interrupted { continue }
    throw failure
  }
}

/// Runs a call that returns its error number instead of setting `errno`
/// (`posix_spawn`, the `pthread_` functions): 0 is success.
func nothingOrErrno(_ call: () -> Int32) throws(Errno) {
  let result = call()
  if result != 0 { throw Errno(result) }
}
