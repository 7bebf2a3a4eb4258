import Foundation
import Testing

/// A program whose output the test reads as it comes, rather than at its
/// end: `show --follow` (a line at each change), i3blocks (its stream of
/// status lines), or anything run on a pseudo-terminal the test plays, as
/// `filenote copy` writing OSC 52 to its terminal.
///
/// Standard output and error are pipes the test reads (or, with
/// `onTerminal`, both are the terminal, whose other side is `terminalOutput`'s
/// source); standard input is `/dev/null` or the terminal. The child starts
/// with no signal blocked and every signal's default action, as
/// `FilenoteProcess` starts its children.
final class StreamingProcess {
  let processIdentifier: pid_t
  private var output: Int32
  private var errors: Int32
  private var master: Int32 = -1
  private(set) var outputBytes: [UInt8] = []
  private(set) var errorBytes: [UInt8] = []
  private var reaped: Int32?

  /// How long a read waits for what a test expects: only a guard against a
  /// hang, nothing is timed.
  static let patience: Int64 = 20_000

  /// Starts `executable` with `arguments` and exactly `environment`, in
  /// `directory`. With `onTerminal`, it runs in a session of its own on a
  /// new pseudo-terminal, its controlling terminal (through `setsid
  /// --ctty`), so that it can open `/dev/tty`.
  init(
    _ executable: String, _ arguments: [String], environment: [String: String],
    directory: String, onTerminal: Bool = false
  ) throws {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var program = executable
    var argv = [executable] + arguments
    var childEnds: [Int32] = []
    if onTerminal {
      master = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC)
      var unlocked: Int32 = 0
      var number: UInt32 = 0
      // TIOCSPTLCK and TIOCGPTN, which the Glibc module does not export.
      guard master >= 0, ioctl(master, UInt(0x4004_5431), &unlocked) == 0,
        ioctl(master, UInt(0x8004_5430), &number) == 0
      else { throw Failure(description: "cannot open a pseudo-terminal: errno \(errno)") }
      let slave = open("/dev/pts/\(number)", O_RDWR | O_NOCTTY | O_CLOEXEC)
      guard slave >= 0 else { throw Failure(description: "cannot open /dev/pts/\(number)") }
      childEnds = [slave]
      for target in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] {
        posix_spawn_file_actions_adddup2(&actions, slave, target)
      }
      program = try TemporaryHome.locate("setsid")
      argv = [program, "--ctty"] + argv
      output = -1
      errors = -1
    } else {
      var outputPipe: [Int32] = [-1, -1]
      var errorPipe: [Int32] = [-1, -1]
      guard pipe(&outputPipe) == 0, pipe(&errorPipe) == 0 else {
        throw Failure(description: "pipe: errno \(errno)")
      }
      for end in outputPipe + errorPipe { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
      output = outputPipe[0]
      errors = errorPipe[0]
      childEnds = [outputPipe[1], errorPipe[1]]
      posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
      posix_spawn_file_actions_adddup2(&actions, outputPipe[1], STDOUT_FILENO)
      posix_spawn_file_actions_adddup2(&actions, errorPipe[1], STDERR_FILENO)
    }
    defer { for end in childEnds { close(end) } }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    sigdelset(&allSignals, SIGKILL)
    sigdelset(&allSignals, SIGSTOP)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    // The folder through env --chdir: the test process must not change its own.
    let env = try TemporaryHome.locate("env")
    let command = [env, "--chdir", directory, program] + argv.dropFirst()
    let cArguments = command.map { strdup($0) } + [nil]
    let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for pointer in cArguments + cEnvironment { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, env, &actions, &attributes, cArguments, cEnvironment)
    guard spawned == 0 else { throw Failure(description: "posix_spawn \(executable): \(spawned)") }
    processIdentifier = pid
  }

  deinit {
    if reaped == nil {
      kill(processIdentifier, SIGKILL)
      var status: Int32 = 0
      waitpid(processIdentifier, &status, 0)
    }
    for descriptor in [output, errors, master] where descriptor >= 0 { close(descriptor) }
  }

  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// Reads what comes until `isEnough` accepts everything read from
  /// standard output (or the terminal) so far; throws, with what came, when
  /// it does not within `patience` or the output ends first.
  @discardableResult
  func read(
    until isEnough: ([UInt8]) -> Bool, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [UInt8] {
    let deadline = Self.now + Self.patience
    while !isEnough(outputBytes) {
      let left = deadline - Self.now
      guard left > 0, try readSome(waiting: left) else {
        let text = String(decoding: outputBytes, as: UTF8.self)
        throw Failure(
          description: "\(sourceLocation): the output never was what the test waited for; "
            + "it was: \(text.debugDescription); errors: \(errorText.debugDescription)")
      }
    }
    return outputBytes
  }

  /// The lines of standard output so far, once there are at least `count`.
  func lines(atLeast count: Int, sourceLocation: SourceLocation = #_sourceLocation) throws
    -> [String]
  {
    let bytes = try read(
      until: { $0.filter { $0 == UInt8(ascii: "\n") }.count >= count },
      sourceLocation: sourceLocation)
    return String(decoding: bytes, as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false
    ).dropLast().map(String.init)
  }

  var errorText: String { String(decoding: errorBytes, as: UTF8.self) }

  /// Reads what the child has written so far, without waiting for more
  /// (a child that writes much may still be writing).
  func readWhatIsThere() throws {
    for _ in 0..<64 {
      let before = outputBytes.count + errorBytes.count
      guard try readSome(waiting: 0), outputBytes.count + errorBytes.count > before else { return }
    }
  }

  /// Closes the test's end of standard output: the reader goes away.
  func closeOutput() {
    if output >= 0 { close(output) }
    output = -1
  }

  /// Waits for the child to end and returns its wait status, reading what
  /// it still writes meanwhile; nil when it is still running after `patience`.
  func waitForExit() throws -> Int32? {
    let deadline = Self.now + Self.patience
    while Self.now < deadline {
      var status: Int32 = 0
      if waitpid(processIdentifier, &status, WNOHANG) == processIdentifier {
        reaped = status
        // What it wrote before it ended (a program it started may still
        // hold the pipes: a few reads, not until they close).
        for _ in 0..<10 {
          guard try readSome(waiting: 20) else { break }
        }
        return status
      }
      _ = try readSome(waiting: 20)
    }
    return nil
  }

  /// One poll of the descriptors for up to `milliseconds`, and what is there
  /// read; false once nothing more can come (every end closed).
  private func readSome(waiting milliseconds: Int64) throws -> Bool {
    var entries = openSources.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    guard !entries.isEmpty else { return false }
    let ready = poll(&entries, nfds_t(entries.count), Int32(clamping: milliseconds))
    guard ready >= 0 || errno == EINTR else { throw Failure(description: "poll: errno \(errno)") }
    var buffer = [UInt8](repeating: 0, count: 65536)
    for entry in entries where entry.revents != 0 {
      let count = Glibc.read(entry.fd, &buffer, buffer.count)
      if count > 0 {
        if entry.fd == errors {
          errorBytes += buffer[0..<count]
        } else {
          outputBytes += buffer[0..<count]
        }
        continue
      }
      // End of file, or EIO once every end of the terminal is closed.
      close(entry.fd)
      if entry.fd == output { output = -1 }
      if entry.fd == errors { errors = -1 }
      if entry.fd == master { master = -1 }
    }
    return !openSources.isEmpty
  }

  private var openSources: [Int32] { [output, errors, master].filter { $0 >= 0 } }

  private static var now: Int64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
  }
}
