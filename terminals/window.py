"""One emulator window running terminals/relay.py, driven by run.py.

Keys go in through xdotool (XTEST, as a user's keyboard would); what the
relay measured comes back over a Unix socket. Every wait has a deadline.
"""

import json
import os
import select
import signal
import socket
import subprocess
import sys
import time

from emulators import COLUMNS, ROWS

# Last, so that reliability/run.py never stands in for terminals/run.py.
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reliability"))
from harness import clean_environment  # noqa: E402

RELAY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "relay.py")
# Starting an emulator on a software-rendered display takes a few seconds on a
# busy machine; a step's answer takes milliseconds.
START_SECONDS = 60
ANSWER_SECONDS = 20


class WindowError(Exception):
    """An emulator did not start, take keys or answer in time."""


class Window:
    """An emulator's window with the relay in it; `close()` (also after a
    failure) ends the emulator and everything it started."""

    def __init__(self, emulator, display, folder, columns=COLUMNS, rows=ROWS):
        self.emulator = emulator
        self.display = display
        self.folder = folder
        self.title = f"filenote-terminals-{os.getpid()}"
        self.buffer = b""
        self.unread = []
        self.columns, self.rows = columns, rows
        self.process = None
        self.connection = None
        home = os.path.join(folder, "emulator-home")
        os.makedirs(home, exist_ok=True)
        self.environment = clean_environment(
            home,
            XDG_CONFIG_HOME=os.path.join(home, ".config"),
            XDG_CACHE_HOME=os.path.join(home, ".cache"),
            XDG_RUNTIME_DIR=home,
            DISPLAY=display.name,
            # kitty and alacritty draw with OpenGL: Mesa's software renderer
            # on Xvfb. GTK (xfce4-terminal) looks for no accessibility bus.
            LIBGL_ALWAYS_SOFTWARE="1",
            NO_AT_BRIDGE="1",
        )
        os.chmod(home, 0o700)

    def open(self):
        path = os.path.join(self.folder, "relay.sock")
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(path)
        listener.listen(1)
        self.log = open(os.path.join(self.folder, "emulator.log"), "wb")
        command = self.emulator.command(self.title, self.columns, self.rows, [
            sys.executable, RELAY, path, os.path.join(self.folder, "relay.log")])
        self.process = subprocess.Popen(
            command, env=self.environment, stdout=self.log, stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )
        listener.settimeout(START_SECONDS)
        try:
            self.connection, _ = listener.accept()
        except socket.timeout:
            raise WindowError(f"{self.emulator.name} did not start the relay "
                              f"in {START_SECONDS} s (see emulator.log)")
        finally:
            listener.close()
        self.window = self.xdotool("search", "--sync", "--limit", "1", "--name", self.title)
        self.window = self.window.split()[0]
        self.wait_for_keys()
        self.send({"op": "describe"})
        return self.receive("ready")

    def wait_for_keys(self):
        """Focuses the window and types F9 until the relay has seen one: an
        emulator may drop keys for a while after its window appears."""
        deadline = time.monotonic() + START_SECONDS
        while True:
            self.xdotool("windowfocus", self.window)
            # kitty (GLFW) takes keys only after it saw a click: there is no
            # window manager to tell it that it has the focus.
            self.xdotool("mousemove", "--window", self.window, "20", "20", "click", "1")
            self.keys("F9")
            try:
                self.receive("ping", seconds=min(1.0, max(deadline - time.monotonic(), 0.1)))
                return
            except WindowError:
                if time.monotonic() > deadline:
                    raise WindowError(f"{self.emulator.name} took no keys in {START_SECONDS} s")

    def close(self):
        if self.connection is not None:
            try:
                self.send({"op": "quit"})
            except OSError:
                pass
            self.connection.close()
        if self.process is not None:
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
            self.log.close()

    def xdotool(self, *arguments):
        try:
            result = subprocess.run(
                ["xdotool", *arguments], env=self.environment, capture_output=True,
                timeout=ANSWER_SECONDS,
            )
        except subprocess.TimeoutExpired:
            raise WindowError(f"xdotool {' '.join(arguments)}: no answer in {ANSWER_SECONDS} s")
        if result.returncode != 0:
            raise WindowError(f"xdotool {' '.join(arguments)}: {result.stderr.decode().strip()}")
        return result.stdout.decode()

    def keys(self, *names):
        """Presses keys by X keysym name (Left, BackSpace, ctrl+a...)."""
        if names:
            self.xdotool("key", *names)

    def type(self, text):
        """Types text, one character's keysym at a time, as xdotool does."""
        self.xdotool("type", "--delay", "12", text)

    def send(self, message):
        self.connection.sendall(json.dumps(message).encode() + b"\n")

    def receive(self, event, seconds=ANSWER_SECONDS):
        """The next message of kind `event`; other kinds wait their turn."""
        deadline = time.monotonic() + seconds
        while True:
            for index, message in enumerate(self.unread):
                if message.get("event") == event:
                    return self.unread.pop(index)
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                self.unread.append(json.loads(line))
            if any(message.get("event") == event for message in self.unread):
                continue
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.connection], [], [], left)[0]:
                raise WindowError(f"no '{event}' from the relay in {seconds} s")
            data = self.connection.recv(65536)
            if not data:
                raise WindowError(f"the relay in {self.emulator.name} ended")
            self.buffer += data

    def start(self, argv, environment):
        self.send({"op": "start", "argv": argv, "env": environment})

    def wait_until_idle(self):
        """Returns once every key typed so far has reached the program and it
        waits for the next one, its output on screen."""
        self.send({"op": "expect", "id": 0, "clusters": None})
        self.keys("F12")
        answer = self.receive("measured")
        if answer.get("error"):
            raise WindowError(answer["error"])

    def screenshot(self, path):
        """The window as a PNG, without the time stamps that would make every
        run's file differ."""
        result = subprocess.run(
            ["import", "-window", self.window, "-define", "png:exclude-chunks=date,time",
             "+set", "date:create", "+set", "date:modify", path],
            env=self.environment, capture_output=True, timeout=ANSWER_SECONDS,
        )
        if result.returncode != 0:
            raise WindowError(f"import {path}: {result.stderr.decode().strip()}")

    def measure(self, identifier, prompt, clusters, cursor):
        """Asks the relay to measure once every key typed so far has reached
        the program: F12, the marker, follows them through the same path."""
        self.send({"op": "expect", "id": identifier, "prompt": prompt,
                   "clusters": clusters, "cursor": cursor})
        self.keys("F12")
        return self.receive("measured")
