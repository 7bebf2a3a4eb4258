"""The test file system from the suite's side: mounting powerfs.py over a
backing folder, talking to it, and unmounting it on every way out.

Every mount is made under a temporary folder the suite made, and is
unmounted by `stop()`, by the `with` block that holds it, and, should the
suite die some other way, by an atexit hook. Every wait has a deadline.
"""

import atexit
import os
import pickle
import select
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DAEMON = os.path.join(HERE, "powerfs.py")
# The interpreters that may have Debian's python3-pyfuse3: the suite's own,
# then Debian's (a python3 found first on PATH may be another build).
INTERPRETERS = (sys.executable, "/usr/bin/python3")

# How long a command's answer may take before expect() wakes the daemon.
WAKE_SECONDS = 1.0

_MOUNTED = set()
_INTERPRETER = []


def unmount(mountpoint):
    """Unmounts `mountpoint` if it is mounted: cleanly, else lazily."""
    if not is_mounted(mountpoint):
        return
    for command in (["fusermount3", "-u", mountpoint], ["fusermount3", "-u", "-z", mountpoint],
                    ["umount", "-l", mountpoint]):
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30)
        if not is_mounted(mountpoint):
            break
    _MOUNTED.discard(mountpoint)


def is_mounted(mountpoint):
    target = os.path.abspath(mountpoint)
    with open("/proc/self/mountinfo") as file:
        for line in file:
            fields = line.split()
            if len(fields) > 4 and fields[4].encode().decode("unicode_escape") == target:
                return True
    return False


@atexit.register
def unmount_all():
    """Unmounts every mount this process made that is still there."""
    for mountpoint in list(_MOUNTED):
        unmount(mountpoint)


def interpreter():
    """A Python that can import pyfuse3 and trio, or None."""
    if not _INTERPRETER:
        found = None
        for candidate in INTERPRETERS:
            if candidate and os.access(candidate, os.X_OK) and subprocess.run(
                    [candidate, "-c", "import pyfuse3, trio"], stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL, timeout=60).returncode == 0:
                found = candidate
                break
        _INTERPRETER.append(found)
    return _INTERPRETER[0]


def missing():
    """Why the test file system cannot run here, or None when it can."""
    if not os.path.exists("/dev/fuse"):
        return "no /dev/fuse"
    if shutil.which("fusermount3") is None:
        return "no fusermount3 (Debian's fuse3)"
    if interpreter() is None:
        return "no python3 with pyfuse3 (Debian's python3-pyfuse3)"
    if os.geteuid() != 0:
        return "not root (the suite mounts as root)"
    return None


def cannot_mount(folder):
    """Why the test file system cannot be mounted under `folder` (a
    container may have /dev/fuse and still refuse mounts), or None."""
    backing = os.path.join(folder, "probe-backing")
    mountpoint = os.path.join(folder, "probe-mount")
    os.makedirs(backing, exist_ok=True)
    try:
        with PowerFS(backing, mountpoint, os.path.join(folder, "probe.log")):
            os.listdir(mountpoint)
    except (RuntimeError, OSError) as error:
        return "mounting it failed: %s" % str(error).strip()[-300:]
    return None


class PowerFS:
    """One mount of the test file system. Use as a context manager:

        with PowerFS(backing, mountpoint) as fs:
            fs.block(3)
            ...
            fs.cut()
            log = fs.dump(path)
    """

    def __init__(self, backing, mountpoint, errors_path):
        self.backing = backing
        self.mountpoint = mountpoint
        self.errors_path = errors_path
        self.process = None
        self.buffer = b""
        self.wakers = []  # the stat processes of wake() not yet reaped
        self.woken = 0    # how many times wake() was needed

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exception):
        self.stop()
        return False

    def start(self, seconds=30):
        python = interpreter()
        if python is None:
            raise RuntimeError(missing())
        os.makedirs(self.mountpoint, exist_ok=True)
        with open(self.errors_path, "ab") as errors:
            self.process = subprocess.Popen(
                [python, DAEMON, self.backing, self.mountpoint], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=errors, close_fds=True)
        _MOUNTED.add(self.mountpoint)
        try:
            self.expect("ready", seconds)
        except Exception:
            self.stop()
            raise

    def stop(self, seconds=20):
        """Unmounts and ends the daemon, whatever state it is in."""
        if self.process is None:
            return
        try:
            if self.process.poll() is None:
                try:
                    self.process.stdin.write(b"exit\n")
                    self.process.stdin.close()
                except (BrokenPipeError, ValueError, OSError):
                    pass
                try:
                    self.process.wait(timeout=seconds)
                except subprocess.TimeoutExpired:
                    pass
        finally:
            unmount(self.mountpoint)
            if self.process.poll() is None:
                self.process.kill()  # the daemon this object started, and only it
                self.process.wait(timeout=seconds)
            self.process.stdout.close()
            self.process = None
            _MOUNTED.discard(self.mountpoint)
            for waker in self.wakers:  # unblocked by the unmount, if not before
                try:
                    waker.wait(timeout=seconds)
                except subprocess.TimeoutExpired:
                    waker.kill()  # a stat this object started, and only it
            self.wakers = []

    def send(self, line):
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()

    def next_line(self, seconds, also=()):
        """The daemon's next line; or, when a descriptor of `also` becomes
        readable first, that descriptor; None when time runs out."""
        deadline = time.monotonic() + seconds
        pipe = self.process.stdout.fileno()
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([pipe] + list(also), [], [], left)
            for descriptor in ready:
                if descriptor != pipe:
                    return descriptor
            if pipe in ready:
                chunk = os.read(pipe, 65536)
                if not chunk:
                    raise RuntimeError("the test file system ended: %s" % self.errors())
                self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return line.decode()

    def expect(self, prefix, seconds=30):
        """The daemon's next line, which must start with `prefix`.

        While it does not come, the mount's root is stat'ed once a second by
        a process of its own. Why: pyfuse3 reads /dev/fuse with a blocking
        read (holding the GIL) once the descriptor has polled readable. When
        a writer is killed while one of its requests is held, the kernel
        queues an interrupt for that request, so the descriptor polls
        readable, and withdraws it when the request is answered at `cut`; a
        reader woken by it then blocks the daemon, commands and all, until
        the file system's next request. The stat is such a request: it
        changes nothing and is not recorded."""
        deadline = time.monotonic() + seconds
        while True:
            line = self.next_line(max(0.0, min(WAKE_SECONDS, deadline - time.monotonic())))
            if line is not None or time.monotonic() >= deadline:
                break
            self.wake()
        if line is None or not line.startswith(prefix):
            raise RuntimeError("the test file system said %r, not %r: %s"
                               % (line, prefix, self.errors()))
        return line

    def errors(self):
        """The end of what the daemon said on standard error, and where it
        waits when it is still there (for a failure's message)."""
        try:
            with open(self.errors_path, "rb") as file:
                said = file.read()[-1500:].decode("utf-8", "replace")
        except OSError:
            said = ""
        if self.process is not None and self.process.poll() is None:
            waits = []
            for task in sorted(os.listdir("/proc/%d/task" % self.process.pid)):
                try:
                    with open("/proc/%d/task/%s/wchan" % (self.process.pid, task)) as file:
                        waits.append(file.read().strip() or "running")
                except OSError:
                    pass
            said += " [still running, its threads waiting in: %s]" % ", ".join(waits)
        return said

    def wake(self):
        """Makes one request of the file system without waiting for it."""
        self.woken += 1
        self.wakers = [waker for waker in self.wakers if waker.poll() is None]
        if len(self.wakers) < 3:
            self.wakers.append(subprocess.Popen(
                ["stat", "--format=%i", self.mountpoint], stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL, close_fds=True))

    def block(self, point):
        """Holds the point-th change (0 the first) when it comes."""
        self.send("block %d" % point)

    def cut(self):
        """The power goes. Returns how many points were seen."""
        self.send("cut")
        return int(self.expect("cut").split()[1])

    def points(self):
        self.send("points")
        return int(self.expect("points").split()[1])

    def boot(self):
        """Power on again over the backing folder as it now is (change it
        only while the power is off)."""
        self.send("boot")
        self.expect("booted")

    def dump(self, path):
        """The log so far (see model.py), as a plain value."""
        self.send("dump " + path)
        self.expect("dumped")
        with open(path, "rb") as file:
            return pickle.load(file)
