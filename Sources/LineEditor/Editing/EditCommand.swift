/// What a key asks the line editor to do: the emacs-mode bindings of GNU readline,
/// each command named after the readline function it mirrors. The tables
/// below are the emacs keymap as readline binds it by default; an inputrc's
/// bindings (`KeyBindings`) are looked up before them.
///
/// Commands marked "count" repeat, or reach further, with a numeric argument
/// (Alt-digits, Alt--); a negative one turns their direction round.
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
  /// Ctrl-_ (also sent for Ctrl-/), Ctrl-X Ctrl-U, and Ctrl-X u (as in
  /// Emacs; readline leaves it unbound).
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
  /// Alt-U, Alt-L, Alt-C (count): the word after the cursor in capitals, in
  /// small letters, or with a capital first, each character by its simple
  /// case mapping as readline maps it (`ß` stays `ß`).
  case upcaseWord
  case downcaseWord
  case capitalizeWord
  /// Alt-T (count): swaps the words around the cursor.
  case transposeWords
  /// Alt-R, Alt-Ctrl-R: undoes every change to the line (back to the note as the
  /// prompt opened it, or to the version as it was recalled).
  case revertLine
  /// Alt-0…Alt-9: starts (or goes on with) a numeric argument; digits
  /// typed after it go on with it.
  case digitArgument(Int)
  /// Alt--: starts a negative numeric argument.
  case negativeArgument
  /// universal-argument (unbound by default): multiplies the argument by 4.
  case universalArgument
  /// Ctrl-] (count): moves to the next occurrence of the next key's character.
  case characterSearch
  /// Alt-Ctrl-] (count): moves to the previous occurrence.
  case characterSearchBackward
  /// Ctrl-V, Ctrl-Q (count): the next key goes into the text as what it
  /// sends (Ctrl-V Ctrl-J a line feed, Ctrl-V Tab a tab).
  case quotedInsert
  /// Alt-\: deletes the spaces and tabs around the cursor.
  case deleteHorizontalSpace
  /// Ctrl-@ (Ctrl-Space), Alt-Space: puts the mark at the cursor (with a
  /// numeric argument, at that position).
  case setMark
  /// Ctrl-X Ctrl-X: swaps the cursor and the mark.
  case exchangePointAndMark
  /// kill-region, copy-region-as-kill (unbound by default): the text between
  /// the cursor and the mark into the kill ring, removed or kept.
  case killRegion
  case copyRegionAsKill
  /// overwrite-mode (unbound by default): typed text replaces the text
  /// under the cursor until it is toggled off.
  case overwriteMode
  /// history-search-backward and -forward (unbound by default; count): the
  /// next version that starts with the text before the cursor.
  case historySearchBackward
  case historySearchForward
  /// history-substring-search-backward and -forward (unbound; count): the
  /// next version that holds it anywhere.
  case historySubstringSearchBackward
  case historySubstringSearchForward
  /// Ctrl-X Backspace: kills from the start of the line to the cursor.
  case backwardKillLine
  /// kill-whole-line (unbound by default).
  case killWholeLine
  /// prefix-meta (Esc): the next key is read with Alt held.
  case prefixMeta
  /// emacs-editing-mode, vi-editing-mode: the other set of keys.
  case switchMode(EditingMode)

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
    case "v", "q": .quotedInsert
    case "]": .characterSearch
    // Ctrl-Space sends NUL, as Ctrl-@ does.
    case "@": .setMark
    default: nil
    }
  }

  /// The command bound to `key` when it follows Ctrl-X, or nil when that
  /// pair is unbound (readline then drops both keys).
  init?(afterControlX key: Key) {
    switch key {
    case .control("e"): self = .editInEditor
    case .control("u"), .text("u"): self = .undo
    case .control("x"): self = .exchangePointAndMark
    case .control("g"): self = .abort
    case .backspace: self = .backwardKillLine
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
    case "u", "U": .upcaseWord
    case "l", "L": .downcaseWord
    case "c", "C": .capitalizeWord
    case "t", "T": .transposeWords
    case "r", "R", "\u{12}": .revertLine
    case "<": .beginningOfHistory
    case ">": .endOfHistory
    case "-": .negativeArgument
    case "\\": .deleteHorizontalSpace
    case " ": .setMark
    // Alt-Backspace, and Alt-Ctrl-H for terminals whose Backspace sends 0x08.
    case "\u{7F}", "\u{08}": .backwardKillWord
    // Alt-Tab inserts a tab; Alt-Ctrl-L clears the screen as Ctrl-L does.
    case "\t": .selfInsert("\t")
    case "\u{0C}": .clearScreen
    case "\u{1D}": .characterSearchBackward
    default:
      if let digit = character.wholeNumberValue, character.isASCII {
        .digitArgument(digit)
      } else {
        nil
      }
    }
  }

  /// The command readline's `function` runs in the emacs keymap, or nil for
  /// one that has no meaning there (vi mode's own).
  init?(_ function: ReadlineFunction) {
    switch function {
    case .beginningOfLine: self = .beginningOfLine
    case .endOfLine: self = .endOfLine
    case .forwardChar: self = .forwardChar
    case .backwardChar: self = .backwardChar
    case .forwardWord: self = .forwardWord
    case .backwardWord: self = .backwardWord
    case .clearScreen: self = .clearScreen
    case .characterSearch: self = .characterSearch
    case .characterSearchBackward: self = .characterSearchBackward
    case .setMark: self = .setMark
    case .exchangePointAndMark: self = .exchangePointAndMark
    case .acceptLine: self = .acceptLine
    case .previousHistory: self = .previousHistory
    case .nextHistory: self = .nextHistory
    case .beginningOfHistory: self = .beginningOfHistory
    case .endOfHistory: self = .endOfHistory
    case .reverseSearchHistory: self = .reverseSearchHistory
    case .forwardSearchHistory: self = .forwardSearchHistory
    case .historySearchBackward: self = .historySearchBackward
    case .historySearchForward: self = .historySearchForward
    case .historySubstringSearchBackward: self = .historySubstringSearchBackward
    case .historySubstringSearchForward: self = .historySubstringSearchForward
    case .deleteChar: self = .deleteChar
    case .backwardDeleteChar: self = .backwardDeleteChar
    case .quotedInsert: self = .quotedInsert
    case .tabInsert: self = .selfInsert("\t")
    case .transposeChars: self = .transposeChars
    case .transposeWords: self = .transposeWords
    case .upcaseWord: self = .upcaseWord
    case .downcaseWord: self = .downcaseWord
    case .capitalizeWord: self = .capitalizeWord
    case .overwriteMode: self = .overwriteMode
    case .killLine: self = .killLine
    case .backwardKillLine: self = .backwardKillLine
    case .unixLineDiscard: self = .unixLineDiscard
    case .killWholeLine: self = .killWholeLine
    case .killWord: self = .killWord
    case .backwardKillWord: self = .backwardKillWord
    case .unixWordRubout: self = .unixWordRubout
    case .deleteHorizontalSpace: self = .deleteHorizontalSpace
    case .killRegion: self = .killRegion
    case .copyRegionAsKill: self = .copyRegionAsKill
    case .yank: self = .yank
    case .yankPop: self = .yankPop
    case .universalArgument: self = .universalArgument
    case .abort: self = .abort
    case .undo: self = .undo
    case .revertLine: self = .revertLine
    case .prefixMeta: self = .prefixMeta
    case .editAndExecuteCommand: self = .editInEditor
    case .emacsEditingMode: self = .switchMode(.emacs)
    case .viEditingMode: self = .switchMode(.vi)
    // Need the key that ran them: run where the key is known (EditState).
    case .selfInsert, .digitArgument: return nil
    case .viMovementMode, .viInsertionMode: return nil
    }
  }

  /// Whether a run of this command goes on with the text the last one
  /// looked for (history-search and its kin).
  var isHistorySearch: Bool {
    switch self {
    case .historySearchBackward, .historySearchForward, .historySubstringSearchBackward,
      .historySubstringSearchForward:
      true
    default: false
    }
  }
}
