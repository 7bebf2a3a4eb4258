import Glibc

/// A child process started with `posix_spawn`: the `getent` lookup, and the
/// user's editor. Wait for it with `wait()`.
public struct ChildProcess: Sendable {
  /// The child's process id.
  public let id: Int32
  /// The terminal whose foreground the child has, if it was started there.
  let terminal: FileDescriptor?

  /// Where one of the child's standard descriptors goes.
  public enum Stream: Sendable {
    /// The same as this process's.
    case inherited
    /// `/dev/null`.
    case nullDevice
    /// This descriptor (dup2'ed in the child).
    case descriptor(FileDescriptor)
  }

  /// How a child ended.
  public enum Termination: Equatable, Sendable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal killed it.
    case killed(by: Signal)
  }

  /// Starts the program at `path` (no `PATH` search) with `arguments` (the
  /// first is its name) and this process's environment. Every signal the
  /// child could inherit as caught or ignored gets its default action back,
  /// and its signal mask is empty.
  ///
  /// With `foregroundOf: terminal`, the child runs in a process group of its
  /// own that becomes the terminal's foreground, as a shell runs a job:
  /// Ctrl-C and Ctrl-Z then reach it and not this process. `wait()` gives
  /// the terminal back.
  public static func spawn(
    _ path: String, arguments: [String],
    standardInput: Stream = .inherited, standardOutput: Stream = .inherited,
    standardError: Stream = .inherited, foregroundOf terminal: FileDescriptor? = nil
  ) throws(Errno) -> ChildProcess {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for (stream, target) in [
      (standardInput, STDIN_FILENO), (standardOutput, STDOUT_FILENO),
      (standardError, STDERR_FILENO),
    ] {
      switch stream {
      case .inherited: break
      case .nullDevice:
        let mode = target == STDIN_FILENO ? O_RDONLY : O_WRONLY
        posix_spawn_file_actions_addopen(&actions, target, "/dev/null", mode, 0)
      case .descriptor(let descriptor):
        posix_spawn_file_actions_adddup2(&actions, descriptor.rawValue, target)
      }
    }

    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var defaults = sigset_t()
    sigfillset(&defaults)
    // SIGKILL and SIGSTOP cannot be given a disposition.
    sigdelset(&defaults, SIGKILL)
    sigdelset(&defaults, SIGSTOP)
    var emptyMask = sigset_t()
    sigemptyset(&emptyMask)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setsigmask(&attributes, &emptyMask)
    var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
    if terminal != nil {
      flags |= Int32(POSIX_SPAWN_SETPGROUP)
      posix_spawnattr_setpgroup(&attributes, 0)
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))

    let argv = arguments.map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var pid = pid_t()
    try nothingOrErrno { posix_spawn(&pid, path, &actions, &attributes, argv, environ) }
    if let terminal {
      // Until this, the child may be stopped by SIGTTIN; `wait` resumes it.
      try? terminal.setForegroundProcessGroup(pid)
    }
    return ChildProcess(id: pid, terminal: terminal)
  }

  /// Starts `path` with standard input and error on `/dev/null` and returns
  /// what it wrote on standard output, with how it ended.
  public static func output(of path: String, arguments: [String]) throws(Errno) -> (
    output: [UInt8], termination: Termination
  ) {
    let pipe = try FileDescriptor.pipe()
    defer { pipe.readEnd.close() }
    let child: ChildProcess
    do {
      child = try spawn(
        path, arguments: arguments, standardInput: .nullDevice,
        standardOutput: .descriptor(pipe.writeEnd), standardError: .nullDevice)
    } catch {
      pipe.writeEnd.close()
      throw error
    }
    // Only the child's copy must keep the pipe open, so reading ends with it.
    pipe.writeEnd.close()
    let output = try? pipe.readEnd.readToEnd()
    let termination = try child.wait()
    return (output ?? [], termination)
  }

  /// Waits until the child has ended, and says how.
  ///
  /// A child started in a terminal's foreground gets the terminal back when
  /// a terminal read stopped it before it had it (SIGTTIN, SIGTTOU). When
  /// the user stops it (Ctrl-Z), this process takes the terminal back and
  /// stops too, as a job's members do; after `fg` the child is given the
  /// terminal and resumed. When it ends, this process's group gets the
  /// terminal back.
  public func wait() throws(Errno) -> Termination {
    while true {
      var status: Int32 = 0
      try valueOrErrno { waitpid(id, &status, terminal == nil ? 0 : WUNTRACED) }
      let low = status & 0x7F
      if low == 0 {
        giveTerminalBack()
        return .exited((status >> 8) & 0xFF)
      }
      if low == 0x7F, let terminal {
        // Stopped (WIFSTOPPED); the stop signal is in the second byte.
        let stop = Signal(rawValue: (status >> 8) & 0xFF)
        if stop == .terminalStop {
          giveTerminalBack()
          Signal.terminalStop.sendToOwnProcessGroup()
        }
        try? terminal.setForegroundProcessGroup(id)
        try? Signal.continue.send(to: -id)
        continue
      }
      giveTerminalBack()
      return .killed(by: Signal(rawValue: low))
    }
  }

  private func giveTerminalBack() {
    try? terminal?.setForegroundProcessGroup(getpgrp())
  }
}
