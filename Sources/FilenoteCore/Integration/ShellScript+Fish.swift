extension ShellScript {
  /// `filenote init fish`.
  static let fishScript = #"""
    # filenote init fish: the note in your prompt, and keys to edit it.
    # In ~/.config/fish/config.fish:  filenote init fish | source
    #
    # filenote_prompt prints the note as one line, its control characters as
    # stand-ins and cut to FILENOTE_PROMPT_WIDTH columns (30 by default); fish
    # shows what a prompt function prints and never runs it. In fish_prompt:
    #   filenote_prompt; echo -n ' '
    #
    # Alt-M opens the note in filenote's prompt (Enter saves, Ctrl-C cancels)
    # and gives the command line back as it was; Alt-J saves the command line
    # as the note. Set FILENOTE_NO_KEYS=1 before the source line to bind
    # neither; other keys:  bind \cxn filenote_edit_widget

    function filenote_prompt --description 'Print the note as one line, for fish_prompt'
        # Quiet before every prompt: a width that is not a number of columns
        # counts as 30, and errors (a note that is not UTF-8) show nothing;
        # 'filenote show --line' run by hand says what is wrong.
        set -l width 30
        if set -q FILENOTE_PROMPT_WIDTH[1]
            and string match -qr '^[0-9]*[1-9][0-9]*$' -- "$FILENOTE_PROMPT_WIDTH"
            set width $FILENOTE_PROMPT_WIDTH
        end
        # Through a command substitution: the line without its line break,
        # which would end the prompt's line.
        printf '%s' (command filenote show --line --width $width 2>/dev/null)
        return 0
    end

    function filenote_edit_widget --description 'Edit the note in filenote, then the line again'
        echo
        command filenote </dev/tty
        commandline -f repaint
    end

    function filenote_save_line_widget --description 'Save the command line as the note'
        if command filenote save -- (commandline | string collect --allow-empty)
            echo
            echo 'Saved the line as the note.'
        end
        commandline -f repaint
    end

    if status is-interactive; and test -z "$FILENOTE_NO_KEYS"
        bind \em filenote_edit_widget
        bind -M insert \em filenote_edit_widget
        bind \ej filenote_save_line_widget
        bind -M insert \ej filenote_save_line_widget
    end

    """#
}
