#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A failed system call's error number, with the C library's text for it.
public struct Errno: Error, Equatable, Sendable, CustomStringConvertible {
  /// The raw `errno` value.
  public let code: Int32

  public init(_ code: Int32) { self.code = code }

  /// The value of `errno` right now.
  static var current: Errno { Errno(errno) }

  /// What `strerror` says, e.g. "No such file or directory".
  public var description: String { String(cString: strerror(code)) }

  public static let noSuchFile = Errno(ENOENT)
  public static let exists = Errno(EEXIST)
  public static let brokenPipe = Errno(EPIPE)
  public static let wouldBlock = Errno(EWOULDBLOCK)
}

/// Runs a system call that returns -1 on failure, retrying it while it is
/// interrupted by a signal, and turns the failure into a typed `Errno`.
@discardableResult
func retryingInterrupts<Result: BinaryInteger>(_ call: () -> Result) throws(Errno) -> Result {
  while true {
    let result = call()
    if result != -1 { return result }
    if errno != EINTR { throw Errno.current }
  }
}
