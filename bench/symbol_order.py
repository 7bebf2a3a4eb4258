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
The order is the same on every run of the same binary, so that two builds of
one commit are the same bytes: nothing in a traced run races (see `Tracer`).

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

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reliability"))
from harness import clean_environment  # noqa: E402

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
    """One traced run: breakpoints on every function, each removed when hit.

    The order must be the same on every run of the same binary, so nothing
    in a traced run may race. The threads of the process therefore run one
    at a time, switched only where the program itself waits for another
    thread: the running one sleeps on a futex (a semaphore, a join). It is
    stopped there, and the next thread, in the order they were made, runs.
    Keys are typed only while the main thread waits for them with no
    deadline (poll with an infinite timeout), one key at a time, so no two
    arrive in one read however busy the machine is; a wait with a deadline
    (an answer from the terminal, the rest of an escape sequence) is left
    to end by itself.
    """

    def __init__(self, pid: int, starts: dict[int, str], master: int | None = None,
                 keys: list[bytes] = ()):
        self.pid = pid
        self.master = master
        self.keys = list(keys)
        self.original: dict[int, int] = {}  # address -> the byte the breakpoint replaced
        self.threads = [pid]  # in the order they were made
        self.stopped: dict[int, int] = {pid: 0}  # held thread -> the signal to deliver
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
        # A save may do some of its work on a second thread (`HelperThread`):
        # its breakpoints must be caught as well, or the untraced thread dies
        # of them.
        ptrace(PTRACE_SETOPTIONS, self.pid, 0, PTRACE_O_TRACECLONE)
        hits: list[int] = []
        current = self.pid
        typed_at = None
        self.resume(current)
        while True:
            self.drain()
            stopped, status = os.waitpid(-1, WALL | os.WNOHANG)
            if stopped == 0:
                state = self.waiting(current)
                if state == "futex" and len(self.threads) > 1:
                    self.hold(current, hits)
                    current = self.next_thread(current)
                    self.resume(current)
                elif state == "input" and current == self.pid and self.keys:
                    # The key typed last has been read once the thread has
                    # slept again since (a sleep counts a voluntary switch).
                    switches = self.switches(current)
                    if typed_at is None or switches > typed_at:
                        os.write(self.master, self.keys.pop(0))
                        typed_at = switches
                time.sleep(0.0005)
                continue
            if os.WIFEXITED(status) or os.WIFSIGNALED(status):
                if stopped == self.pid:
                    return hits  # the process ended (its other threads with it)
                self.threads.remove(stopped)
                self.stopped.pop(stopped, None)
                if stopped == current:
                    current = self.pid if self.pid in self.stopped else self.threads[0]
                    self.resume(current)
                continue
            stop = os.WSTOPSIG(status)
            if stopped != current:
                # A new thread's first stop: it waits its turn.
                if stopped not in self.threads:
                    self.threads.append(stopped)
                self.stopped.setdefault(stopped, 0)
                continue
            if stop == signal.SIGTRAP and status >> 16:
                # The event of a new thread, which starts traced and stopped.
                self.stopped[current] = 0
                self.resume(current)
                continue
            if stop == signal.SIGTRAP and self.breakpoint(current, hits):
                self.stopped[current] = 0
            else:
                self.stopped[current] = stop
            self.resume(current)

    def resume(self, tid: int) -> None:
        """Lets a held thread run; a thread not yet seen stopped is waited for first."""
        if tid not in self.stopped:
            while True:
                stopped, status = os.waitpid(tid, WALL)
                if os.WIFSTOPPED(status):
                    break
            self.stopped[tid] = 0
        ptrace(PTRACE_CONT, tid, 0, self.stopped.pop(tid))

    def hold(self, tid: int, hits: list[int]) -> None:
        """Stops a thread that sleeps, so it runs again only when its turn comes."""
        libc.syscall(234, self.pid, tid, signal.SIGSTOP)  # tgkill
        while True:
            stopped, status = os.waitpid(tid, WALL)
            stop = os.WSTOPSIG(status)
            if stop == signal.SIGSTOP:
                self.stopped[tid] = 0  # the SIGSTOP is the tracer's: never delivered
                return
            # Woken before the signal came: what it did counts, then stop again.
            deliver = 0
            if stop == signal.SIGTRAP and not status >> 16:
                if not self.breakpoint(tid, hits):
                    deliver = stop
            elif stop != signal.SIGTRAP:
                deliver = stop
            ptrace(PTRACE_CONT, tid, 0, deliver)

    def next_thread(self, tid: int) -> int:
        """The thread whose turn comes after tid's, in the order they were made."""
        return self.threads[(self.threads.index(tid) + 1) % len(self.threads)]

    def breakpoint(self, tid: int, hits: list[int]) -> bool:
        """Records a breakpoint that tid stopped at, and removes it; False when none."""
        address = (ptrace(PTRACE_PEEKUSER, tid, RIP_OFFSET) & 0xFFFFFFFFFFFFFFFF) - 1
        if address not in self.original:
            return False
        hits.append(address)
        word = address & ~7
        data = bytearray(struct.pack("<Q", ptrace(PTRACE_PEEKTEXT, tid, word)
                                     & 0xFFFFFFFFFFFFFFFF))
        data[address - word] = self.original.pop(address)
        ptrace(PTRACE_POKETEXT, tid, word, struct.unpack("<Q", data)[0])
        ptrace(PTRACE_POKEUSER, tid, RIP_OFFSET, address)
        return True

    def waiting(self, tid: int) -> str | None:
        """What a running thread sleeps in: "futex", "input" (a wait for keys
        with no deadline), or None (it runs, or waits for something else)."""
        try:
            with open(f"/proc/{self.pid}/task/{tid}/stat") as f:
                if f.read().rpartition(")")[2].split()[0] != "S":
                    return None
            with open(f"/proc/{self.pid}/task/{tid}/syscall") as f:
                fields = f.read().split()
        except OSError:
            return None
        if not fields or not fields[0].isdigit():
            return None
        number, arguments = int(fields[0]), [int(a, 16) for a in fields[1:7]]
        if number == 202:  # futex
            return "futex"
        if number == 7 and arguments[2] & 0xFFFFFFFF == 0xFFFFFFFF:  # poll(..., -1)
            return "input"
        if number == 271 and arguments[2] == 0:  # ppoll(..., NULL, ...)
            return "input"
        return None

    def switches(self, tid: int) -> int:
        """How many times the thread has slept (voluntary_ctxt_switches)."""
        with open(f"/proc/{self.pid}/task/{tid}/status") as f:
            for line in f:
                if line.startswith("voluntary_ctxt_switches:"):
                    return int(line.split()[1])
        return 0

    def drain(self) -> None:
        """Reads what the traced prompt drew, so it never waits to write."""
        if self.master is None:
            return
        try:
            while os.read(self.master, 65536):
                pass
        except OSError:
            pass


def traced(argv: list[str], env: dict[str, str], starts: dict[int, str],
           stdin: bytes = b"", keys: list[bytes] = ()) -> list[str]:
    """Runs argv under the tracer, on a pipe, or on a pseudo-terminal when
    keys are given; the names of the functions it called, in order."""
    master = None
    if keys:
        pid, master = pty.fork()
        if pid == 0:
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
                fixed_layout()
                ptrace(PTRACE_TRACEME, 0)
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)  # never back into the tracer's own code
        os.set_blocking(master, False)
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
                fixed_layout()
                ptrace(PTRACE_TRACEME, 0)
                os.execve(argv[0], argv, env)
            finally:
                os._exit(127)
        os.close(read_end)
        os.write(write_end, stdin)
        os.close(write_end)
    _, status = os.waitpid(pid, 0)  # stopped at exec
    starts = loaded(starts, pid, argv[0])
    # A run that does not end must not hang `make release`: it is killed,
    # and what it called so far counts.
    handle = os.pidfd_open(pid)  # names this process even after its pid is reused
    tracer = Tracer(pid, starts, master, keys)
    deadline = threading.Timer(RUN_SECONDS, kill, (handle,))
    deadline.start()
    try:
        return [starts[address] for address in tracer.run()]
    finally:
        deadline.cancel()
        os.close(handle)
        if master is not None:
            os.close(master)


def loaded(starts: dict[int, str], pid: int, binary: str) -> dict[int, str]:
    """The functions at the addresses the process has them: a
    position-independent binary is loaded at a base that nm does not know
    (its file offset 0 is mapped there)."""
    real = os.path.realpath(binary)
    with open(f"/proc/{pid}/maps") as f:
        for line in f:
            fields = line.split()
            if len(fields) >= 6 and os.path.realpath(fields[5]) == real and int(fields[2], 16) == 0:
                base = int(fields[0].split("-")[0], 16)
                break
        else:
            raise OSError(0, f"{binary} is not mapped in process {pid}")
    with open(real, "rb") as f:
        header = f.read(18)
    is_position_independent = struct.unpack_from("<H", header, 16)[0] == 3  # ET_DYN
    return {address + base: name for address, name in starts.items()} \
        if is_position_independent else starts


def fixed_layout() -> None:
    """In the child, before exec: the same addresses on every run (no ASLR),
    so nothing that depends on an address can take another path."""
    libc.personality(0x0040000)  # ADDR_NO_RANDOMIZE


def kill(handle: int) -> None:
    """Ends a traced run that took too long; the order keeps what it called."""
    try:
        signal.pidfd_send_signal(handle, signal.SIGKILL)
    except ProcessLookupError:
        return  # it has just ended
    print(f"symbol_order: a traced run took over {RUN_SECONDS} s and was ended", file=sys.stderr)


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
        # The standard library's hashing seeded the same on every run, so
        # no Dictionary or Set takes another path from one run to the next.
        env = clean_environment(home, TERM="xterm", SWIFT_DETERMINISTIC_HASHING="1")
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
        order: list[str] = []
        for argv, stdin in runs:
            order += traced(argv, env, starts, stdin=stdin)
        order += traced([binary, "--file", note], env, starts, keys=keys)
        order += traced([binary, "clear"], env, starts)
        order += traced([binary, "show"], env, starts)  # no note: the error path
    finally:
        shutil.rmtree(home, ignore_errors=True)

    names, seen = [], set()
    for name in order:
        if name not in seen:
            seen.add(name)
            names.append(name)
    return names


if __name__ == "__main__":
    sys.exit(main())
