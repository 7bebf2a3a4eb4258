import CFilenote
import Glibc

/// This process: its arguments, environment, identity and way out.
public enum CurrentProcess {
  /// The raw bytes of the arguments after the program name. Raw, because
  /// `CommandLine.arguments` repairs invalid UTF-8.
  public static var arguments: [[UInt8]] {
    let count = Int(filenote_argument_count())
    guard count > 1, let arguments = filenote_arguments() else { return [] }
    return (1..<count).map { index in
      let argument = arguments[index]!
      return Array(UnsafeRawBufferPointer(start: argument, count: strlen(argument)))
    }
  }

  /// The raw bytes of every `NAME=value` entry of the environment.
  public static var environment: [[UInt8]] {
    var entries: [[UInt8]] = []
    var entry = environ
    while let pointer = entry.pointee {
      entries.append(Array(UnsafeRawBufferPointer(start: pointer, count: strlen(pointer))))
      entry += 1
    }
    return entries
  }

  /// getpid(2)
  public static var id: Int32 { getpid() }
  /// geteuid(2)
  public static var effectiveUser: UInt32 { UInt32(geteuid()) }
  /// getegid(2)
  public static var effectiveGroup: UInt32 { UInt32(getegid()) }

  /// Whether a process with this id exists (one we may not signal counts).
  public static func exists(_ processID: Int32) -> Bool {
    kill(processID, 0) == 0 || errno == EPERM
  }

  /// Ends the process with `status`, flushing nothing (the C library's
  /// buffers are not used).
  public static func exit(_ status: Int32) -> Never {
    Glibc.exit(status)
  }

  /// Ends the process at once (`_exit`), for after a signal that should
  /// have ended it did not.
  public static func exitImmediately(_ status: Int32) -> Never {
    _exit(status)
  }

  /// A clock that never jumps, in milliseconds, rounded up so a wait never
  /// ends early. clock_gettime rather than `ContinuousClock`, which would
  /// pull the concurrency runtime's start-up into every run of the static
  /// executable (measured: fewer pages touched by `filenote show`; see
  /// CONTRIBUTING.md, Hot path).
  public static var monotonicMilliseconds: Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1000 + (Int64(now.tv_nsec) + 999_999) / 1_000_000
  }
}
