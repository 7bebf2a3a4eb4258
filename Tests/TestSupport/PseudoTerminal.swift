import Dispatch
import Glibc

/// A pseudo-terminal pair for one test: the test plays the terminal emulator
/// on `master` (typing, reading what is drawn, setting the size) and the code
/// under test gets `slave`, a real terminal.
///
/// Test code only: filenote itself never opens a pseudo-terminal, so this is
/// kept out of SystemCalls and calls the C library directly.
public final class PseudoTerminal {
  public private(set) var master: Int32
  public let slave: Int32

  /// Opens a new pair, neither becoming the controlling terminal.
  public init() throws {
    // posix_openpt, grantpt and ptsname are hidden from Swift's Glibc module
    // (it is built without _XOPEN_SOURCE); on Linux they come down to these
    // calls, and grantpt does nothing with devpts.
    master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard master >= 0 else { throw SystemCallFailed(call: "open /dev/ptmx", errno: errno) }
    var unlocked: Int32 = 0
    var number: UInt32 = 0
    guard ioctl(master, Self.unlock, &unlocked) == 0, ioctl(master, Self.number, &number) == 0
    else {
      let failure = SystemCallFailed(call: "ioctl on /dev/ptmx", errno: errno)
      close(master)
      throw failure
    }
    slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
    guard slave >= 0 else {
      let failure = SystemCallFailed(call: "open /dev/pts/\(number)", errno: errno)
      close(master)
      throw failure
    }
  }

  /// TIOCSPTLCK and TIOCGPTN, which the Glibc module does not export (their
  /// macros compute the number from the argument's type): Linux's values.
  private static let unlock = UInt(0x4004_5431)
  private static let number = UInt(0x8004_5430)

  deinit {
    closeMaster()
    close(slave)
  }

  /// Hangs up: the code under test sees its terminal go away.
  public func closeMaster() {
    guard master != -1 else { return }
    close(master)
    master = -1
  }

  public func settings() throws -> termios {
    var settings = termios()
    guard tcgetattr(slave, &settings) == 0 else {
      throw SystemCallFailed(call: "tcgetattr", errno: errno)
    }
    return settings
  }

  public func settingsBytes() throws -> [UInt8] {
    withUnsafeBytes(of: try settings()) { Array($0) }
  }

  public func apply(_ settings: termios) throws {
    var settings = settings
    guard tcsetattr(slave, TCSANOW, &settings) == 0 else {
      throw SystemCallFailed(call: "tcsetattr", errno: errno)
    }
  }

  /// Sets the window size (TIOCSWINSZ) on the master side, as a terminal
  /// emulator does; the code under test gets SIGWINCH.
  public func setWindowSize(rows: UInt16, columns: UInt16) throws {
    var size = winsize(ws_row: rows, ws_col: columns, ws_xpixel: 0, ws_ypixel: 0)
    guard ioctl(master, UInt(TIOCSWINSZ), &size) == 0 else {
      throw SystemCallFailed(call: "ioctl TIOCSWINSZ", errno: errno)
    }
  }

  public func type(_ text: String) throws {
    try type(Array(text.utf8))
  }

  public func type(_ bytes: [UInt8]) throws {
    guard write(master, bytes, bytes.count) == bytes.count else {
      throw SystemCallFailed(call: "write", errno: errno)
    }
  }

  /// What the code under test wrote, once `count` bytes have arrived; fewer
  /// when nothing more comes for a few seconds (the test then fails on the
  /// comparison instead of hanging).
  public func readOutput(count: Int) throws -> [UInt8] {
    PseudoTerminal.read(master, count: count)
  }

  /// Reads `count` bytes on another thread, for a writer that blocks until
  /// someone reads.
  public func readOutputInBackground(count: Int) -> BackgroundRead {
    let reading = BackgroundRead()
    let master = master
    DispatchQueue.global().async {
      reading.bytes = PseudoTerminal.read(master, count: count)
      reading.done.signal()
    }
    return reading
  }

  private static func read(_ descriptor: Int32, count: Int) -> [UInt8] {
    var received: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while received.count < count {
      var waiting = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard poll(&waiting, 1, 5000) == 1 else { break }
      let chunk = buffer.withUnsafeMutableBytes {
        Glibc.read(descriptor, $0.baseAddress, min($0.count, count - received.count))
      }
      guard chunk > 0 else { break }
      received += buffer[..<chunk]
    }
    return received
  }
}

/// The result of `PseudoTerminal.readOutputInBackground`.
public final class BackgroundRead: @unchecked Sendable {
  // Written once by the reading thread before `done` is signalled, read only
  // after waiting for it.
  fileprivate var bytes: [UInt8] = []
  fileprivate let done = DispatchSemaphore(value: 0)

  /// Waits for the read to end and returns what it got.
  public func wait() -> [UInt8] {
    done.wait()
    return bytes
  }
}

/// A failed system call in test setup.
public struct SystemCallFailed: Error, CustomStringConvertible {
  public let call: String
  public let errno: Int32

  public init(call: String, errno: Int32) {
    self.call = call
    self.errno = errno
  }

  public var description: String { "\(call): \(String(cString: strerror(errno)))" }
}
