import SystemCalls

/// Why the user's editor gave nothing back: how it ended when that was not
/// exit status 0.
enum EditorFailure: Equatable, Sendable, CustomStringConvertible {
  /// It exited with this status (not 0). The shell that runs it exits 127
  /// when the command is not found and 126 when it cannot be executed.
  case exited(editor: String, status: Int32)
  /// A signal killed it.
  case killed(editor: String, signal: Int32)
  /// It could not be started, or waited for.
  case cannotRun(editor: String, errno: Errno)

  /// The words of a message, e.g. "the editor 'vi' exited with status 1".
  var description: String {
    switch self {
    case .exited(let editor, let status) where status == 126 || status == 127:
      return "the editor \(Self.quoted(editor)) could not be started (status \(status))"
    case .exited(let editor, let status) where (129...192).contains(status):
      // The shell that runs the editor says so when a signal killed it.
      return
        "the editor \(Self.quoted(editor)) exited with status \(status) "
        + "(killed by signal \(status - 128))"
    case .exited(let editor, let status):
      return "the editor \(Self.quoted(editor)) exited with status \(status)"
    case .killed(let editor, let signal):
      return "the editor \(Self.quoted(editor)) was killed by signal \(signal)"
    case .cannotRun(let editor, let errno):
      return "cannot run the editor \(Self.quoted(editor)): \(errno)"
    }
  }

  private static func quoted(_ editor: String) -> String {
    "'" + editor.replacingControlCharacters() + "'"
  }
}
