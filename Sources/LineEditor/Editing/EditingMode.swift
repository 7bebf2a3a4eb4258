/// Which of readline's two sets of key bindings the line editor starts in:
/// readline's `editing-mode` variable.
public enum EditingMode: Sendable, Equatable {
  /// The emacs keys, readline's default.
  case emacs
  /// vi's keys: insert mode first, command mode on Esc.
  case vi

  /// The keymap a line starts in: `emacs`, or `viInsert` (readline starts
  /// vi mode inserting).
  public var startingKeymap: Keymap {
    switch self {
    case .emacs: .emacs
    case .vi: .viInsert
    }
  }
}
