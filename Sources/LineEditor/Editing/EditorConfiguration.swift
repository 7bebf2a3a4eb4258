/// How the line editor is set up: readline's variables that filenote
/// honours and the user's key bindings, as an inputrc sets them
/// (`InputrcParser`). The defaults are readline's.
public struct EditorConfiguration: Sendable, Equatable {
  /// readline's `bell-style`.
  public enum BellStyle: Sendable, Equatable {
    case none, visible, audible
  }

  /// `editing-mode`: the keys a line starts with.
  public var editingMode = EditingMode.emacs
  /// `keyseq-timeout`: how long, in milliseconds, a key that begins a
  /// longer bound sequence waits for the rest of it before it is read
  /// alone; 0 or less waits for the next key however long it takes.
  public var keySequenceTimeoutMilliseconds = 500
  /// `bell-style`.
  public var bellStyle = BellStyle.audible
  /// `enable-bracketed-paste`: whether the terminal is asked to mark pastes.
  public var enablesBracketedPaste = true
  /// `show-mode-in-prompt`: whether the mode string goes before the prompt.
  public var showsModeInPrompt = false
  /// `emacs-mode-string`, `vi-ins-mode-string`, `vi-cmd-mode-string`: their
  /// text only (readline's `\1`…`\2` invisible parts are dropped).
  public var emacsModeString = "@"
  public var viInsertModeString = "(ins)"
  public var viCommandModeString = "(cmd)"
  /// The user's bindings, by keymap.
  public var emacsBindings = KeyBindings()
  public var viInsertBindings = KeyBindings()
  public var viCommandBindings = KeyBindings()

  /// readline's defaults, and no bindings of the user's.
  public init() {}

  /// The user's bindings in `keymap`.
  public subscript(bindingsOf keymap: Keymap) -> KeyBindings {
    get {
      switch keymap {
      case .emacs: emacsBindings
      case .viInsert: viInsertBindings
      case .viCommand: viCommandBindings
      }
    }
    // In place: a binding added through a getter and setter would copy the
    // keymap's whole list each time, making an inputrc's parse quadratic.
    _modify {
      switch keymap {
      case .emacs: yield &emacsBindings
      case .viInsert: yield &viInsertBindings
      case .viCommand: yield &viCommandBindings
      }
    }
  }

  /// The mode string shown before the prompt in `keymap` when
  /// `show-mode-in-prompt` is on, else nil.
  public func modeString(in keymap: Keymap) -> String? {
    guard showsModeInPrompt else { return nil }
    switch keymap {
    case .emacs: return emacsModeString
    case .viInsert: return viInsertModeString
    case .viCommand: return viCommandModeString
    }
  }
}
