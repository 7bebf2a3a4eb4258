/// Which of readline's two sets of key bindings the line editor follows
/// (readline's `editing-mode`).
public enum EditingMode: Equatable, Sendable {
  /// Emacs keys (readline's default): see `EditCommand`.
  case emacs
  /// vi keys: an insert mode and a command mode (see `ViCommand`), starting
  /// in insert mode with the cursor at the end, as readline starts.
  case vi
}
