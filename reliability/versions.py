"""Case group: versions (doc/DESIGN.md, Versions) are as safe as the note.

- kill -9 at any moment of `save`, `undo`, `restore N`, `forget N` and
  `clear`: the note is the old one or the new one, the versions are exactly the old list or
  the new one (every version kept before whole and listed once, the current
  note never listed), and at most the killed writer's temporary file is left;
- concurrent saves: every replaced note is kept exactly once, each whole,
  while readers of `history` and `show N` never see a torn or half-listed one;
  concurrent `forget 1`s: each removes one version, none twice;
- strace: the version's link and the versions folder's fsync come before
  the rename that replaces the note;
- faults: the versions folder not writable, a full disk while keeping, a
  file, a symbolic link or another user's folder in its place, a version
  edited or removed by hand, names filenote did not write, `forget` of a
  number that is not kept.

The versions are read here the way filenote lists them: names
`<seconds>.<nanoseconds>-<16 hex digits>` (and `<10 digits>-<digits>` of
filenote 0.2) that are regular files, newest (the time the name says, or the
file's for an older name: when it was kept) first, without the file that
is the note itself.
"""

import os
import re
import signal
import stat
import statistics
import subprocess
import threading
import time

from harness import (Failure, Sandbox, check, dead_writers_files, expect_error_line, identify,
                     make_note, mounted, read_or_none, show_bytes, strace_calls, temporary_files,
                     versions_folder_of, write_file, file_attribute)

VERSION_NAME = re.compile(
    r"\A(?:\d{10}-\d{1,20}|(?P<seconds>\d{1,19})\.(?P<nanoseconds>\d{9})-[0-9a-f]{16}"
    r"(?:-[a-z]+(?:-.+)?)?)\Z")


def saved_at(match, info):
    """When a version was kept, in nanoseconds: what its name says, or for
    an older name its file's modification time."""
    if match.group("seconds") is None:
        return info.st_mtime_ns
    return int(match.group("seconds")) * 10**9 + int(match.group("nanoseconds"))
HISTORY_LINE = re.compile(rb"\A *(\d+)  \d{4}-\d\d-\d\d \d\d:\d\d:\d\d +(\d+)  (.*)\Z")
NOBODY = 65534


def run(settings, ledger):
    iterations = 1500 if settings.long else 150
    ledger.run("versions crash loop: %d saves, undos, restores, forgets and clears killed "
               "with SIGKILL "
               "at random moments leave the old note and versions or the new ones, every "
               "version whole and listed once, never the note itself" % iterations,
               crash_loop, settings, ledger, iterations)
    writers, saves = (4, 60) if settings.long else (3, 15)
    ledger.run("versions under concurrency: %d writers x %d saves with readers of history and "
               "show N: every replaced note kept exactly once, no reader sees a torn version"
               % (writers, saves), concurrent_saves, settings, ledger, writers, saves)
    ledger.run("versions under concurrency: 6 forget 1 at once remove the 6 newest versions, "
               "each once, the others whole", concurrent_forgets, settings)
    ledger.run("versions write order (strace): link into the versions folder and fsync it "
               "before the rename that replaces the note", write_order, settings)
    ledger.run("versions note stats (strace): a save that keeps a version asks what the note "
               "is at most 3 times (its walk, then once under the lock)", note_stats, settings)
    ledger.run("versions pruning order (strace): the oldest version is removed first, so a "
               "writer killed while pruning never leaves an older version without a newer one",
               pruning_order, settings)
    cases = [
        ("versions folder not writable (chattr +i): save refused, note untouched",
         folder_not_writable),
        ("versions folder not writable as its owner (nobody, mode 0500): save refused",
         folder_not_writable_as_user),
        ("full disk while keeping (the versions folder a tiny tmpfs, so a copy): save refused, "
         "note untouched", full_disk_while_keeping),
        ("a file in the versions folder's place: save, undo, history refused", file_in_place),
        ("a symbolic link in the versions folder's place: nothing written through it",
         link_in_place),
        ("another user's folder in the versions folder's place: save refused", foreign_folder),
        ("a folder of the user's open to others (0755, files 0644): taken back to 0700/0600, "
         "the save keeps its version", open_folder),
        ("a version edited by hand (not UTF-8): show N and restore N refuse it, saves go on",
         version_edited),
        ("a version removed by hand: the others stay numbered in order", version_removed),
        ("names filenote did not write (and a link named like a version) are ignored and "
         "never removed", foreign_names),
        ("forget of a number that is not kept (0, too large, huge, negative, a word): "
         "refused, nothing removed", forget_out_of_range),
        ("across file systems (the versions folder a tmpfs): versions are copies, restore "
         "saves the copy back", across_file_systems),
    ]
    for name, case in cases:
        ledger.count("versions faults tried")
        ledger.run("versions fault: " + name, case, settings)


# --- Reading the versions as filenote lists them ---------------------------


def listed(note):
    """The versions' bytes, newest first, as `history` numbers them."""
    folder = versions_folder_of(note)
    try:
        names = os.listdir(folder)
    except FileNotFoundError:
        return []
    try:
        current = os.stat(note)
    except FileNotFoundError:
        current = None
    entries = []
    for name in names:
        match = VERSION_NAME.match(name)
        if not match:
            continue
        path = os.path.join(folder, name)
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode):
            continue
        if current and (info.st_ino, info.st_dev) == (current.st_ino, current.st_dev):
            continue
        entries.append((saved_at(match, info), name, path))
    entries.sort(reverse=True)
    return [read_or_none(path) for _, _, path in entries]


def label(data):
    if data is None:
        return "no note"
    found = identify(data)
    return "%s#%d" % found if found else "unrecognised %s" % show_bytes(data, 60)


def labels(items):
    return [label(item) for item in items]


# --- Crash loop -----------------------------------------------------------


def finish(process):
    """Waits for a started filenote; returns its status and standard error."""
    process.wait()
    stderr = process.stderr.read()
    process.stdout.close()
    process.stderr.close()
    return process.returncode, stderr

COUNT = 30  # FILENOTE_VERSIONS in the crash loop, so pruning happens too


def expected_after(operation, note, versions):
    """(note, versions) once `operation` completed (versions untruncated)."""
    kind, number, new = operation
    if kind == "save":
        kept = [note] if note is not None and note != new else []
        return new, kept + versions
    if kind == "clear":
        return None, ([note] if note is not None else []) + versions
    if kind == "forget":
        return note, versions[:number - 1] + versions[number:]
    # undo / restore N
    chosen = versions[number - 1]
    rest = versions[:number - 1] + versions[number:]
    return chosen, ([note] if note is not None else []) + rest


def crash_loop(settings, ledger, iterations):
    rng = settings.rng("versions crash loop")
    sandbox = Sandbox(settings, "versions crash")
    env = dict(sandbox.env, FILENOTE_VERSIONS=str(COUNT))
    note_path = sandbox.note
    note, versions = None, []
    tally = {"operations": 0, "killed": 0, "left the old state": 0, "left the new state": 0,
             "left the old note, the new text kept": 0, "completed": 0}
    durations = {}
    for iteration in range(iterations):
        choices = ["save"] * 5 + (["undo", "restore", "forget"] if versions else []) + ["clear"]
        kind = rng.choice(choices)
        number = 1 if kind == "undo" else rng.randint(1, len(versions)) \
            if kind in ("restore", "forget") else 0
        new = make_note("v", iteration, int(rng.uniform(3, 20000)), rng) if kind == "save" else None
        arguments = {"save": ["save"], "undo": ["undo"], "restore": ["restore", str(number)],
                     "forget": ["forget", str(number)], "clear": ["clear"]}[kind]
        expected_note, expected_versions = expected_after((kind, number, new), note, versions)
        # Kill within how long this kind of command takes, measured as we go
        # (the median of its completed runs, so one slow run on a busy
        # machine does not stretch every later wait).
        window = statistics.median(durations.get(kind, [0.02])) * 1.5
        delay = rng.uniform(0, window) if rng.random() < 0.8 else None
        started = time.monotonic()
        process = sandbox.start(arguments, stdin=subprocess.PIPE, env=env)
        if new is not None:
            try:
                process.stdin.write(new)
            except OSError:
                pass
        try:
            process.stdin.close()
        except OSError:
            pass
        if delay is not None:
            time.sleep(delay)
            process.send_signal(signal.SIGKILL)  # the process this case started
        status, stderr = finish(process)
        if status == 0:
            durations.setdefault(kind, []).append(time.monotonic() - started)
        tally["operations"] += 1
        after_note = read_or_none(note_path)
        after_versions = listed(note_path)
        where = "iteration %d (%s %s, %s)" % (iteration, kind, number or "",
                                              "killed" if status == -9 else "exit %s" % status)
        for item in after_versions:
            check(item is not None and identify(item) is not None,
                  "%s: a version is torn: %s" % (where, label(item)))
        check(after_note is None or identify(after_note) is not None,
              "%s: the note is torn: %s" % (where, label(after_note)))
        check(after_note not in after_versions or after_note is None,
              "%s: the current note is listed as a version" % where)
        check(len(set(after_versions)) == len(after_versions),
              "%s: a version is listed twice: %s" % (where, labels(after_versions)))
        old_state = after_note == note and after_versions == versions[:len(after_versions)] \
            and len(after_versions) >= min(len(versions), COUNT)
        new_state = after_note == expected_note \
            and after_versions == expected_versions[:len(after_versions)] \
            and len(after_versions) >= min(len(expected_versions), COUNT)
        # A save killed after it gave its new file a name of its own in the
        # versions folder and before its rename: the old note, and the new
        # text kept as the newest version (nothing lost; doc/SYNC.md).
        kept_state = kind == "save" and after_note == note \
            and after_versions == ([new] + versions)[:len(after_versions)] \
            and len(after_versions) >= min(len(versions) + 1, COUNT)
        if status == 0:
            check(new_state, "%s: expected note %s and versions %s, found %s and %s" % (
                where, label(expected_note), labels(expected_versions[:COUNT]),
                label(after_note), labels(after_versions)))
            tally["completed"] += 1
        elif status == -signal.SIGKILL:
            tally["killed"] += 1
            check(old_state or new_state or kept_state, "%s: neither the old state (%s, %s) nor "
                  "it with the new text kept, nor the new "
                  "(%s, %s), found %s and %s" % (
                      where, label(note), labels(versions), label(expected_note),
                      labels(expected_versions[:COUNT]), label(after_note),
                      labels(after_versions)))
            tally["left the new state" if new_state and not old_state
                  else "left the old note, the new text kept" if kept_state and not old_state
                  else "left the old state"] += 1
        else:
            raise Failure("%s: unexpected end: %s" % (where, show_bytes(stderr, 300)))
        note, versions = after_note, after_versions
        if os.path.isdir(sandbox.documents):
            leftovers = dead_writers_files(sandbox.documents)
            check(len(leftovers) <= 1, "%s: temporary files pile up: %s" % (where, leftovers))
            # A completed save removes dead writers' temporary files; undo,
            # restore and clear write none, so they leave them to the next save.
            if status == 0 and kind == "save":
                check(not temporary_files(sandbox.documents),
                      "%s: a completed save left %s" % (where, temporary_files(sandbox.documents)))
    for figure, value in tally.items():
        ledger.count("versions crash loop: " + figure, value)
    return "%(operations)d operations, %(killed)d killed (%(left the old state)d old state, " \
        "%(left the new state)d new state)" % tally


# --- Concurrency ----------------------------------------------------------


def concurrent_saves(settings, ledger, writers, saves):
    rng = settings.rng("versions concurrency")
    sandbox = Sandbox(settings, "versions concurrency")
    env = dict(sandbox.env, FILENOTE_VERSIONS="100000")
    first = make_note("first", 0, 100, rng)
    check(sandbox.run(["save"], stdin=first).status == 0, "the first save failed")
    notes = {first}
    problems = []
    stop = threading.Event()
    reads = {"history": 0, "show": 0}

    def writer(index):
        local = settings.rng("versions writer %d" % index)
        for number in range(saves):
            data = make_note("w%d" % index, number, int(local.uniform(10, 60000)), local)
            notes.add(data)
            outcome = sandbox.run(["save"], stdin=data, env=env)
            if outcome.status != 0:
                problems.append("writer %d save %d: %s" % (index, number, outcome.describe()))

    def reader():
        while not stop.is_set():
            outcome = sandbox.run(["history"], env=env)
            reads["history"] += 1
            if outcome.status != 0:
                problems.append("history: %s" % outcome.describe())
                continue
            # The note itself (0), then the versions from 1.
            lines = outcome.stdout.split(b"\n")[:-1]
            for position, line in enumerate(lines):
                match = HISTORY_LINE.match(line)
                if not match or int(match.group(1)) != position \
                        or not match.group(3).startswith(b"note tag="):
                    problems.append("history line %r" % line[:120])
            if len(lines) > 1:
                number = rng.randint(1, len(lines) - 1)
                shown = sandbox.run(["show", str(number)], env=env)
                reads["show"] += 1
                # Versions only grow here (no pruning), so N stays valid.
                if shown.status != 0 or identify(shown.stdout[:-1]) is None:
                    problems.append("show %d: %s" % (number, shown.describe()))

    threads = [threading.Thread(target=writer, args=(index,)) for index in range(writers)]
    readers = [threading.Thread(target=reader) for _ in range(2)]
    for thread in threads + readers:
        thread.start()
    for thread in threads:
        thread.join()
    stop.set()
    for thread in readers:
        thread.join()
    check(not problems, "; ".join(problems[:5]))
    note = read_or_none(sandbox.note)
    kept = listed(sandbox.note)
    check(len(kept) == len(set(kept)), "a version is kept twice")
    everything = sorted(kept + [note])
    check(everything == sorted(notes), "expected the %d saved notes as the note and its "
          "versions, each once; found %d (%d missing)" % (
              len(notes), len(everything), len(notes - set(everything))))
    ledger.count("versions concurrent saves", writers * saves)
    ledger.count("versions concurrent reads", reads["history"] + reads["show"])
    return "%d saves, %d versions, %d history and %d show N reads" % (
        writers * saves, len(kept), reads["history"], reads["show"])


def concurrent_forgets(settings):
    """Forgets that meet under the lock each remove the version that is 1
    when they get it: six at once remove the six newest, none twice, and
    leave the others whole and in order."""
    sandbox = Sandbox(settings, "versions forgets")
    texts = [b"version %d" % number for number in range(12)]
    for text in texts:
        check(sandbox.run(["save"], stdin=text).status == 0, "a save failed")
    before = listed(sandbox.note)
    processes = [sandbox.start(["forget", "--yes", "1"]) for _ in range(6)]
    ends = [finish(process) for process in processes]
    for status, stderr in ends:
        check(status == 0, "a forget failed: %s" % show_bytes(stderr, 200))
    after = listed(sandbox.note)
    check(after == before[6:], "expected %s, found %s" % (before[6:], after))
    check(read_or_none(sandbox.note) == texts[-1], "the note changed")
    return "%d versions, 6 forgotten at once, %d left in order" % (len(before), len(after))


def forget_out_of_range(settings):
    sandbox = Sandbox(settings, "versions forget range")
    sandbox.save_each("a", "b", "c")
    folder = versions_folder_of(sandbox.note)
    names = sorted(os.listdir(folder))
    lines = []
    for number, status in (("0", 1), ("3", 1), ("99999999999999999999999", 1), ("-1", 2),
                           ("x", 2), ("", 2)):
        arguments = ["forget", "--", number] if number.startswith("-") else ["forget", number]
        outcome = sandbox.run(arguments)
        lines.append(expect_error_line(outcome, [], status=status))
        check(sorted(os.listdir(folder)) == names, "forget %r removed something" % number)
    check(read_or_none(sandbox.note) == b"c", "the note changed")
    return lines[1]


# --- Write order ------------------------------------------------------------


def write_order(settings):
    sandbox = Sandbox(settings, "versions strace")
    check(sandbox.run(["save", "old note"]).status == 0, "the first save failed")
    trace = os.path.join(sandbox.root, "trace")
    result = subprocess.run(
        ["strace", "-f", "-y", "-o", trace, "-e",
         "trace=link,linkat,fsync,rename,renameat,renameat2,flock",
         settings.binary, "save", "new note"], env=sandbox.env, capture_output=True)
    check(result.returncode == 0, "the traced save failed: %s" % result.stderr[-300:])
    # Each call where it returned: the versions folder's fsync runs on a
    # second thread, and must have returned before the rename.
    with open(trace) as file:
        calls = strace_calls(file.read().splitlines())
    lines = ["%s(%s) = %s" % (name, arguments, result) for _, name, arguments, result in calls]
    folder = versions_folder_of(sandbox.note)

    def first(predicate, what):
        for index, line in enumerate(lines):
            if predicate(line):
                return index
        raise Failure("no %s in the trace:\n%s" % (what, "\n".join(lines)))

    lock = first(lambda line: line.startswith("flock(") and folder in line and "LOCK_EX" in line,
                 "flock of the versions folder")
    link = first(lambda line: "link" in line and folder in line and line.endswith("= 0"),
                 "link into the versions folder")
    sync = first(lambda line: line.startswith("fsync(") and folder + ">" in line,
                 "fsync of the versions folder")
    # rename(2) by path, or renameat(2) relative to the note's folder.
    rename = first(lambda line: "rename" in line and (
        sandbox.note + '"' in line
        or (sandbox.documents + ">" in line and '"datafile.dat")' in line)),
        "rename over the note")
    check(lock < link < sync < rename, "expected flock < link < fsync(versions) < rename, got "
          "lines %d, %d, %d, %d:\n%s" % (lock, link, sync, rename, "\n".join(lines)))
    check(read_or_none(sandbox.note) == b"new note" and listed(sandbox.note) == [b"old note"],
          "the traced save did not keep the old note")
    return "flock, link, fsync of the folder, then rename (%d calls traced)" % len(lines)


def note_stats(settings):
    """The note's status is taken once under the writer lock and passed
    down (doc/DESIGN.md, Saving): counted as strace's stat calls that name
    the note itself (not its lock, temporary or versions folder)."""
    sandbox = Sandbox(settings, "versions stats")
    check(sandbox.run(["save", "old note"]).status == 0, "the first save failed")
    trace = os.path.join(sandbox.root, "trace")
    result = subprocess.run(
        ["strace", "-f", "-o", trace, "-e", "trace=newfstatat,statx,fstat,stat,lstat",
         settings.binary, "save", "new note"], env=sandbox.env, capture_output=True)
    check(result.returncode == 0, "the traced save failed: %s" % result.stderr[-300:])
    with open(trace) as file:
        calls = strace_calls(file.read().splitlines())
    name = '"%s"' % os.path.basename(sandbox.note)
    stats = [arguments for _, _, arguments, _ in calls
             if name in arguments or '"%s"' % sandbox.note in arguments]
    check(listed(sandbox.note) == [b"old note"], "the traced save did not keep the old note")
    check(len(stats) <= 3, "%d stats of the note:\n%s" % (len(stats), "\n".join(stats)))
    return "%d stats of the note" % len(stats)


def pruning_order(settings):
    # Found by the crash loop (seed 20261201): a save killed while pruning
    # two versions had removed the newer of them and left the older.
    sandbox = Sandbox(settings, "versions pruning")
    env = dict(sandbox.env, FILENOTE_VERSIONS="8")
    for index in range(8):
        check(sandbox.run(["save", "note %d" % index], env=env).status == 0, "a save failed")
    trace = os.path.join(sandbox.root, "trace")
    # Seven versions (note 6 to note 0), one more kept (note 7), four to stay:
    # the save removes four.
    result = subprocess.run(
        ["strace", "-f", "-o", trace, "-e", "trace=unlink,unlinkat",
         settings.binary, "save", "last note"],
        env=dict(env, FILENOTE_VERSIONS="4"), capture_output=True)
    check(result.returncode == 0, "the traced save failed: %s" % result.stderr[-300:])
    with open(trace) as file:
        # The time a version's name carries, in nanoseconds.
        removed = [int(match.group(1)) * 10**9 + int(match.group(2)) for match in
                   re.finditer(r'unlinkat\([^,]+, "(\d+)\.(\d{9})-[0-9a-f]{16}"', file.read())]
    check(len(removed) == 4, "expected 4 versions removed, the trace shows %s" % removed)
    check(removed == sorted(removed), "versions removed newest first: times %s" % removed)
    left = listed(sandbox.note)
    check(left == [b"note 7", b"note 6", b"note 5", b"note 4"],
          "the newest four are not what is left: %s" % [show_bytes(item) for item in left])
    return "the oldest four removed, oldest first"


# --- Faults -----------------------------------------------------------------


def refused(sandbox, arguments, must_name, note=b"b"):
    line = expect_error_line(sandbox.run(arguments), must_name)
    check(read_or_none(sandbox.note) == note, "the note changed: %s"
          % show_bytes(read_or_none(sandbox.note)))
    return line


def folder_not_writable(settings):
    sandbox = Sandbox(settings, "versions immutable")
    sandbox.save_each("a", "b")
    folder = versions_folder_of(sandbox.note)
    with file_attribute(folder, "i"):
        # b was kept by its own save (its name there): the save of c needs
        # nothing of the folder, and c gets no name of its own there.
        saved = sandbox.run(["save", "c"])
        check(saved.status == 0 and read_or_none(sandbox.note) == b"c"
              and listed(sandbox.note) == [b"b", b"a"], "the save of c: %s, versions %s"
              % (saved.describe(), listed(sandbox.note)))
        # c must be kept to be cleared, and cannot be.
        line = refused(sandbox, ["clear"], [folder, "--no-version"], note=b"c")
        check(not temporary_files(sandbox.documents), "a temporary file was left")
        off = sandbox.run(["save", "d"], env=dict(sandbox.env, FILENOTE_VERSIONS="0"))
        check(off.status == 0 and read_or_none(sandbox.note) == b"d",
              "FILENOTE_VERSIONS=0 did not save: %s" % off.describe())
    return line


def folder_not_writable_as_user(settings):
    sandbox = Sandbox(settings, "versions not writable")
    notes = sandbox.folder("notes")
    os.chown(notes, NOBODY, NOBODY)
    path = os.path.join(notes, "datafile.dat")
    for text in ("a", "b"):
        outcome = sandbox.run(["--file", path, "save", text], user=NOBODY)
        check(outcome.status == 0, "save as nobody failed: %s" % outcome.describe())
    folder = versions_folder_of(path)
    os.chmod(folder, 0o500)
    line = expect_error_line(sandbox.run(["--file", path, "save", "c"], user=NOBODY),
                             [folder, "Permission denied", "--no-version"])
    check(read_or_none(path) == b"b", "the note changed")
    check(not temporary_files(notes), "a temporary file was left")
    return line


def full_disk_while_keeping(settings):
    sandbox = Sandbox(settings, "versions full")
    old = make_note("big", 0, 200 * 1024, settings.rng("versions full"))
    check(sandbox.run(["save"], stdin=old).status == 0, "the first save failed")
    folder = versions_folder_of(sandbox.note)
    os.makedirs(folder, 0o700, exist_ok=True)
    with mounted(folder, "-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs"):
        line = expect_error_line(sandbox.run(["save", "new"]),
                                 [folder, "No space left on device", "--no-version"])
        check(read_or_none(sandbox.note) == old, "the note changed")
        check(not temporary_files(sandbox.documents), "a temporary file was left")
        check(os.listdir(folder) == [], "a half copy was left: %s" % os.listdir(folder))
    return line


def file_in_place(settings):
    sandbox = Sandbox(settings, "versions file in place")
    sandbox.save_each("a", "b")
    folder = versions_folder_of(sandbox.note)
    subprocess.run(["rm", "-rf", folder], check=True)
    write_file(folder, b"not a folder")
    line = refused(sandbox, ["save", "c"], [folder, "not a folder"])
    refused(sandbox, ["undo"], [folder])
    expect_error_line(sandbox.run(["history"]), [folder])
    check(read_or_none(folder) == b"not a folder", "the file in its place changed")
    return line


def link_in_place(settings):
    sandbox = Sandbox(settings, "versions link in place")
    sandbox.save_each("a", "b")
    folder = versions_folder_of(sandbox.note)
    victim = sandbox.folder("victim", mode=0o700)
    write_file(os.path.join(victim, "0000000001-1"), b"victim's file")
    subprocess.run(["rm", "-rf", folder], check=True)
    os.symlink(victim, folder)
    line = refused(sandbox, ["save", "c"], [folder, "symbolic link"])
    for arguments in (["clear"], ["clear", "--all"], ["undo"], ["restore", "1"], ["show", "1"]):
        outcome = sandbox.run(arguments)
        check(outcome.status != 0, "%s went through the link: %s" % (arguments,
                                                                    outcome.describe()))
    check(sorted(os.listdir(victim)) == ["0000000001-1"]
          and read_or_none(os.path.join(victim, "0000000001-1")) == b"victim's file",
          "the link's target changed: %s" % os.listdir(victim))
    check(read_or_none(sandbox.note) == b"b", "the note changed")
    return line


def foreign_folder(settings):
    sandbox = Sandbox(settings, "versions foreign folder")
    sandbox.save_each("a", "b")
    folder = versions_folder_of(sandbox.note)
    os.chown(folder, NOBODY, NOBODY)
    names = sorted(os.listdir(folder))
    line = refused(sandbox, ["save", "c"], [folder, "another user"])
    refused(sandbox, ["clear", "--all"], [folder])
    check(sorted(os.listdir(folder)) == names, "the other user's folder changed")
    return line


def open_folder(settings):
    sandbox = Sandbox(settings, "versions open folder")
    sandbox.save_each("a", "b")
    folder = versions_folder_of(sandbox.note)
    os.chmod(folder, 0o755)
    for name in os.listdir(folder):
        os.chmod(os.path.join(folder, name), 0o644)
    check(sandbox.run(["save", "c"]).status == 0, "the save was refused")
    # All but the note's own name, which is the note and keeps its mode.
    note = os.stat(sandbox.note).st_ino
    modes = sorted({os.stat(os.path.join(folder, name)).st_mode & 0o777
                    for name in os.listdir(folder)
                    if os.stat(os.path.join(folder, name)).st_ino != note})
    check(os.stat(folder).st_mode & 0o777 == 0o700 and modes == [0o600],
          "the folder is %o, its files %s" % (os.stat(folder).st_mode & 0o777, modes))
    check(sandbox.run(["show", "1"]).stdout == b"b\n", "version 1 is not b")
    return "taken back to 0700, files 0600; the save kept b"


def version_edited(settings):
    sandbox = Sandbox(settings, "versions edited")
    sandbox.save_each("a", "b", "c")
    folder = versions_folder_of(sandbox.note)
    # The newest version, not the note's own name (which is the note).
    note = os.stat(sandbox.note).st_ino
    newest = max(name for name in os.listdir(folder) if VERSION_NAME.match(name)
                 and os.stat(os.path.join(folder, name)).st_ino != note)
    with open(os.path.join(folder, newest), "wb") as file:
        file.write(b"edited \xff by hand")
    line = expect_error_line(sandbox.run(["show", "1"]), [newest, "UTF-8"])
    refused(sandbox, ["restore", "1"], [newest], note=b"c")
    check(sandbox.run(["show", "2"]).stdout == b"a\n", "version 2 is not intact")
    history = sandbox.run(["history"])
    check(history.status == 0 and history.stdout.count(b"\n") == 3, "history: %s"
          % history.describe())
    sandbox.save_each("d")
    check(sandbox.run(["show", "1"]).stdout == b"c\n", "the next save did not keep the note")
    return line


def version_removed(settings):
    sandbox = Sandbox(settings, "versions removed")
    sandbox.save_each("a", "b", "c", "d")
    folder = versions_folder_of(sandbox.note)
    names = sorted(name for name in os.listdir(folder) if VERSION_NAME.match(name))
    os.unlink(os.path.join(folder, names[1]))  # "b", version 2 of 3
    check(listed(sandbox.note) == [b"c", b"a"], "listing after removal: %s"
          % listed(sandbox.note))
    check(sandbox.run(["show", "2"]).stdout == b"a\n", "show 2 after removal")
    check(sandbox.run(["restore", "2"]).status == 0 and read_or_none(sandbox.note) == b"a",
          "restore 2 after removal")
    return "version 2 removed: versions 1 and 3 became 1 and 2"


def foreign_names(settings):
    sandbox = Sandbox(settings, "versions foreign names")
    sandbox.save_each("a", "b")
    folder = versions_folder_of(sandbox.note)
    victim = os.path.join(sandbox.root, "victim")
    write_file(victim, b"victim")
    foreign = ["notes.txt", "0000000001", "1-1", "0000000009-1.bak", ".copy.x"]
    for name in foreign:
        write_file(os.path.join(folder, name), b"x")
    os.symlink(victim, os.path.join(folder, "0000000099-1"))
    check(sandbox.run(["show", "1"]).stdout == b"a\n", "a link named like a version was used")
    env = dict(sandbox.env, FILENOTE_VERSIONS="1")
    for text in ("c", "d", "e"):
        check(sandbox.run(["save", text], env=env).status == 0, "save failed")
    outcome = sandbox.run(["clear", "--all"])
    check(outcome.status == 0 and b"1 version" in outcome.stdout, "clear --all: %s"
          % outcome.describe())
    present = sorted(os.listdir(folder))
    check(present == sorted(foreign + ["0000000099-1"]), "expected the foreign names alone, "
          "found %s" % present)
    check(read_or_none(victim) == b"victim", "the link's target changed")
    return "%d foreign names and a planted link left alone" % len(foreign)


def across_file_systems(settings):
    sandbox = Sandbox(settings, "versions across")
    sandbox.save_each("a")
    folder = versions_folder_of(sandbox.note)
    os.makedirs(folder, 0o700, exist_ok=True)
    with mounted(folder, "-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs"):
        sandbox.save_each("b", "c")
        check(listed(sandbox.note) == [b"b", b"a"], "copies: %s" % listed(sandbox.note))
        names = [name for name in os.listdir(folder) if VERSION_NAME.match(name)]
        check(all(os.stat(os.path.join(folder, name)).st_nlink == 1 for name in names),
              "a version across file systems is not a copy")
        outcome = sandbox.run(["restore", "2"])
        check(outcome.status == 0 and read_or_none(sandbox.note) == b"a",
              "restore across file systems: %s" % outcome.describe())
        check(listed(sandbox.note) == [b"c", b"b"], "after restore: %s" % listed(sandbox.note))
        check(not [name for name in os.listdir(folder) if name.startswith(".copy.")],
              "a copy in progress was left")
    return "versions copied, restore 2 saved the copy back"
