"""Case group "readline": filenote's prompt held against GNU readline itself.

Each case runs bash's `read -e -r -i NOTE` (GNU readline, from Debian's bash)
and `filenote --file NOTE` on pseudo-terminals, with the same INPUTRC and the
same keys, and compares the line each one ends with: what `read` put in its
variable, and what filenote saved. The keys are written once each program
has put the terminal in raw mode (both turn bracketed paste on then, or,
with it off, both have drawn the note): a fixed case's in one write, a
random sequence's one write per key as typed, an Alt key as Esc and the
key in the same write.

Fixed cases cover every emacs command and key the prompt has; seeded random
sequences follow (a few hundred in the short setting, more in the long one).
The mode comes from the INPUTRC, so vi-mode cases are rows of the same
table with `set editing-mode vi`.

Where filenote differs from readline on purpose, the case says why and
asserts filenote's documented behaviour (doc/filenote.1, KEYS) instead:
- undo and revert-line reach back to the note as the prompt opened it,
  where `read -i` inserts the note as readline's first undoable edit (so
  readline's revert-line empties the line);
- a line feed typed with Ctrl-V Ctrl-J stays in the note, where `read`
  stops its line at it;
- in vi mode, `#` and `*` do nothing (readline's insert-comment and glob
  expansion are a shell's); the random vi sequences leave out `.` after `C`
  and `u` or `.` before any change, where readline's line depends on
  `read -i`'s own insertion of the note (Tests/LineEditorTests/
  ViReadlineCases.swift, `differences`, holds them to filenote's rule).
"""

import os
import random
import subprocess
import tempfile
import time

from harness import check, clean_environment, read_or_none, show_bytes, type_on_terminal

BASH_SCRIPT = 'IFS= read -r -e -i "$NOTE" line; printf %s "$line" > "$OUT"'
READY = b"\x1b[?2004h"
# What filenote's hint line says when Enter on an emptied line keeps the
# prompt open (Sources/FilenoteCore/Prompts/EditingPrompt.swift; the man
# page says the prompt stays); the case is over then.
STAYS = b"Not saved: a note cannot be empty"
ESC = b"\x1b"


def ctrl(letter):
    return bytes([ord(letter.upper()) & 0x1F])


def alt(key):
    return ESC + (key if isinstance(key, bytes) else key.encode())


# (name, note, keys, inputrc, expected-by-filenote or None when readline's line is expected)
# Keys end with Enter (\r) unless the case adds its own.
CASES = [
    ("self-insert and cursor keys", "hello world", ctrl("a") + b">" + ctrl("e") + b"<", "", None),
    ("backward-char, forward-char", "abc", ctrl("b") + ctrl("b") + b"X" + ctrl("f") + b"Y", "", None),
    ("backward-word, forward-word", "one two three", alt("b") + alt("b") + b"^" + alt("f") + b"$",
     "", None),
    ("delete-char, backward-delete-char", "abcdef", ctrl("a") + ctrl("d") + ctrl("e") + b"\x7f",
     "", None),
    ("kill-line and yank", "one two three", alt("b") + ctrl("k") + ctrl("a") + ctrl("y"), "",
     None),
    ("unix-line-discard", "one two three", alt("b") + ctrl("u"), "", None),
    ("unix-word-rubout", "one two.three four", ctrl("w") + ctrl("w"), "", None),
    ("kill-word", "one two three", ctrl("a") + alt("d") + alt("d"), "", None),
    ("backward-kill-word", "one two.three", alt(b"\x7f") + alt(b"\x7f"), "", None),
    ("yank-pop", "aa bb cc", ctrl("w") + ctrl("a") + ctrl("k") + ctrl("y") + alt("y"), "", None),
    ("transpose-chars", "abcd", ctrl("b") + ctrl("t") + ctrl("e") + ctrl("t"), "", None),
    ("transpose-chars with a negative argument", "one two", ctrl("b") + alt("-") + ctrl("t") +
     b"X", "", None),
    ("transpose-chars with a negative argument at the end", "one two", alt("-") + ctrl("t") +
     b"X", "", None),
    ("transpose-words", "one two three", alt("b") + alt("t"), "", None),
    ("transpose-words at the end", "one two three", alt("t"), "", None),
    ("transpose-words with an argument", "a b c d", ctrl("a") + alt("f") + alt("2") + alt("t"),
     "", None),
    ("upcase-word", "straße über", ctrl("a") + alt("u"), "", None),
    ("upcase-word, non-ASCII", "über alles", ctrl("a") + alt("u"), "", None),
    ("downcase-word", "HELLO World", ctrl("a") + alt("l") + alt("l"), "", None),
    ("capitalize-word", "hello wORLD", ctrl("a") + alt("c") + alt("c"), "", None),
    ("capitalize-word with an argument", "one two three", ctrl("a") + alt("3") + alt("c"), "",
     None),
    ("upcase-word with a negative argument", "one two three", alt("-") + alt("u"), "", None),
    ("undo", "abc", b"def" + ctrl("_"), "", None),
    ("undo on Ctrl-X Ctrl-U", "abc", b"x" + ctrl("w") + ctrl("x") + ctrl("u"), "", None),
    ("undo on Ctrl-X u", "abc", b"xyz" + ctrl("a") + ctrl("k") + ctrl("x") + b"u", "",
     "abcxyz"),  # bash's readline leaves Ctrl-X u unbound: ""
    ("revert-line", "the note", b" more" + ctrl("a") + ctrl("k") + alt("r"), "",
     "the note"),  # readline: "" (read -i's insertion is undone too)
    ("undo past the opened note", "abc", b"d" + ctrl("_") + ctrl("_") + ctrl("_"), "",
     "abc"),  # readline: "" (read -i's insertion is undone too)
    ("numeric argument repeats a character", "x", alt("3") + b"a", "", None),
    ("numeric argument repeats a non-ASCII character", "x", alt("3") + "é".encode(), "", None),
    ("negative argument before a non-ASCII character", "x", alt("-") + "é".encode(), "",
     "x"),  # readline drops the first byte and inserts the second alone: broken UTF-8
    ("exchange-point-and-mark after non-ASCII text", "x.y", alt("d") + b"\x7f" + "é".encode() +
     ctrl("x") + ctrl("x") + b"Z", "", None),
    ("deleting text keeps the mark within the line", "two a-b twob", alt(b"\x7f") + b"\x7f" +
     ctrl("t") + ctrl("x") + ctrl("x") + b"X", "", None),
    ("exchange-point-and-mark with the mark past the end", "two a-b twob", alt(b"\x7f") +
     b"\x7f" + ctrl("x") + ctrl("x") + b"X", "", None),
    ("typing between two kills starts a new kill", "two two", ctrl("a") + alt("d") + b"b" +
     alt("d") + ctrl("y"), "",
     "b two"),  # readline, reading "b" ahead in the same write, joins the kills: "btwo two"
    ("kills at the start of the line leave the mark", "two a-b", ctrl("a") + ctrl("u") +
     ctrl("w") + ctrl("x") + ctrl("x") + b"|", "", None),
    ("numeric argument with more digits", "x", alt("1") + b"2b", "", None),
    ("numeric argument moves by words", "a b c d e", alt("3") + alt("b") + b"|", "", None),
    ("negative argument kills back", "one two three", alt("-") + alt("d"), "", None),
    ("Alt-- then a digit", "abcdefghijklmnop", ctrl("a") + alt("-") + b"3" + ctrl("b") + b"X",
     "", None),
    ("Alt-- then an Alt-digit", "abcdefghijklmnop", ctrl("a") + alt("-") + alt("2") +
     ctrl("b") + b"X", "", None),
    ("Alt-- then a minus", "x.y one", b"\x7f" + alt("d") + b"b" + alt("-") + b"-" + b"X", "",
     None),
    ("Alt-2 then Alt-- types two minus signs", "x", alt("2") + alt("-"), "", None),
    ("an argument before an arrow", "abcdefghijklmnop", ctrl("a") + alt("1") + b"2" +
     b"\x1b[C" + b"X", "", None),
    ("argument to delete-char kills", "abcdef", ctrl("a") + alt("3") + ctrl("d") + ctrl("e") +
     ctrl("y"), "", None),
    ("argument to backward-delete-char", "abcdef", alt("2") + b"\x7f", "", None),
    ("argument to forward-char", "abcdef", ctrl("a") + alt("4") + ctrl("f") + b"|", "", None),
    ("character-search", "a-b-c-d", ctrl("a") + ctrl("]") + b"-" + b"X", "", None),
    ("character-search with an argument", "a-b-c-d", ctrl("a") + alt("2") + ctrl("]") + b"-" +
     b"X", "", None),
    ("character-search-backward", "a-b-c-d", ESC + ctrl("]") + b"-" + b"X", "", None),
    ("quoted-insert of a tab", "ab", ctrl("b") + ctrl("v") + b"\t", "", None),
    ("quoted-insert with Ctrl-Q", "ab", ctrl("q") + ctrl("a"), "",
     "ab\x01"),  # bash leaves flow control on: the terminal takes Ctrl-Q, readline never sees it
    ("quoted-insert of a line feed", "ab", ctrl("b") + ctrl("v") + ctrl("j"), "",
     "a\nb"),  # read stops its line at the line feed: "a"
    ("delete-horizontal-space", "a    b", ctrl("b") + ctrl("b") + alt("\\"), "", None),
    ("delete-horizontal-space with tabs", "a \t b", ctrl("a") + ctrl("f") + ctrl("f") +
     alt("\\"), "", None),
    ("set-mark and exchange-point-and-mark", "abcdef", ctrl("b") + ctrl("b") + alt(" ") +
     ctrl("a") + ctrl("x") + ctrl("x") + b"|", "", None),
    ("set-mark on Ctrl-@", "one", b"b" + b"\x00" + b"\x1b[D" + ctrl("x") + ctrl("x") + b"X", "",
     "onebX"),  # bash's read drops the NUL byte Ctrl-@ sends: "Xoneb"
    ("Alt-- twice ends the argument", "abcdef", ctrl("a") + alt("-") + alt("-") + b"3" +
     ctrl("b") + b"X", "", None),
    ("Alt-- three times starts another", "abcdef", ctrl("a") + alt("-") + alt("-") + alt("-") +
     b"3" + ctrl("b") + b"X", "", None),
    ("kill-region", "one two three", ctrl("a") + alt("f") + alt(" ") + alt("f") + ctrl("x") +
     b"r", '"\\C-xr": kill-region\n', None),
    ("copy-region-as-kill", "one two", ctrl("a") + alt(" ") + alt("f") + ctrl("x") + b"c" +
     ctrl("e") + ctrl("y"), '"\\C-xc": copy-region-as-kill\n', None),
    ("overwrite-mode", "abcdef", ctrl("a") + ctrl("x") + b"o" + b"XY" + ctrl("e") + b"\x7f",
     '"\\C-xo": overwrite-mode\n', None),
    ("overwrite-mode rubout inside the line", "abcdef", ctrl("b") + ctrl("b") + ctrl("x") + b"o" +
     b"\x7f" + b"Z", '"\\C-xo": overwrite-mode\n', None),
    ("a binding in quotes", "one two", ctrl("w"), '"\\C-w": backward-kill-word\n', None),
    ("a binding by key name", "abc", ctrl("t"), "Control-t: backward-char\n", None),
    ("a Meta binding", "abc", alt("u") + b"x", 'set convert-meta on\n"\\M-u": beginning-of-line\n',
     None),
    ("a Meta key name binding", "abc", alt("q") + b"x", "set convert-meta on\nMeta-q: beginning-of-line\n",
     None),
    ("an octal escape", "abc", ctrl("o") + b"x", '"\\017": beginning-of-line\n', None),
    ("a hex escape", "abc", ctrl("o") + b"x", '"\\x0f": beginning-of-line\n', None),
    ("a macro", "abc", ctrl("x") + b"q", '"\\C-xq": " macro!"\n', None),
    ("a macro with keys in it", "abc", ctrl("x") + b"q", '"\\C-xq": "\\C-a["\n', None),
    ("a two-key binding", "abc", b"jk", '"jk": beginning-of-line\n', None),
    ("a two-key binding broken off", "abc", b"jx", '"jk": beginning-of-line\n', None),
    ("$if mode=emacs", "abc", ctrl("t"), "$if mode=emacs\nControl-t: backward-char\n$endif\n",
     None),
    ("$if mode=vi is false in emacs", "abc", ctrl("t"),
     "$if mode=vi\nControl-t: backward-char\n$else\nControl-t: beginning-of-line\n$endif\n", None),
    ("$if term=", "abc", ctrl("t"), "$if term=xterm\nControl-t: backward-char\n$endif\n", None),
    ("an unknown function keeps the key", "abc", ctrl("t"), '"\\C-t": no-such-function\n', None),
    ("a function filenote lacks keeps the key", "abc", ctrl("t"), '"\\C-t": complete\n',
     None),
    ("unknown variables are ignored", "abc", ctrl("t"),
     "set completion-ignore-case on\nset no-such-variable 3\n", None),
    ("an arrow bound by its sequence", "abc", b"\x1b[D" + b"x", '"\\e[D": beginning-of-line\n',
     None),
    ("Ctrl-Left and Ctrl-Right", "one two", b"\x1b[1;5D" + b"|" + b"\x1b[1;5C", "", None),
    ("Home and End", "abc", b"\x1b[H" + b"<" + b"\x1b[F" + b">", "", None),
    ("Delete", "abc", ctrl("a") + b"\x1b[3~", "", None),
]


def run(settings, ledger):
    if not os.access("/bin/bash", os.X_OK):
        print("skip readline differential: no /bin/bash")
        return
    root = tempfile.mkdtemp(prefix="filenote-readline-")
    agree = [0]
    total = [0]
    for name, note, keys, inputrc, expected in CASES:
        ledger.run("readline: %s" % name, one_case, settings, root, note, keys + b"\r", inputrc,
                   expected, agree, total)
    rng = random.Random(settings.seed)
    count = 600 if settings.long else 120
    for index in range(count):
        note, keys = random_case(rng)
        ledger.run("readline: random emacs sequence %d" % index, one_case, settings, root, note,
                   keys + [b"\r"], "", None, agree, total)
    for name, note, keys, expected, bindings in VI_CASES:
        ledger.run("readline: vi: %s" % name, one_case, settings, root, note, keys + b"\r",
                   VI_INPUTRC + bindings, expected, agree, total)
    for index in range(count):
        note, keys = random_vi_case(rng)
        ledger.run("readline: random vi sequence %d" % index, one_case, settings, root, note,
                   keys + b"\r", VI_INPUTRC, None, agree, total)
    for name, make in BAD_INPUTRCS:
        ledger.run("inputrc: %s leaves the prompt working" % name, bad_inputrc, settings, root,
                   make)
    ledger.run("inputrc: show and save never open it", not_opened, settings, root)
    ledger.count("readline cases", total[0])
    ledger.count("readline cases that agree", agree[0])
    subprocess.run(["rm", "-rf", root])


RANDOM_KEYS = [b"a", b"b", b" ", b"x y", b"-", ctrl("a"), ctrl("e"), ctrl("b"),
               ctrl("f"), ctrl("d"), b"\x7f", ctrl("k"), ctrl("u"), ctrl("w"), ctrl("y"),
               ctrl("t"), alt("b"), alt("f"), alt("d"), alt(b"\x7f"), alt("y"),
               alt("u"), alt("l"), alt("c"), alt("t"), alt("\\"), alt("2"), alt("-"),
               ctrl("]") + b"a", ESC + ctrl("]") + b" ", ctrl("v") + b"q", alt(" "),
               ctrl("x") + ctrl("x"), b"\x1b[D", b"\x1b[C"]
# Undo is left out of the random keys: past the first edit it reaches read -i's
# own insertion of the note, which filenote does not have (the fixed cases
# hold undo to filenote's rule instead).


def random_case(rng):
    # ASCII only: readline counts the mark and a numeric argument's
    # character in bytes (fixed cases below show where that differs).
    words = ["one", "two", "three", "a-b", "x.y", "  "]
    note = " ".join(rng.choice(words) for _ in range(rng.randint(1, 4))).strip() or "n"
    # One write per key, a few milliseconds apart, as typed: in one write,
    # readline reads typed text ahead and a kill after it still joins the
    # kill before it, which no typist sees.
    keys = [rng.choice(RANDOM_KEYS) for _ in range(rng.randint(3, 12))]
    return note, without_readline_hang(keys)


def without_readline_hang(keys):
    """readline 8.2 never returns from a quoted insert whose count is -2 or
    less (`M-- M-2 C-v q`): such a C-v q becomes a plain q, so the case
    still types one, and every draw, so every seed's cases, stays as it
    was."""
    kept = []
    in_argument = negative = digits = False
    for key in keys:
        if key == alt("-"):
            if not in_argument:
                negative, digits = True, False
            in_argument = True
        elif key == alt("2"):
            if not in_argument:
                negative = False
            in_argument = digits = True
        else:
            if key == ctrl("v") + b"q" and negative and digits:
                key = b"q"
            in_argument = negative = digits = False
        kept.append(key)
    return kept


def one_case(settings, root, note, keys, inputrc, expected, agree, total):
    folder = tempfile.mkdtemp(dir=root)
    rc = os.path.join(folder, "inputrc")
    with open(rc, "w") as handle:
        handle.write(inputrc)
    env = clean_environment(folder, TERM="xterm", INPUTRC=rc, NOTE=note,
                            OUT=os.path.join(folder, "read-out"))
    note_path = os.path.join(folder, "note")
    with open(note_path, "wb") as handle:
        handle.write(note.encode())
    readline_line = drive(["/bin/bash", "--norc", "--noprofile", "-c", BASH_SCRIPT], env, keys)
    readline_line = read_or_none(env["OUT"])
    drive([settings.binary, "--file", note_path], env, keys)
    filenote_line = read_or_none(note_path)
    total[0] += 1
    # filenote refuses to save an empty line: the note stays as it was.
    if expected is None and readline_line == b"" and filenote_line == note.encode():
        filenote_line = b""
    want = readline_line if expected is None else expected.encode()
    shown = keys if isinstance(keys, bytes) else b"".join(keys)
    check(filenote_line == want,
          "keys %s on %r: filenote %s, %s %s" % (show_bytes(shown), note, show_bytes(filenote_line),
                                                 "readline" if expected is None else "documented",
                                                 show_bytes(want)))
    agree[0] += 1
    if expected is not None:
        return "readline gives %s" % show_bytes(readline_line)
    return None


def drive(command, env, keys, seconds=10):
    """Runs `command` on a pseudo-terminal, types `keys` once it is raw (it
    has drawn READY, or drawn and then nothing for 0.3 s), a list of keys 4
    ms apart, and waits for it to end: a Ctrl-D may end it before the last
    key, and filenote stays in the prompt after Enter on an empty line (it
    is ended once it says so on its hint line, or after `seconds` of
    quiet). Returns what it drew."""
    return type_on_terminal(command, env, keys, columns=200, ready=READY, quiet_seconds=0.3,
                            gap=0.004, seconds=seconds, may_end_early=True,
                            may_keep_running=True, stays_on=STAYS, expected_status=None).transcript


def _folder(path):
    os.mkdir(path)


def _fifo(path):
    os.mkfifo(path)


def _huge(path):
    with open(path, "wb") as handle:
        handle.write(b"# padding\n" * 120000)


def _binary(path):
    with open(path, "wb") as handle:
        handle.write(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 8)


def _looping(path):
    with open(path, "w") as handle:
        handle.write("$include %s\n$include %s\nC-t: backward-char\n" % (path, path))


def _malformed(path):
    with open(path, "wb") as handle:
        handle.write(b'"\\C-\n$if\n$else\n$endif\n$endif\nset\n: :\n"\xff\xfe": "\n' * 50)


BAD_INPUTRCS = [("a folder", _folder), ("a FIFO", _fifo), ("/dev/zero", None),
                ("a file over 1 MiB", _huge), ("a binary file", _binary),
                ("a file that includes itself", _looping), ("a malformed file", _malformed)]


def bad_inputrc(settings, root, make):
    folder = tempfile.mkdtemp(dir=root)
    rc = "/dev/zero" if make is None else os.path.join(folder, "inputrc")
    if make is not None:
        make(rc)
    note_path = os.path.join(folder, "note")
    with open(note_path, "wb") as handle:
        handle.write(b"note")
    env = clean_environment(folder, TERM="xterm", INPUTRC=rc)
    started = time.monotonic()
    transcript = drive([settings.binary, "--file", note_path], env, b" kept\r")
    elapsed = time.monotonic() - started
    check(read_or_none(note_path) == b"note kept",
          "the note is %s after typing; screen %s" % (show_bytes(read_or_none(note_path)),
                                                     show_bytes(transcript, 300)))
    lines = transcript.count(b"filenote: ")
    check(lines <= 1, "%d lines named filenote: %s" % (lines, show_bytes(transcript, 300)))
    check(elapsed < 5, "the prompt took %.1f s" % elapsed)


def not_opened(settings, root):
    folder = tempfile.mkdtemp(dir=root)
    rc = os.path.join(folder, "inputrc")
    with open(rc, "w") as handle:
        handle.write("set editing-mode vi\n")
    note_path = os.path.join(folder, "note")
    env = clean_environment(folder, TERM="xterm", INPUTRC=rc)
    log = os.path.join(folder, "strace.log")
    for arguments in (["save", "--file", note_path, "text"], ["show", "--file", note_path]):
        result = subprocess.run(["strace", "-f", "-e", "trace=open,openat", "-o", log,
                                 settings.binary] + arguments, env=env, capture_output=True,
                                timeout=30)
        check(result.returncode == 0, "%s failed: %s" % (arguments[0], result.stderr))
        with open(log) as handle:
            opened = [line for line in handle if "inputrc" in line]
        check(not opened, "%s opened %s" % (arguments[0], opened))


# vi mode. The keys go in one write, as all cases here: an Esc and the key
# after it reach both programs together, and both read them as Esc, then
# the key in command mode (readline finds no binding for the pair).
VI_INPUTRC = "set editing-mode vi\n"

# (name, note, keys, expected-by-filenote or None when readline's line is
# expected, more inputrc lines)
VI_CASES = [
    ("insert mode types, Esc steps back", "abc", b"de" + ESC + b"iX", None, ""),
    ("h l 0 $", "hello world", ESC + b"0llix" + ESC + b"$iy", None, ""),
    ("w b e W B E", "ab_c,d ef g.h", ESC + b"0wiA" + ESC + b"WiB" + ESC + b"eiC" + ESC
     + b"$BiD" + ESC + b"bEiE", None, ""),
    ("^ and |", "  abc def", ESC + b"^iX" + ESC + b"6|iY", None, ""),
    ("f F t T ; ,", "a-b-c-d-e", ESC + b"0f-;iX" + ESC + b"$F-,iY" + ESC + b"0t-;iZ", None, ""),
    ("counts", "abc def ghi jkl", ESC + b"02wiX" + ESC + b"03l2xiY", None, ""),
    ("dw d2w 2dw", "a b c d e f g", ESC + b"0dwd2w2dw", None, ""),
    ("de db d0 d$", "abc def ghi jkl", ESC + b"0wdeldb$d0", None, ""),
    ("df dt dF dT", "abc def ghi", ESC + b"0dfdwdtg$dFe", None, ""),
    ("cw cc C S s", "abc def ghi", ESC + b"0cwX" + ESC + b"wCY" + ESC + b"0sZ" + ESC, None, ""),
    ("cc", "abc def", ESC + b"ccnew" + ESC, None, ""),
    ("yy yw p P", "abc def", ESC + b"0ywwPyy$p", None, ""),
    ("dd and p", "abc def", ESC + b"ddp", None, ""),
    ("x X D", "abcdef ghi", ESC + b"0xx$XX0wD", None, ""),
    ("r R", "abc def ghi", ESC + b"0r-w3rxwRXYZ" + ESC, None, ""),
    ("R and Backspace", "abc def", ESC + b"0Rxyz\x7f\x7f" + ESC, None, ""),
    ("~", "Hello World straße", ESC + b"0~w5~$~", None, ""),
    ("u undoes a whole insert session", "abc", ESC + b"0iXY\x1b[DZ" + ESC + b"u", None, ""),
    ("u after cw", "abc def", ESC + b"0cwXY" + ESC + b"u", None, ""),
    ("U", "abc def ghi", ESC + b"0wxxdwU", None, ""),
    (". repeats the last change with its count", "a b c d e f g h", ESC + b"02dw.", None, ""),
    (". repeats an insert", "abc def", ESC + b"0iXY" + ESC + b"w.", None, ""),
    (". repeats cw", "abc def ghi", ESC + b"0cwX" + ESC + b"w.w3.", None, ""),
    ("i a I A", "abc def", ESC + b"0lia" + ESC + b"ab" + ESC + b"Ic" + ESC + b"Ad", None, ""),
    ("Ctrl-W and Ctrl-U in insert mode", "abc a.b--", ctrl("w") + b"X" + ctrl("u") + b"Y",
     None, ""),
    ("Ctrl-H and Backspace in insert mode", "abc", ctrl("h") + b"\x7f" + b"Z", None, ""),
    ("a control key types itself in insert mode", "abc", ctrl("a") + b"Z", None, ""),
    ("# and * are ignored", "abc def", ESC + b"0#*x", "bc def", ""),
    ("Enter in command mode saves", "abc def", ESC + b"0x", None, ""),
    ("Ctrl-D saves a line in vi mode", "abc", ctrl("d"), None, ""),
    ("Ctrl-V Ctrl-J types a line feed", "abc", ctrl("v") + ctrl("j") + b"def", "abc\ndef",
     ""),
    ('"jk": vi-movement-mode', "abc", b"jkx", None,
     'set keymap vi-insert\n"jk": vi-movement-mode\n'),
]
# `#` is readline's insert-comment, which comments the line out and accepts
# it; filenote ignores `#` and `*` (glob expansion): neither fits a note.


def random_vi_case(rng):
    """A note and a sequence of vi keys that leaves no command half typed
    (an operator waiting for its motion would swallow the Enter)."""
    notes = ["foo bar.baz  qux_1 (x)", "one two three", "a-b c--d e", "  lead trail  ", "x",
             "mixed_Case words, and punct!"]
    note = rng.choice(notes)
    characters = [c for c in note if c != " "] or ["a"]
    motions = list("hlwbeWBE0^$|") + ["2w", "3l", "2b", "2e", "5|"]
    # What an insert session types: text, and insert mode's own keys
    # (Ctrl-W, Backspace, Ctrl-U, Left, Right; not in replace mode, where
    # arrows are not held to readline's).
    plain = ["ab", "X ", "-", "q_r", "Z"]
    texts = plain + ["a\x17b", "q \x17", "xy\x7f", "\x1b[Dq", "\x15z", "c\x1b[C-"]
    keys = [ESC]
    found = False
    changed = False
    last_change = ""
    for _ in range(rng.randint(4, 10)):
        roll = rng.random()
        if roll < 0.3:
            motion = rng.choice(motions + ([";", ","] if found else []) + ["f", "F", "t", "T"])
            if motion in ("f", "F", "t", "T"):
                motion += rng.choice(characters)
                found = True
            keys.append(motion.encode())
        elif roll < 0.55:
            op = rng.choice("dcy")
            motion = rng.choice(motions + ([";", ","] if found else []) + ["f", "t", op])
            if motion in ("f", "t"):
                motion += rng.choice(characters)
                found = True
            keys.append((rng.choice(["", "2"]) + op + motion).encode())
            changed = True
            last_change = op
            if op == "c":
                keys += [rng.choice(texts).encode(), ESC]
        else:
            # `.` only after a change readline remembers as filenote does
            # (not after C, whose text readline forgets), and u only after
            # one (before it, readline's undo reaches read -i's own text).
            repeat = [".", "2."] if changed and last_change != "C" else []
            command = rng.choice((["u", "U"] if changed else []) + repeat
                                 + ["x", "X", "s", "S", "D", "C", "rz", "R", "~", "3~", "p",
                                    "i", "a", "I", "A"])
            keys.append(command.encode())
            # A put with nothing to put is not remembered.
            if command not in ("u", "U", ".", "2.", "p"):
                changed = True
                last_change = command
            if command in ("s", "S", "C", "R", "i", "a", "I", "A"):
                keys += [rng.choice(plain if command == "R" else texts).encode(), ESC]
    return note, b"".join(keys)

