"""The terminal emulators the suite runs in, and the X display they run on.

Each emulator is started the same way: a window of a known size and title
running one command, with its configuration and HOME in a temporary folder
so nothing of the user's own setup (or earlier runs) is read.
"""

import os
import select
import shutil
import subprocess
import time

COLUMNS = 64
ROWS = 12


class Emulator:
    """One emulator: its command name, Debian package, and how to start a
    command in a new window of it."""

    def __init__(self, name, program, package, arguments):
        self.name = name
        self.program = program
        self.package = package
        self.arguments = arguments

    def is_installed(self):
        return shutil.which(self.program) is not None

    def command(self, title, columns, rows, argv):
        return [self.program] + self.arguments(title, columns, rows) + argv


EMULATORS = [
    Emulator(
        "xterm",
        "xterm",
        "xterm",
        lambda title, columns, rows: [
            "-geometry", f"{columns}x{rows}+0+0", "-T", title,
            "-fa", "DejaVu Sans Mono", "-fs", "12",
            "-xrm", "XTerm*vt100.utf8: 1",
            "-e",
        ],
    ),
    Emulator(
        "xfce4-terminal (VTE)",
        "xfce4-terminal",
        "xfce4-terminal",
        lambda title, columns, rows: [
            "--disable-server", f"--geometry={columns}x{rows}+0+0",
            f"--title={title}", "--hide-menubar", "--hide-toolbar", "--hide-scrollbar",
            "-x",
        ],
    ),
    Emulator(
        "kitty",
        "kitty",
        "kitty",
        lambda title, columns, rows: [
            "--config=NONE", "--title", title,
            "-o", f"initial_window_width={columns}c",
            "-o", f"initial_window_height={rows}c",
            "-o", "remember_window_size=no",
            "-o", "font_size=12",
        ],
    ),
    Emulator(
        "alacritty",
        "alacritty",
        "alacritty",
        lambda title, columns, rows: [
            "--config-file", "/dev/null", "--title", title,
            "-o", f"window.dimensions.columns={columns}",
            "-o", f"window.dimensions.lines={rows}",
            "-o", "font.size=12",
            "-e",
        ],
    ),
]


class Display:
    """A private Xvfb server. `close()` (also on failure) kills it."""

    def __init__(self, folder):
        read_end, write_end = os.pipe()
        self.log = open(os.path.join(folder, "xvfb.log"), "wb")
        self.process = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_end), "-screen", "0", "1024x768x24",
             "-nolisten", "tcp", "-noreset"],
            pass_fds=[write_end], stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        os.close(write_end)
        number = b""
        deadline = time.monotonic() + 20
        while not number.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([read_end], [], [], left)[0]:
                break
            chunk = os.read(read_end, 64)
            if not chunk:
                break
            number += chunk
        os.close(read_end)
        if not number.strip():
            self.close()
            raise RuntimeError("Xvfb did not start (see xvfb.log)")
        self.name = ":" + number.decode().strip()

    def add_keys(self, characters):
        """Gives every non-ASCII code point of `characters` a key of its own
        (on keycodes the keymap leaves empty), before any emulator starts.
        Otherwise xdotool binds a spare key for each character just before
        pressing it and unbinds it right after, and an emulator that reads
        the event after the unbinding types nothing or the wrong character."""
        environment = dict(os.environ, DISPLAY=self.name)
        keymap = subprocess.run(["xmodmap", "-pke"], env=environment, capture_output=True,
                                text=True, check=True, timeout=30).stdout
        free = [line.split()[1] for line in keymap.splitlines()
                if line.startswith("keycode") and line.rstrip().endswith("=")]
        points = sorted({ord(character) for character in characters if ord(character) > 0x7E})
        if len(points) > len(free):
            raise RuntimeError("not enough free keycodes for the characters to type")
        expressions = []
        for keycode, point in zip(free, points):
            expressions += ["-e", f"keycode {keycode} = U{point:04X} U{point:04X}"]
        subprocess.run(["xmodmap", *expressions], env=environment, check=True, timeout=30)

    def close(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.log.close()
