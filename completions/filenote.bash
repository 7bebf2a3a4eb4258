# bash completion for filenote(1): its commands, its options (after a
# command, the ones it takes), the command names after `help`, version
# numbers after `show`, `restore`, `forget` and `copy` (from `filenote
# history`), the shells after `init`, and file names after `--file`.
#
# It needs nothing but bash 4 (the bash-completion package is optional).
# Try it in the current shell:     source completions/filenote.bash
# `make install` puts it in $(PREFIX)/share/bash-completion/completions/filenote,
# where bash-completion loads it the first time `filenote` is completed.

_filenote() {
  local cur=${COMP_WORDS[COMP_CWORD]}
  local prev=
  ((COMP_CWORD > 0)) && prev=${COMP_WORDS[COMP_CWORD - 1]}
  local commands='save show edit history undo restore forget resolve copy init path clear help'
  local options='--file --help -h'
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
  local command= arguments=0 options_ended= file= i word
  for ((i = 1; i < COMP_CWORD; i++)); do
    word=${COMP_WORDS[i]}
    if [[ -z $options_ended ]]; then
      case $word in
        --)
          options_ended=1
          continue
          ;;
        --file | --width)
          # Skip the value, and the `=` bash may have split off before it;
          # keep --file's, for the version numbers.
          ((i++))
          [[ ${COMP_WORDS[i]} == = ]] && ((i++))
          [[ $word == --file ]] && file=${COMP_WORDS[i]}
          continue
          ;;
        --file=*)
          file=${word#--file=}
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
    # The options a command takes: its own, and none that is not about it
    # (`--version` only before a command).
    case $command in
      '') options+=' --version' ;;
      save) options+=' --no-version' ;;
      show) options+=' --raw --line --width --follow --fail' ;;
      history) options+=' --json' ;;
      forget) options+=' --yes -y' ;;
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
    show | restore | forget | copy)
      # One version number: those `history` lists (0, the note itself,
      # for `show` and `copy` only).
      if ((arguments == 0)); then
        local numbers
        numbers=$(_filenote_versions "${COMP_WORDS[0]}" "$file" "$command")
        mapfile -t COMPREPLY < <(compgen -W "$numbers" -- "$cur")
      fi
      ;;
    init)
      ((arguments == 0)) && mapfile -t COMPREPLY < <(compgen -W 'bash zsh fish' -- "$cur")
      ;;
  esac
  # `save` takes free text, the other commands nothing: no completions.
  return 0
}

# _filenote_versions PROGRAM FILE COMMAND: the version numbers `history`
# lists for the note FILE names (the default note when empty), for COMMAND
# (0, the note itself, for show and copy).
_filenote_versions() {
  local program=$1 file=$2
  # Only a leading ~/ is expanded, as the shell would have: nothing is evaluated.
  [[ $program == '~/'* ]] && program=$HOME/${program#'~/'}
  [[ $file == '~/'* ]] && file=$HOME/${file#'~/'}
  local -a arguments=(history)
  [[ -n $file ]] && arguments+=(--file "$file")
  local number rest
  while read -r number rest; do
    [[ $number == [0-9]* ]] || continue
    [[ $number == 0 && $3 != show && $3 != copy ]] && continue
    printf '%s\n' "$number"
  done < <(command "$program" "${arguments[@]}" 2>/dev/null </dev/null)
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
