/// A readline function filenote implements, by the name an inputrc binds a
/// key to. A name that has no case here (readline's `complete`, say) is one
/// filenote does not implement: the inputrc parser ignores a binding to it,
/// and the key keeps what it did.
public enum ReadlineFunction: String, Sendable, CaseIterable {
  // Moving.
  case beginningOfLine = "beginning-of-line"
  case endOfLine = "end-of-line"
  case forwardChar = "forward-char"
  case backwardChar = "backward-char"
  case forwardWord = "forward-word"
  case backwardWord = "backward-word"
  case clearScreen = "clear-screen"
  case characterSearch = "character-search"
  case characterSearchBackward = "character-search-backward"
  case setMark = "set-mark"
  case exchangePointAndMark = "exchange-point-and-mark"
  // The versions (readline's history).
  case acceptLine = "accept-line"
  case previousHistory = "previous-history"
  case nextHistory = "next-history"
  case beginningOfHistory = "beginning-of-history"
  case endOfHistory = "end-of-history"
  case reverseSearchHistory = "reverse-search-history"
  case forwardSearchHistory = "forward-search-history"
  case historySearchBackward = "history-search-backward"
  case historySearchForward = "history-search-forward"
  case historySubstringSearchBackward = "history-substring-search-backward"
  case historySubstringSearchForward = "history-substring-search-forward"
  // Changing text.
  case deleteChar = "delete-char"
  case backwardDeleteChar = "backward-delete-char"
  case quotedInsert = "quoted-insert"
  case tabInsert = "tab-insert"
  case selfInsert = "self-insert"
  case transposeChars = "transpose-chars"
  case transposeWords = "transpose-words"
  case upcaseWord = "upcase-word"
  case downcaseWord = "downcase-word"
  case capitalizeWord = "capitalize-word"
  case overwriteMode = "overwrite-mode"
  // Killing and yanking.
  case killLine = "kill-line"
  case backwardKillLine = "backward-kill-line"
  case unixLineDiscard = "unix-line-discard"
  case killWholeLine = "kill-whole-line"
  case killWord = "kill-word"
  case backwardKillWord = "backward-kill-word"
  case unixWordRubout = "unix-word-rubout"
  case deleteHorizontalSpace = "delete-horizontal-space"
  case killRegion = "kill-region"
  case copyRegionAsKill = "copy-region-as-kill"
  case yank = "yank"
  case yankPop = "yank-pop"
  // Numeric arguments.
  case digitArgument = "digit-argument"
  case universalArgument = "universal-argument"
  // The rest.
  case abort = "abort"
  case undo = "undo"
  case revertLine = "revert-line"
  case prefixMeta = "prefix-meta"
  case editAndExecuteCommand = "edit-and-execute-command"
  case emacsEditingMode = "emacs-editing-mode"
  case viEditingMode = "vi-editing-mode"
  // vi mode's own functions are read by the vi keymaps (Sources/LineEditor/Vi).
  case viMovementMode = "vi-movement-mode"
  case viInsertionMode = "vi-insertion-mode"

  /// The function readline calls `name`, compared ignoring case as
  /// readline compares it; nil for a name filenote does not implement.
  public init?(name: some StringProtocol) {
    var bytes = Array(name.utf8)
    for index in bytes.indices where (0x41...0x5A).contains(bytes[index]) {
      bytes[index] += 0x20
    }
    // Bytes against a table made once: faster than the String compares of
    // `init(rawValue:)`, and an inputrc names a function on most lines.
    guard let index = Self.names.firstIndex(of: bytes) else { return nil }
    self = Self.allCases[index]
  }

  /// The names of `allCases`, in order, as UTF-8.
  private static let names = allCases.map { Array($0.rawValue.utf8) }
}
