#!/usr/bin/env python3
"""Writes the linker's symbol ordering file for filenote's release build.

A static executable maps its ~10 MB of code from the file, and the kernel
reads it in 64 KiB blocks around each page that is touched. The functions a
run of `filenote show` calls (the C library's start-up, the Swift runtime's,
ours) are spread over the whole text, so a short run maps megabytes it barely
uses. Laid out side by side, in the order they first run, they fit in a few
blocks: that cuts `show`'s peak memory and its page faults.

This runs the release binary under ptrace with a breakpoint on every
function, through the common commands (show, save, path, clear, the prompt
on a pseudo-terminal), and lists each function the first time it is hit.
`make release` runs it on the binary it has just linked and relinks with the
result (in .build, never committed), so the order is always the binary's own.

    bench/symbol_order.py .build/release/filenote .build/symbol-order.txt

Python 3 standard library only. The breakpoints are x86-64's (int3, and the
instruction pointer's place in the saved registers): on any other CPU, or
where ptrace is not allowed (some containers forbid it), this says so and
exits 1 without writing anything, and the release binary keeps a plain
layout: it works the same, with a larger peak memory.
"""

import ctypes
import os
import platform
import pty
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import fcntl
import termios

PTRACE_TRACEME, PTRACE_PEEKTEXT, PTRACE_PEEKUSER = 0, 1, 3
PTRACE_POKETEXT, PTRACE_POKEUSER, PTRACE_CONT = 4, 6, 7
PTRACE_SETOPTIONS, PTRACE_O_TRACECLONE = 0x4200, 0x8
WALL = 0x40000000  # waitpid's __WALL: the threads of a traced process too
RIP_OFFSET = 16 * 8  # offsetof(struct user_regs_struct, rip) on x86-64
# The longest a traced run may take (they take well under a second).
RUN_SECONDS = 60

libc = ctypes.CDLL(None, use_errno=True)
libc.ptrace.restype = ctypes.c_long
libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]


def ptrace(request: int, pid: int, address: int = 0, data: int = 0) -> int:
    ctypes.set_errno(0)
    result = libc.ptrace(request, pid, ctypes.c_void_p(address), ctypes.c_void_p(data))
    if result == -1 and ctypes.get_errno() != 0:
        raise OSError(ctypes.get_errno(), f"ptrace({request}) at {address:#x}")
    return result


def functions(binary: str) -> dict[int, str]:
    """Function start addresses in the text, and one name for each."""
    listing = subprocess.run(["nm", "--defined-only", binary], check=True,
                             capture_output=True, text=True).stdout
    found: dict[int, str] = {}
    for line in listing.splitlines():
        fields = line.split(maxsplit=2)
        if len(fields) == 3 and fields[1] in "tT":
            found.setdefault(int(fields[0], 16), fields[2])
    return found


class Tracer:
    """One traced run: breakpoints on every function, each removed when hit."""

    def __init__(self, pid: int, starts: dict[int, str]):
        self.pid = pid
        self.original: dict[int, int] = {}  # address -> the byte the breakpoint replaced
        self.hit: set[int] = set()
        words: dict[int, list[int]] = {}
        for address in starts:
            words.setdefault(address & ~7, []).append(address)
        for word, addresses in words.items():
            value = ptrace(PTRACE_PEEKTEXT, pid, word) & 0xFFFFFFFFFFFFFFFF
            data = bytearray(struct.pack("<Q", value))
            for address in addresses:
                self.original[address] = data[address - word]
                data[address - word] = 0xCC
            ptrace(PTRACE_POKETEXT, pid, word, struct.unpack("<Q", data)[0])

    def run(self) -> list[int]:
        """Runs to the end, its threads too; the functions hit, in order."""
        # A save that keeps a version fsyncs folders on a second thread
        # (`VersionWriter.makeDurable`): its breakpoints must be caught as
        # well, or the untraced thread dies of them.
        ptrace(PTRACE_SETOPTIONS, self.pid, 0, PTRACE_O_TRACECLONE)
        hits = []
        stopped, deliver = self.pid, 0
        while True:
            ptrace(PTRACE_CONT, stopped, 0, deliver)
            stopped, status = os.waitpid(-1, WALL)
            if os.WIFEXITED(status) or os.WIFSIGNALED(status):
                if stopped == self.pid:
                    return hits
                # A thread ended: wait for the next stop of any other.
                stopped, status = self.next_stop()
                if stopped is None:
                    return hits
            stop = os.WSTOPSIG(status)
            deliver = 0
            if stop == signal.SIGTRAP and status >> 16:
                continue  # the event of a new thread, which starts traced
            if stop == signal.SIGSTOP and stopped != self.pid:
                continue  # a new thread's first stop
            if stop != signal.SIGTRAP:
                deliver = stop
                continue
            address = (ptrace(PTRACE_PEEKUSER, stopped, RIP_OFFSET) & 0xFFFFFFFFFFFFFFFF) - 1
            if address in self.hit:
                # Two threads reached it at once: the other has removed it.
                ptrace(PTRACE_POKEUSER, stopped, RIP_OFFSET, address)
                continue
            if address not in self.original:
                continue
            hits.append(address)
            self.hit.add(address)
            word = address & ~7
            data = bytearray(struct.pack("<Q", ptrace(PTRACE_PEEKTEXT, stopped, word)
                                         & 0xFFFFFFFFFFFFFFFF))
            data[address - word] = self.original.pop(address)
            ptrace(PTRACE_POKETEXT, stopped, word, struct.unpack("<Q", data)[0])
            ptrace(PTRACE_POKEUSER, stopped, RIP_OFFSET, address)

    def next_stop(self):
        """The next stop or end of the process's threads, after one ended."""
        while True:
            try:
                stopped, status = os.waitpid(-1, WALL)
            except ChildProcessError:
                return None, 0
            if os.WIFEXITED(status) or os.WIFSIGNALED(status):
                if stopped == self.pid:
                    return None, 0
                continue
            return stopped, status


def traced(argv: list[str], env: dict[str, str], starts: dict[int, str],
           stdin: bytes = b"", keys: list[bytes] = ()) -> list[int]:
    """Runs argv under the tracer, on a pipe, or on a pseudo-terminal when keys are given."""
    if keys:
        pid, master = pty.fork()
        if pid == 0:
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
                ptrace(PTRACE_TRACEME, 0)
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)  # never back into the tracer's own code
        threading.Thread(target=type_keys, args=(master, keys), daemon=True).start()
    else:
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            try:
                os.dup2(read_end, 0)
                os.close(write_end)
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, 1)
                os.dup2(devnull, 2)
                ptrace(PTRACE_TRACEME, 0)
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)
        os.close(read_end)
        os.write(write_end, stdin)
        os.close(write_end)
    _, status = os.waitpid(pid, 0)  # stopped at exec
    # A run that does not end (a key lost on a busy machine, say) must not
    # hang `make release`: it is killed, and what it called so far counts.
    handle = os.pidfd_open(pid)  # names this process even after its pid is reused
    tracer = Tracer(pid, starts)
    deadline = threading.Timer(RUN_SECONDS, kill, (handle,))
    deadline.start()
    try:
        return tracer.run()
    finally:
        deadline.cancel()
        os.close(handle)


def kill(handle: int) -> None:
    """Ends a traced run that took too long; the order keeps what it called."""
    try:
        signal.pidfd_send_signal(handle, signal.SIGKILL)
    except ProcessLookupError:
        return  # it has just ended
    print(f"symbol_order: a traced run took over {RUN_SECONDS} s and was ended", file=sys.stderr)


def type_keys(master: int, keys: list[bytes]) -> None:
    """Types keys slowly enough for a traced prompt, and reads what it draws."""
    def drain(seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                import select
                if select.select([master], [], [], 0.05)[0] and not os.read(master, 65536):
                    return False
            except OSError:
                return False
        return True
    if not drain(2.0):
        return
    for key in keys:
        try:
            os.write(master, key)
        except OSError:
            return
        if not drain(0.05):
            return
    drain(5.0)


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip().split("\n\n")[3], file=sys.stderr)
        return 2
    binary, output = os.path.abspath(sys.argv[1]), sys.argv[2]
    if platform.machine() != "x86_64":
        print(f"symbol_order: cannot trace on {platform.machine()}: the tracer knows x86-64 only",
              file=sys.stderr)
        return 1
    try:
        order = trace(binary)
    except OSError as error:
        print(f"symbol_order: cannot trace {binary}: {error}", file=sys.stderr)
        return 1
    with open(output, "w") as f:
        f.write("\n".join(order) + "\n")
    print(f"{output}: {len(order)} functions, in the order a run of {sys.argv[1]} calls them")
    return 0


def trace(binary: str) -> list[str]:
    """The names of the functions a few typical runs call, in the order they first run."""
    starts = functions(binary)
    home = tempfile.mkdtemp(prefix="filenote-order-")
    try:
        env = {"HOME": home, "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
               "LANG": "C.UTF-8", "TERM": "xterm"}
        note = os.path.join(home, "Documents", "datafile.dat")
        keys = [b"\x1b[D", b"\x1b[C", b"\x01", b"\x05", b"\x1bb", b"\x1bf", b"\x1b[1;5D",
                b"x", "é".encode(), b"\x7f", b"\x1b[3~", b"\x0b", b"\x19", b"\x1f", b"\r"]
        os.makedirs(os.path.dirname(note), mode=0o700)
        with open(note, "w") as f:
            f.write("a note to show")
        # `show` first: it is the one whose start-up cost matters most; then
        # `show --line`, which a prompt segment runs at every prompt.
        runs = [
            ([binary, "show"], b""),
            ([binary, "show", "--line", "--width", "30"], b""),
            ([binary, "save", "a", "new", "note"], b""),
            ([binary, "save"], b"a note from a pipe\n" * 200),
            ([binary, "path"], b""),
        ]
        order: list[int] = []
        for argv, stdin in runs:
            order += traced(argv, env, starts, stdin=stdin)
        order += traced([binary, "--file", note], env, starts, keys=keys)
        order += traced([binary, "clear"], env, starts)
        order += traced([binary, "show"], env, starts)  # no note: the error path
    finally:
        shutil.rmtree(home, ignore_errors=True)

    names, seen = [], set()
    for address in order:
        if address not in seen:
            seen.add(address)
            names.append(starts[address])
    return names


if __name__ == "__main__":
    sys.exit(main())
