/// What a key asks the line editor to do: the emacs-mode bindings of GNU readline,
/// each command named after the readline function it mirrors.
enum EditCommand: Equatable, Sendable {
  /// Insert typed text at the cursor (self-insert).
  case selfInsert(String)
  /// Insert pasted text at the cursor (bracketed-paste-begin).
  case bracketedPaste(String)
  case backwardChar
  case forwardChar
  case beginningOfLine
  case endOfLine
  case backwardWord
  case forwardWord
  /// Backspace, Ctrl-H.
  case backwardDeleteChar
  /// The Delete key.
  case deleteChar
  /// Ctrl-D: delete-char, or end of input on an empty line.
  case deleteCharOrEndOfInput
  /// Ctrl-K.
  case killLine
  /// Ctrl-U.
  case unixLineDiscard
  /// Ctrl-W.
  case unixWordRubout
  /// Alt-D.
  case killWord
  /// Alt-Backspace.
  case backwardKillWord
  /// Ctrl-Y.
  case yank
  /// Alt-Y.
  case yankPop
  /// Ctrl-T.
  case transposeChars
  /// Ctrl-_ (also sent for Ctrl-/).
  case undo
  /// Enter.
  case acceptLine
  /// Ctrl-C.
  case cancel
  /// Ctrl-L.
  case clearScreen
  /// Ctrl-Z.
  case suspend
  /// Up, Ctrl-P: the next older version.
  case previousHistory
  /// Down, Ctrl-N: the next newer version, down to the line being edited.
  case nextHistory
  /// Alt-<: the oldest version.
  case beginningOfHistory
  /// Alt->: back to the line being edited.
  case endOfHistory
  /// Ctrl-R: search the versions incrementally, older first.
  case reverseSearchHistory
  /// Ctrl-S: search the versions incrementally, newer first.
  case forwardSearchHistory
  /// Ctrl-G: nothing to abort outside a search (it ends a pending Esc).
  case abort
  /// Ctrl-X: the next key is read from the Ctrl-X keymap (`init(afterControlX:)`).
  case controlXPrefix
  /// Ctrl-X Ctrl-E: hand the line to the user's editor (readline's
  /// edit-and-execute-command, except that nothing is executed).
  case editInEditor

  /// The command bound to `key`, or nil when the key is unbound.
  init?(_ key: Key) {
    let command: Self?
    switch key {
    case .text(let text): command = .selfInsert(text)
    case .paste(let text): command = .bracketedPaste(text)
    case .enter: command = .acceptLine
    case .backspace: command = .backwardDeleteChar
    case .delete: command = .deleteChar
    case .home: command = .beginningOfLine
    case .end: command = .endOfLine
    case .escape: command = nil
    case .arrow(let arrow, let modifiers):
      // xterm sends Ctrl-Left as `ESC [ 1 ; 5 D`; some terminals send Alt-Left
      // (`ESC [ 1 ; 3 D`) for the same thing.
      let byWord = !modifiers.isDisjoint(with: [.control, .alt])
      switch arrow {
      case .left: command = byWord ? .backwardWord : .backwardChar
      case .right: command = byWord ? .forwardWord : .forwardChar
      // Up and Down walk the versions with or without modifiers: nothing
      // else is bound to them.
      case .up: command = .previousHistory
      case .down: command = .nextHistory
      }
    case .control(let character): command = Self.controlBinding(character)
    case .alt(let character): command = Self.altBinding(character)
    }
    guard let command else { return nil }
    self = command
  }

  /// The command for Ctrl held with `character` (lowercase, as `Key` names it).
  private static func controlBinding(_ character: Character) -> Self? {
    switch character {
    case "a": .beginningOfLine
    case "b": .backwardChar
    case "c": .cancel
    case "d": .deleteCharOrEndOfInput
    case "e": .endOfLine
    case "f": .forwardChar
    case "g": .abort
    case "h": .backwardDeleteChar
    // Tab: there is nothing to complete in a note, so it is text.
    case "i": .selfInsert("\t")
    case "j", "m": .acceptLine
    case "k": .killLine
    case "l": .clearScreen
    case "n": .nextHistory
    case "p": .previousHistory
    case "r": .reverseSearchHistory
    // Ctrl-S: the terminal layer turns off flow control (IXON), so it reaches us.
    case "s": .forwardSearchHistory
    case "t": .transposeChars
    case "u": .unixLineDiscard
    case "w": .unixWordRubout
    case "x": .controlXPrefix
    case "y": .yank
    case "z": .suspend
    case "_": .undo
    default: nil
    }
  }

  /// The command bound to `key` when it follows Ctrl-X, or nil when that
  /// pair is unbound (readline then drops both keys).
  init?(afterControlX key: Key) {
    switch key {
    case .control("e"): self = .editInEditor
    default: return nil
    }
  }

  /// The command for Alt held with `character`; readline binds the uppercase
  /// letters like the lowercase ones.
  private static func altBinding(_ character: Character) -> Self? {
    switch character {
    case "b", "B": .backwardWord
    case "f", "F": .forwardWord
    case "d", "D": .killWord
    case "y", "Y": .yankPop
    case "<": .beginningOfHistory
    case ">": .endOfHistory
    // Alt-Backspace, and Alt-Ctrl-H for terminals whose Backspace sends 0x08.
    case "\u{7F}", "\u{08}": .backwardKillWord
    default: nil
    }
  }
}
