/// What `filenote init SHELL` prints: the shell code a user evaluates in
/// their shell's start-up file, as zoxide, starship and fzf do it. Each
/// script defines the same three functions (doc/INTEGRATION.md):
///
/// - `filenote_prompt`, a prompt segment: the note as one inert line
///   (`filenote show --line`), which the shell never evaluates as code; in
///   bash's `$(...)` filenote takes the subshell's place, and zsh also keeps
///   the line in `filenote_prompt_line`, set by a precmd hook, so that a
///   prompt costs one run of filenote; zsh's `%` (and `!` with
///   PROMPT_BANG) are doubled, so prompt expansion with PROMPT_SUBST shows
///   them as they are;
/// - `filenote_edit_widget`, bound to Alt-M: filenote's prompt opened from
///   the shell's command line, which is kept as it was and redrawn after;
/// - `filenote_save_line_widget`, bound to Alt-J: the command line saved as
///   the note, the line left as it was.
///
/// Alt-M and Alt-J are the Alt-letters that none of readline (bash), zle
/// (zsh, emacs keymap) and fish bind by default (the others free in all
/// three are Alt-I and Alt-K); `FILENOTE_NO_KEYS` set to anything binds no
/// key, and each script's comment says how to bind the widgets to others.
/// The scripts call `command filenote`, the filenote on `PATH`.
enum ShellScript: String, CaseIterable {
  case bash, zsh, fish

  /// The shell named `name`, nil for a shell filenote has no script for.
  static func named(_ name: String) -> ShellScript? {
    allCases.first { $0.rawValue == name }
  }

  /// The script, ending with a line break.
  var text: String {
    switch self {
    case .bash: return Self.bashScript
    case .zsh: return Self.zshScript
    case .fish: return Self.fishScript
    }
  }
}
