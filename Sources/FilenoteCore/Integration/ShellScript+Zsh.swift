extension ShellScript {
  /// `filenote init zsh`.
  static let zshScript = #"""
    # filenote init zsh: the note in your prompt, and keys to edit it.
    # In ~/.zshrc:  eval "$(filenote init zsh)"
    #
    # Before each prompt, filenote_precmd sets filenote_prompt_line to the
    # note as one line, its control characters as stand-ins and cut to
    # FILENOTE_PROMPT_WIDTH columns (30 by default), with % (and ! under
    # PROMPT_BANG) doubled so that the prompt shows them as they are; the
    # prompt shows it and never runs it:
    #   setopt prompt_subst; PROMPT='${filenote_prompt_line} '$PROMPT
    # filenote_prompt prints the same, for $(filenote_prompt) elsewhere.
    #
    # Alt-M opens the note in filenote's prompt (Enter saves, Ctrl-C cancels)
    # and gives the command line back as it was; Alt-J saves the command line
    # as the note. Set FILENOTE_NO_KEYS=1 before the eval line to bind neither;
    # other keys:  bindkey '^Xn' filenote_edit_widget

    filenote_precmd() {
      # Quiet before every prompt: a width that is not a number of columns
      # counts as 30, and errors (a note that is not UTF-8) show nothing;
      # 'filenote show --line' run by hand says what is wrong.
      local line width=${FILENOTE_PROMPT_WIDTH:-30}
      if [[ $width == *[^0-9]* || $width != *[1-9]* ]]; then
        width=30
      fi
      line=$(command filenote show --line --width "$width" 2>/dev/null) || line=
      line=${line//\%/%%}
      if [[ -o prompt_bang ]]; then
        line=${line//\!/!!}
      fi
      typeset -g filenote_prompt_line=$line
    }

    filenote_prompt() {
      filenote_precmd
      print -rn -- "$filenote_prompt_line"
    }

    typeset -g filenote_prompt_line=
    autoload -Uz add-zsh-hook
    add-zsh-hook precmd filenote_precmd

    filenote_edit_widget() {
      # zle -I leaves the line on screen and gives the terminal to filenote;
      # zle -R draws the line again where filenote left the cursor.
      zle -I
      command filenote </dev/tty
      filenote_precmd
      zle -R
      zle reset-prompt
    }

    filenote_save_line_widget() {
      local message
      if message=$(command filenote save -- "$BUFFER" 2>&1); then
        filenote_precmd
        zle reset-prompt
        zle -M 'Saved the line as the note.'
      else
        zle -M -- "$message"
      fi
    }

    zle -N filenote_edit_widget
    zle -N filenote_save_line_widget
    if [[ -o interactive && -z ${FILENOTE_NO_KEYS-} ]]; then
      bindkey -M emacs '^[m' filenote_edit_widget
      bindkey -M viins '^[m' filenote_edit_widget
      bindkey -M emacs '^[j' filenote_save_line_widget
      bindkey -M viins '^[j' filenote_save_line_widget
    fi

    """#
}
