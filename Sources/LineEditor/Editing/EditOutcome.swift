/// What the session must do after `EditState` handled a key.
public enum EditOutcome: Equatable, Sendable {
  /// The text or the cursor may have changed: redraw.
  case edited
  /// Nothing happened (an unbound key, or a key with nothing to act on, such as
  /// Backspace at the start of the line): the session may ring the bell or
  /// ignore it.
  case unchanged
  /// Enter: save the text.
  case submit
  /// Ctrl-C: cancel without saving (exit 130).
  case cancel
  /// Ctrl-D on an empty line: cancel without saving (exit 1).
  case endOfInput
  /// Ctrl-L: clear the screen and redraw.
  case redrawScreen
  /// Ctrl-Z: suspend the process.
  case suspend
  /// Ctrl-X Ctrl-E: run the user's editor on this text (the text itself,
  /// as it would be saved), then `EditState.replaceText(with:)` with what
  /// the line editor left, or keep the line.
  case editInEditor(String)
}
