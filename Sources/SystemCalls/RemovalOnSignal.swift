import CFilenote

/// A file that SIGINT, SIGTERM or SIGHUP remove before they end the process:
/// a save's temporary file, which would otherwise stay beside the note.
/// Only one is armed at a time (signal actions belong to the whole process).
public enum RemovalOnSignal {
  /// From now on the three signals (those not ignored) remove `name` in
  /// `folder` and then end the process as they would have.
  public static func arm(name: String, in folder: FileDescriptor) throws(Errno) {
    try valueOrErrno { filenote_remove_on_signal(folder.rawValue, name) }
  }

  /// Holds the signals back: what follows (a rename) must not be cut short.
  public static func hold() {
    filenote_remove_on_signal_hold()
  }

  /// Lets the signals through again after `hold()`.
  public static func release() {
    filenote_remove_on_signal_release()
  }

  /// Disarms and gives the signals their previous actions. `completed`: the
  /// save happened, so a signal held back meanwhile is discarded rather than
  /// delivered.
  public static func disarm(completed: Bool) {
    filenote_remove_on_signal_cancel(completed ? 1 : 0)
  }
}
