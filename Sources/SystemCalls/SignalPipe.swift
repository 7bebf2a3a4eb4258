import CFilenote
import Glibc

/// Signals turned into bytes on a self-pipe, so a program reacts to them in
/// its own loop (with `poll`), never inside a signal handler.
///
/// The handler (in the C target, because a handler may only make
/// async-signal-safe calls) writes each caught signal's number to the pipe.
/// Signal dispositions belong to the whole process, so only one set of
/// signals can be caught at a time.
public enum SignalPipe {
  /// Starts catching `signals` (at most 16) and returns the pipe's
  /// non-blocking read end. A signal the process ignores stays ignored,
  /// unless doing nothing is already its default (SIGWINCH, SIGCONT): a shell
  /// ignores SIGINT and SIGQUIT for background jobs, and `nohup` SIGHUP, on
  /// purpose. `resourceBusy` when signals are already being caught.
  public static func startCatching(_ signals: [Signal]) throws(Errno) -> FileDescriptor {
    let numbers = signals.map(\.rawValue)
    let pipe = try valueOrErrno {
      numbers.withUnsafeBufferPointer { numbers in
        filenote_signal_pipe_install(numbers.baseAddress, Int32(numbers.count))
      }
    }
    return FileDescriptor(rawValue: pipe)
  }

  /// Gives the signals back the dispositions they had before `startCatching`.
  public static func stopCatching() {
    // It can only fail for a signal number sigaction rejects, and
    // startCatching already proved each one valid.
    _ = filenote_signal_pipe_uninstall()
  }

  /// The signals written to the pipe since it was last read, in the order
  /// they arrived. Returns without waiting when the pipe is empty.
  public static func drain(_ pipe: FileDescriptor) -> [Signal] {
    var signals: [Signal] = []
    var buffer = [UInt8](repeating: 0, count: 64)
    while true {
      let count = buffer.withUnsafeMutableBytes { try? pipe.read(into: $0) } ?? 0
      // Nothing (wouldBlock) ends it. Nothing else can happen to a pipe never closed.
      if count <= 0 { return signals }
      signals += buffer[..<count].map { Signal(rawValue: Int32($0)) }
    }
  }
}
