#!/usr/bin/env python3
"""The pty relay that runs inside a terminal emulator for terminals/run.py.

It sits between the emulator (its own standard input and output) and the
programs run.py asks it to start (each on a pseudo-terminal of the emulator's
size), forwarding keys one way and output the other. What makes it more
than `script(1)`:

- When the emulator sends F12 (ESC [ 2 4 ~), the relay does not pass it on:
  F12 is the marker run.py types after the keys of a step. Every key before it
  has then reached the program, so the relay waits until the program is idle
  (blocked reading, nothing unread in either direction), asks the emulator
  where the cursor is (ESC [ 6 n), then prints by itself, on a scratch row,
  what the program drew to the left of its cursor and asks again. Both
  positions go back to run.py, which judges them.
- F12 after an expectation without text only waits for the program to be
  idle (screenshots.py takes its pictures then).
- It answers run.py's questions about the emulator: its size and its reply to
  DECRQM for mode 2027 (grapheme cluster segmentation).

It talks to run.py over a Unix socket (its first argument), one JSON object
per line each way; the optional second argument names a log of what the
emulator sent and what the relay did, for reading when a step goes wrong.
Standard library only.
"""

import fcntl
import json
import os
import re
import select
import socket
import struct
import sys
import termios
import time
import tty

# The one pty harness of the repository's Python suites.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reliability"))
from harness import TerminalRun  # noqa: E402

SENTINEL = b"\x1b[24~"
# F9, which run.py types until it arrives, to learn that the emulator takes
# keys; answered with a "ping" event and not passed on.
PING = b"\x1b[20~"
CURSOR_REPORT = re.compile(rb"\x1b\[(\d+);(\d+)R")
MODE_REPORT = re.compile(rb"\x1b\[\?2027;(\d+)\$y")
# What a program may ask the terminal (a cursor report, a DECRQM mode
# report) and the answers, counted so that the relay never measures while a
# question of the program's own is unanswered: its answer would be taken for
# the relay's.
PROGRAM_QUESTION = re.compile(rb"\x1b\[6n|\x1b\[\?\d+\$p")
ANSWER = re.compile(rb"\x1b\[\d+;\d+R|\x1b\[\?\d+;\d+\$y")
SGR = re.compile(r"\x1b\[[0-9;]*m")
# The numbers of read, poll, select, pselect6 and ppoll on x86_64 (0, 7, 23,
# 270, 271) and of read, pselect6 and ppoll on aarch64 (63, 72, 73): a program
# blocked in one of these with nothing to read is waiting for a key.
WAITING_SYSCALLS = {"0", "7", "23", "270", "271", "63", "72", "73"}
# The relay prints its reference text on the last two rows (it may wrap once)
# and erases them right after; the edit line is near the top.
SCRATCH_ROWS = 2
# One answer from the emulator takes milliseconds; this bounds a dead one.
ANSWER_SECONDS = 3.0
IDLE_SECONDS = 10.0


class Relay:
    def __init__(self, control, log=None):
        self.control = control
        self.control_buffer = b""
        self.child = None
        self.master = None
        self.slave = None
        self.child_exit = None
        self.program = None
        self.output_log = b""
        self.pending_input = b""
        self.expectation = None
        self.line_row = None
        self.hint_seen = False
        self.held_output = b""
        self.output_tail = b""
        self.questions = self.answers = 0
        self.log = open(log, "ab") if log else None

    # -- the emulator side ------------------------------------------------

    def write_out(self, data):
        while data:
            written = os.write(1, data)
            data = data[written:]

    def ask(self, question, pattern):
        """Writes `question` and reads the emulator until `pattern` matches;
        other bytes that arrive meanwhile (keys) are kept for the program, in
        order. Returns the match, or None after ANSWER_SECONDS."""
        self.write_out(question)
        received = b""
        deadline = time.monotonic() + ANSWER_SECONDS
        while True:
            match = pattern.search(received)
            if match:
                self.pending_input += received[: match.start()] + received[match.end() :]
                self.note(f"answer {match.group(0)!r}, kept {self.pending_input!r}")
                return match
            left = deadline - time.monotonic()
            if left <= 0:
                self.note(f"no answer to {question!r}, got {received!r}")
                self.pending_input += received
                return None
            ready, _, _ = select.select([0], [], [], left)
            if ready:
                received += os.read(0, 4096)

    def cursor_position(self):
        match = self.ask(b"\x1b[6n", CURSOR_REPORT)
        if match is None:
            return None
        return [int(match.group(1)), int(match.group(2))]

    def describe(self):
        """The emulator's size and its DECRQM 2027 answer. A cursor report
        is asked right after, so an emulator that ignores DECRQM costs no
        timeout: its cursor report arrives first."""
        self.write_out(b"\x1b[?2027$p")
        self.cursor_position()
        # The mode report, when there is one, came before the cursor report,
        # among the bytes kept as keys.
        mode = None
        match = MODE_REPORT.search(self.pending_input)
        if match:
            mode = int(match.group(1))
            self.pending_input = (
                self.pending_input[: match.start()] + self.pending_input[match.end() :]
            )
        rows, columns = terminal_size(1)
        return {"event": "ready", "rows": rows, "columns": columns, "mode2027": mode}

    # -- the program side -------------------------------------------------

    def start(self, argv, environment):
        rows, columns = terminal_size(1)
        self.output_log = b""
        self.output_tail = b""
        self.questions = self.answers = 0
        self.held_output = b""
        self.hint_seen = False
        self.line_row = None
        # Every run starts at the top of a clean screen.
        self.write_out(b"\x1b[0m\x1b[H\x1b[2J")
        environment = dict(environment)
        environment.setdefault("TERM", os.environ.get("TERM", "xterm"))
        self.program = TerminalRun(argv[0], argv[1:], environment, columns=columns, rows=rows)
        self.child = self.program.pid
        self.master, self.slave = self.program.master, self.program.terminal
        # Readable when the program ends (TerminalRun keeps the pty's slave
        # side open, so the master never reports it).
        self.child_exit = os.pidfd_open(self.child)

    def forward_output(self, data):
        # Questions split across two reads are found in the joined bytes.
        joined = self.output_tail + data
        self.questions += sum(
            1 for match in PROGRAM_QUESTION.finditer(joined) if match.end() > len(self.output_tail)
        )
        self.output_tail = joined[-16:]
        self.output_log = (self.output_log + data)[-65536:]
        if self.hint_seen:
            self.write_out(data)
            return
        # The first line the program writes is the hint; the edit line starts
        # below it. Hold the rest until the emulator says on which row.
        self.held_output += data
        end = self.held_output.find(b"\r\n")
        if end < 0:
            return
        self.write_out(self.held_output[: end + 2])
        position = self.cursor_position()
        self.line_row = position[0] if position else None
        self.hint_seen = True
        rest = self.held_output[end + 2 :]
        self.held_output = b""
        self.write_out(rest)

    def drain_output(self):
        """Reads whatever the program wrote; returns False at its end."""
        while True:
            ready, _, _ = select.select([self.master], [], [], 0)
            if not ready:
                return True
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return False
            if not data:
                return False
            self.forward_output(data)

    def is_idle(self):
        if self.answers < self.questions:
            return False
        unread = struct.unpack("i", fcntl.ioctl(self.slave, termios.FIONREAD, b"\0\0\0\0"))[0]
        if unread:
            return False
        try:
            with open(f"/proc/{self.child}/syscall") as file:
                call = file.read().split()[0]
        except (OSError, IndexError):
            return False
        return call in WAITING_SYSCALLS

    def forward_answers(self):
        """While the relay waits for the program, the emulator's answers to
        the program's own questions go to it (no key is typed meanwhile:
        run.py waits for the measurement)."""
        if select.select([0], [], [], 0)[0]:
            self.pending_input += os.read(0, 4096)
        answered = 0
        for match in ANSWER.finditer(self.pending_input):
            answered = match.end()
        if answered:
            self.pass_keys(self.pending_input[:answered])
            self.pending_input = self.pending_input[answered:]

    def wait_until_idle(self):
        deadline = time.monotonic() + IDLE_SECONDS
        quiet = 0
        while time.monotonic() < deadline:
            if not self.drain_output():
                return False
            self.forward_answers()
            if self.is_idle():
                quiet += 1
                # Idle in three looks over 20 ms: not just between two reads.
                if quiet >= 3:
                    return True
            else:
                quiet = 0
            time.sleep(0.01)
        return False

    def finish_child(self):
        self.drain_output()
        os.close(self.child_exit)
        code = self.program.process.wait()
        self.program.close()
        self.child = None
        tail = self.output_log[-2000:].decode("utf-8", "replace")
        self.send({"event": "exit", "status": code, "output": tail})

    # -- measuring --------------------------------------------------------

    def last_drawn_line(self):
        """The text of the program's last full redraw of its edit line, SGR
        escapes left out. This knows the shape of filenote's render (CR, the
        line, EL, CR, CUF n): a renderer that draws otherwise changes it."""
        log = self.output_log.decode("utf-8", "replace")
        end = log.rfind("\x1b[K\r")
        if end < 0:
            return None
        start = log.rfind("\r", 0, end)
        return SGR.sub("", log[start + 1 : end])

    def measure(self, expectation):
        self.note(f"measuring {expectation['id']}")
        result = {"event": "measured", "id": expectation["id"]}
        if not self.wait_until_idle():
            result["error"] = "the program did not become idle"
            return result
        if expectation.get("clusters") is None:
            # Only the wait was asked for (before a screenshot).
            return result
        result["cursor"] = self.cursor_position()
        drawn = self.last_drawn_line()
        result["drawn"] = drawn
        reference = reference_text(drawn, expectation)
        result["reference_text"] = "".join(reference or [])
        if reference is None:
            result["error"] = "the drawn line does not show the expected text"
            return result
        scratch = terminal_size(1)[0] - SCRATCH_ROWS + 1
        self.write_out(b"\x1b7")
        result["reference_columns"] = self.columns_of(reference, scratch)
        self.write_out(f"\x1b[{scratch};1H\x1b[J\x1b8".encode())
        result["line_row"] = self.line_row
        return result

    def columns_of(self, pieces, row):
        """How many columns the emulator advances when it prints `pieces`
        (clusters) by itself at the start of `row`. Printed whole when they
        fit; a run that wraps is measured in two halves, split between
        clusters, so the emulator's own wrapping (which leaves a wide
        character's column blank) does not count."""
        self.write_out(f"\x1b[{row};1H\x1b[2K".encode() + "".join(pieces).encode())
        position = self.cursor_position()
        if position is None:
            return None
        if position[0] == row:
            return position[1] - 1
        if len(pieces) < 2:
            return None
        half = len(pieces) // 2
        first = self.columns_of(pieces[:half], row)
        second = self.columns_of(pieces[half:], row)
        return None if first is None or second is None else first + second

    # -- run.py -----------------------------------------------------------

    def send(self, message):
        self.note(f"sent {message.get('event')} {message.get('id', '')} {message.get('error', '')}")
        self.control.sendall(json.dumps(message).encode() + b"\n")

    def handle(self, message):
        operation = message["op"]
        if operation == "start":
            self.start(message["argv"], message["env"])
        elif operation == "expect":
            self.expectation = message
        elif operation == "describe":
            self.send(self.describe())
        elif operation == "quit":
            return False
        return True

    def note(self, what):
        if self.log:
            self.log.write(what.encode() + b"\n")
            self.log.flush()

    def keys_arrived(self, data):
        if data:
            self.note(repr(data))
        self.pending_input += data
        while PING in self.pending_input:
            self.pending_input = self.pending_input.replace(PING, b"", 1)
            self.send({"event": "ping"})
        while True:
            at = self.pending_input.find(SENTINEL)
            if at < 0:
                break
            before, self.pending_input = (
                self.pending_input[:at],
                self.pending_input[at + len(SENTINEL) :],
            )
            self.pass_keys(before)
            if self.expectation is None or self.child is None:
                self.send({"event": "measured", "error": "F12 with nothing to measure"})
                continue
            self.send(self.measure(self.expectation))
            self.expectation = None
        # Keep a possible start of a marker until its end arrives.
        keep = 0
        for length in range(len(SENTINEL) - 1, 0, -1):
            if self.pending_input.endswith((SENTINEL[:length], PING[:length])):
                keep = length
                break
        head = self.pending_input[: len(self.pending_input) - keep]
        self.pending_input = self.pending_input[len(self.pending_input) - keep :]
        self.pass_keys(head)

    def pass_keys(self, data):
        if data and self.child is not None:
            self.answers += len(ANSWER.findall(data))
            os.write(self.master, data)

    def run(self):
        while True:
            if self.pending_input:
                # Keys read while waiting for an answer to a question.
                self.keys_arrived(b"")
            watched = [0, self.control]
            if self.child:
                watched += [self.master, self.child_exit]
            ready, _, _ = select.select(watched, [], [])
            if self.child and self.master in ready:
                self.drain_output()
            if self.child and self.child_exit in ready:
                self.finish_child()
                continue
            if self.control in ready:
                data = self.control.recv(65536)
                if not data:
                    return
                self.control_buffer += data
                while b"\n" in self.control_buffer:
                    line, self.control_buffer = self.control_buffer.split(b"\n", 1)
                    if not self.handle(json.loads(line)):
                        return
            # After run.py's messages: the expectation it sent before typing
            # F12 must be known when F12 is read. Looked at again: reading
            # the program's output may have asked the emulator a question,
            # and its answer took what was there.
            if 0 in ready and select.select([0], [], [], 0)[0]:
                data = os.read(0, 4096)
                if not data:
                    return
                self.keys_arrived(data)


def reference_text(drawn, expectation):
    """What the program drew left of its cursor, as the emulator should print
    it by itself: the prompt, the `<` marker when the line is scrolled, and
    the visible clusters before the cursor. The first visible cluster is the
    one from which the rest of the drawn line follows the expected text."""
    if drawn is None:
        return None
    prompt = expectation["prompt"]
    clusters = expectation["clusters"]
    cursor = expectation["cursor"]
    if not drawn.startswith(prompt):
        return None
    shown = drawn[len(prompt) :]
    for anchor in range(0, cursor + 1):
        marker = "<" if anchor > 0 else ""
        if not shown.startswith(marker):
            continue
        # What the text shows: up to the right marker or the blanks left
        # where a wide character did not fit.
        visible = shown[len(marker) :].rstrip(">").rstrip(" ")
        before = "".join(clusters[anchor:cursor])
        if len(visible) >= len(before) and "".join(clusters[anchor:]).startswith(visible):
            return [prompt, marker] + clusters[anchor:cursor]
    return None


def terminal_size(descriptor):
    packed = fcntl.ioctl(descriptor, termios.TIOCGWINSZ, b"\0" * 8)
    rows, columns, _, _ = struct.unpack("HHHH", packed)
    return rows, columns


def main():
    control = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    control.connect(sys.argv[1])
    saved = termios.tcgetattr(0)
    tty.setraw(0)
    relay = Relay(control, sys.argv[2] if len(sys.argv) > 2 else None)
    try:
        relay.run()
    finally:
        if relay.child:
            relay.program.close()
        termios.tcsetattr(0, termios.TCSADRAIN, saved)


if __name__ == "__main__":
    main()
