"""The test file system's own tests: small programs that fsync or do not,
run through it, and what each model keeps of their work after a power cut.

Each case mounts the file system over a fresh backing folder, runs one
program (a few lines of Python, so every call is a real one through the
kernel), cuts the power, and checks what the crash states hold. Every case
also checks the recorder against the live folder: replaying the whole log
(nothing lost, as after kill -9) gives exactly what the backing folder holds.
"""

import os
import subprocess
import sys
import textwrap

from harness import check, show_bytes

from . import model
from .mount import PowerFS

EXHAUSTIVE = 4096  # every crash state of these small programs is looked at


class Mounted:
    """A scratch backing folder and mount point under `root`."""

    def __init__(self, root, label, files=None):
        self.folder = os.path.join(root, label)
        self.backing = os.path.join(self.folder, "backing")
        self.mountpoint = os.path.join(self.folder, "mount")
        os.makedirs(self.backing)
        os.makedirs(self.mountpoint)
        for name, data in (files or {}).items():
            path = os.path.join(self.backing, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as file:
                file.write(data)

    def run(self, program, block=None, after_block=None):
        """Runs `program` (Python, with M the mount point) through the file
        system and cuts the power when it is done (or, with `block`, at that
        point, killing it there). Returns the log."""
        code = "import os, fcntl\nM = %r\n" % self.mountpoint + textwrap.dedent(program)
        with PowerFS(self.backing, self.mountpoint,
                     os.path.join(self.folder, "powerfs.log")) as fs:
            if block is not None:
                fs.block(block)
            process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE)
            try:
                if block is not None:
                    line = fs.next_line(30)
                    check(line is not None and line.startswith("blocked %d " % block),
                          "point %d was not held: %r" % (block, line))
                    if after_block:
                        after_block(self)
                    process.kill()
                    fs.cut()
                _, errors = process.communicate(timeout=30)
                fs.cut()
            finally:
                if process.poll() is None:
                    process.kill()
                    process.wait()
            if block is None:
                check(process.returncode == 0, "the program failed: %s" % errors.decode()[-500:])
            log = fs.dump(os.path.join(self.folder, "log.pickle"))
        live = model.digest(model.snapshot(self.backing)[0])
        check(model.digest(model.live_state(log)) == live,
              "replaying the log does not give the backing folder's state")
        for name in model.MODELS:
            check(model.digest(model.Plan(log, name).keep_all()) == live,
                  "%s: keeping every change does not give the backing folder's state" % name)
        return log


def outcomes(log, model_name, path, ignored=()):
    """Every content the file at `path` can have after a crash (None: no file)."""
    plan = model.Plan(log, model_name, ignored)
    check(plan.count() <= EXHAUSTIVE, "%d crash states: too many to try" % plan.count())
    return {model.read(plan.build(choice), path) for choice in plan.choices(None, EXHAUSTIVE)}


def expect(found, wanted, what):
    check(found == wanted, "%s: expected %s, got %s" % (
        what, sorted(map(show_bytes, wanted)), sorted(map(show_bytes, found))))


def lost(log, model_name, path, ignored=()):
    return model.read(model.Plan(log, model_name, ignored).lose_all(), path)


# --- The cases -------------------------------------------------------------

CREATE = """
fd = os.open(M + "/f", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
os.write(fd, b"data")
"""
SYNC_FILE = 'os.fsync(fd)\n'
SYNC_FOLDER = """
folder = os.open(M, os.O_RDONLY | os.O_DIRECTORY)
os.fsync(folder)
"""


def synced_file_and_folder(root):
    log = Mounted(root, "synced").run(CREATE + SYNC_FILE + SYNC_FOLDER)
    for name in model.MODELS:
        expect(outcomes(log, name, "f"), {b"data"}, name + ", file and folder fsynced")


def unsynced_data(root):
    log = Mounted(root, "unsynced-data").run(CREATE + SYNC_FOLDER)
    expect({lost(log, model.STRICT, "f"), lost(log, model.EXT4, "f")}, {b""},
           "only the folder fsynced: the name stays, the data goes (both models)")
    expect(outcomes(log, model.STRICT, "f"), {b"", b"data"}, "strict, data may or may not land")


def unsynced_name(root):
    log = Mounted(root, "unsynced-name").run(CREATE + SYNC_FILE)
    expect({lost(log, model.STRICT, "f")}, {None}, "strict, only the file fsynced: no name")
    expect(outcomes(log, model.EXT4, "f"), {b"data"},
           "ext4, the file's fsync commits its name with it")


def nothing_synced(root):
    log = Mounted(root, "nothing").run(CREATE)
    for name in model.MODELS:
        check(lost(log, name, "f") is None, "%s: nothing fsynced, yet the file is there" % name)
    expect(outcomes(log, model.EXT4, "f"), {None, b"", b"data"}, "ext4, nothing fsynced")
    expect(outcomes(log, model.STRICT, "f"), {None, b"", b"data"}, "strict, nothing fsynced")


REPLACE = """
fd = os.open(M + "/.new", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
os.write(fd, b"new text")
%s
os.close(fd)
os.rename(M + "/.new", M + "/note")
%s
"""


def replace_synced(root):
    log = Mounted(root, "replace", {"note": b"old"}).run(REPLACE % (SYNC_FILE, SYNC_FOLDER))
    for name in model.MODELS:
        expect({lost(log, name, "note")}, {b"new text"}, name + ", fsync, rename, fsync folder")
        expect(outcomes(log, name, "note"), {b"new text"}, name + ", every crash state")
    # With the temporary file's fsync ignored (it is the log's first).
    expect({lost(log, model.STRICT, "note", ignored={0})}, {b""},
           "strict, the file's fsync ignored: the renamed file is empty")
    expect(outcomes(log, model.EXT4, "note", ignored={0}), {b"new text"},
           "ext4, the file's fsync ignored: auto_da_alloc writes the data with the rename")


def replace_without_fsync(root):
    log = Mounted(root, "replace-no-fsync", {"note": b"old"}).run(REPLACE % ("", SYNC_FOLDER))
    expect({lost(log, model.STRICT, "note")}, {b""}, "strict, rename made durable, data not")
    expect(outcomes(log, model.STRICT, "note"), {b"", b"new text"}, "strict, every crash state")
    expect(outcomes(log, model.EXT4, "note"), {b"new text"},
           "ext4, replace-via-rename: the data is forced before the rename commits")


def first_rename_without_fsync(root):
    log = Mounted(root, "first-no-fsync").run(REPLACE % ("", SYNC_FOLDER))
    expect(outcomes(log, model.EXT4, "note"), {b"", b"new text"},
           "ext4, a rename onto no file: no auto_da_alloc, the zero-length file")


def rename_not_made_durable(root):
    log = Mounted(root, "rename-unsynced", {"note": b"old"}).run(REPLACE % (SYNC_FILE, ""))
    expect({lost(log, model.STRICT, "note")}, {b"old"}, "strict, the folder not fsynced")
    expect(outcomes(log, model.STRICT, "note"), {b"old", b"new text"}, "strict, every state")
    strict = model.Plan(log, model.STRICT)
    names = {tuple(sorted(plan_names(strict.build(choice))))
             for choice in strict.choices(None, EXHAUSTIVE)}
    check(("note",) in names and (".new", "note") in names,
          "strict: each half of the rename on its own, expected both names among %s" % names)
    expect(outcomes(log, model.EXT4, "note"), {b"old", b"new text"}, "ext4, every state")


def plan_names(state):
    return [name for name in state[model.ROOT][2]]


PAGES = """
fd = os.open(M + "/f", os.O_WRONLY)
os.write(fd, b"A" * 4096 + b"B" * 4096 + b"C" * 4096)
"""


def pages_in_any_order(root):
    log = Mounted(root, "pages", {"f": b""}).run(PAGES)
    strict = outcomes(log, model.STRICT, "f")
    ext4 = outcomes(log, model.EXT4, "f")
    hole = bytes(4096) + b"B" * 4096
    check(hole in strict, "strict: a later page without the one before it, expected among %s"
          % sorted(map(show_bytes, strict)))
    expect(ext4, {b"", b"A" * 4096, b"A" * 4096 + b"B" * 4096,
                  b"A" * 4096 + b"B" * 4096 + b"C" * 4096},
           "ext4: a prefix of the pages written")
    check(len(strict) == 8, "strict: 3 pages, expected 8 states, got %d" % len(strict))


NEW_FOLDER = """
os.mkdir(M + "/d", 0o700)
fd = os.open(M + "/d/f", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
os.write(fd, b"data")
os.fsync(fd)
inner = os.open(M + "/d", os.O_RDONLY | os.O_DIRECTORY)
os.fsync(inner)
"""


def new_folder_needs_its_parent(root):
    log = Mounted(root, "folder").run(NEW_FOLDER)
    check(lost(log, model.STRICT, "d/f") is None,
          "strict: the parent of a new folder not fsynced, yet its file is there")
    expect(outcomes(log, model.EXT4, "d/f"), {b"data"}, "ext4: one journal, committed in order")
    log = Mounted(root, "folder-parent").run(NEW_FOLDER + SYNC_FOLDER)
    expect(outcomes(log, model.STRICT, "d/f"), {b"data"}, "strict: parent fsynced too")


UNLINK = """
os.unlink(M + "/gone")
fd = os.open(M + "/other", os.O_WRONLY)
os.write(fd, b"x")
%s
"""


def unlink_comes_back(root):
    files = {"gone": b"kept?", "other": b""}
    log = Mounted(root, "unlink", files).run(UNLINK % "")
    for name in model.MODELS:
        expect({lost(log, name, "gone")}, {b"kept?"}, name + ", an unlink not made durable")
    log = Mounted(root, "unlink-journal", files).run(UNLINK % SYNC_FILE)
    expect({lost(log, model.EXT4, "gone")}, {None},
           "ext4: another file's fsync commits the whole journal, the unlink with it")
    expect({lost(log, model.STRICT, "gone")}, {b"kept?"}, "strict: only the folder's fsync counts")


TRUNCATE = """
fd = os.open(M + "/note", os.O_WRONLY | os.O_TRUNC)
os.write(fd, b"new")
os.close(fd)
other = os.open(M + "/other", os.O_WRONLY)
os.write(other, b"x")
os.fsync(other)
"""


def replace_via_truncate(root):
    log = Mounted(root, "truncate", {"note": b"old text", "other": b""}).run(TRUNCATE)
    expect(outcomes(log, model.EXT4, "note"), {b"new"},
           "ext4: truncated to 0, written, closed: the data is forced at close")
    expect({lost(log, model.STRICT, "note")}, {b"old text"}, "strict: nothing of it durable")


LINKED = """
os.link(M + "/note", M + "/v/1")
folder = os.open(M + "/v", os.O_RDONLY | os.O_DIRECTORY)
os.fsync(folder)
"""


def hard_links_stay_one_file(root):
    log = Mounted(root, "link", {"note": b"text", "v/keep": b""}).run(LINKED)
    for name in model.MODELS:
        state = model.Plan(log, name).lose_all()
        check(model.lookup(state, "v/1") == model.lookup(state, "note"),
              "%s: a hard link became two files" % name)
        folder = os.path.join(root, "link-" + name)
        model.materialize(state, folder)
        check(os.stat(os.path.join(folder, "v/1")).st_ino
              == os.stat(os.path.join(folder, "note")).st_ino,
              "%s: the link is not a link on disk" % name)


def cut_at_a_point(root):
    """Blocked at its third change and killed there: the log holds the first
    two, and no later change reaches the backing folder."""
    program = CREATE + SYNC_FILE + SYNC_FOLDER + 'os.rename(M + "/f", M + "/g")\n'
    mounted = Mounted(root, "block")
    log = mounted.run(program, block=2)
    check(model.points(log) == 2, "expected 2 points logged, got %d" % model.points(log))
    check(sorted(os.listdir(mounted.backing)) == ["f"], "the held change was made")
    for name in model.MODELS:
        expect({lost(log, name, "f")}, {None}, name + ": cut before the first fsync")


def answers_after_a_held_kill(root):
    """A program killed while one of its changes is held, then the power
    cut, many times over: every command still gets its answer. (The kernel's
    interrupt for the killed request, withdrawn when `cut` answers it, can
    leave the daemon blocked in its read of /dev/fuse; see PowerFS.expect.)"""
    mounted = Mounted(root, "held-kills")
    runs = 300
    with PowerFS(mounted.backing, mounted.mountpoint,
                 os.path.join(mounted.folder, "powerfs.log")) as fs:
        for run in range(runs):
            if run:
                fs.boot()
            fs.block(0)
            process = subprocess.Popen(["mkdir", os.path.join(mounted.mountpoint, "d%d" % run)],
                                       stderr=subprocess.DEVNULL)
            try:
                line = fs.next_line(30)
                check(line is not None and line.startswith("blocked 0 mkdir"),
                      "run %d: the mkdir was not held: %r" % (run, line))
                process.kill()
                fs.cut()
                process.wait(timeout=30)
            finally:
                if process.poll() is None:
                    process.kill()
                    process.wait()
            log = fs.dump(os.path.join(mounted.folder, "log.pickle"))
            check(model.points(log) == 0, "run %d: the held mkdir was logged" % run)
        check(not os.listdir(mounted.backing), "a held mkdir reached the backing folder")
        return "%d runs, the daemon woken %d times" % (runs, fs.woken)


def comes_back(root):
    """After a cut, the file system mounted again holds the durable state."""
    mounted = Mounted(root, "again", {"note": b"old"})
    log = mounted.run(REPLACE % ("", ""))
    state = model.Plan(log, model.STRICT).lose_all()
    again = os.path.join(mounted.folder, "after")
    model.materialize(state, again)
    remount = os.path.join(mounted.folder, "mount-again")
    with PowerFS(again, remount, os.path.join(mounted.folder, "powerfs-again.log")):
        with open(os.path.join(remount, "note"), "rb") as file:
            data = file.read()
        names = sorted(os.listdir(remount))
    check(data == b"old" and names == ["note"],
          "expected the old note alone after the cut, got %s in %s" % (show_bytes(data), names))


CASES = [
    ("a file fsynced in a folder fsynced survives, under both models", synced_file_and_folder),
    ("only the folder fsynced: the file is there, empty", unsynced_data),
    ("only the file fsynced: strict loses its name, ext4 commits it", unsynced_name),
    ("nothing fsynced: after the cut there is no file", nothing_synced),
    ("replace by rename, fsynced: the new text; with the file's fsync ignored, strict "
     "leaves an empty note", replace_synced),
    ("replace by rename without the file's fsync: strict empty, ext4 auto_da_alloc keeps it",
     replace_without_fsync),
    ("a rename onto no file without fsync: ext4 may leave it empty", first_rename_without_fsync),
    ("a rename whose folder is not fsynced may be lost; strict keeps each half apart",
     rename_not_made_durable),
    ("pages not fsynced: strict in any combination, ext4 a prefix", pages_in_any_order),
    ("a new folder is only there once its parent is fsynced (strict)",
     new_folder_needs_its_parent),
    ("an unlink not made durable comes back; ext4's journal commits it with any fsync",
     unlink_comes_back),
    ("ext4 replace-via-truncate: the data is forced at the last close", replace_via_truncate),
    ("a hard link stays one file in the crash state and on disk", hard_links_stay_one_file),
    ("a program held at a point and killed there: the log ends before it",
     cut_at_a_point),
    ("after the cut the file system comes back holding the durable state", comes_back),
    ("a program killed while held, then the power cut, again and again: every command "
     "is answered", answers_after_a_held_kill),
]


def run(settings, ledger, root):
    for name, case in CASES:
        ledger.count("powercut file system checks")
        ledger.run("powercut file system: " + name, case, os.path.join(root, case.__name__))
