# bash completion for filenote(1): its commands, its options, the command
# names after `help`, the shells after `init`, and file names after `--file`.
#
# It needs nothing but bash 4 (the bash-completion package is optional).
# Try it in the current shell:     source completions/filenote.bash
# `make install` puts it in $(PREFIX)/share/bash-completion/completions/filenote,
# where bash-completion loads it the first time `filenote` is completed.

_filenote() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  local prev=
  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
  local commands='save show edit history undo restore copy init path clear help'
  local options='--file --help -h --version'
  COMPREPLY=()

  # The value of --file. Bash splits `--file=PATH` at the `=` (it is in
  # COMP_WORDBREAKS), so the words are `--file`, `=` and the path so far.
  if [[ $prev == --file ]]; then
    [[ $cur == = ]] && cur=
    _filenote_files "$cur"
    return
  fi
  if ((COMP_CWORD > 1)) && [[ $prev == = && ${COMP_WORDS[COMP_CWORD - 2]} == --file ]]; then
    _filenote_files "$cur"
    return
  fi
  # The same with a COMP_WORDBREAKS that has no `=`.
  if [[ $cur == --file=* ]]; then
    _filenote_files "${cur#--file=}" --file=
    return
  fi

  # The value of --width is a number of columns: nothing to offer.
  if [[ $prev == --width || $cur == --width=* ]]; then
    return 0
  fi
  if ((COMP_CWORD > 1)) && [[ $prev == = && ${COMP_WORDS[COMP_CWORD - 2]} == --width ]]; then
    return 0
  fi

  # Find the command and count its arguments, the way filenote parses them:
  # options may come anywhere, and `--` ends them.
  local command= arguments=0 options_ended= i word
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    if [[ -z $options_ended ]]; then
      case $word in
        --)
          options_ended=1
          continue
          ;;
        --file | --width)
          # Skip the value, and the `=` bash may have split off before it.
          ((i++))
          [[ ${COMP_WORDS[i]} == = ]] && ((i++))
          continue
          ;;
        -?*) continue ;;
      esac
    fi
    if [[ -z $command ]]; then
      command=$word
    else
      ((arguments++))
    fi
  done

  if [[ -z $options_ended && $cur == -* ]]; then
    # The options of some commands alone.
    case $command in
      show) options+=' --line --width --follow' ;;
      history) options+=' --json' ;;
      copy) options+=' --desktop' ;;
      clear) options+=' --all' ;;
    esac
    mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
    return
  fi

  case $command in
    '')
      mapfile -t COMPREPLY < <(compgen -W "$commands" -- "$cur")
      ;;
    help)
      ((arguments == 0)) && mapfile -t COMPREPLY < <(compgen -W "$commands" -- "$cur")
      ;;
    init)
      ((arguments == 0)) && mapfile -t COMPREPLY < <(compgen -W 'bash zsh fish' -- "$cur")
      ;;
  esac
  # `save` takes free text, `show`, `restore` and `copy` a version number
  # (see `filenote history`), the other commands nothing: no completions.
  return 0
}

# _filenote_files PARTIAL [PREFIX]: the file names that start with PARTIAL,
# each after PREFIX.
_filenote_files() {
  # Let readline quote special characters and put `/` after folder names.
  # compopt fails outside a completion (as when a test calls _filenote).
  compopt -o filenames 2>/dev/null
  local name
  while IFS= read -r name; do
    COMPREPLY+=("${2-}$name")
  done < <(compgen -f -- "$1")
}

complete -F _filenote filenote
