/// One of readline's keymaps: a table from key sequences to what they do.
/// An inputrc binds keys in one of them (`set keymap`, or the one its
/// `editing-mode` starts in).
public enum Keymap: Sendable, Equatable, CaseIterable {
  /// The emacs keys (readline's `emacs`, `emacs-standard`; `emacs-meta` and
  /// `emacs-ctlx` are this keymap after Esc and after Ctrl-X).
  case emacs
  /// vi's insert mode (`vi-insert`).
  case viInsert
  /// vi's command mode (`vi-command`, `vi-move`, `vi`).
  case viCommand

  /// The keymap readline calls `name`, with the keys a binding in it is
  /// read after (`emacs-meta` is the emacs keymap after Esc); nil for a
  /// name readline does not know. Names are compared ignoring case, as
  /// readline compares them.
  public static func named(_ name: String) -> (keymap: Keymap, prefix: [Key])? {
    switch name.lowercased() {
    case "emacs", "emacs-standard": (.emacs, [])
    case "emacs-meta": (.emacs, [.escape])
    case "emacs-ctlx": (.emacs, [.control("x")])
    case "vi", "vi-move", "vi-command": (.viCommand, [])
    case "vi-insert": (.viInsert, [])
    default: nil
    }
  }
}
