"""Case group 5: the terminal is always left as it was.

The prompt runs on a pseudo-terminal whose settings are not the defaults
(so "restored" cannot mean "reset to sane"), and is ended every way it can
end: Enter (on an edit, on the unchanged note, on an empty line), Ctrl-C,
Ctrl-D, SIGTERM, SIGHUP, SIGINT, SIGQUIT in the middle of an edit, a failed
save and a write error. Afterwards `stty -g` must print what it printed
before, every terminal mode filenote switched on by escape sequence
(bracketed paste above all) must be off again, and a note that was not to
be saved must be the very file it was (same inode, size and times).

These are the project's only tests of restoration after each ending; the
end-to-end tests (Tests/EndToEndTests/Prompt/PromptSignalTests.swift) keep what
needs a shell with job control: Ctrl-Z, fg and bg, and a closed terminal.
"""

import os
import re
import signal
import subprocess
import termios

from harness import (Sandbox, TerminalRun, check, expect_only, file_attribute, file_identity,
                     read_or_none, show_bytes, write_file)

OLD = "the old note"
READY = b"\x1b[?2004h"  # raw mode is on once bracketed paste is
# DEC private modes and the state each must be left in when filenote touched it.
MODES = {"2004": "l", "25": "h", "1": "l", "1049": "l", "47": "l", "1000": "l", "1002": "l",
         "1006": "l", "7": "h"}


def run(settings, ledger):
    endings = [
        ("Enter saves the edited line", enter, 0),
        ("Enter on the unchanged note", lambda run: run.send(b"\r"), 0),
        ("Enter on a line emptied by hand (stays, says why), then Ctrl-C",
         enter_on_emptied_line, 130),
        ("Ctrl-C cancels", ctrl_c, 130),
        ("Ctrl-D on an empty line cancels", ctrl_d, 1),
        ("SIGTERM mid-edit", signal_after_edit(signal.SIGTERM), -signal.SIGTERM),
        ("SIGHUP mid-edit", signal_after_edit(signal.SIGHUP), -signal.SIGHUP),
        ("SIGINT mid-edit", signal_after_edit(signal.SIGINT), -signal.SIGINT),
        ("SIGQUIT mid-edit", signal_after_edit(signal.SIGQUIT), -signal.SIGQUIT),
        ("Enter after Ctrl-Z in a session that cannot be suspended", suspend_then_enter, 0),
        ("SIGTERM right after start, before the first key", None, -signal.SIGTERM),
    ]
    for name, action, status in endings:
        ledger.run("terminal restored after %s" % name, ending, settings, ledger, name, action,
                   status)
    ledger.run("terminal restored after a save that fails (immutable folder)", failed_save,
               settings, ledger)
    ledger.run("terminal restored after a write error on the output terminal", write_error,
               settings, ledger)
    ledger.run("terminal untouched when the note is not UTF-8", bad_note, settings, ledger)
    ledger.run("terminal untouched by the plain prompt (TERM=dumb), Enter and Ctrl-D",
               plain_prompt, settings, ledger)


def unusual_settings():
    """Settings a user could well have, none of them the defaults."""
    master, slave = os.openpty()
    try:
        attributes = termios.tcgetattr(slave)
    finally:
        os.close(master)
        os.close(slave)
    attributes[0] &= ~termios.IXON  # iflag: Ctrl-S is not flow control
    attributes[0] |= getattr(termios, "IUTF8", 0o40000)  # Linux value; Python 3.11 lacks the name
    attributes[3] &= ~termios.ECHOCTL  # lflag
    characters = attributes[6]
    characters[termios.VERASE] = b"\x08"
    characters[termios.VKILL] = b"\x15"
    characters[termios.VWERASE] = b"\x17"
    return attributes


def stty(terminal):
    result = subprocess.run(["stty", "-g"], stdin=terminal, capture_output=True, text=True)
    check(result.returncode == 0, "stty -g failed: %s" % result.stderr.strip())
    return result.stdout.strip()


def check_restored(run, before_stty, before_attributes):
    after_stty = stty(run.terminal)
    check(after_stty == before_stty, "stty -g before: %s, after: %s" % (before_stty, after_stty))
    check(termios.tcgetattr(run.terminal) == before_attributes,
          "the terminal's settings differ from before")
    check_modes(run.transcript)


def check_modes(transcript):
    """Every DEC private mode filenote set is back: the last switch of each wins."""
    last = {}
    for match in re.finditer(rb"\x1b\[\?([0-9;]+)([hl])", transcript):
        for mode in match.group(1).decode().split(";"):
            last[mode] = match.group(2).decode()
    for mode, state in last.items():
        expected = MODES.get(mode)
        check(expected is not None, "filenote switched an unexpected terminal mode ?%s" % mode)
        check(state == expected, "terminal mode ?%s left %s (bracketed paste is 2004)"
              % (mode, "on" if state == "h" else "off"))


def start(settings, sandbox, arguments=(), term="xterm-256color", **options):
    env = dict(sandbox.env, TERM=term)
    before = unusual_settings()
    run = TerminalRun(settings.binary, list(arguments), env, settings=before,
                      inspect=lambda terminal: (stty(terminal), termios.tcgetattr(terminal)),
                      **options)
    return (run,) + run.before


def home_with_note(settings, label, note=OLD):
    sandbox = Sandbox(settings, label)
    os.mkdir(sandbox.documents, 0o700)
    write_file(sandbox.note, note.encode())
    return sandbox


def enter(run):
    run.send(b" edited\r")


def ctrl_c(run):
    run.send(b"x\x03")


def enter_on_emptied_line(run):
    """Ctrl-U empties the line and Enter saves nothing: the prompt stays and
    says why on its hint line; Ctrl-C then leaves."""
    run.send(b"\x15\r")
    check(run.wait_for(b"cannot be empty"), "the prompt did not say why: %s"
          % show_bytes(run.transcript))
    run.send(b"\x03")


def ctrl_d(run):
    run.send(b"\x15\x04")  # Ctrl-U empties the line, then Ctrl-D


def signal_after_edit(number):
    """Types into the line, waits until the edit is drawn, then sends the signal."""
    def action(run):
        run.send(b" edited")
        check(run.wait_for(b"edited"), "the edit was not drawn: %s" % show_bytes(run.transcript))
        run.process.send_signal(number)
    return action


def suspend_then_enter(run):
    # This session has no job-control shell: SIGTSTP is discarded, and
    # filenote must come back to raw mode and go on editing.
    run.send(b"\x1a")
    run.read_for(0.2)
    run.send(b" edited\r")


def ending(settings, ledger, name, action, expected_status):
    sandbox = home_with_note(settings, "terminal")
    before_note = file_identity(sandbox.note)
    run, before_stty, before_attributes = start(settings, sandbox)
    try:
        if action is None:
            # As early as can be: the moment raw mode is on.
            check(run.wait_for(READY), "the prompt did not start: %s" % show_bytes(run.transcript))
            run.process.send_signal(signal.SIGTERM)
        else:
            check(run.wait_for(READY) and run.wait_for(b"> "), "the prompt did not open: %s"
                  % show_bytes(run.transcript))
            action(run)
        status = run.wait()
        check_restored(run, before_stty, before_attributes)
    finally:
        run.close()
    check(status == expected_status or status == 128 - expected_status,
          "expected exit %s, got %s; screen: %s" % (expected_status, status,
                                                      show_bytes(run.transcript[-300:], 300)))
    saved = read_or_none(sandbox.note)
    if action is enter or action is suspend_then_enter:
        check(saved == (OLD + " edited").encode(), "the note is %s" % show_bytes(saved))
    else:
        check(saved == OLD.encode(), "the note changed: %s" % show_bytes(saved))
        check(file_identity(sandbox.note) == before_note, "the note's file was written")
    expect_only(sandbox.documents, ["datafile.dat"])
    ledger.count("terminal endings tried")


def failed_save(settings, ledger):
    """Enter fails (the folder is immutable): the prompt stays, the line as it
    was below the reason; Ctrl-C then ends it, and what was typed is kept in
    a private file the message names."""
    sandbox = home_with_note(settings, "terminal failed save")
    with file_attribute(sandbox.documents, "i"):
        run, before_stty, before_attributes = start(settings, sandbox)
        try:
            check(run.wait_for(READY) and run.wait_for(b"> "), "the prompt did not open")
            run.send(b" edited\r")
            check(run.wait_for(b"Not saved: ") and run.wait_for(b"> " + OLD.encode() + b" edited"),
                  "the prompt did not stay with the line: %s"
                  % show_bytes(run.transcript[-300:], 300))
            check(run.poll() is None, "the prompt ended after a failed save")
            run.send(b"\x03")
            status = run.wait()
            check_restored(run, before_stty, before_attributes)
        finally:
            run.close()
        check(status == 130, "expected exit 130 after Ctrl-C, got %s" % status)
        check(b"Operation not permitted" in run.transcript
              and sandbox.documents.encode() in run.transcript,
              "no reason naming the folder on the screen: %s"
              % show_bytes(run.transcript[-300:], 300))
        check(b"Saved." not in run.transcript, "Saved. after a failed save")
        check(read_or_none(sandbox.note) == OLD.encode(), "the note changed")
        kept = re.search(rb"what you wrote is kept in (\S+)", run.transcript)
        check(kept is not None, "no file named for what was typed: %s"
              % show_bytes(run.transcript[-300:], 300))
        path = kept.group(1).decode()
        check(path.startswith(sandbox.temporary + "/") and os.stat(path).st_mode & 0o777 == 0o600,
              "the kept file is not a private file in TMPDIR: %s" % path)
        check(read_or_none(path) == (OLD + " edited\n").encode(), "the kept file holds %r"
              % read_or_none(path))
    expect_only(sandbox.documents, ["datafile.dat"])
    ledger.count("terminal endings tried")


def write_error(settings, ledger):
    """The screen goes away mid-edit: standard output is a second terminal
    whose other side is closed after the prompt drew on it, so the next
    redraw fails with EIO. The keyboard's terminal must be restored.

    The prompt draws on /dev/tty when there is one (the keyboard's terminal
    here): without a controlling terminal it falls back to standard output
    when that is a terminal, which is the case made here."""
    import struct
    import fcntl

    sandbox = home_with_note(settings, "terminal write error")
    screen_master, screen = os.openpty()
    fcntl.ioctl(screen, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    errors_read, errors_write = os.pipe()
    try:
        run, before_stty, before_attributes = start(settings, sandbox, stdout=screen,
                                                    stderr=errors_write, controlling=False)
        os.close(errors_write)
        errors_write = None
        try:
            drawn = b""
            while b"> " not in drawn and run.poll() is None:
                import select

                ready, _, _ = select.select([screen_master], [], [], 5)
                check(ready, "the prompt drew nothing on its output terminal")
                drawn += os.read(screen_master, 65536)
            os.close(screen_master)  # hang the output terminal up
            screen_master = None
            run.send(b"more")
            status = run.wait()
            check_restored(run, before_stty, before_attributes)
        finally:
            run.close()
        errors = b""
        while True:
            chunk = os.read(errors_read, 65536)
            if not chunk:
                break
            errors += chunk
    finally:
        for descriptor in (screen_master, screen, errors_read, errors_write):
            if descriptor is not None:
                try:
                    os.close(descriptor)
                except OSError:
                    pass
    check(status not in (0, None) and status > 0, "expected a failure exit, got %s" % status)
    text = errors.decode("utf-8", "replace")
    check(text.startswith("filenote: ") and text.count("\n") == 1,
          "expected one error line, got %r" % text)
    check(read_or_none(sandbox.note) == OLD.encode(), "the note changed")
    ledger.count("terminal endings tried")
    return text.strip()


def bad_note(settings, ledger):
    sandbox = Sandbox(settings, "terminal bad note")
    os.mkdir(sandbox.documents, 0o700)
    write_file(sandbox.note, b"caf\xe9")
    run, before_stty, before_attributes = start(settings, sandbox)
    try:
        status = run.wait()
        check_restored(run, before_stty, before_attributes)
    finally:
        run.close()
    check(status == 1, "expected exit 1, got %s" % status)
    check(READY not in run.transcript, "the prompt switched the terminal for a note it refuses")
    ledger.count("terminal endings tried")


def plain_prompt(settings, ledger):
    for keys, expected_status, expected_note in ((b"plain\n", 0, b"plain"), (b"\x04", 1, None)):
        sandbox = home_with_note(settings, "terminal plain")
        run, before_stty, before_attributes = start(settings, sandbox, term="dumb")
        try:
            check(run.wait_for(b"> "), "the plain prompt did not open: %s"
                  % show_bytes(run.transcript))
            run.send(keys)
            status = run.wait()
            check_restored(run, before_stty, before_attributes)
        finally:
            run.close()
        check(status == expected_status, "expected exit %d, got %s" % (expected_status, status))
        check(read_or_none(sandbox.note) == (expected_note or OLD.encode()),
              "the note is %s" % show_bytes(read_or_none(sandbox.note)))
        ledger.count("terminal endings tried")
