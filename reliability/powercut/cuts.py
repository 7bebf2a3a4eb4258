"""Every writer of filenote cut at every point, under both models.

For each writer (a scenario: a home folder made ready, then one command),
the writer is traced once through the test file system, which counts its
points (the changes it makes, model.py). Then, for each point, the home
folder is laid anew, the writer runs again with the file system told to hold
that point, and is killed there; the power goes, and every crash state the
model allows of what it had done is written into a folder of its own and
checked with filenote itself (`Judge.problems`):

- the note is the old text or the new one, byte for byte: never missing
  (unless the writer removes it), empty, torn or mixed, and keeps its mode;
  a writer that had exited 0 before the cut has its whole effect (note, mode
  and versions);
- every version `history` listed before is still listed and whole (but what
  the writer itself drops: pruned versions, `clear --all`), none is listed
  twice, the note is not listed as a version;
- the next `save` succeeds, keeps the note it replaces and every version
  (as many as are kept), and leaves no stray file.

Then each of the writer's fsyncs is ignored in turn (the file system treats
it as a no-op) and the same cuts are judged again: some crash state must
fail, else that fsync is not needed by any invariant here.
"""

import os
import re
import shlex
import shutil
import subprocess
import threading
import time

from harness import (LOCK_NAME, Failure, TerminalRun, check, make_note, run_filenote,
                     show_bytes)

from . import model, mount
from .mount import PowerFS

HISTORY_NUMBER = re.compile(rb"\A *(\d+)\s")
# A version's name: the moment it was kept and a random number, or filenote
# 0.2's `<sequence>-<seconds>`; a save's temporary file and the lock's, as
# harness.py names them (doc/SYNC.md: names sync engines leave alone).
VERSION_NAME = re.compile(r"\A(\d{10}-\d{1,20}|\d{1,19}\.\d{9}-[0-9a-f]{16})\Z")
TEMPORARY = re.compile(r"\A\.syncthing\.datafile\.dat\.~\d+\.\d+\.tmp\Z")
NOTE_FILES = {"datafile.dat", LOCK_NAME, ".datafile.dat.versions"}
MIB = 1024 * 1024

# The fsyncs that no case needs, by role (see fsync_roles), and why; the
# design document says more. A role listed here that a case comes to need,
# or a role missing from here that no case needs, fails the suite.
EXPLAINED = {}


class Budget:
    """How hard the cuts try: every point and many crash states in the long
    setting; in the short one (CI), a sample of points and fewer states."""

    def __init__(self, settings):
        self.states = 256 if settings.long else 8         # per point and model
        self.ignored_states = 32 if settings.long else 4  # per point, model and ignored fsync
        self.points = None if settings.long else 2        # None: every point
        self.stream_size = 4 * MIB if settings.long else 2 * MIB
        self.random_stream_points = 12 if settings.long else 2
        # A streaming save's cut leaves hundreds of pages not durable, so
        # nearly every sampled state is new; fewer of them per point.
        self.stream_states = 16 if settings.long else 3
        self.stream_ignored_states = 6 if settings.long else 2

    def states_for(self, scenario):
        return self.stream_states if scenario.stream_points else self.states

    def ignored_states_for(self, scenario):
        return self.stream_ignored_states if scenario.stream_points else self.ignored_states


# --- Facts: what filenote itself says about a home folder -----------------


class Facts:
    """The note and the versions as `show` and `history` tell them."""

    def __init__(self, note, versions, mode, problems):
        self.note = note            # bytes, or None when there is none
        self.versions = versions    # newest first
        self.mode = mode            # the note file's permission bits, or None
        self.problems = problems

    def texts(self):
        return ([self.note] if self.note is not None else []) + self.versions


def environment(home, extra):
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": home, "LANG": "C.UTF-8",
           "XDG_CONFIG_HOME": os.path.join(home, ".config")}
    env.update(extra)
    return env


def facts(binary, home, extra=None):
    env = environment(home, extra or {})
    problems = []
    shown = run_filenote(binary, ["show"], env, timeout=60)
    if shown.status == 0:
        note = shown.stdout[:-1] if shown.stdout.endswith(b"\n") else shown.stdout
    # No note ("no note saved yet", or, with versions kept, "no note saved
    # in ...; 'filenote undo' brings back ...").
    elif shown.status == 1 and b"no note saved" in shown.stderr:
        note = None
    else:
        note = None
        problems.append("show failed: %s" % shown.describe())
    listed = run_filenote(binary, ["history"], env, timeout=60)
    versions = []
    if listed.status != 0:
        problems.append("history failed: %s" % listed.describe())
    else:
        numbers = [int(match.group(1)) for match in
                   (HISTORY_NUMBER.match(line) for line in listed.stdout.split(b"\n")) if match]
        numbers = [number for number in numbers if number > 0]
        if numbers != list(range(1, len(numbers) + 1)):
            problems.append("history numbers %s, not 1 to %d" % (numbers, len(numbers)))
        for number in numbers:
            version = run_filenote(binary, ["show", str(number)], env, timeout=60)
            if version.status != 0:
                problems.append("show %d failed: %s" % (number, version.describe()))
                versions.append(None)
            else:
                versions.append(version.stdout[:-1] if version.stdout.endswith(b"\n")
                                else version.stdout)
    try:
        mode = os.stat(os.path.join(home, "Documents", "datafile.dat")).st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    return Facts(note, versions, mode, problems)


def own_name_kept(home):
    """Whether the note's file has a name of its own in the versions folder:
    every save links its new file there before its rename (doc/SYNC.md), so
    that a sync engine carries the text as a file of its own."""
    documents = os.path.join(home, "Documents")
    try:
        note = os.stat(os.path.join(documents, "datafile.dat"))
        names = os.listdir(os.path.join(documents, ".datafile.dat.versions"))
    except FileNotFoundError:
        return False
    folder = os.path.join(documents, ".datafile.dat.versions")
    return any(os.lstat(os.path.join(folder, name)).st_ino == note.st_ino for name in names)


# --- Writers ---------------------------------------------------------------


class Running:
    """A writer under way: its process, and what keeps it going."""

    def __init__(self, process, terminal=None, feeder=None):
        self.process = process
        self.terminal = terminal
        self.feeder = feeder
        self.pid = process.pid

    def pump(self):
        if self.terminal is not None:
            self.terminal.read_for(0)

    def kill(self):
        if self.process.poll() is None:
            self.process.kill()  # the writer this suite started, and only it

    def wait(self, seconds):
        deadline = time.monotonic() + seconds
        while self.process.poll() is None and time.monotonic() < deadline:
            self.pump()
            time.sleep(0.005)
        if self.process.poll() is None:
            self.kill()
            self.process.wait(timeout=30)
            raise Failure("the writer did not end within %gs" % seconds)
        return self.process.returncode

    def close(self):
        self.kill()
        if self.process.poll() is None:
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                pass
        if self.feeder is not None:
            self.feeder.join(timeout=30)
        if self.terminal is not None:
            self.terminal.close()
        else:
            for stream in (self.process.stdout, self.process.stderr):
                if stream is not None:
                    stream.close()

    def transcript(self):
        if self.terminal is not None:
            return show_bytes(self.terminal.transcript[-300:], 300)
        return ""


class Command:
    """`filenote ARGUMENTS`, standard input from /dev/null or fed through a pipe."""

    def __init__(self, arguments, stdin=None):
        self.arguments = arguments
        self.stdin = stdin

    def start(self, binary, env, scratch):
        if self.stdin is None:
            process = subprocess.Popen([binary] + self.arguments, stdin=subprocess.DEVNULL,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                       env=env)
            return Running(process)
        process = subprocess.Popen([binary] + self.arguments, stdin=subprocess.PIPE,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)

        def feed(data=self.stdin):
            try:
                for start in range(0, len(data), 64 * 1024):
                    process.stdin.write(data[start:start + 64 * 1024])
                process.stdin.close()
            except (BrokenPipeError, ValueError, OSError):
                pass  # killed while still reading: that is the cut

        feeder = threading.Thread(target=feed, daemon=True)
        feeder.start()
        return Running(process, feeder=feeder)


class Prompt:
    """The prompt on a pseudo-terminal: the note on the line, `typed` added
    at its end, Enter."""

    def __init__(self, typed):
        self.typed = typed

    def start(self, binary, env, scratch):
        run = TerminalRun(binary, [], dict(env, TERM="xterm"), columns=120)
        running = Running(run.process, terminal=run)
        try:
            check(run.wait_for(b"Enter saves", seconds=15),
                  "the prompt did not open: %s" % show_bytes(run.transcript[-300:], 300))
            run.wait_until_quiet(0.1)
            run.send(self.typed)
            check(run.wait_for(self.typed[-3:], seconds=10), "the typing was not drawn")
            run.send(b"\r")
        except Exception:
            running.close()
            raise
        return running


class Edit:
    """`filenote edit` on a pseudo-terminal, the editor a script that writes
    `text` over the file it is given."""

    def __init__(self, text):
        self.text = text

    def start(self, binary, env, scratch):
        script = os.path.join(scratch, "editor.sh")
        text_file = os.path.join(scratch, "edited.txt")
        if not os.path.exists(script):
            with open(text_file, "wb") as file:
                file.write(self.text)
            with open(script, "w") as file:
                file.write("#!/bin/sh\ncat %s > \"$1\"\n" % shlex.quote(text_file))
            os.chmod(script, 0o755)
        # The editor's own file is made under TMPDIR: outside the file system.
        env = dict(env, TERM="xterm", EDITOR=script, TMPDIR=scratch)
        run = TerminalRun(binary, ["edit"], env, columns=120)
        return Running(run.process, terminal=run)


class Scenario:
    """A home folder made by `setup` (filenote commands on a plain folder),
    then `writer` run on it through the test file system."""

    def __init__(self, name, setup, writer, extra=None, stream_points=False):
        self.name = name
        self.setup = setup
        self.writer = writer
        self.extra = extra or {}
        self.stream_points = stream_points


def texts(settings, count, length=60):
    rng = settings.rng("powercut texts %d" % length)
    return [make_note("t%d" % index, index, length, rng) for index in range(count)]


def note_mode(mode):
    """A setup step: the note's mode, which every writer must keep."""
    def step(home):
        os.chmod(os.path.join(home, "Documents", "datafile.dat"), mode)
    return step


def foreign_file(home):
    """A setup step: a file filenote did not write, in the versions folder."""
    with open(os.path.join(home, "Documents", ".datafile.dat.versions", "by-hand.txt"),
              "wb") as file:
        file.write(b"written by hand")


def scenarios(settings, budget):
    a, b, c, d, e, f = texts(settings, 6)
    big = make_note("stream", 1, budget.stream_size, settings.rng("powercut stream"))

    def saves(*notes):
        return [["save", note.decode()] for note in notes] + [note_mode(0o640)]

    return [
        Scenario("the first save (makes the documents folder)", [],
                 Command(["save", a.decode()])),
        Scenario("the first save that keeps a version (makes the versions folder)", saves(a),
                 Command(["save", b.decode()])),
        Scenario("save, a short note as an argument", saves(a, b, c),
                 Command(["save", d.decode()])),
        Scenario("save, %d MiB streamed from a pipe" % (budget.stream_size // MIB), saves(a, b),
                 Command(["save"], stdin=big + b"\n"), stream_points=True),
        Scenario("the prompt's Enter", saves(a, b), Prompt(b" typed")),
        Scenario("edit, the editor a script", saves(a, b), Edit(e)),
        Scenario("undo", saves(a, b, c), Command(["undo"])),
        Scenario("restore 2", saves(a, b, c, d), Command(["restore", "2"])),
        Scenario("clear", saves(a, b), Command(["clear"])),
        Scenario("clear --all", saves(a, b, c), Command(["clear", "--all"])),
        Scenario("clear --all, a file filenote did not write in the versions folder",
                 saves(a, b, c) + [foreign_file], Command(["clear", "--all"])),
        Scenario("a save that prunes (FILENOTE_VERSIONS=2, 2 kept)", saves(a, b, c),
                 Command(["save", f.decode()]), extra={"FILENOTE_VERSIONS": "2"}),
    ]


# --- One cut ---------------------------------------------------------------


class Cut:
    """One run of the writer held at `point` (None: never) and the power cut."""

    def __init__(self, point, log_path, completed, status):
        self.point = point
        self.log_path = log_path
        self.completed = completed  # the writer had exited 0 before the cut
        self.status = status

    def log(self):
        import pickle

        with open(self.log_path, "rb") as file:
            return pickle.load(file)


class Bench:
    """One scenario's folders: the home made ready (`template`), a backing
    folder laid from it for each run, the mount point the writer sees as
    its home, and room for the crash states."""

    def __init__(self, settings, scenario, root):
        self.settings = settings
        self.binary = settings.binary
        self.scenario = scenario
        self.root = root
        self.template = os.path.join(root, "template")
        self.backing = os.path.join(root, "backing")
        self.mountpoint = os.path.join(root, "home")
        self.scratch = os.path.join(root, "scratch")
        self.logs = os.path.join(root, "logs")
        for folder in (self.template, self.scratch, self.logs):
            os.makedirs(folder)
        os.chmod(self.template, 0o755)
        env = environment(self.template, scenario.extra)
        for step in scenario.setup:
            if callable(step):
                step(self.template)
                continue
            outcome = run_filenote(self.binary, step, env, timeout=60)
            check(outcome.status == 0, "setting up: filenote %s: %s"
                  % (step[0], outcome.describe()))
        # Names in the note's folders that filenote did not write stay.
        self.foreign = set()
        for folder in ("Documents", "Documents/.datafile.dat.versions"):
            path = os.path.join(self.template, folder)
            if os.path.isdir(path):
                self.foreign.update(os.path.join(folder, name) for name in os.listdir(path))
        self.runs = 0

    def lay(self):
        """The backing folder laid anew from the template (power off)."""
        if os.path.exists(self.backing):
            shutil.rmtree(self.backing)
        subprocess.run(["cp", "-a", self.template, self.backing], check=True)

    def __enter__(self):
        self.lay()
        self.fs = PowerFS(self.backing, self.mountpoint, os.path.join(self.root, "powerfs.log"))
        self.fs.start()
        return self

    def __exit__(self, *exception):
        self.fs.stop()
        return False

    def cut(self, point):
        """Lays the home anew, runs the writer held at `point` (None: to its
        end), kills it there, cuts the power; returns the Cut."""
        fs = self.fs
        if self.runs:
            # The backing folder is the disk: lay it while the power is off.
            for name in os.listdir(self.backing):
                path = os.path.join(self.backing, name)
                shutil.rmtree(path) if os.path.isdir(path) and not os.path.islink(path) \
                    else os.unlink(path)
            subprocess.run(["cp", "-a", self.template + "/.", self.backing], check=True)
            fs.boot()
        self.runs += 1
        log_path = os.path.join(self.logs, "cut-%d.pickle" % self.runs)
        if point is not None:
            fs.block(point)
        env = environment(self.mountpoint, self.scenario.extra)
        running = self.scenario.writer.start(self.binary, env, self.scratch)
        held = False
        try:
            ended = os.pidfd_open(running.pid)
            try:
                deadline = time.monotonic() + 60
                while True:
                    check(time.monotonic() < deadline,
                          "the writer neither ended nor reached point %s within 60 s: %s"
                          % (point, running.transcript()))
                    line = fs.next_line(0.02, also=[ended])
                    running.pump()
                    if isinstance(line, str):
                        check(line.startswith("blocked "), "the file system said %r" % line)
                        held = True
                        break
                    if line == ended:
                        break
            finally:
                os.close(ended)
            if held:
                running.kill()
            fs.cut()
            status = running.wait(30)
        finally:
            running.close()
        fs.dump(log_path)
        completed = not held and status == 0
        if not held:
            check(status == 0, "the writer failed on the test file system: status %s %s"
                  % (status, running.transcript()))
        return Cut(point, log_path, completed, status)


# --- Judging crash states --------------------------------------------------


class Judge:
    """Checks crash states against the facts before the writer and after it
    completed, remembering each state's verdict by its digest."""

    def __init__(self, bench, before, final):
        self.bench = bench
        self.before = before
        self.final = final
        self.known = set(before.texts()) | set(final.texts())
        self.verdicts = {}
        self.baseline_failures = set()
        self.checked = 0
        self.count = int(bench.scenario.extra.get("FILENOTE_VERSIONS", "100"))

    def failed_with_every_fsync(self, state, completed):
        return (model.digest(state), completed) in self.baseline_failures

    def verdict(self, state, completed, baseline=False):
        """The problems of one crash state (an empty list: none). With
        `baseline`, the state is one with every fsync in place."""
        key = (model.digest(state), completed)
        if key not in self.verdicts:
            self.checked += 1
            folder = os.path.join(self.bench.root, "state-%d" % self.checked)
            model.materialize(state, folder)
            try:
                self.verdicts[key] = self.problems(folder, completed)
            finally:
                shutil.rmtree(folder, ignore_errors=True)
        if baseline and self.verdicts[key]:
            self.baseline_failures.add(key)
        return self.verdicts[key]

    def problems(self, home, completed):
        binary = self.bench.binary
        extra = self.bench.scenario.extra
        now = facts(binary, home, extra)
        found = list(now.problems)
        before, final = self.before, self.final
        old_new = {before.note, final.note}
        if now.note is None and None not in old_new:
            found.append("the note is missing")
        elif now.note not in old_new:
            found.append("the note is neither the old text nor the new one: %s"
                         % show_bytes(now.note))
        if now.note is not None and now.mode not in (before.mode, final.mode):
            found.append("the note's mode is %o, neither %s nor %s" % (
                now.mode, oct_or_none(before.mode), oct_or_none(final.mode)))
        for number, text in enumerate(now.versions, 1):
            if text is not None and text not in self.known:
                found.append("version %d is torn or unknown: %s" % (number, show_bytes(text)))
        if completed and (now.note != final.note or now.versions != final.versions
                          or now.mode != final.mode):
            found.append("the writer had completed, yet the state is not its result: note %s, "
                         "%d versions (expected %s, %d)" % (
                             show_bytes(now.note, 40), len(now.versions),
                             show_bytes(final.note, 40), len(final.versions)))
        if completed and not isinstance(self.bench.scenario.writer, Command) \
                and now.note is not None and not own_name_kept(home):
            found.append("the writer had completed, yet the note's text has no name of its own "
                         "in the versions folder (a hard link of the note)")
        counts = multiset(now.texts())
        was, will = multiset(before.texts()), multiset(final.texts())
        for text in set(was) | set(will) | set(counts):
            have, had, result = counts.get(text, 0), was.get(text, 0), will.get(text, 0)
            if have < min(had, result) and text is not None:
                found.append("lost: a text kept before is gone: %s" % show_bytes(text, 40))
            if have > max(had, result):
                found.append("listed twice: %s (%d times)" % (show_bytes(text, 40), have))
        if not found:
            found += self.next_save(home, now)
        return found

    def next_save(self, home, now):
        """The next save succeeds, keeps what it replaces, and leaves no
        stray file."""
        binary = self.bench.binary
        extra = self.bench.scenario.extra
        text = b"the save after the power cut"
        outcome = run_filenote(binary, ["save", text.decode()], environment(home, extra),
                               timeout=60)
        if outcome.status != 0:
            return ["the next save failed: %s" % outcome.describe()]
        after = facts(binary, home, extra)
        found = list(after.problems)
        kept = list(now.versions)
        if now.note is not None and (not kept or kept[0] != now.note):
            kept.insert(0, now.note)
        kept = kept[:self.count]
        if after.note != text:
            found.append("the next save did not land: the note is %s" % show_bytes(after.note, 40))
        have, want = multiset(after.versions), multiset(kept)
        for version in sorted(set(have) | set(want), key=repr):
            if have.get(version, 0) > want.get(version, 0):
                found.append("listed twice after the next save: %s" % show_bytes(version, 40))
            elif have.get(version, 0) < want.get(version, 0):
                found.append("lost: the next save did not keep %s" % show_bytes(version, 40))
        if not found and after.versions != kept:
            found.append("after the next save the versions are out of order")
        documents = os.path.join(home, "Documents")
        stray = ["Documents/" + name for name in sorted(os.listdir(documents))
                 if name not in NOTE_FILES]
        versions = os.path.join(documents, ".datafile.dat.versions")
        if os.path.isdir(versions):
            stray += ["Documents/.datafile.dat.versions/" + name
                      for name in sorted(os.listdir(versions)) if not VERSION_NAME.match(name)]
        stray = [name for name in stray if name not in self.bench.foreign]
        if stray:
            found.append("stray files after the next save: %s" % stray)
        return found


def oct_or_none(mode):
    return "none" if mode is None else "%o" % mode


def multiset(items):
    counts = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return counts


# --- Points and fsyncs -----------------------------------------------------


def points_to_cut(trace_log, budget, rng, scenario):
    """Every point (and after the last) in the long setting. In the short
    one: the first, the end, the point right after each rename and each
    fsync (where what is durable changes), and a few more at random."""
    operations = [operation for operation in trace_log["operations"] if model.is_point(operation)]
    last = len(operations)
    chosen = set(range(last + 1))
    if budget.points is not None:
        chosen = {0, last}
        chosen.update(index + 1 for index, operation in enumerate(operations)
                      if operation[0] in ("rename", "fsync"))
        others = sorted(set(range(1, last)) - chosen)
        chosen.update(rng.sample(others, min(len(others), budget.points)))
    if scenario.stream_points:
        # The middle of a streaming save: where in the writes a cut falls
        # varies from run to run (the pipe's chunks), so some at random.
        chosen.update(rng.randrange(1, last) for _ in range(budget.random_stream_points))
    return sorted(chosen)


def classify(path):
    if path in ("", None):
        return "the home folder" if path == "" else "a file no longer named"
    names = {"Documents": "the documents folder", "Documents/datafile.dat": "the note file",
             "Documents/.datafile.dat.versions": "the versions folder",
             "Documents/" + LOCK_NAME: "the lock file"}
    if path in names:
        return names[path]
    base = os.path.basename(path)
    if TEMPORARY.match(base):
        return "the temporary file"
    if VERSION_NAME.match(base):
        return "a version file"
    return path


def fsync_roles(log):
    """For each fsync of the log, in words that are the same from one run
    to the next: what it syncs, and the change it makes durable (for a
    folder, the last name added, removed or renamed in it; for a file, the
    last change to it)."""
    roles = []
    state = model.copy_state(log["initial"])
    last = {}  # inode -> the last change to it (a folder: to its names)

    def name(folder, entry):
        return classify(join(model.path_of(state, folder), entry))

    for operation in log["operations"]:
        kind = operation[0]
        if kind == "fsync":
            inode = operation[1]
            roles.append("%s, after %s" % (classify(operation[3]), last.get(inode, "nothing")))
        elif kind == "add":
            last[operation[1]] = "%s %s" % ("making" if operation[4] else "linking",
                                            name(operation[1], operation[2]))
        elif kind == "remove":
            last[operation[1]] = "removing " + name(operation[1], operation[2])
        elif kind == "rename":
            change = "renaming %s to %s" % (name(operation[1], operation[2]),
                                            name(operation[3], operation[4]))
            last[operation[1]] = last[operation[3]] = change
        elif kind == "write":
            last[operation[1]] = "writing it"
        elif kind == "truncate":
            last[operation[1]] = "truncating it"
        elif kind == "attr":
            last[operation[1]] = "setting its mode"
        model.apply(state, operation, log["births"])
    return roles


def join(folder, name):
    if folder is None:
        return None
    return folder + "/" + name if folder else name


# --- The case --------------------------------------------------------------


class Findings:
    """What ignoring each fsync did, across scenarios: (scenario, ordinal,
    role, {model: how some case failed, or None})."""

    def __init__(self):
        self.results = []

    def roles_not_needed(self):
        """Roles that no scenario needs, each with the scenarios that have it."""
        needed = {role for _, _, role, reasons in self.results if any(reasons.values())}
        missing = {}
        for scenario, _, role, _ in self.results:
            if role not in needed:
                missing.setdefault(role, []).append(scenario)
        return missing


def cut_everywhere(settings, ledger, budget, scenario, root, findings):
    try:
        with Bench(settings, scenario, root) as bench:
            return cut_on(settings, ledger, budget, scenario, bench, findings)
    finally:
        # Unmounted by now; the logs of a streaming save are large.
        if not settings.keep and not mount.is_mounted(os.path.join(root, "home")):
            shutil.rmtree(root, ignore_errors=True)


def cut_on(settings, ledger, budget, scenario, bench, findings):
    rng = settings.rng("powercut " + scenario.name)
    before = facts(settings.binary, bench.template, scenario.extra)
    check(not before.problems, "before the writer: %s" % before.problems)

    trace = bench.cut(None)
    check(trace.completed, "the traced run did not complete")
    trace_log = trace.log()
    final = facts(settings.binary, bench.backing, scenario.extra)  # power off: the disk
    check(not final.problems, "after the writer: %s" % final.problems)
    check((final.note, final.versions) != (before.note, before.versions),
          "the writer changed nothing")
    trace_points = model.points(trace_log)
    roles = fsync_roles(trace_log)
    judge = Judge(bench, before, final)

    cuts = []
    failures = []
    states = {name: 0 for name in model.MODELS}
    for point in points_to_cut(trace_log, budget, rng, scenario):
        cut = bench.cut(point if point < trace_points else None)
        cuts.append(cut)
        log = cut.log()
        for name in model.MODELS:
            plan = model.Plan(log, name)
            for choice in plan.choices(rng, budget.states_for(scenario)):
                states[name] += 1
                problems = judge.verdict(plan.build(choice), cut.completed, baseline=True)
                if problems:
                    failures.append("%s, cut at point %d of %d (%s), %s: %s" % (
                        name, point, trace_points, describe_point(log),
                        plan.describe(choice), "; ".join(problems)))
    distinct = judge.checked
    ledger.count("powercut points cut", len(cuts))
    ledger.count("powercut crash states checked", sum(states.values()))
    ledger.count("powercut distinct crash states checked", distinct)
    ledger.count("powercut crash states failed", len(failures))
    ledger.count("powercut notes lost", sum(1 for failure in failures
                                            if "note is missing" in failure
                                            or "neither the old" in failure))
    ledger.count("powercut versions lost", sum(1 for failure in failures if "lost:" in failure))
    ledger.count("powercut versions listed twice",
                 sum(1 for failure in failures if "twice" in failure))

    # Each fsync ignored in turn: a failure counts only in a state that does
    # not fail with every fsync in place.
    needed = 0
    for ordinal, role in enumerate(roles):
        occurrence = roles[:ordinal].count(role)
        reasons = {name: first_failure(cuts, role, occurrence, judge, name,
                                       budget.ignored_states_for(scenario), rng)
                   for name in model.MODELS}
        findings.results.append((scenario.name, ordinal, role, reasons))
        needed += any(reasons.values())
    ledger.count("powercut fsyncs ignored in turn", len(roles))
    summary = ("%d points, cut at %d; %d crash states (strict %d, ext4 %d; %d distinct), "
               "%d failed; %d fsyncs, %d of them needed here" % (
                   trace_points, len(cuts), sum(states.values()), states[model.STRICT],
                   states[model.EXT4], distinct, len(failures), len(roles), needed))
    if failures:
        raise Failure("%s. The first failure: %s" % (summary, failures[0]))
    return summary


def every_fsync_needed(findings, explained):
    """Each fsync role some scenario has is needed by some scenario, but
    those `explained` (role -> why) in the design document."""
    for scenario, ordinal, role, reasons in findings.results:
        print("     fsync %d of %s: %s:" % (ordinal + 1, scenario, role), flush=True)
        for name, reason in reasons.items():
            print("       %-12s %s" % (name, ("needed: " + reason)[:220] if reason
                                        else "no case fails without it"), flush=True)
    missing = findings.roles_not_needed()
    unexplained = {role: where for role, where in missing.items() if role not in explained}
    now_needed = [role for role in explained if role not in missing]
    check(not unexplained, "fsyncs no case needs: %s" % "; ".join(
        "%s (in %s)" % (role, ", ".join(where)) for role, where in unexplained.items()))
    check(not now_needed, "fsyncs explained as not needed that a case now needs: %s"
          % now_needed)
    return "%d fsync roles, each needed by some case; %d not needed, as explained" % (
        len({role for _, _, role, _ in findings.results}), len(missing))


def describe_point(log):
    """What the run had done when the power went."""
    done = [operation for operation in log["operations"] if model.is_point(operation)]
    if not done:
        return "before any change"
    return "after %d changes, the last %s" % (len(done), done[-1][0])


def first_failure(cuts, role, occurrence, judge, model_name, limit, rng):
    """How the first crash state that fails under `model_name` with the
    fsync of `role` ignored (its `occurrence`-th, counted from 0, in a run)
    and passes with it fails; None when none does. The fsync is found by its
    role, not its place: a save fsyncs the versions folder on a second
    thread beside the new note's fsync, so their order varies from run to
    run (VersionWriter.swift, step 5)."""
    for cut in cuts:
        log = cut.log()
        places = [place for place, each in enumerate(fsync_roles(log)) if each == role]
        if len(places) <= occurrence:
            continue  # this run's fsyncs came otherwise: not comparable
        plan = model.Plan(log, model_name, ignored={places[occurrence]})
        for choice in plan.choices(rng, limit):
            state = plan.build(choice)
            if judge.failed_with_every_fsync(state, cut.completed):
                continue
            problems = judge.verdict(state, cut.completed)
            if problems:
                where = "after the writer ended" if cut.completed \
                    else "cut at point %d (%s)" % (cut.point, describe_point(log))
                return "%s: %s" % (where, problems[0])
    return None
