import Dispatch
import Foundation
import Testing

/// One run of the built `filenote` binary, or of `/bin/sh` driving it: the
/// arguments, standard input, environment and folder it runs with, and what
/// it produced.
///
/// Standard output and standard error go to unlinked temporary files rather
/// than pipes, so the child can never block on a full pipe while the test is
/// busy feeding its standard input: no reader threads, no deadlock, whatever
/// the size of the output.
struct FilenoteProcess {
  /// Where the child's standard input comes from.
  enum Input {
    /// These bytes through a pipe, then end of file: what `printf ... | filenote` does.
    case bytes([UInt8])
    /// A regular file, read from its start: what `filenote < file` does.
    case file(String)
    /// `/dev/null`.
    case nullDevice
    /// A pipe that the test writes itself, through `Running.write(_:)`.
    case pipe
  }

  /// What a finished run produced.
  struct Result {
    /// The exit status; meaningless when `signal` is set.
    var status: Int32
    /// The signal that ended the process, when one did.
    var signal: Int32?
    var stdout: [UInt8]
    var stderr: [UInt8]

    var stdoutText: String { String(decoding: stdout, as: UTF8.self) }
    var stderrText: String { String(decoding: stderr, as: UTF8.self) }
  }

  /// The program to run: the `filenote` binary, or `/bin/sh` for a pipeline.
  var executable: String
  var arguments: [String]
  /// The child's whole environment: nothing is inherited from the test process.
  var environment: [String: String]
  var currentDirectory: String
  var input: Input = .nullDevice

  /// How long a run may take before it is treated as hung and killed. It only
  /// keeps a hanging bug from hanging the suite; no test asserts a duration.
  static let hangLimit: DispatchTimeInterval = .seconds(120)

  /// What a crash, a trap or the Swift runtime prints: none of it may ever
  /// be filenote's answer to anything.
  static let crashMarkers = [
    "Fatal error", "Swift runtime failure", "Program crashed", "Illegal instruction",
    "Segmentation fault", "Stack dump",
  ]

  /// The `filenote` binary under test: `$FILENOTE_BINARY` when set, else the
  /// one SwiftPM built beside this test bundle (`.build/<config>/`).
  static func binaryPath() throws -> String {
    if let override = ProcessInfo.processInfo.environment["FILENOTE_BINARY"], !override.isEmpty {
      guard FileManager.default.isExecutableFile(atPath: override) else {
        throw LocateError(message: "FILENOTE_BINARY=\(override) is not an executable file")
      }
      return override
    }
    var folders: [String] = []
    if let bundle = Bundle.main.executableURL {
      folders.append(bundle.resolvingSymlinksInPath().deletingLastPathComponent().path)
    }
    let argumentZero = URL(fileURLWithPath: CommandLine.arguments[0])
    folders.append(argumentZero.resolvingSymlinksInPath().deletingLastPathComponent().path)
    // SwiftPM puts the test bundle and the executables it depends on in the
    // same folder, `.build/<triple>/<config>/` (`.build/<config>` links to it).
    let candidates = folders.map { $0 + "/filenote" }
    if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
      return found
    }
    throw LocateError(
      message: "cannot find the built filenote binary; looked at "
        + candidates.joined(separator: ", ")
        + ". Run 'swift build' first, or set FILENOTE_BINARY to its path.")
  }

  /// Why the binary could not be found.
  struct LocateError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
  }

  /// Starts the process and returns at once.
  ///
  /// It is spawned with `posix_spawn` rather than Foundation's `Process`,
  /// which passes on the test runner's state: the signal mask of whichever
  /// thread starts it (worker threads block most signals, so `sh`'s `wait`
  /// hung forever) and the runner's ignored SIGPIPE (which would hide a
  /// `filenote show | head` bug). Here the child gets an empty signal mask and
  /// every signal's default action, and descriptors are close-on-exec, so a
  /// child started by a parallel test cannot hold another child's input open.
  func start() throws -> Running {
    _ = Self.brokenPipesIgnored
    let stdout = try Self.anonymousFile()
    let stderr = try Self.anonymousFile()
    let childInput: Int32
    var inputWriter: Int32 = -1
    switch input {
    case .bytes, .pipe:
      var ends: [Int32] = [-1, -1]
      guard try GNU.available(GNU.pipe2, "pipe2")(&ends, O_CLOEXEC) == 0 else {
        throw SpawnError.system("pipe2", errno)
      }
      childInput = ends[0]
      inputWriter = ends[1]
    case .file(let path):
      childInput = open(path, O_RDONLY | O_CLOEXEC)
    case .nullDevice:
      childInput = open("/dev/null", O_RDONLY | O_CLOEXEC)
    }
    guard childInput >= 0 else { throw SpawnError.system("open standard input", errno) }
    defer { close(childInput) }

    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, childInput, STDIN_FILENO)
    posix_spawn_file_actions_adddup2(&actions, stdout.fileDescriptor, STDOUT_FILENO)
    posix_spawn_file_actions_adddup2(&actions, stderr.fileDescriptor, STDERR_FILENO)
    let addChangeDirectory = try GNU.available(
      GNU.addChangeDirectory, "posix_spawn_file_actions_addchdir_np")
    guard addChangeDirectory(&actions, currentDirectory) == 0 else {
      throw SpawnError.system("posix_spawn_file_actions_addchdir_np", errno)
    }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var noSignals = sigset_t()
    sigemptyset(&noSignals)
    posix_spawnattr_setsigmask(&attributes, &noSignals)
    var allSignals = sigset_t()
    sigfillset(&allSignals)
    sigdelset(&allSignals, SIGKILL)
    sigdelset(&allSignals, SIGSTOP)
    posix_spawnattr_setsigdefault(&attributes, &allSignals)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for string in argv + envp { free(string) }
    }
    var pid: pid_t = 0
    let failure = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    guard failure == 0 else {
      if inputWriter >= 0 { close(inputWriter) }
      throw SpawnError.system("posix_spawn \(executable)", failure)
    }

    let running = Running(
      processIdentifier: pid, description: ([executable] + arguments).joined(separator: " "),
      stdout: stdout, stderr: stderr, inputWriter: inputWriter)
    if case .bytes(let bytes) = input {
      running.write(bytes)
      running.closeInput()
    }
    return running
  }

  /// Runs the process to its end.
  func run(sourceLocation: SourceLocation = #_sourceLocation) throws -> Result {
    try start().wait(sourceLocation: sourceLocation)
  }

  /// GNU C library functions that Swift's Glibc module leaves out (they need
  /// `_GNU_SOURCE`), looked up at run time. `pipe2` and `mkostemp` create a
  /// descriptor already close-on-exec, leaving no moment in which a child
  /// spawned by a parallel test could inherit it; `addchdir_np` sets the
  /// child's folder without a shell in between.
  private enum GNU {
    static let pipe2 = function(
      "pipe2", as: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
    static let mkostemp = function(
      "mkostemp", as: (@convention(c) (UnsafeMutablePointer<CChar>, Int32) -> Int32).self)
    static let addChangeDirectory = function(
      "posix_spawn_file_actions_addchdir_np",
      as: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>)
        -> Int32).self)

    private static func function<Function>(_ name: String, as type: Function.Type) -> Function? {
      dlsym(nil, name).map { unsafeBitCast($0, to: type) }
    }

    /// The function, or an error saying the C library is too old for these tests.
    static func available<Function>(_ function: Function?, _ name: String) throws -> Function {
      guard let function else {
        throw SpawnError.system("\(name) (glibc 2.29 or later is needed)", ENOSYS)
      }
      return function
    }
  }

  /// Why a process could not be started.
  enum SpawnError: Error, CustomStringConvertible {
    case system(String, Int32)
    var description: String {
      switch self {
      case .system(let call, let code): return "\(call): \(String(cString: strerror(code)))"
      }
    }
  }

  /// A process that was started and may still be running.
  final class Running {
    let processIdentifier: pid_t
    private let description: String
    private let stdout: FileHandle
    private let stderr: FileHandle
    private var inputWriter: Int32
    private let exit: Exit

    /// The child's wait status, published by the thread that waits for it.
    private final class Exit: @unchecked Sendable {
      let finished = DispatchSemaphore(value: 0)
      // Written once before `finished` is signalled, read only after.
      var status: Int32 = 0
    }

    fileprivate init(
      processIdentifier: pid_t, description: String, stdout: FileHandle, stderr: FileHandle,
      inputWriter: Int32
    ) {
      self.processIdentifier = processIdentifier
      self.description = description
      self.stdout = stdout
      self.stderr = stderr
      self.inputWriter = inputWriter
      let exit = Exit()
      self.exit = exit
      // A thread of its own blocks in waitpid, so that `wait` can give up on a
      // hung child without polling.
      Thread.detachNewThread {
        var status: Int32 = 0
        while waitpid(processIdentifier, &status, 0) == -1 && errno == EINTR {}
        exit.status = status
        exit.finished.signal()
      }
    }

    deinit {
      closeInput()
    }

    /// Writes `bytes` to the child's standard input, blocking while the pipe
    /// is full. Returns false when the child closed its end (EPIPE): a child
    /// may rightly stop reading, e.g. on a usage error.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
      guard inputWriter >= 0 else { return false }
      return bytes.withUnsafeBytes { buffer in
        var offset = 0
        while offset < buffer.count {
          let written = Glibc.write(
            inputWriter, buffer.baseAddress! + offset, buffer.count - offset)
          if written < 0 {
            if errno == EINTR { continue }
            return false
          }
          offset += written
        }
        return true
      }
    }

    /// Ends the child's standard input.
    func closeInput() {
      if inputWriter >= 0 { close(inputWriter) }
      inputWriter = -1
    }

    /// Sends `signal` to the child (call it before `wait`, while the child
    /// cannot have been reaped, so its pid cannot belong to another process).
    func send(_ signal: Int32) {
      kill(processIdentifier, signal)
    }

    /// Waits for the child to end and collects what it wrote. Records an
    /// issue when it printed a crash message, or was ended by a signal that
    /// `expectedSignal` does not name, or hung.
    func wait(
      expectedSignal: Int32? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Result {
      closeInput()
      if exit.finished.wait(timeout: .now() + FilenoteProcess.hangLimit) == .timedOut {
        Issue.record("\(description) hung: killed it", sourceLocation: sourceLocation)
        kill(processIdentifier, SIGKILL)
        exit.finished.wait()
      }
      // Leave the semaphore signalled, so that waiting again returns at once.
      exit.finished.signal()
      let status = exit.status
      // WIFSIGNALED and WTERMSIG are C macros Swift cannot call.
      let signal: Int32? = status & 0x7F != 0 && status & 0x7F != 0x7F ? status & 0x7F : nil
      let result = Result(
        status: (status >> 8) & 0xFF, signal: signal,
        stdout: FilenoteProcess.contents(of: stdout), stderr: FilenoteProcess.contents(of: stderr))

      for marker in FilenoteProcess.crashMarkers where result.stderrText.contains(marker) {
        Issue.record(
          "\(description): crash or runtime message (\(marker)) on standard error: \(result.stderrText)",
          sourceLocation: sourceLocation)
      }
      if let signal, signal != expectedSignal {
        Issue.record(
          "\(description) was killed by signal \(signal); stderr: \(result.stderrText)",
          sourceLocation: sourceLocation)
      }
      return result
    }
  }

  /// The test process must survive writing to a child that stopped reading;
  /// children get SIGPIPE's default action back when they are spawned.
  private static let brokenPipesIgnored: Void = {
    signal(SIGPIPE, SIG_IGN)
  }()

  /// A read-write file with no name, so nothing is left behind to clean up.
  private static func anonymousFile() throws -> FileHandle {
    var template = Array((NSTemporaryDirectory() + "/filenote-e2e-output.XXXXXX").utf8CString)
    let mkostemp = try GNU.available(GNU.mkostemp, "mkostemp")
    let fd = template.withUnsafeMutableBufferPointer { mkostemp($0.baseAddress!, O_CLOEXEC) }
    guard fd >= 0 else { throw SpawnError.system("mkostemp", errno) }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
  }

  /// Everything written to an anonymous output file.
  private static func contents(of file: FileHandle) -> [UInt8] {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = chunk.withUnsafeMutableBytes { buffer in
        pread(file.fileDescriptor, buffer.baseAddress, buffer.count, off_t(bytes.count))
      }
      if count < 0 && errno == EINTR { continue }
      if count <= 0 { return bytes }
      bytes.append(contentsOf: chunk[0..<count])
    }
  }
}

extension FilenoteProcess.Result {
  /// Expects a success that printed nothing on standard error.
  func expectSuccess(sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(signal == nil && status == 0, "exit status", sourceLocation: sourceLocation)
    #expect(stderrText == "", "standard error", sourceLocation: sourceLocation)
  }

  /// Expects `status`, nothing on standard output, and one error line on
  /// standard error in the form `filenote: <what failed>: <why>`, containing
  /// each of `mentioning` (a path, an offset, a hint).
  func expectError(
    status expected: Int32, mentioning parts: [String] = [],
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(signal == nil && status == expected, "exit status", sourceLocation: sourceLocation)
    #expect(stdoutText == "", "standard output", sourceLocation: sourceLocation)
    #expect(
      stderrText.hasPrefix("filenote: ") && stderrText.hasSuffix("\n"),
      "standard error is 'filenote: ...' and a newline: \(stderrText)",
      sourceLocation: sourceLocation)
    #expect(
      stderrText.dropLast().contains("\n") == false,
      "standard error is one line: \(stderrText)", sourceLocation: sourceLocation)
    for part in parts {
      #expect(
        stderrText.contains(part), "standard error mentions \(part): \(stderrText)",
        sourceLocation: sourceLocation)
    }
  }
}
