#!/usr/bin/env python3
"""filenote's prompt in real terminal emulators: is the cursor where the
terminal draws it?

For each emulator installed (see emulators.py) on a private Xvfb display, and
each kind of character terminals may disagree on, the suite saves a note that
holds the character at the start, in the middle or at the right end of a line
longer than the window, opens the prompt inside the emulator (under
terminals/relay.py), types keys with xdotool and after every step compares
where the emulator has the cursor with where the emulator itself gets when it
prints what filenote drew left of the cursor. Then Enter, and the saved note
must be the text typed.

Where filenote is known to place the cursor wrongly in an emulator, the kind
can be listed as expected to fail there, with the reason (EXPECTED_FAILURES,
empty today); one that passes unexpectedly fails the run, so the expectation
is removed when it is fixed.

    python3 terminals/run.py --binary .build/debug/filenote [--emulator xterm]
        [--kind CJK] [--table FILE] [--verbose] [--if-installed]

Standard library only; everything happens in one temporary folder, removed at
the end, and Xvfb and the emulators are killed, also on failure.
"""

import argparse
import os
import shutil
import signal
import string
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# Last, so that reliability/run.py never stands in for terminals/run.py.
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reliability"))

from emulators import EMULATORS, Display  # noqa: E402
from harness import clean_environment  # noqa: E402
from window import Window, WindowError  # noqa: E402

PROMPT = "> "
# The kinds of character, each as one user-perceived character (grapheme
# cluster) typed as its code points.
KINDS = [
    ("ASCII", "Z"),
    ("CJK", "\u4e2d"),
    ("combining accent", "e\u0301"),
    ("family (ZWJ)", "\U0001F468\u200d\U0001F469\u200d\U0001F467"),
    ("flag", "\U0001F1EB\U0001F1F7"),
    ("heart + U+FE0F", "\u2764\ufe0f"),
    ("thumbs-up + skin tone", "\U0001F44D\U0001F3FD"),
]
# Filler with no character twice, so where the line is scrolled to can be read
# off what filenote drew; no `<` or `>` (the scroll markers).
FILLER = list(string.digits + string.ascii_letters + "#$%&()*+,-./:;=?@[]^_{|}~")
PLACES = {
    # The character first, then more than a window of filler: Home shows it
    # at the left edge, the opened prompt has it scrolled out of sight.
    "start": lambda kind: [kind] + FILLER[:70],
    # Twenty columns in.
    "middle": lambda kind: FILLER[:20] + [kind] + FILLER[20:70],
    # Last, after more than a window: the cursor after it is at the right edge.
    "right edge": lambda kind: FILLER[:80] + [kind],
}

# Cells known to be wrong, (emulator name, kind name) -> the reason; judged
# as expected failures, and one that passes fails the run until its entry is
# removed. Empty since filenote asks the terminal how wide it draws the kinds
# it disagrees on (terminals/README.md): before that, the family was off in
# all four, the heart with U+FE0F and the skin tone in xterm, VTE and
# alacritty.
EXPECTED_FAILURES = {}


class Step:
    """One thing a user does: keys pressed or text typed, and what it does to
    the text (a list of clusters) and the cursor (an index into it)."""

    def __init__(self, name, keys=(), text=None, change=None):
        self.name = name
        self.keys = keys
        self.text = text
        self.change = change


def move(by):
    def change(clusters, cursor):
        return clusters, min(max(cursor + by, 0), len(clusters))
    return change


def to(position):
    def change(clusters, cursor):
        return clusters, position if position >= 0 else len(clusters)
    return change


def insert(text_clusters):
    def change(clusters, cursor):
        return clusters[:cursor] + text_clusters + clusters[cursor:], cursor + len(text_clusters)
    return change


def delete_back(count):
    def change(clusters, cursor):
        count_here = min(count, cursor)
        return clusters[: cursor - count_here] + clusters[cursor:], cursor - count_here
    return change


def steps_for(place, kind):
    """Moves to just before the character, across it both ways, types next to
    it, deletes it and types it again."""
    if place == "start":
        reach = [Step("Home: before it", keys=["Home"], change=to(0))]
    elif place == "middle":
        reach = [Step("Home, Right x20: before it", keys=["Home"] + ["Right"] * 20, change=to(20))]
    else:
        reach = [Step("Left from the end: before it", keys=["Left"], change=move(-1))]
    steps = [
        Step("Right: after it", keys=["Right"], change=move(1)),
        Step("type XY after it", text="XY", change=insert(["X", "Y"])),
        Step("Backspace x2", keys=["BackSpace", "BackSpace"], change=delete_back(2)),
        Step("Left: before it", keys=["Left"], change=move(-1)),
        Step("Right: after it", keys=["Right"], change=move(1)),
        Step("Backspace: deletes it", keys=["BackSpace"], change=delete_back(1)),
        Step("type it again", text=kind, change=insert([kind])),
        Step("End", keys=["End"], change=to(-1)),
    ]
    return reach + steps


class Check:
    """One measurement after one step: how many columns the emulator's cursor
    is from where the emulator draws the text before it (negative: left)."""

    def __init__(self, emulator, kind, place, step, result):
        self.emulator, self.kind, self.place, self.step = emulator, kind, place, step
        self.result = result
        self.error = result.get("error")
        self.offset = None
        self.rows_down = 0
        if not self.error:
            cursor, reference = result["cursor"], result["reference_columns"]
            if cursor is None or reference is None:
                self.error = "the emulator did not report its cursor"
            else:
                self.offset = (cursor[1] - 1) - reference
                # A line drawn wider than the window wraps, and every redraw
                # after starts one row lower.
                self.rows_down = cursor[0] - result["line_row"]

    @property
    def passed(self):
        return self.error is None and self.offset == 0 and self.rows_down == 0

    def describe(self):
        where = f"{self.emulator} / {self.kind} / {self.place} / {self.step}"
        if self.error:
            return f"{where}: {self.error} (drawn {self.result.get('drawn')!r})"
        if self.passed:
            return f"{where}: cursor right"
        if self.offset == 0:
            miss = "cursor in the right column"
        else:
            side = "left" if self.offset < 0 else "right"
            miss = f"cursor {abs(self.offset)} columns {side} of where the emulator draws it"
        wrapped = f", {self.rows_down} rows below the edit line" if self.rows_down else ""
        return f"{where}: {miss}{wrapped} (drawn {self.result.get('drawn')!r})"


def run_scenario(window, folder, binary, emulator, kind_name, kind, place, verbose):
    """Runs one note through its steps; returns the checks and the saved-text
    problem, if any."""
    home = tempfile.mkdtemp(prefix="home-", dir=folder)
    environment = clean_environment(home)
    clusters = PLACES[place](kind)
    note = "".join(clusters)
    subprocess.run([binary, "save", note], env=environment, check=True, timeout=30)
    cursor = len(clusters)
    window.start([binary], environment)
    checks = []
    identifier = 0

    def measure(step_name):
        nonlocal identifier
        identifier += 1
        result = window.measure(identifier, PROMPT, clusters, cursor)
        check = Check(emulator, kind_name, place, step_name, result)
        if verbose:
            print("  " + check.describe(), flush=True)
        checks.append(check)

    measure("opened (cursor at the end)")
    for step in steps_for(place, kind):
        if step.keys:
            window.keys(*step.keys)
        if step.text is not None:
            window.type(step.text)
        clusters, cursor = step.change(clusters, cursor)
        measure(step.name)
    window.keys("Return")
    ending = window.receive("exit")
    problem = None
    if ending["status"] != 0:
        problem = f"filenote exited {ending['status']}: {ending['output'][-300:]!r}"
    else:
        with open(os.path.join(home, "Documents", "datafile.dat"), encoding="utf-8") as file:
            saved = file.read()
        if saved != "".join(clusters):
            problem = f"saved {saved!r}, typed {''.join(clusters)!r}"
    if verbose and problem:
        print(f"  {emulator} / {kind_name} / {place}: {problem}", flush=True)
    return checks, problem


def run_emulator(emulator, display, folder, binary, kinds, verbose):
    """All kinds and places in one window of `emulator`. Returns the
    emulator's description and, per kind, the checks and saving problems."""
    window_folder = tempfile.mkdtemp(prefix="window-", dir=folder)
    window = Window(emulator, display, window_folder)
    try:
        description = window.open()
        results = {}
        for kind_name, kind in kinds:
            checks, problems = [], []
            for place in PLACES:
                more, problem = run_scenario(window, folder, binary, emulator.name,
                                             kind_name, kind, place, verbose)
                checks += more
                if problem:
                    problems.append(f"{place}: {problem}")
            results[kind_name] = (checks, problems)
        return description, results
    except WindowError as error:
        relay_log = os.path.join(window_folder, "relay.log")
        log = os.path.join(window_folder, "emulator.log")
        for path in (log, relay_log):
            if os.path.exists(path):
                with open(path, errors="replace") as file:
                    tail = file.read()[-3000:]
                if tail:
                    print(f"--- {os.path.basename(path)} of {emulator.name}:\n{tail}")
        raise
    finally:
        window.close()


def verdict(checks):
    """Where the cursor was: 'right', or 'N columns off' (the largest miss,
    with ', line wraps' when a redraw went below the edit line), or what went
    wrong; and whether it was only misplaced (no error)."""
    errors = [check for check in checks if check.error]
    if errors:
        return "error: " + errors[0].error, False
    misses = [abs(check.offset) for check in checks if check.offset]
    wraps = any(check.rows_down for check in checks)
    if not misses and not wraps:
        return "right", True
    cell = f"{max(misses)} column{'s' if max(misses) > 1 else ''} off" if misses else "right"
    return cell + (", line wraps" if wraps else ""), True


def judge(emulator, kind, checks, problems):
    """Prints the verdict on one kind in one emulator; returns the table's
    cell and whether the run may pass with it."""
    cell, only_misplaced = verdict(checks)
    reason = EXPECTED_FAILURES.get((emulator, kind))
    right = cell == "right" and not problems
    if right:
        label = "PASS" if reason is None else "XPASS (remove it from EXPECTED_FAILURES)"
        good = reason is None
    elif reason is not None and only_misplaced and not problems:
        label, good = f"XFAIL ({reason})", True
    else:
        label, good = "FAIL", False
    print(f"  {label} {kind}: cursor {cell}")
    for problem in problems:
        print(f"    saving: {problem}")
    if label == "FAIL":
        for check in checks:
            if not check.passed:
                print("    " + check.describe())
    return cell, good


def mode_2027(answer):
    return {None: "no answer", 0: "not recognized", 1: "set", 2: "reset",
            3: "permanently set", 4: "permanently reset"}.get(answer, str(answer))


def stop(signal_number, frame):
    """SIGTERM and SIGHUP end the run through its `finally` blocks, which
    kill Xvfb and the emulators and remove the temporary folder."""
    sys.exit(128 + signal_number)


def main():
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, stop)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=".build/debug/filenote")
    parser.add_argument("--emulator", action="append",
                        help="run only this one (its command name); may be repeated")
    parser.add_argument("--kind", action="append", help="run only this kind; may be repeated")
    parser.add_argument("--table", help="also write the results table (Markdown) here")
    parser.add_argument("--verbose", action="store_true", help="print every check")
    parser.add_argument("--if-installed", action="store_true",
                        help="skip (exit 0) when Xvfb, xdotool or xmodmap is missing")
    options = parser.parse_args()

    binary = os.path.abspath(options.binary)
    if not os.access(binary, os.X_OK):
        sys.exit(f"terminals: no filenote binary at {binary}: run swift build first")
    missing = [tool for tool in ("Xvfb", "xdotool", "xmodmap") if shutil.which(tool) is None]
    if missing:
        message = f"{', '.join(missing)} not installed (scripts/test-tools install brings them)"
        if options.if_installed:
            print(f"terminals: skipped: {message}")
            sys.exit(0)
        sys.exit(f"terminals: {message}")
    chosen = [emulator for emulator in EMULATORS
              if not options.emulator or emulator.program in options.emulator]
    kinds = [kind for kind in KINDS if not options.kind or kind[0] in options.kind]
    started = time.monotonic()
    passed = failed = skipped = 0
    rows = []
    folder = tempfile.mkdtemp(prefix="filenote-terminals-")
    display = None
    try:
        try:
            display = Display(folder)
            display.add_keys("".join(kind for _, kind in kinds))
        except (RuntimeError, subprocess.SubprocessError) as error:
            print(f"terminals: cannot set up the X display: {error}")
            failed += 1
            chosen = []
        for emulator in chosen:
            if not emulator.is_installed():
                print(f"SKIP {emulator.name}: {emulator.program} is not installed "
                      f"(Debian package {emulator.package})")
                skipped += 1
                continue
            print(f"{emulator.name}:", flush=True)
            try:
                description, results = run_emulator(
                    emulator, display, folder, binary, kinds, options.verbose)
            except WindowError as error:
                print(f"FAIL {emulator.name}: {error}")
                failed += 1
                rows.append((emulator.name, "could not run: " + str(error), {}))
                continue
            cells = {}
            for kind_name, (checks, problems) in results.items():
                cells[kind_name], good = judge(emulator.name, kind_name, checks, problems)
                passed, failed = passed + good, failed + (not good)
            rows.append((emulator.name, mode_2027(description["mode2027"]), cells))
    finally:
        if display is not None:
            display.close()
        shutil.rmtree(folder, ignore_errors=True)

    table = results_table(rows, kinds)
    print()
    print(table)
    if options.table:
        with open(options.table, "w", encoding="utf-8") as file:
            file.write(table + "\n")
    print(f"({time.monotonic() - started:.0f} s)")
    print(f"terminals: {passed} passed, {failed} failed, {skipped} skipped")
    sys.exit(1 if failed else 0)


def results_table(rows, kinds):
    """Emulator by kind: where the cursor is, and the DECRQM 2027 answer."""
    header = ["emulator", "mode 2027"] + [name for name, _ in kinds]
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    for name, mode, cells in rows:
        lines.append("| " + " | ".join([name, mode] + [cells.get(kind, "") for kind, _ in kinds]) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
