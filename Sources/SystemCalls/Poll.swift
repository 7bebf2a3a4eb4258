import Glibc

/// Waiting on descriptors (poll(2)).
public enum Poll {
  /// What `wait` found on one descriptor.
  public struct Events: OptionSet, Sendable {
    public let rawValue: Int16
    public init(rawValue: Int16) { self.rawValue = rawValue }

    /// POLLIN: there is something to read.
    public static let readable = Events(rawValue: Int16(POLLIN))
    /// POLLOUT: a write would not block.
    public static let writable = Events(rawValue: Int16(POLLOUT))
    /// POLLHUP: the other end hung up.
    public static let hangUp = Events(rawValue: Int16(POLLHUP))
    /// POLLERR
    public static let error = Events(rawValue: Int16(POLLERR))
    /// POLLNVAL: the descriptor is not open.
    public static let invalid = Events(rawValue: Int16(POLLNVAL))
  }

  /// Waits until one of `descriptors` has one of its events, or until
  /// `deadline` (in `CurrentProcess.monotonicMilliseconds`; forever when
  /// nil). Returns what each descriptor has, in order; all empty on timeout.
  /// A signal interrupting the wait resumes it with the time that is left.
  public static func wait(
    for descriptors: [(FileDescriptor, Events)], deadline: Int64?
  ) throws(Errno) -> [Events] {
    var entries = descriptors.map { pollfd(fd: $0.0.rawValue, events: $0.1.rawValue, revents: 0) }
    try valueOrErrno {
      poll(&entries, nfds_t(entries.count), milliseconds(until: deadline))
    }
    return entries.map { Events(rawValue: $0.revents) }
  }

  /// The poll timeout left until `deadline`; -1 (forever) without one.
  private static func milliseconds(until deadline: Int64?) -> Int32 {
    guard let deadline else { return -1 }
    return Int32(clamping: max(deadline - CurrentProcess.monotonicMilliseconds, 0))
  }
}
