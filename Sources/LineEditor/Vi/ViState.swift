/// What vi mode keeps between keys, beside the text: the mode, the keys of
/// a command being typed, and what `.`, `;`, `n` and Backspace in replace
/// mode need to remember.
///
/// Which of insert and command mode the keys are in is `EditState.keymap`
/// (`viInsert`, `viCommand`); replace mode is insert mode's keymap with
/// `isReplacing` set.
struct ViState: Sendable {
  /// Whether typing overwrites (`R`) in insert mode's keymap.
  var isReplacing = false
  var parser = ViCommandParser()
  /// The last command that changed the text (or yanked, or put), which `.`
  /// does again: readline remembers the same ones.
  var lastChange: ViCommand?
  /// What the last insert session typed, which `.` types again after the
  /// command that began it: as readline keeps it, the insert its undo list
  /// ends the session with (the last run of typing, or a yank), or in
  /// replace mode all that was typed.
  var lastInsertedText = ""
  /// The last `f F t T`, which `;` and `,` repeat.
  var lastFind: ViCharacterSearch?
  /// In replace mode, the Characters typed over so far, in order (nil for
  /// one typed past the end), which Backspace puts back.
  var overwritten: [Character?] = []
  /// Set by Ctrl-V in insert mode: the next key goes into the text as it is.
  var isQuotedInsertPending = false
  /// Set while `.` carries out a change again: a change then types the
  /// text of the last insert session instead of starting one.
  var isRepeating = false
  /// The text typed after `/` or `?` so far, nil when none is being typed.
  var searchQuery: String?
  /// Whether the search being typed, or the last one, looks through older
  /// versions first (`/`) or newer ones (`?`).
  var searchOlderFirst = true
  /// The last text searched for, which `n`, `N` and an empty `/` reuse.
  var lastSearchQuery: String?
  /// Where the cursor was on the line being edited when `k`, `j` or a
  /// search left it, where it goes back to on returning.
  var lineCursor: Int?
}
