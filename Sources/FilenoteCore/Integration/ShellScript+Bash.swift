extension ShellScript {
  /// `filenote init bash`. Every function returns 0, so a shell run with
  /// `set -e` survives a cancelled prompt.
  static let bashScript = #"""
    # filenote init bash: the note in your prompt, and keys to edit it.
    # In ~/.bashrc:  eval "$(filenote init bash)"
    #
    # filenote_prompt prints the note as one line, its control characters as
    # stand-ins and cut to FILENOTE_PROMPT_WIDTH columns (30 by default), for
    # PS1 in single quotes, where its output is shown and never run; it never
    # prints an error:
    #   PS1='$(filenote_prompt) \$ '
    #
    # Alt-M opens the note in filenote's prompt (Enter saves, Ctrl-C cancels)
    # and gives the command line back as it was; Alt-J saves the command line
    # as the note. Set FILENOTE_NO_KEYS=1 before the eval line to bind neither;
    # other keys:  bind -x '"\C-xn": filenote_edit_widget'

    filenote_prompt() {
      # Quiet before every prompt: a width that is not a number of columns
      # counts as 30, and errors (a note that is not UTF-8) show nothing;
      # 'filenote show --line' run by hand says what is wrong.
      local width=${FILENOTE_PROMPT_WIDTH:-30}
      if [[ $width == *[^0-9]* || $width != *[1-9]* ]]; then
        width=30
      fi
      # In PS1's $(...), a subshell whose output is all it is for: filenote
      # takes its place rather than run as its child, one process less a prompt.
      if ((BASH_SUBSHELL)); then
        exec filenote show --line --width "$width" 2>/dev/null
      fi
      command filenote show --line --width "$width" 2>/dev/null || :
    }

    filenote_edit_widget() {
      # bash has erased the command line's rows before running this: draw the
      # line again (the last row of the prompt, then what was typed, control
      # characters as ?) and go below it, where the prompt opens, as in zsh
      # and fish; bash draws the line afresh below the prompt when it ends.
      local prompt=${PS1@P}
      prompt=${prompt##*$'\n'}
      printf '%s%s\n' "${prompt//[$'\001\002']/}" "${READLINE_LINE//[[:cntrl:]]/?}" >/dev/tty
      command filenote </dev/tty || :
    }

    filenote_save_line_widget() {
      if command filenote save -- "${READLINE_LINE-}"; then
        printf 'Saved the line as the note.\n'
      fi
    }

    if [[ $- == *i* && -z ${FILENOTE_NO_KEYS-} ]]; then
      bind -m emacs-standard -x '"\em": filenote_edit_widget'
      bind -m vi-insert -x '"\em": filenote_edit_widget'
      bind -m emacs-standard -x '"\ej": filenote_save_line_widget'
      bind -m vi-insert -x '"\ej": filenote_save_line_widget'
    fi

    """#
}
