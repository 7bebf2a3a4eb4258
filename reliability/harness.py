"""What every case group shares: running the built filenote in a throwaway
home, recognisable note versions, temporary-file bookkeeping, mounts and
file attributes that are always undone, and the pass/fail ledger.

The environment (clean_environment), process and pseudo-terminal helpers
(run_timed, run_pipeline, run_measured, TerminalRun, type_on_terminal) are
also the benchmarks' (bench/) and the emulator suite's (terminals/): new
benchmarks and cases import them from here rather than copy them.

Standard library only: CI has python3 and nothing else is installed for it.
/usr/bin/time (Debian's `time`) measures peak memory.
"""

import contextlib
import errno
import fcntl
import hashlib
import os
import random
import re
import select
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import traceback


class Failure(Exception):
    """A broken promise: the message says what was expected and what came."""


def check(condition, message):
    if not condition:
        raise Failure(message)


def show_bytes(data, limit=80):
    """A short, printable rendering of bytes for failure messages."""
    if data is None:
        return "(missing)"
    text = repr(data[:limit])
    if len(data) > limit:
        text += "...(%d bytes)" % len(data)
    return text


class Settings:
    """How hard the suite tries. `short` is for CI (well under a minute on
    two cores), `long` for `make reliability`."""

    def __init__(self, name, binary, seed, keep):
        self.name = name
        self.binary = os.path.abspath(binary)
        self.seed = seed
        self.keep = keep
        self.long = name == "long"

    def rng(self, label):
        """A random generator of its own for each case, so that a seed
        reproduces one case whatever ran before it."""
        digest = hashlib.sha256(("%d:%s" % (self.seed, label)).encode()).digest()
        return random.Random(int.from_bytes(digest[:8], "big"))


class Ledger:
    """Passed and failed cases, and the figures reliability/README.md publishes."""

    def __init__(self):
        self.passed = 0
        self.failed = []
        self.figures = {}

    def count(self, figure, amount=1):
        self.figures[figure] = self.figures.get(figure, 0) + amount

    def run(self, name, function, *arguments):
        started = time.monotonic()
        try:
            note = function(*arguments)
        except Failure as failure:
            self.failed.append(name)
            print("FAIL %s: %s" % (name, failure), flush=True)
            return False
        except Exception:  # a bug in the case itself still counts as a failure
            self.failed.append(name)
            print("FAIL %s: the case raised:\n%s" % (name, traceback.format_exc()), flush=True)
            return False
        self.passed += 1
        elapsed = time.monotonic() - started
        suffix = " (%s)" % note if note else ""
        print("ok   %s%s [%.1fs]" % (name, suffix, elapsed), flush=True)
        return True


# --- Throwaway homes -------------------------------------------------------

_ROOT = None


def scratch_root():
    """One folder under the system's temporary folder for the whole run."""
    global _ROOT
    if _ROOT is None:
        _ROOT = tempfile.mkdtemp(prefix="filenote-reliability-")
        # Other users (nobody, for the permission cases) must be able to
        # walk down to the folders a case opens up to them.
        os.chmod(_ROOT, 0o755)
    return _ROOT


def remove_scratch_root(keep):
    global _ROOT
    if _ROOT is None:
        return
    if keep:
        print("kept scratch folder %s" % _ROOT, flush=True)
    else:
        # An immutable flag left behind would make rmtree fail; undo any.
        subprocess.run(["chattr", "-R", "-i", "-a", _ROOT], stderr=subprocess.DEVNULL,
                       stdout=subprocess.DEVNULL)
        shutil.rmtree(_ROOT, ignore_errors=True)
    _ROOT = None


def clean_environment(home, **extra):
    """The environment every harness runs filenote in (and the programs
    measured or compared beside it): built from nothing but PATH (the
    caller's, or /usr/bin:/bin), HOME and a UTF-8 locale, so no FILENOTE_*,
    XDG_* or INPUTRC of whoever runs the harness moves the note or changes
    the keys. Everything else, TERM where there is a terminal included, the
    caller passes in `extra`."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "LANG": "C.UTF-8",
           "LC_ALL": "C.UTF-8"}
    env.update(extra)
    return env


def run_tool(argv, seconds, env=None, statuses=(0,)):
    """Runs a program the cases use beside filenote (a sync engine, mount,
    mkfs) to its end, within `seconds` (on the deadline subprocess.run
    kills it, by its pid); returns it ended (CompletedProcess, its output
    as text) when its status is one of `statuses`, else a Failure with the
    end of what it said."""
    name = os.path.basename(argv[0])
    try:
        result = subprocess.run(argv, capture_output=True, text=True, timeout=seconds, env=env,
                                stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise Failure("%s did not end within %ds" % (" ".join(argv), seconds))
    check(result.returncode in statuses, "%s ended with status %d: %s" % (
        name, result.returncode, (result.stdout + result.stderr).strip()[-600:]))
    return result


class Sandbox:
    """A fresh home folder for one case. `env` points filenote at it and at
    nothing of the real user's."""

    def __init__(self, settings, label):
        self.settings = settings
        self.root = tempfile.mkdtemp(prefix=re.sub(r"[^a-z0-9]+", "-", label.lower()) + "-",
                                     dir=scratch_root())
        os.chmod(self.root, 0o755)
        self.home = os.path.join(self.root, "home")
        os.mkdir(self.home, 0o755)
        self.documents = os.path.join(self.home, "Documents")
        self.note = os.path.join(self.documents, "datafile.dat")
        # filenote keeps a line it could not save (and the editor's file)
        # under TMPDIR: in the sandbox, never in the real /tmp. Sticky and
        # open to all, as /tmp is, so a case run as another user keeps its
        # text here too.
        self.temporary = os.path.join(self.root, "tmp")
        os.mkdir(self.temporary)
        os.chmod(self.temporary, 0o1777)
        self.env = clean_environment(self.home, TMPDIR=self.temporary,
                                     XDG_CONFIG_HOME=os.path.join(self.home, ".config"))
        # Never the real home: everything a case touches is below root.
        check(self.note.startswith(scratch_root() + "/"), "sandbox escaped its root")

    def folder(self, *parts, mode=0o755):
        path = os.path.join(self.root, *parts)
        os.makedirs(path, exist_ok=True)
        os.chmod(path, mode)
        return path

    def run(self, arguments, **options):
        options.setdefault("env", self.env)
        return run_filenote(self.settings.binary, arguments, **options)

    def save_each(self, *texts, arguments=(), **options):
        """Saves each of `texts` in turn (`filenote ARGUMENTS save TEXT`);
        each must succeed."""
        for text in texts:
            outcome = self.run(list(arguments) + ["save", text], **options)
            check(outcome.status == 0, "save %r failed: %s" % (text, outcome.describe()))

    def start(self, arguments, stdin=subprocess.DEVNULL, **options):
        options.setdefault("env", self.env)
        return start_filenote(self.settings.binary, arguments, stdin=stdin, **options)


# --- Running filenote ------------------------------------------------------


class Outcome:
    """How a run ended: its status (negative for a signal, as in
    subprocess), its output, and, when measured, its peak resident memory in
    KiB and the wall-clock seconds from start to exit."""

    def __init__(self, status, stdout, stderr, max_rss_kib=None, seconds=None):
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
        self.max_rss_kib = max_rss_kib
        self.seconds = seconds

    def describe(self):
        return "exit %s, stdout %s, stderr %s" % (
            self.status, show_bytes(self.stdout), show_bytes(self.stderr, 300))


def _child_setup(file_size_limit):
    def setup():
        if file_size_limit is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))

    return setup


def command_line(binary, arguments, user=None):
    if user is None:
        return [binary] + list(arguments)
    # Root ignores permission bits; running as another user is how a
    # permission case is real.
    return ["setpriv", "--reuid=%d" % user, "--regid=%d" % user, "--clear-groups",
            binary] + list(arguments)


def run_filenote(binary, arguments, env, stdin=b"", user=None, file_size_limit=None,
                 cwd=None, timeout=120):
    """Runs filenote to its end. `stdin` is bytes, or a path to read from a
    file (so input arrives in filenote's own chunk sizes). Returns an
    Outcome; the status is negative for a signal, as in subprocess."""
    stdin_file = None
    if isinstance(stdin, str):
        stdin_file = open(stdin, "rb")
        pipe_input = None
    else:
        pipe_input = stdin
    try:
        process = subprocess.Popen(
            command_line(binary, arguments, user),
            stdin=stdin_file if stdin_file else subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=cwd,
            preexec_fn=_child_setup(file_size_limit))
        try:
            stdout, stderr = process.communicate(pipe_input, timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.communicate()
            raise Failure("filenote %s did not end within %ds" % (repr(arguments)[:80], timeout))
        return Outcome(process.returncode, stdout, stderr)
    finally:
        if stdin_file:
            stdin_file.close()


# Peak memory is what /usr/bin/time reports (getrusage of its child). A child
# forked from this Python process would count the pages it had before exec
# (a copy of this process) in its peak; posix_spawn's child shares this
# process's memory until exec, and the kernel counts that too. /usr/bin/time
# is small, so what its child had before exec is a few pages.
TIME = "/usr/bin/time"


def _wait(pid, argv, timeout):
    """Waits for pid to end (killing it after `timeout` seconds) and returns
    its wait status. The caller's clock stops the moment it ends."""
    descriptor = os.pidfd_open(pid)
    try:
        ready, _, _ = select.select([descriptor], [], [], timeout)
        if not ready:
            os.kill(pid, 9)  # the process this module started, and only it
            os.waitpid(pid, 0)
            raise Failure("%s did not end within %gs" % (" ".join(argv)[:120], timeout))
        return os.waitpid(pid, 0)[1]
    finally:
        os.close(descriptor)


def read_peak(path):
    """The peak memory in KiB that `/usr/bin/time -f %M -o path` wrote."""
    with open(path) as file:
        lines = file.read().splitlines()
    check(lines and lines[-1].strip().isdigit(), "%s wrote no peak memory: %r" % (TIME, lines))
    return int(lines[-1])


def _status_and_peak(status, peak_path):
    """The exit status and peak KiB of a run under /usr/bin/time, which exits
    128 + N for a child that signal N killed and says so above the figure."""
    status = os.waitstatus_to_exitcode(status)
    with open(peak_path) as file:
        signalled = re.search(r"terminated by signal (\d+)", file.read())
    if signalled:
        status = -int(signalled.group(1))
    return status, read_peak(peak_path)


def run_timed(argv, env, stdin="/dev/null", stdout="/dev/null", measure_memory=False,
              timeout=600):
    """Runs argv (any program) with standard input read from the file
    `stdin` and standard output written to the file `stdout`, and returns an
    Outcome with its status, standard error, wall-clock seconds and, with
    measure_memory, peak memory. posix_spawn, so the time carries no copy of
    this process."""
    with tempfile.TemporaryDirectory(prefix="filenote-run-") as folder:
        errors = os.path.join(folder, "stderr")
        peak = os.path.join(folder, "peak")
        if measure_memory:
            argv = [TIME, "-f", "%M", "-o", peak] + list(argv)
        actions = [
            (os.POSIX_SPAWN_OPEN, 0, stdin, os.O_RDONLY, 0),
            (os.POSIX_SPAWN_OPEN, 1, stdout, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600),
            (os.POSIX_SPAWN_OPEN, 2, errors, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600),
        ]
        started = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, env, file_actions=actions)
        status = _wait(pid, argv, timeout)
        seconds = time.perf_counter() - started
        rss = None
        if measure_memory:
            status, rss = _status_and_peak(status, peak)
        else:
            status = os.waitstatus_to_exitcode(status)
        with open(errors, "rb") as file:
            return Outcome(status, None, file.read(), rss, seconds)


def run_pipeline(source, sink, env, stdout, measure_memory=False, timeout=600):
    """Runs `source | sink > stdout` (argvs; stdout a path) and returns the
    sink's Outcome, timed until both have exited, with the sink's peak memory
    when measured. Fails when the source does not exit 0."""
    with tempfile.TemporaryDirectory(prefix="filenote-run-") as folder:
        peak = os.path.join(folder, "peak")
        if measure_memory:
            sink = [TIME, "-f", "%M", "-o", peak] + list(sink)
        read_end, write_end = os.pipe()
        started = time.perf_counter()
        try:
            producer = os.posix_spawn(source[0], source, env, file_actions=[
                (os.POSIX_SPAWN_DUP2, write_end, 1), (os.POSIX_SPAWN_CLOSE, read_end)])
            consumer = os.posix_spawn(sink[0], sink, env, file_actions=[
                (os.POSIX_SPAWN_DUP2, read_end, 0), (os.POSIX_SPAWN_CLOSE, write_end),
                (os.POSIX_SPAWN_OPEN, 1, stdout, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)])
        finally:
            os.close(read_end)
            os.close(write_end)
        statuses = [_wait(pid, argv, timeout) for pid, argv in ((producer, source),
                                                                (consumer, sink))]
        seconds = time.perf_counter() - started
        check(os.waitstatus_to_exitcode(statuses[0]) == 0, "%s exited %d" % (
            " ".join(source), os.waitstatus_to_exitcode(statuses[0])))
        rss = None
        if measure_memory:
            status, rss = _status_and_peak(statuses[1], peak)
        else:
            status = os.waitstatus_to_exitcode(statuses[1])
        return Outcome(status, None, b"", rss, seconds)


def run_measured(binary, arguments, env, stdin_path, timeout=600):
    """Runs filenote with stdin from a file and output to /dev/null, and
    returns an Outcome with its peak RSS in KiB, as the kernel counted it."""
    outcome = run_timed([binary] + list(arguments), env, stdin=stdin_path,
                        measure_memory=True, timeout=timeout)
    outcome.stdout = b""
    return outcome


def type_into_prompt(binary, path, note, env, keys, on_terminal, measure_memory=False):
    """Opens the prompt of `binary` on the note at `path` (holding `note`),
    types `keys` with `on_terminal(argv, env, keys)` (which returns its timing
    and everything the prompt wrote), and checks that the prompt said Saved.
    and saved a changed note that is UTF-8. Returns the timing and the peak
    memory in KiB when `measure_memory` (else None). The benchmarks use it."""
    argv = [binary, "--file", path]
    peak_file = path + ".peak"
    if measure_memory:
        argv = [TIME, "-f", "%M", "-o", peak_file] + argv
    timing, output = on_terminal(argv, env, keys)
    check(b"Saved." in output, "the prompt did not report Saved.")
    with open(path, "rb") as file:
        saved = file.read()
    check(saved != note, "the prompt saved nothing")
    saved.decode()  # valid UTF-8, or UnicodeDecodeError
    return timing, read_peak(peak_file) if measure_memory else None


def start_filenote(binary, arguments, env, stdin=subprocess.DEVNULL, user=None):
    return subprocess.Popen(command_line(binary, arguments, user), stdin=stdin,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)


def reap(process):
    """Ends a started filenote that a case is done with, even after a failed
    check: kills it if it still runs and closes the pipes it was given."""
    if process.poll() is None:
        process.kill()
        process.wait()
    process.stdout.close()
    process.stderr.close()


def expect_error_line(outcome, must_name, status=1):
    """An error (doc/DESIGN.md, Errors): one line on standard error,
    `filenote: <what failed>: <why>`, naming the path; a non-zero status;
    nothing on standard output."""
    check(outcome.status == status,
          "expected exit %d with an error, got %s" % (status, outcome.describe()))
    text = outcome.stderr.decode("utf-8", "replace")
    check(text.startswith("filenote: ") and text.endswith("\n") and text.count("\n") == 1,
          "expected one line 'filenote: ...' on stderr, got %r" % text[:400])
    for name in must_name:
        check(name in text, "expected the error to name %r, got %r" % (name, text[:400]))
    check(outcome.stdout == b"", "expected nothing on stdout, got %s" % show_bytes(outcome.stdout))
    return text.rstrip("\n")


# --- Recognisable notes ----------------------------------------------------

_HEADER = re.compile(rb"\Anote tag=(\S+) seq=(\d+) length=(\d+) sha256=([0-9a-f]{64})\n")

# Characters of every UTF-8 length, so a note torn inside a sequence would
# also be caught by filenote's own validation.
_ALPHABET = ["a", "b", "z", " ", "0", "é", "ß", "Ω", "—", "€", "日", "本", "😀", "𝄞", "\t"]


def make_note(tag, seq, length, rng):
    """A valid UTF-8 note of about `length` body bytes whose first line
    says which one it is and carries a checksum of the rest, so a note read
    back is either exactly this version or detectably something else."""
    block = "".join(rng.choice(_ALPHABET) for _ in range(min(4096, max(1, length)))).encode()
    repeats = length // len(block) + 1
    body = (block * repeats)[:length]
    # Cut back to a whole character and end on a full stop: never a line
    # ending, which `save` would drop.
    body = body.decode("utf-8", "ignore").encode() + b"."
    header = b"note tag=%s seq=%d length=%d sha256=%s\n" % (
        tag.encode(), seq, len(body), hashlib.sha256(body).hexdigest().encode())
    return header + body


def identify(data):
    """(tag, seq) of a complete note written by make_note, or None."""
    match = _HEADER.match(data)
    if not match:
        return None
    body = data[match.end():]
    if len(body) != int(match.group(3)):
        return None
    if hashlib.sha256(body).hexdigest().encode() != match.group(4):
        return None
    return (match.group(1).decode(), int(match.group(2)))


# One finished call of an `strace -f -o` log: pid, name, arguments, result.
STRACE_CALL = re.compile(r"^(\d+)\s+(\w+)\((.*)\)\s+=\s+(-?\d+|\?)(?:<[^>]*>)?")
STRACE_UNFINISHED = re.compile(r"^(\d+)\s+(.*) <unfinished \.\.\.>$")
STRACE_RESUMED = re.compile(r"^(\d+)\s+<\.\.\. \w+ resumed>(.*)$")


def strace_calls(lines):
    """The system calls of an `strace -f -o` log, as (pid, name, arguments,
    result), each where it returned. A call another thread's call cut in
    two (`<unfinished ...>`, then `<... name resumed>`) is joined: a save
    fsyncs the versions folder on a second thread beside its own fsync."""
    started = {}
    calls = []
    for line in lines:
        unfinished = STRACE_UNFINISHED.match(line)
        if unfinished:
            started[unfinished.group(1)] = unfinished.group(2)
            continue
        resumed = STRACE_RESUMED.match(line)
        if resumed and resumed.group(1) in started:
            line = "%s %s%s" % (resumed.group(1), started.pop(resumed.group(1)), resumed.group(2))
        call = STRACE_CALL.match(line)
        if call:
            calls.append(call.groups())
    return calls


def read_or_none(path):
    try:
        with open(path, "rb") as file:
            return file.read()
    except FileNotFoundError:
        return None


def write_file(path, data, mode=0o600):
    with open(path, "wb") as file:
        file.write(data)
    os.chmod(path, mode)


# --- Temporary files -------------------------------------------------------

# `.syncthing.NOTE.~<pid>.<random>.tmp`, a name sync engines leave alone
# (doc/SYNC.md), and `.NOTE.<pid>.<random>.tmp` of filenote 0.2, which a
# save still cleans.
_TEMPORARY = re.compile(
    r"\A\.(?:syncthing\.(?P<note>.+)\.~|(?P<legacy>.+)\.)(?P<pid>\d+)\.(\d+)\.tmp\Z")

# The writer lock's file beside the default note.
LOCK_NAME = ".syncthing.datafile.dat.~lock.tmp"


def temporary_name(pid, number, note="datafile.dat"):
    """The name of a save's temporary file with this pid and number."""
    return ".syncthing.%s.~%d.%s.tmp" % (note, pid, number)


def temporary_files(folder):
    """Names in `folder` that look like a save's temporary file."""
    try:
        return sorted(name for name in os.listdir(folder) if _TEMPORARY.match(name))
    except FileNotFoundError:
        return []


def pid_of(name):
    return int(_TEMPORARY.match(name).group("pid"))


def process_exists(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def dead_writers_files(folder):
    """Temporary files whose writer is gone: those must not pile up."""
    return [name for name in temporary_files(folder) if not process_exists(pid_of(name))]


def expect_no_temporary_files(*folders):
    for folder in folders:
        left = temporary_files(folder)
        check(not left, "expected no temporary file in %s, found %s" % (folder, left))


# The folder where a note's versions are kept (reliability/versions.py checks
# what is inside it); other groups expect it beside a note that was replaced.
_VERSIONS_FOLDER = re.compile(r"\A\..+\.versions\Z")


def versions_folder_of(note):
    return os.path.join(os.path.dirname(note), "." + os.path.basename(note) + ".versions")


def expect_only(folder, names):
    """`folder` holds `names` alone, beside the versions folder of a note there."""
    present = sorted(name for name in os.listdir(folder)
                     if not (_VERSIONS_FOLDER.match(name)
                             and os.path.isdir(os.path.join(folder, name))))
    check(present == sorted(names), "expected %s to hold %s alone, found %s" % (
        folder, sorted(names), present))


# --- Faults that must always be undone ------------------------------------


def require_root(what):
    check(os.geteuid() == 0, "%s needs root (run the suite as root, as CI does)" % what)


@contextlib.contextmanager
def mounted(target, *mount_arguments):
    """Mounts, yields, and unmounts whatever happened in between."""
    require_root("mounting")
    result = subprocess.run(["mount"] + list(mount_arguments) + [target],
                            capture_output=True, text=True)
    check(result.returncode == 0, "mount %s failed: %s" % (" ".join(mount_arguments),
                                                             result.stderr.strip()))
    try:
        yield target
    finally:
        if subprocess.run(["umount", target], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", target], capture_output=True)


@contextlib.contextmanager
def file_attribute(path, flag):
    """`chattr +flag` for the duration (root cannot write through +i)."""
    require_root("chattr")
    result = subprocess.run(["chattr", "+" + flag, path], capture_output=True, text=True)
    check(result.returncode == 0, "chattr +%s %s failed: %s" % (flag, path, result.stderr.strip()))
    try:
        yield path
    finally:
        subprocess.run(["chattr", "-" + flag, path], capture_output=True)


@contextlib.contextmanager
def held_lock(path):
    """Holds an exclusive flock on `path`, as a live writer does."""
    descriptor = os.open(path, os.O_RDONLY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield
    finally:
        os.close(descriptor)


def unused_pid():
    """A pid that no process has now (for a dead writer's file name)."""
    for candidate in range(99999, 2, -1):
        if not process_exists(candidate):
            return candidate
    raise Failure("no free pid")


# --- Terminals -------------------------------------------------------------


def _controlling_terminal():
    # Runs in the child after setsid(): standard input becomes its terminal,
    # as a login shell's is, so job control and signals behave as for a user.
    import termios

    fcntl.ioctl(0, termios.TIOCSCTTY, 0)


class TerminalRun:
    """filenote on a pseudo-terminal, as a user at a keyboard runs it.

    Standard input is always the terminal (and the child's controlling
    terminal, unless `controlling` is false: then the child has none, and
    /dev/tty cannot be opened); standard output and error are the terminal
    too unless `stdout` or `stderr` names another descriptor. `terminal` is the slave
    side, kept open here so its settings can be read after filenote ends.
    """

    def __init__(self, binary, arguments, env, columns=80, rows=24, settings=None, stdout=None,
                 stderr=None, inspect=None, controlling=True):
        import struct
        import termios

        self.master, self.terminal = os.openpty()
        fcntl.ioctl(self.terminal, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        if settings is not None:
            termios.tcsetattr(self.terminal, termios.TCSANOW, settings)
        # What the terminal is like before filenote runs (inspect(terminal)).
        self.before = inspect(self.terminal) if inspect else None
        self.transcript = b""
        self.status = None
        self.typing_seconds = None
        self.process = subprocess.Popen(
            [binary] + list(arguments), stdin=self.terminal,
            stdout=self.terminal if stdout is None else stdout,
            stderr=self.terminal if stderr is None else stderr, env=env,
            start_new_session=True, preexec_fn=_controlling_terminal if controlling else None,
            close_fds=True)
        self.pid = self.process.pid

    def read_for(self, seconds):
        deadline = time.monotonic() + seconds
        while True:
            left = max(0, min(0.05, deadline - time.monotonic()))
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                if self._read_chunk() is False:
                    return
            elif time.monotonic() >= deadline:
                return

    def _read_chunk(self):
        """Adds what the terminal holds to the transcript: true when it read
        some, false once the terminal is closed, None when nothing was there."""
        try:
            chunk = os.read(self.master, 65536)
        except (BlockingIOError, InterruptedError):
            return None
        except OSError as error:
            if error.errno == errno.EIO:
                return False
            raise
        if not chunk:
            return False
        self.transcript += chunk
        return True

    def wait_for(self, text, seconds=10):
        """True once `text` was drawn; false when filenote ended or time ran out."""
        deadline = time.monotonic() + seconds
        while text not in self.transcript and time.monotonic() < deadline:
            if self.poll() is not None:
                self.read_for(0.1)
                break
            self.read_for(0.05)
        return text in self.transcript

    def send(self, data):
        os.write(self.master, data)

    def wait_until_quiet(self, quiet_seconds, ready=None, seconds=20):
        """Waits until what the program draws at start is drawn: `ready`
        (bytes) is on the screen, or output came and then none for
        `quiet_seconds` (counted from now when some came before). Fails when
        the program ends first or `seconds` pass."""
        deadline = time.monotonic() + seconds
        last_output = time.monotonic() if self.transcript else None
        while ready is None or ready not in self.transcript:
            now = time.monotonic()
            if last_output is not None and now - last_output >= quiet_seconds:
                return
            if self.poll() is not None:
                raise Failure("the program ended before it was typed into: %s"
                              % show_bytes(self.transcript[-300:], 300))
            if now >= deadline:
                raise Failure("the program was not ready on the terminal within %gs: %s"
                              % (seconds, show_bytes(self.transcript[-300:], 300)))
            # Wakes at the first byte, when the quiet would be over, and
            # every 50 ms to see whether the program still runs.
            left = deadline - now if last_output is None else last_output + quiet_seconds - now
            readable, _, _ = select.select([self.master], [], [], max(0, min(0.05, left)))
            if readable and self._read_chunk():
                last_output = time.monotonic()

    def type_keys(self, keys, gap=0, seconds=30, may_end_early=False, may_keep_running=False,
                  stays_on=None):
        """Types `keys`: bytes in one write, or a list of keys (bytes each)
        one write per key, never a key split, `gap` seconds apart or as fast
        as the terminal takes them; reads what is drawn meanwhile, until the
        program ends, and returns its status. `typing_seconds` is then the
        time from the first key written to the end seen. Fails when the
        program stops answering for `seconds` (unless `may_keep_running`
        and every key is typed: then the status is None, at once when it
        draws `stays_on` after the last key), or ends before the last key
        unless `may_end_early`."""
        if isinstance(keys, bytes):
            keys = [keys]
        ended = os.pidfd_open(self.pid)
        os.set_blocking(self.master, False)
        typed = written = 0
        started = time.perf_counter()
        next_key = last_answer = time.monotonic()
        after_last_key = None
        try:
            while True:
                now = time.monotonic()
                if may_keep_running and typed == len(keys) and (
                        now - last_answer >= seconds or stays_on is not None
                        and stays_on in self.transcript[after_last_key:]):
                    return None
                check(now - last_answer < seconds, "the program stopped answering on the "
                      "terminal after %d of %d keys" % (typed, len(keys)))
                waiting = max(0, next_key - now) if typed < len(keys) else 0
                writing = [self.master] if typed < len(keys) and not waiting else []
                readable, writable, _ = select.select(
                    [self.master, ended], writing, [],
                    min(waiting, seconds) if waiting else seconds - (now - last_answer))
                if ended in readable:
                    self.typing_seconds = time.perf_counter() - started
                if readable or writable:
                    last_answer = time.monotonic()
                if self.master in readable:
                    self.drain()
                if ended in readable:
                    break
                if writable:
                    try:
                        if typed == written == 0:
                            started = time.perf_counter()
                        key = keys[typed][written:]
                        written += os.write(self.master, key)
                    except BlockingIOError:
                        continue
                    if written == len(keys[typed]):  # a key cut short is finished first
                        typed, written = typed + 1, 0
                        next_key = time.monotonic() + gap
                        after_last_key = len(self.transcript)
        finally:
            os.close(ended)
            os.set_blocking(self.master, True)
        self.status = self.process.wait()
        self.drain()
        check(may_end_early or typed == len(keys), "the program ended after %d of %d keys: %s"
              % (typed, len(keys), show_bytes(self.transcript[-300:], 300)))
        return self.status

    def drain(self):
        """Reads what the terminal holds now, without waiting."""
        while select.select([self.master], [], [], 0)[0] and self._read_chunk():
            pass

    def poll(self):
        if self.status is None:
            self.status = self.process.poll()
        return self.status

    def wait(self, seconds=10):
        deadline = time.monotonic() + seconds
        while self.poll() is None and time.monotonic() < deadline:
            self.read_for(0.05)
        if self.poll() is None:
            self.process.kill()  # the filenote this run started, and only it
            self.process.wait()
            self.status = self.process.returncode
            raise Failure("filenote on a terminal did not end within %ds; screen: %s" % (
                seconds, show_bytes(self.transcript[-400:], 400)))
        self.read_for(0.05)
        return self.status

    def close(self):
        if self.poll() is None:
            self.process.kill()
            self.process.wait()
        for descriptor in (self.master, self.terminal):
            try:
                os.close(descriptor)
            except OSError:
                pass


def type_on_terminal(argv, env, keys, columns=80, rows=24, ready=None, quiet_seconds=0.06,
                     gap=0, seconds=30, may_end_early=False, may_keep_running=False,
                     stays_on=None, expected_status=0):
    """The harnesses' one typist: runs argv on a pseudo-terminal of its own
    (its controlling terminal), waits until it is ready (TerminalRun.
    wait_until_quiet), types `keys` (TerminalRun.type_keys) and waits for it
    to end, with `expected_status` (None: any), or kills it when it may keep
    running. Returns the ended TerminalRun: its status, its transcript and
    the typing_seconds from the first key to the end."""
    run = TerminalRun(argv[0], argv[1:], env, columns=columns, rows=rows)
    try:
        run.wait_until_quiet(quiet_seconds, ready=ready, seconds=seconds)
        run.type_keys(keys, gap=gap, seconds=seconds, may_end_early=may_end_early,
                      may_keep_running=may_keep_running, stays_on=stays_on)
    finally:
        run.close()
    check(expected_status is None or run.status == expected_status, "%s exited %s: %s" % (
        os.path.basename(argv[0]), run.status, show_bytes(run.transcript[-300:], 300)))
    return run


def file_identity(path):
    """What changes when a file is replaced or written: inode, size, times."""
    info = os.lstat(path)
    return (info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns,
            stat.S_IMODE(info.st_mode))


class ReplicasSyncedOnDemand:
    """The part of a sync rig (Unison, rclone bisync) whose two folders are
    made alike only by `wait_synced()`, one run of the engine: between runs
    they are apart, so there is nothing to start, stop, pause, resume or
    scan, as a running engine (Syncthing) has."""

    def __enter__(self):
        return self

    def __exit__(self, *exception):
        pass

    def pause(self):
        pass

    def resume(self):
        pass

    def scan(self):
        pass

