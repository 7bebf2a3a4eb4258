#!/usr/bin/env python3
"""Takes the pictures of the prompt that README.md and doc/DESIGN.md show, in
a real terminal (xterm under a private Xvfb), so they are made from the
program as it is, never drawn:

- prompt.png: the prompt just opened on a saved note, the hint above it;
- scrolled.png: a note wider than the window, the cursor moved into it, so
  both edge markers `<` and `>` show;
- conflict.png: the note saved from outside while the prompt was open, then
  Enter: filenote asks before overwriting;
- history.png: a note saved several times, then Ctrl-R and `milk`: the
  search line with the newest kept version that matches, the match
  highlighted.

    python3 terminals/screenshots.py --binary .build/debug/filenote --output doc/screenshots

Everything runs in one temporary folder (HOME included), removed at the end;
Xvfb and xterm are killed, also on failure.
"""

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# Last, so that reliability/run.py never stands in for terminals/run.py.
sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reliability"))

from emulators import EMULATORS, Display  # noqa: E402
from harness import clean_environment  # noqa: E402
from run import stop  # noqa: E402
from window import Window  # noqa: E402

COLUMNS = 72
ROWS = 4
NOTE = "buy oat milk, call Anna about Saturday"
LONG_NOTE = (
    "packing list: passport, charger, the blue notebook, sunscreen, two books "
    "for the train, the spare key for Anna, and the tickets printed twice"
)

# Saved in this order: the last becomes the note, the three before it versions
# 3, 2, 1 (version 1 the newest).
HISTORY = [
    "buy bread",
    "buy milk and eggs",
    "call the plumber about the sink",
    "water the plants, buy stamps",
]


class Scenes:
    def __init__(self, window, binary, folder, output):
        self.window = window
        self.binary = binary
        self.folder = folder
        self.output = output

    def open_prompt(self, *notes):
        """A fresh HOME with `notes` saved one after the other (the last is
        the note, the others its versions), the prompt opened on it."""
        home = tempfile.mkdtemp(prefix="home-", dir=self.folder)
        environment = clean_environment(home)
        for note in notes:
            subprocess.run([self.binary, "save", note], env=environment, check=True, timeout=30)
        self.window.start([self.binary], environment)
        self.window.wait_until_idle()
        return environment

    def take(self, name):
        self.window.wait_until_idle()
        path = os.path.join(self.output, name)
        self.window.screenshot(path)
        print(f"wrote {path}")

    def cancel(self):
        self.window.keys("ctrl+c")
        self.window.receive("exit")

    def prompt(self):
        self.open_prompt(NOTE)
        self.take("prompt.png")
        self.cancel()

    def scrolled(self):
        self.open_prompt(LONG_NOTE)
        # From the start, word by word far enough right that the start has
        # scrolled out of sight while the end is still beyond the right edge,
        # then back a few words: the view stays, the cursor is inside it.
        self.window.keys("Home", *["ctrl+Right"] * 16, *["ctrl+Left"] * 5)
        self.take("scrolled.png")
        self.cancel()

    def conflict(self):
        environment = self.open_prompt(NOTE)
        self.window.type(" and Ben")
        subprocess.run([self.binary, "save", "buy oat milk (Ben)"], env=environment,
                       check=True, timeout=30)
        self.window.keys("Return")
        self.take("conflict.png")
        self.window.keys("n")
        self.cancel()

    def history(self):
        self.open_prompt(*HISTORY)
        self.window.keys("ctrl+r")
        self.window.type("milk")
        self.take("history.png")
        self.cancel()


def main():
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, stop)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=".build/debug/filenote")
    parser.add_argument("--output", default="doc/screenshots")
    options = parser.parse_args()
    binary = os.path.abspath(options.binary)
    if not os.access(binary, os.X_OK):
        sys.exit(f"screenshots: no filenote binary at {binary}: run swift build first")
    missing = [tool for tool in ("Xvfb", "xdotool", "xterm", "import") if shutil.which(tool) is None]
    if missing:
        sys.exit(f"screenshots: {', '.join(missing)} not installed (scripts/test-tools install brings them)")
    os.makedirs(options.output, exist_ok=True)
    output = os.path.abspath(options.output)
    xterm = next(emulator for emulator in EMULATORS if emulator.program == "xterm")
    folder = tempfile.mkdtemp(prefix="filenote-screenshots-")
    display = window = None
    try:
        display = Display(folder)
        window = Window(xterm, display, folder, columns=COLUMNS, rows=ROWS)
        window.open()
        scenes = Scenes(window, binary, folder, output)
        scenes.prompt()
        scenes.scrolled()
        scenes.conflict()
        scenes.history()
    finally:
        if window is not None:
            window.close()
        if display is not None:
            display.close()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
