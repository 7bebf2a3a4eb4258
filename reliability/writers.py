"""Case group: writers against each other, signals during a save, and a
folder that cannot be synced (doc/DESIGN.md, Saving and The writer lock).

- Two prompts on one note, Enter pressed in both at the same moment: one
  saves, the other sees that save and asks; never two `Saved.`.
- A note cleared while the prompt is open: Enter on the unedited line asks.
- SIGINT, SIGTERM, SIGHUP during `filenote save`: the temporary file is
  removed, the note untouched, and filenote dies of that signal (a shell
  says 130, 143, 129).
- A write-only folder (chmod 300): the save and the clear fail before
  anything changes, and say so.
"""

import os
import signal
import time

from harness import (Sandbox, TerminalRun, check, expect_error_line, read_or_none,
                     show_bytes, temporary_files, write_file)

NOBODY = 65534
OLD = b"the old note"


def run(settings, ledger):
    rounds = 20 if settings.long else 8
    cases = [
        ("two prompts press Enter at the same moment, %d times: one saves, the other asks"
         % rounds, lambda settings: simultaneous_enters(settings, rounds, "xterm")),
        ("two plain prompts (TERM=dumb) press Enter at the same moment, %d times" % rounds,
         lambda settings: simultaneous_enters(settings, rounds, "dumb")),
        ("a note cleared while the prompt is open: Enter on the unedited line asks",
         cleared_while_open),
    ]
    for name, number in (("SIGINT", signal.SIGINT), ("SIGTERM", signal.SIGTERM),
                         ("SIGHUP", signal.SIGHUP)):
        cases.append(("%s during save removes the temporary file" % name,
                      lambda settings, number=number: signal_during_save(settings, number)))
    cases += [
        ("write-only folder (chmod 300, as nobody): save fails first, note untouched",
         write_only_folder_save),
        ("write-only folder (chmod 300, as nobody): clear fails first, note kept",
         write_only_folder_clear),
    ]
    for name, case in cases:
        ledger.count("writer cases")
        ledger.run("writers: " + name, case, settings)


def prompt(sandbox, path, term="xterm"):
    env = dict(sandbox.env, TERM=term)
    run = TerminalRun(sandbox.settings.binary, ["--file", path], env, columns=120)
    opened = b"Enter saves" if term != "dumb" else b"> "
    check(run.wait_for(opened, seconds=15), "the prompt did not open")
    run.wait_until_quiet(0.1)
    return run


def simultaneous_enters(settings, rounds, term):
    """The editing prompt appends the typed word to the note; the plain one
    (TERM=dumb) saves the typed line as the note."""
    both_saved = 0
    for round_number in range(rounds):
        sandbox = Sandbox(settings, "two prompts")
        path = os.path.join(sandbox.folder("notes"), "datafile.dat")
        write_file(path, OLD)
        first, second = prompt(sandbox, path, term), prompt(sandbox, path, term)
        try:
            first.send(b" one")
            second.send(b" two")
            first.read_for(0.2)
            second.read_for(0.2)
            # As close together as two writes can be.
            os.write(first.master, b"\r")
            os.write(second.master, b"\r")
            saved = []
            asked = []
            for run in (first, second):
                deadline = time.monotonic() + 20
                while time.monotonic() < deadline:
                    run.read_for(0.05)
                    if b"[y/N]" in run.transcript:
                        asked.append(run)
                        break
                    if run.poll() is not None:
                        if b"Saved." in run.transcript:
                            saved.append(run)
                        break
            if len(saved) == 2:
                both_saved += 1
            else:
                check(len(saved) == 1 and len(asked) == 1,
                      "round %d: %d saved, %d asked" % (round_number, len(saved), len(asked)))
                winner = b"one" if saved[0] is first else b"two"
                kept = OLD + b" " + winner if term != "dumb" else b" " + winner
                check(read_or_none(path) == kept,
                      "the note is %s" % show_bytes(read_or_none(path)))
        finally:
            first.close()
            second.close()
    check(both_saved == 0, "both prompts said Saved. in %d of %d rounds" % (both_saved, rounds))
    return "%d rounds, each one save and one question" % rounds


def cleared_while_open(settings):
    sandbox = Sandbox(settings, "cleared")
    path = os.path.join(sandbox.folder("notes"), "datafile.dat")
    write_file(path, OLD)
    run = prompt(sandbox, path)
    try:
        check(sandbox.run(["--file", path, "clear"]).status == 0, "clear failed")
        run.send(b"\r")
        check(run.wait_for(b"[y/N]", seconds=10),
              "not asked; screen: %s" % show_bytes(run.transcript[-300:], 300))
        run.send(b"y")
        check(run.wait(seconds=10) == 0, "the prompt failed")
    finally:
        run.close()
    check(read_or_none(path) == OLD, "the note is %s" % show_bytes(read_or_none(path)))


def signal_during_save(settings, number):
    sandbox = Sandbox(settings, "signal")
    folder = sandbox.folder("notes")
    path = os.path.join(folder, "datafile.dat")
    write_file(path, OLD)
    read_end, write_end = os.pipe()
    process = sandbox.start(["--file", path, "save"], stdin=read_end)
    os.close(read_end)
    try:
        os.write(write_end, b"x" * 100000)
        deadline = time.monotonic() + 20
        while not temporary_files(folder) and time.monotonic() < deadline:
            time.sleep(0.01)
        check(temporary_files(folder), "no temporary file appeared")
        process.send_signal(number)
        status = process.wait(timeout=20)
    finally:
        os.close(write_end)
        if process.poll() is None:
            process.kill()
            process.wait()
        process.stdout.close()
        process.stderr.close()
    check(status == -number, "expected death by signal %d, got %s" % (number, status))
    check(not temporary_files(folder), "left %s" % temporary_files(folder))
    check(read_or_none(path) == OLD, "the note is %s" % show_bytes(read_or_none(path)))
    check(sorted(os.listdir(folder)) == ["datafile.dat"], "left %s" % os.listdir(folder))
    return "status %d for the shell" % (128 + number)


def write_only_folder(settings, label):
    sandbox = Sandbox(settings, label)
    folder = sandbox.folder("notes")
    path = os.path.join(folder, "datafile.dat")
    write_file(path, OLD, 0o644)
    os.chown(folder, NOBODY, NOBODY)
    os.chown(path, NOBODY, NOBODY)
    os.chmod(folder, 0o300)
    return sandbox, folder, path


def write_only_folder_save(settings):
    sandbox, folder, path = write_only_folder(settings, "write only save")
    outcome = sandbox.run(["--file", path, "save", "new"], user=NOBODY)
    os.chmod(folder, 0o700)
    line = expect_error_line(outcome, [folder, "Permission denied"])
    check(read_or_none(path) == OLD, "the note is %s" % show_bytes(read_or_none(path)))
    check(os.listdir(folder) == ["datafile.dat"], "left %s" % os.listdir(folder))
    return line


def write_only_folder_clear(settings):
    sandbox, folder, path = write_only_folder(settings, "write only clear")
    outcome = sandbox.run(["--file", path, "clear"], user=NOBODY)
    os.chmod(folder, 0o700)
    line = expect_error_line(outcome, [folder, "Permission denied"])
    check(read_or_none(path) == OLD, "the note was removed")
    return line
