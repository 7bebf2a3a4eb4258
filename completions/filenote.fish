# fish completion for filenote(1): its commands, its options (after a
# command, the ones it takes), the command names after `help`, version
# numbers after `show`, `restore`, `forget` and `copy` (from `filenote
# history`), the shells after `init`, and file names after `--file`.
#
# Try it in the current shell:  source completions/filenote.fish
# `make install` puts it in $(PREFIX)/share/fish/vendor_completions.d/filenote.fish,
# where fish loads it the first time `filenote` is completed.

# Prints the words typed so far that are neither options nor the value of
# --file, one a line: the command, then its arguments, as filenote parses them.
function __filenote_words
    set -l words (commandline -opc)
    set -e words[1]
    set -l skip_value 0
    set -l options_ended 0
    for word in $words
        if test $skip_value = 1
            set skip_value 0
            continue
        end
        if test $options_ended = 0
            switch $word
                case --
                    set options_ended 1
                    continue
                case --file --width
                    set skip_value 1
                    continue
                case '-?*'
                    continue
            end
        end
        echo $word
    end
end

# True when no command has been typed yet.
function __filenote_needs_command
    test (count (__filenote_words)) = 0
end

# True after one of the commands given as arguments.
function __filenote_after
    set -l words (__filenote_words)
    test (count $words) -ge 1; and contains -- $words[1] $argv
end

# True right after one of the commands given as arguments, where its version
# number comes.
function __filenote_needs_number
    set -l words (__filenote_words)
    test (count $words) = 1; and contains -- $words[1] $argv
end

# The version numbers `filenote history` lists for the note the command line
# names (0, the note itself, with `all`), each with its first line.
function __filenote_versions
    set -l words (commandline -opc)
    command -q $words[1]; or return
    set -l arguments history
    set -l index (contains -i -- --file $words)
    and set -a arguments --file $words[(math $index + 1)]
    for word in $words
        string match -q -- '--file=*' $word; and set arguments history $word
    end
    command $words[1] $arguments 2>/dev/null </dev/null | while read -l number date time size first
        test $number = 0; and test "$argv[1]" != all; and continue
        printf '%s\t%s\n' $number "$date $time  $first"
    end
end

# True right after `help`, where a command name comes.
function __filenote_needs_help_topic
    set -l words (__filenote_words)
    test (count $words) = 1; and test $words[1] = help
end

# No file names unless asked for: `save` takes free text, the rest take none.
complete -c filenote -f

# Each command and its summary, word for word as `filenote --help` gives them
# (a test holds them to the command table).
complete -c filenote -n __filenote_needs_command -a save \
    -d 'save TEXT (words joined by one space), or standard input'
complete -c filenote -n __filenote_needs_command -a show -d 'print the saved note, or version N'
complete -c filenote -n __filenote_needs_command -a edit \
    -d 'edit the note in your editor ($VISUAL, $EDITOR)'
complete -c filenote -n __filenote_needs_command -a history \
    -d 'list the note (0) and its kept versions, newest first'
complete -c filenote -n __filenote_needs_command -a undo \
    -d 'put the previous version back (again to redo)'
complete -c filenote -n __filenote_needs_command -a restore -d 'put version N back'
complete -c filenote -n __filenote_needs_command -a forget \
    -d 'remove version N for good (a secret saved by mistake)'
complete -c filenote -n __filenote_needs_command -a resolve \
    -d 'keep the note; take conflict copies into the versions'
complete -c filenote -n __filenote_needs_command -a copy \
    -d 'put the note, or version N, on the clipboard'
complete -c filenote -n __filenote_needs_command -a init \
    -d 'print the shell code for the prompt segment and keys'
complete -c filenote -n __filenote_needs_command -a path -d 'print where the note is stored'
complete -c filenote -n __filenote_needs_command -a clear \
    -d 'remove the saved note (--all: and every version)'
complete -c filenote -n __filenote_needs_command -a help -d 'show the help, or the help of COMMAND'

complete -c filenote -n __filenote_needs_help_topic \
    -a 'save show edit history undo restore forget resolve copy init path clear help'

complete -c filenote -n '__filenote_needs_number show copy' -a '(__filenote_versions all)'
complete -c filenote -n '__filenote_needs_number restore forget' -a '(__filenote_versions)'

# The options of some commands, after them.
complete -c filenote -n '__filenote_after clear' -l all -d 'remove every kept version too'
complete -c filenote -n '__filenote_after save' -l no-version \
    -d 'keep nothing of the note it replaces'
complete -c filenote -n '__filenote_after forget' -s y -l yes -d 'forget without asking'
complete -c filenote -n '__filenote_after show' -l raw \
    -d 'on a terminal too, print control characters as they are'
complete -c filenote -n '__filenote_after show' -l line \
    -d 'print the note as one inert line, for a prompt or a bar'
complete -c filenote -n '__filenote_after show' -l width -x \
    -d 'the line at most N columns (default: the terminal\'s, or 80)'
complete -c filenote -n '__filenote_after show' -l follow -d 'print the line again at each change'
complete -c filenote -n '__filenote_after show' -l fail \
    -d 'with no note, exit with status 1 (still printing nothing)'
complete -c filenote -n '__filenote_after history' -l json \
    -d 'print one JSON object a version (JSON Lines)'
complete -c filenote -n '__filenote_after copy' -l desktop \
    -d 'use wl-copy, xclip or xsel, not the terminal'

# True right after `init`, where a shell's name comes.
function __filenote_needs_shell
    set -l words (__filenote_words)
    test (count $words) = 1; and test $words[1] = init
end
complete -c filenote -n __filenote_needs_shell -a 'bash zsh fish'

complete -c filenote -l file -r -F -d 'use the note file PATH, not <documents>/datafile.dat'
complete -c filenote -s h -l help -d 'show help and exit'
# Not about a command: only before one.
complete -c filenote -n __filenote_needs_command -l version -d 'show the version and exit'
