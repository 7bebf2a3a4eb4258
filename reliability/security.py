"""Case group: another local user tries to turn filenote against its user.

The attacker is `nobody`; the victim runs filenote as root, or as a user
of its own (uid VICTIM, through setpriv). Every victim file is inside this
run's scratch folder. Each case checks that the victim file is byte for
byte unchanged and still present, the exit status, and the one line on
standard error.

To cover a new writing command, add a row to COMMANDS: a name and a
function that runs it on a note path and returns an Outcome. A command that
changes only the versions (`forget N`) is in VERSION_COMMANDS: it is tried
through planted links too, but it never replaces the note, so a note of
another user's is no reason to refuse it.
"""

import contextlib
import os
import shutil
import stat
import time

from harness import (LOCK_NAME, Outcome, Sandbox, TerminalRun, check, expect_error_line,
                     read_or_none, require_root, show_bytes, temporary_name, unused_pid,
                     versions_folder_of, write_file)

NOBODY = 65534
VICTIM = 4242  # a user of its own, so "the victim's own file" is not root's
SECRET = b"the victim's file\nnot to be touched"
OLDER = b"an older text, kept as version 1"
SYSCTL = "/proc/sys/fs/protected_symlinks"


# --- The commands a planted name is tried against ---------------------------


def run_save(sandbox, path, user=None):
    return sandbox.run(["--file", path, "save", "pwned"], user=user, timeout=30)


def run_clear(sandbox, path, user=None):
    return sandbox.run(["--file", path, "clear"], user=user, timeout=30)


def run_prompt(sandbox, path, user=None):
    """The prompt on a terminal: type a word at the end, press Enter."""
    return on_terminal(sandbox, ["--file", path], {}, user, b"Enter saves", b" pwned\r")


def run_edit(sandbox, path, user=None):
    """`filenote edit` with an editor that writes a word over the copy."""
    editor = {"EDITOR": "sh -c 'echo pwned > \"$1\"' sh"}
    return on_terminal(sandbox, ["--file", path, "edit"], editor, user, None, b"")


def on_terminal(sandbox, arguments, more_env, user, ready, keys):
    """Runs filenote on a terminal of its own; once `ready` is drawn (or at
    once), types `keys`, and answers y to the overwrite question."""
    env = dict(sandbox.env, TERM="xterm", **more_env)
    binary = sandbox.settings.binary
    if user is not None:
        arguments = ["--reuid=%d" % user, "--regid=%d" % user, "--clear-groups", binary] + arguments
        binary = "/usr/bin/setpriv"
    read_end, write_end = os.pipe()
    run = TerminalRun(binary, arguments, env, stderr=write_end)
    os.close(write_end)
    refusal = None
    try:
        if ready is None or run.wait_for(ready, seconds=15):
            run.send(keys)
            if run.wait_for(b"[y/N]", seconds=3):
                run.send(b"y")
            # A save the prompt refuses keeps the user in the prompt with the
            # reason on the screen; the user then cancels (Ctrl-C), and what
            # was typed goes to a private recovery file.
            if keys and run.wait_for(b"Not saved: ", seconds=20):
                run.read_for(0.2)
                refusal = run.transcript.split(b"Not saved: ", 1)[1].split(b"\r\n", 1)[0]
                run.send(b"\x03")
        status = run.wait(seconds=20)
    finally:
        run.close()
    with os.fdopen(read_end, "rb") as errors:
        stderr = errors.read()
    outcome = Outcome(status, b"", stderr)
    outcome.refusal = refusal
    return outcome


def run_undo(sandbox, path, user=None):
    keep_a_version(path, user)
    return sandbox.run(["--file", path, "undo"], user=user, timeout=30)


def run_restore(sandbox, path, user=None):
    keep_a_version(path, user)
    return sandbox.run(["--file", path, "restore", "1"], user=user, timeout=30)


def keep_a_version(path, user):
    """Version 1 of the note at `path`, where filenote keeps it: beside the
    file a link leads to, in a 0700 folder of the user running filenote.
    So `undo` and `restore 1` have something to put back wherever the path
    leads, and a command that followed a planted link would change the
    victim file."""
    target = os.path.realpath(path)
    folder = versions_folder_of(target)
    owner = 0 if user is None else user
    os.mkdir(folder, 0o700)
    os.chown(folder, owner, owner)
    version = os.path.join(folder, "%010d-%d" % (1, int(time.time())))
    write_file(version, OLDER, 0o600)
    os.chown(version, owner, owner)


def run_forget(sandbox, path, user=None):
    keep_a_version(path, user)
    return sandbox.run(["--file", path, "forget", "1"], user=user, timeout=30)


COMMANDS = [
    ("save", run_save),
    ("clear", run_clear),
    ("prompt", run_prompt),
    ("edit", run_edit),
    ("undo", run_undo),
    ("restore 1", run_restore),
]

VERSION_COMMANDS = [
    ("forget 1", run_forget),
]


# --- The suite ---------------------------------------------------------------


def run(settings, ledger):
    require_root("the security cases (they run as nobody and as a second user)")
    values, note = sysctl_values()
    if note:
        ledger.run("security: " + note, lambda settings: None, settings)
    for value in values:
        with protected_symlinks(value):
            label = " [protected_symlinks=%s]" % value
            for name, command in COMMANDS + VERSION_COMMANDS:
                for victim_name, setup in VICTIMS:
                    ledger.count("security cases")
                    ledger.run("security: %s through nobody's link in a sticky folder to %s%s"
                               % (name, victim_name, label), planted_link, settings, command,
                               setup)
    cases = [
        ("a link of the folder's owner in a sticky folder is followed", owners_link_followed),
        ("a link in the user's own folder is followed", own_folder_link_followed),
        ("planted temporary names (FIFO, link, nobody's file) are skipped", planted_temporaries),
        ("a planted lock file (link to the victim) refuses the save", planted_lock_link),
        ("a planted lock file (nobody's) refuses the save", planted_lock_file),
        ("an older filenote's lock name planted (a link, nobody's file) is left alone",
         planted_legacy_lock),
        ("a waiting writer gives up after a bounded time", lock_held_too_long),
    ]
    for name, command in COMMANDS:
        cases.append(("%s: a note owned by nobody in a sticky folder" % name,
                      lambda settings, command=command: others_note(settings, command)))
        cases.append(("%s: a hard link to another user's file in the note's place" % name,
                      lambda settings, command=command: hard_link(settings, command, True)))
        cases.append(("%s: a hard link to another user's file in the user's own folder" % name,
                      lambda settings, command=command: hard_link(settings, command, False)))
    for victim_name, setup in VICTIMS:
        for plant_name, plant in PLANTED_VERSIONS:
            cases.append(("save with %s planted by nobody as the versions folder in a sticky "
                          "folder, next to %s" % (plant_name, victim_name),
                          lambda settings, plant=plant, setup=setup:
                          planted_versions_folder(settings, plant, setup)))
    for victim_name, setup in VICTIMS:
        cases.append(("files of nobody's in the versions folder, one written through a hard "
                      "link nobody kept (as an engine running as root leaves them), for %s: "
                      "not listed, shown, restored or counted; history on a terminal says so "
                      "in one line" % victim_name,
                      lambda settings, setup=setup: others_files_in_versions(settings, setup)))
        cases.append(("a versions folder an engine made 0755 (files 0644), for %s: taken back "
                      "to 0700/0600 when it is the user's, said once; nobody's refused, with "
                      "no advice that loses versions" % victim_name,
                      lambda settings, setup=setup: engine_made_open_folder(settings, setup)))
    cases += [
        ("pruning, clear --all and forget leave a link named like a version (to a victim "
         "file) alone", link_named_like_a_version),
        ("a version that is a hard link to another user's file is not listed: forget 1 "
         "forgets the one before, the file and its name unchanged", forget_hard_link),
        ("clear refuses a device node through a link (mknod c 1 3)", clear_device_through_link),
        ("clear refuses a FIFO", clear_fifo),
        ("clear refuses a socket", clear_socket),
    ]
    for name, case in cases:
        ledger.count("security cases")
        ledger.run("security: " + name, case, settings)


def sysctl_values():
    """The values of fs.protected_symlinks to run with, and why only one."""
    try:
        with open(SYSCTL) as file:
            current = file.read().strip()
    except OSError:
        return [None], "no %s: ran once with whatever the kernel does" % SYSCTL
    if not os.access(SYSCTL, os.W_OK) or _read_only(SYSCTL):
        return [None], "%s is read-only here: ran with its value %s only" % (SYSCTL, current)
    return ["0", "1"], None


def _read_only(path):
    return os.statvfs(os.path.dirname(path)).f_flag & os.ST_RDONLY != 0


@contextlib.contextmanager
def protected_symlinks(value):
    """Sets the sysctl for the duration and puts the old value back."""
    if value is None:
        yield
        return
    with open(SYSCTL) as file:
        old = file.read().strip()
    with open(SYSCTL, "w") as file:
        file.write(value)
    try:
        yield
    finally:
        with open(SYSCTL, "w") as file:
            file.write(old)


# --- Victims -----------------------------------------------------------------


def root_file(sandbox):
    """A file of root's, as /etc/shadow is; the victim is root."""
    folder = sandbox.folder("root-only", mode=0o700)
    path = os.path.join(folder, "victim.txt")
    write_file(path, SECRET, 0o600)
    return path, None


def victims_own_file(sandbox):
    """A file of the victim's own (uid VICTIM), in its own 0700 folder."""
    folder = sandbox.folder("victim-home", mode=0o700)
    os.chown(folder, VICTIM, VICTIM)
    path = os.path.join(folder, "thesis.txt")
    write_file(path, SECRET, 0o600)
    os.chown(path, VICTIM, VICTIM)
    return path, VICTIM


VICTIMS = [("a root-owned file (run as root)", root_file),
           ("the victim's own file (run as the victim)", victims_own_file)]


def shared_folder(sandbox):
    """/tmp: root's, sticky, everyone may write."""
    return sandbox.folder("shared", mode=0o1777)


def as_nobody(function, *arguments):
    """Runs `function(*arguments)` in a child that is nobody, as an attacker would."""
    pid = os.fork()
    if pid == 0:
        try:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            function(*arguments)
            os._exit(0)
        except BaseException:
            os._exit(1)
    _, status = os.waitpid(pid, 0)
    check(os.waitstatus_to_exitcode(status) == 0, "nobody could not plant %r" % (arguments,))


def expect_intact(path, content=SECRET):
    check(os.path.lexists(path), "%s is gone" % path)
    data = read_or_none(path)
    check(data == content, "%s changed: %s" % (path, show_bytes(data)))


def expect_refused(outcome, must_name):
    refusal = getattr(outcome, "refusal", None)
    if refusal is None:
        return expect_error_line(outcome, must_name)
    # The prompt refused at Enter: the reason names what a message would,
    # Ctrl-C then ends it (130), and the one line on standard error names the
    # private file that keeps what was typed.
    text = refusal.decode("utf-8", "replace")
    for name in must_name:
        check(name in text, "expected the prompt's refusal to name %r, got %r" % (name, text))
    check(outcome.status == 130, "expected exit 130 after Ctrl-C, got %s" % outcome.describe())
    kept = outcome.stderr.decode("utf-8", "replace")
    check(kept.startswith("filenote: what you wrote is kept in ") and kept.count("\n") == 1,
          "expected the recovery file's line on stderr, got %r" % kept[:300])
    recovery = kept.rstrip("\n").rsplit(" ", 1)[1]
    check(os.stat(recovery).st_mode & 0o777 == 0o600, "the recovery file is not 0600")
    shutil.rmtree(os.path.dirname(recovery), ignore_errors=True)
    return "Not saved: " + text


# --- Cases -------------------------------------------------------------------


def planted_link(settings, command, setup):
    sandbox = Sandbox(settings, "planted link")
    victim, user = setup(sandbox)
    shared = shared_folder(sandbox)
    link = os.path.join(shared, "note")
    as_nobody(os.symlink, victim, link)
    outcome = command(sandbox, link, user=user)
    expect_intact(victim)
    check(os.readlink(link) == victim, "the planted link changed")
    return expect_refused(outcome, [link, "symbolic link owned by another user"])


def owners_link_followed(settings):
    # The kernel's rule follows a link of the folder's owner: so does filenote.
    sandbox = Sandbox(settings, "owners link")
    shared = shared_folder(sandbox)
    mine = sandbox.folder("mine")
    target = os.path.join(mine, "datafile.dat")
    write_file(target, b"old")
    link = os.path.join(shared, "note")
    os.symlink(target, link)  # root owns the link and the folder
    outcome = run_save(sandbox, link)
    check(outcome.status == 0, "the save failed: %s" % outcome.describe())
    check(read_or_none(target) == b"pwned" and os.path.islink(link), "the target was not saved")


def own_folder_link_followed(settings):
    sandbox = Sandbox(settings, "own folder link")
    folder = sandbox.folder("notes", mode=0o700)
    other = sandbox.folder("synced")
    target = os.path.join(other, "real.dat")
    write_file(target, b"old")
    link = os.path.join(folder, "datafile.dat")
    os.symlink(target, link)
    os.lchown(link, NOBODY, NOBODY)  # owned by another user, but not in a shared folder
    outcome = run_save(sandbox, link)
    check(outcome.status == 0, "the save failed: %s" % outcome.describe())
    check(read_or_none(target) == b"pwned", "the target was not saved")


def note_in_shared_folder(settings, label):
    """A sandbox with a root-owned victim file and root's note in the shared folder."""
    sandbox = Sandbox(settings, label)
    victim, _ = root_file(sandbox)
    shared = shared_folder(sandbox)
    note = os.path.join(shared, "datafile.dat")
    write_file(note, b"old")
    return sandbox, victim, shared, note


def planted_temporaries(settings):
    sandbox, victim, shared, note = note_in_shared_folder(settings, "planted temporaries")
    dead = unused_pid()
    # This filenote's names, and those an older one used (which a save still cleans).
    names = [temporary_name(dead, n) for n in (1, 2, 3)]
    names += [".datafile.dat.%d.%d.tmp" % (dead, n) for n in (1, 2, 3)]

    def plant():
        for first in (0, 3):
            os.mkfifo(os.path.join(shared, names[first]), 0o666)
            os.symlink(victim, os.path.join(shared, names[first + 1]))
            with open(os.path.join(shared, names[first + 2]), "wb") as file:
                file.write(b"nobody's")

    as_nobody(plant)
    outcome = run_save(sandbox, note)
    check(outcome.status == 0, "the save failed: %s" % outcome.describe())
    check(read_or_none(note) == b"pwned", "the note was not saved")
    expect_intact(victim)
    for first in (0, 3):
        check(stat.S_ISFIFO(os.lstat(os.path.join(shared, names[first])).st_mode),
              "the FIFO %s is gone" % names[first])
        check(os.readlink(os.path.join(shared, names[first + 1])) == victim,
              "the planted link %s changed" % names[first + 1])
        expect_intact(os.path.join(shared, names[first + 2]), b"nobody's")


def planted_lock_link(settings):
    sandbox, victim, shared, note = note_in_shared_folder(settings, "planted lock link")
    as_nobody(os.symlink, victim, os.path.join(shared, LOCK_NAME))
    outcome = run_save(sandbox, note)
    expect_intact(victim)
    expect_intact(note, b"old")
    return expect_refused(outcome, [note, "lock file"])


def planted_lock_file(settings):
    sandbox, _, shared, note = note_in_shared_folder(settings, "planted lock")
    lock = os.path.join(shared, LOCK_NAME)

    def plant():
        descriptor = os.open(lock, os.O_CREAT | os.O_WRONLY, 0o666)
        os.fchmod(descriptor, 0o666)
        os.close(descriptor)

    as_nobody(plant)
    outcome = run_save(sandbox, note)
    expect_intact(note, b"old")
    check(os.path.exists(lock), "nobody's lock file was removed")
    return expect_refused(outcome, [note, "lock file"])


def planted_legacy_lock(settings):
    """`.datafile.dat.lock`, the lock file of filenote 0.2, is only cleaned
    when it is the user's own regular file that nobody holds: a link or
    another user's file under that name is never followed or removed, and
    the save goes on under its own lock."""
    sandbox, victim, shared, note = note_in_shared_folder(settings, "planted legacy lock")
    link = os.path.join(shared, ".datafile.dat.lock")
    as_nobody(os.symlink, victim, link)
    outcome = run_save(sandbox, note)
    check(outcome.status == 0, "the save failed: %s" % outcome.describe())
    check(os.readlink(link) == victim, "the planted link changed")
    os.unlink(link)

    def plant():
        with open(link, "wb") as file:
            file.write(b"nobody's")

    as_nobody(plant)
    outcome = run_save(sandbox, note)
    check(outcome.status == 0, "the save failed: %s" % outcome.describe())
    expect_intact(link, b"nobody's")
    expect_intact(victim)
    return "both left alone, both saves done"


def lock_held_too_long(settings):
    import fcntl
    import time

    sandbox = Sandbox(settings, "lock held")
    folder = sandbox.folder("notes", mode=0o700)
    note = os.path.join(folder, "datafile.dat")
    write_file(note, b"old")
    descriptor = os.open(os.path.join(folder, LOCK_NAME),
                         os.O_CREAT | os.O_RDWR, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX)
        started = time.monotonic()
        outcome = run_save(sandbox, note)
        waited = time.monotonic() - started
        shown = sandbox.run(["--file", note, "show"], timeout=5)
    finally:
        os.close(descriptor)
    expect_intact(note, b"old")
    check(shown.status == 0 and shown.stdout == b"old\n", "show waited or failed: %s"
          % shown.describe())
    check(waited < 30, "the writer waited %.0f s" % waited)
    return expect_refused(outcome, [note, "writer lock"])


def others_note(settings, command):
    sandbox = Sandbox(settings, "others note")
    shared = shared_folder(sandbox)
    note = os.path.join(shared, "note")

    def plant():
        write_file(note, SECRET, 0o666)

    as_nobody(plant)
    outcome = command(sandbox, note)
    expect_intact(note)
    check(os.lstat(note).st_uid == NOBODY, "the note changed owner")
    return expect_refused(outcome, [note, "owned by another user"])


def hard_link(settings, command, in_shared_folder):
    sandbox = Sandbox(settings, "hard link")
    victim, _ = victims_own_file(sandbox)
    folder = shared_folder(sandbox) if in_shared_folder else sandbox.folder("notes", mode=0o700)
    note = os.path.join(folder, "note")
    os.link(victim, note)
    outcome = command(sandbox, note)
    expect_intact(victim)
    if in_shared_folder:
        return expect_refused(outcome, [note, "owned by another user"])
    # The user's own folder: the name is theirs to replace or remove; the
    # other file keeps its content under its own name.
    check(outcome.status == 0, "expected success, got %s" % outcome.describe())
    return None


def clear_refuses(sandbox, path, node):
    outcome = run_clear(sandbox, path)
    check(os.path.lexists(node), "%s was removed" % node)
    return expect_refused(outcome, [node, "not a regular file"])


def clear_device_through_link(settings):
    sandbox = Sandbox(settings, "device")
    folder = sandbox.folder("x")
    node = os.path.join(folder, "mynull")
    os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    link = os.path.join(folder, "datafile.dat")
    os.symlink(node, link)
    line = clear_refuses(sandbox, link, node)
    check(stat.S_ISCHR(os.lstat(node).st_mode), "the device node changed")
    return line


def clear_fifo(settings):
    sandbox = Sandbox(settings, "fifo")
    node = os.path.join(sandbox.folder("x"), "datafile.dat")
    os.mkfifo(node, 0o600)
    return clear_refuses(sandbox, node, node)


def clear_socket(settings):
    import socket

    sandbox = Sandbox(settings, "socket")
    node = os.path.join(sandbox.folder("x"), "datafile.dat")
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(node)
        return clear_refuses(sandbox, node, node)
    finally:
        server.close()


# --- A planted versions folder ------------------------------------------------


def plant_link_to_victims_folder(folder, victim):
    os.symlink(os.path.dirname(victim), folder)


def plant_nobodys_folder(folder, victim):
    # Open to all, so the victim could use it: only its owner tells.
    os.mkdir(folder)
    os.chmod(folder, 0o777)
    write_file(os.path.join(folder, "0000000001-1"), b"nobody's version", 0o600)


def plant_file(folder, victim):
    write_file(folder, b"nobody's file", 0o666)


PLANTED_VERSIONS = [
    ("a link to the victim's folder", plant_link_to_victims_folder),
    ("a folder of nobody's", plant_nobodys_folder),
    ("a regular file", plant_file),
]


def snapshot(path):
    """What is at `path`, enough to see any change: the kind, owner and
    mode, a link's destination, a file's bytes, a folder's names and
    files' bytes (one level)."""
    status = os.lstat(path)
    shape = (stat.S_IFMT(status.st_mode), status.st_uid, stat.S_IMODE(status.st_mode))
    if stat.S_ISLNK(status.st_mode):
        return shape + (os.readlink(path),)
    if stat.S_ISDIR(status.st_mode):
        return shape + tuple((name, snapshot(os.path.join(path, name)))
                             for name in sorted(os.listdir(path)))
    return shape + (read_or_none(path),)


def planted_versions_folder(settings, plant, setup):
    """The user's note in a sticky shared folder (a save of it would keep a
    version); nobody has put something of theirs where the versions go."""
    sandbox = Sandbox(settings, "planted versions")
    victim, user = setup(sandbox)
    owner = 0 if user is None else user
    shared = shared_folder(sandbox)
    note = os.path.join(shared, "note")
    write_file(note, b"old")
    os.chown(note, owner, owner)
    folder = versions_folder_of(note)
    as_nobody(plant, folder, victim)
    victims_folder = snapshot(os.path.dirname(victim))
    planted = snapshot(folder)
    line = expect_refused(run_save(sandbox, note, user=user),
                          ["cannot use the versions folder %s" % folder, "nothing was changed"])
    expect_intact(note, b"old")
    expect_intact(victim)
    check(snapshot(folder) == planted, "the planted versions folder changed")
    check(snapshot(os.path.dirname(victim)) == victims_folder, "the victim's folder changed")
    off = sandbox.run(["--file", note, "save", "pwned"], user=user, timeout=30,
                      env=dict(sandbox.env, FILENOTE_VERSIONS="0"))
    check(off.status == 0 and read_or_none(note) == b"pwned",
          "FILENOTE_VERSIONS=0 did not save: %s" % off.describe())
    expect_intact(victim)
    check(snapshot(folder) == planted, "FILENOTE_VERSIONS=0 changed the planted versions folder")
    check(snapshot(os.path.dirname(victim)) == victims_folder, "the victim's folder changed")
    return line


def link_named_like_a_version(settings):
    """Only the user can write in their versions folder; should a link named
    like the oldest version be there anyway, pruning and clear --all remove
    names, never what a link leads to, and not the link either."""
    sandbox = Sandbox(settings, "link named like a version")
    victim, _ = root_file(sandbox)
    note = sandbox.note
    sandbox.save_each("a", "b", "c")
    folder = versions_folder_of(note)
    oldest = min(name for name in os.listdir(folder) if name[0].isdigit())
    os.unlink(os.path.join(folder, oldest))
    link = os.path.join(folder, oldest)
    os.symlink(victim, link)
    os.lchown(link, NOBODY, NOBODY)
    pruned = sandbox.run(["save", "d"], env=dict(sandbox.env, FILENOTE_VERSIONS="1"))
    check(pruned.status == 0, "the pruning save failed: %s" % pruned.describe())
    expect_intact(victim)
    check(os.readlink(link) == victim, "pruning removed or changed the link")
    # The note's own name (a save's hard link of its new note) is no version.
    own = os.stat(note).st_ino
    kept = sorted(name for name in os.listdir(folder) if name != oldest
                  and os.lstat(os.path.join(folder, name)).st_ino != own)
    check(len(kept) == 1, "pruning to 1 version left %s" % kept)
    cleared = sandbox.run(["clear", "--all"])
    check(cleared.status == 0, "clear --all failed: %s" % cleared.describe())
    expect_intact(victim)
    check(os.listdir(folder) == [oldest] and os.readlink(link) == victim,
          "clear --all removed or changed the link: %s" % os.listdir(folder))
    # forget lists versions as history does: the link is none, so no number
    # reaches it.
    sandbox.save_each("e", "f")
    forgot = sandbox.run(["forget", "1"])
    check(forgot.status == 0, "forget 1 failed: %s" % forgot.describe())
    expect_refused(sandbox.run(["forget", "1"]), ["no version 1"])
    expect_intact(victim)
    check(oldest in os.listdir(folder) and os.readlink(link) == victim,
          "forget removed or changed the link: %s" % os.listdir(folder))
    return "pruned to %s, cleared, forgot; the link %s and its victim kept" % (kept[0], oldest)


def forget_hard_link(settings):
    """A version's name that is also another user's file (only root could
    put it in the user's 0700 folder) is no version: it is not listed, so
    forget 1 forgets the version before it, and the file keeps its bytes,
    owner and both names."""
    sandbox = Sandbox(settings, "forget hard link")
    victim, _ = victims_own_file(sandbox)
    sandbox.save_each("a", "b")
    folder = versions_folder_of(sandbox.note)
    # Named as kept after the others (its time): it would be version 1.
    name = "%d.000000000-%016x" % (int(time.time()) + 3600, 1)
    os.link(victim, os.path.join(folder, name))
    check(sandbox.run(["show", "1"]).stdout == b"a\n", "show 1 is not the user's version")
    outcome = sandbox.run(["forget", "1"])
    check(outcome.status == 0, "forget 1 failed: %s" % outcome.describe())
    expect_intact(victim)
    own = os.stat(sandbox.note).st_ino
    left = [other for other in os.listdir(folder)
            if os.lstat(os.path.join(folder, other)).st_ino != own]
    check(left == [name], "forget 1 did not forget the user's version, or removed the other "
          "name: %s" % left)
    check(read_or_none(sandbox.note) == b"b", "the note changed")
    return "forgot the user's version; the other user's file kept under %s" % name


def overwrite(path, data):
    """Writes `data` over the file at `path`, in place (the same inode)."""
    with open(path, "r+b") as file:
        file.write(data)
        file.truncate()


def victims_note_folder(sandbox, user):
    """A folder of the victim's own (root's, or VICTIM's), 0700, for its note."""
    folder = sandbox.folder("victim-notes", mode=0o700)
    owner = 0 if user is None else user
    os.chown(folder, owner, owner)
    return os.path.join(folder, "note")


def others_files_in_versions(settings, setup):
    """As the victim, three saves; then, as a sync engine running as root
    (or with ignorePerms) leaves them, the oldest version's file is
    nobody's, mode 0644, and nobody keeps a hard link to it in a shared
    folder and writes through it; nobody's own file is renamed in under a
    version's name, as the newest. The victim must see only its own."""
    sandbox = Sandbox(settings, "others' versions")
    _, user = setup(sandbox)
    note = victims_note_folder(sandbox, user)
    sandbox.save_each("one", "two", "three", arguments=["--file", note], user=user)
    folder = versions_folder_of(note)
    oldest = min(os.listdir(folder))
    shared = shared_folder(sandbox)
    kept = os.path.join(shared, "kept")
    os.chown(os.path.join(folder, oldest), NOBODY, NOBODY)
    os.chmod(os.path.join(folder, oldest), 0o644)
    # The name nobody kept of the file (made here by root: nobody cannot
    # reach the victim's folder); nobody writes through it.
    os.link(os.path.join(folder, oldest), kept)
    as_nobody(overwrite, kept, b"written by nobody")
    planted = os.path.join(shared, "planted")
    as_nobody(write_file, planted, b"nobody's own text", 0o644)
    newest = "%d.000000000-%016x" % (int(time.time()) + 3600, 2)
    os.rename(planted, os.path.join(folder, newest))
    history = sandbox.run(["--file", note, "history"], user=user)
    listed = history.stdout.decode("utf-8", "replace").splitlines()
    check(history.status == 0 and len(listed) == 2 and listed[1].endswith("  two"),
          "history lists %s (%s)" % (listed, history.describe()))
    check(sandbox.run(["--file", note, "show", "1"], user=user).stdout == b"two\n",
          "show 1 is not the victim's version")
    for arguments in (["show", "2"], ["restore", "2"]):
        expect_error_line(sandbox.run(["--file", note] + arguments, user=user),
                          ["no version 2", "1 version is kept"])
    said = on_terminal(sandbox, ["--file", note, "history"], {}, user, None, b"")
    lines = said.stderr.decode("utf-8", "replace").splitlines()
    check(said.status == 0 and len(lines) == 1 and "2 files in %s not listed" % folder
          in lines[0], "history on a terminal said %r" % lines)
    restored = sandbox.run(["--file", note, "restore", "1"], user=user)
    check(restored.status == 0 and read_or_none(note) == b"two", "restore 1: %s"
          % restored.describe())
    info = os.stat(note)
    # One name, or two: the restored text keeps its own name in the
    # versions folder (doc/DESIGN.md), never nobody's.
    own = [name for name in os.listdir(folder)
           if os.stat(os.path.join(folder, name)).st_ino == info.st_ino]
    check(info.st_uid == (user or 0) and info.st_nlink == 1 + len(own) and len(own) <= 1,
          "the note is uid %d with %d links (%d in the versions folder)"
          % (info.st_uid, info.st_nlink, len(own)))
    check(sandbox.run(["--file", note, "save", "four"], user=user).status == 0,
          "the save after restore failed")
    expect_intact(kept, b"written by nobody")
    expect_intact(os.path.join(folder, newest), b"nobody's own text")
    check(os.stat(kept).st_ino == os.stat(os.path.join(folder, oldest)).st_ino,
          "nobody's file lost a name")
    return lines[0]


def engine_made_open_folder(settings, setup):
    """As rclone bisync or git at umask 022 leave it on the other machine:
    the versions folder 0755, its files 0644, all the victim's. Then the
    same folder as nobody's."""
    sandbox = Sandbox(settings, "engine-made open folder")
    _, user = setup(sandbox)
    note = victims_note_folder(sandbox, user)
    sandbox.save_each("a", "b", "c", arguments=["--file", note], user=user)
    folder = versions_folder_of(note)
    os.chmod(folder, 0o755)
    for name in os.listdir(folder):
        os.chmod(os.path.join(folder, name), 0o644)
    said = on_terminal(sandbox, ["--file", note, "history"], {}, user, None, b"")
    lines = said.stderr.decode("utf-8", "replace").splitlines()
    check(said.status == 0 and len(lines) == 1 and "0700 again" in lines[0],
          "history on a terminal said %r (%s)" % (lines, said.describe()))
    # All but the note's own name, which is the note and keeps its mode.
    own = os.stat(note).st_ino
    modes = sorted({stat.S_IMODE(os.stat(os.path.join(folder, name)).st_mode)
                    for name in os.listdir(folder)
                    if os.stat(os.path.join(folder, name)).st_ino != own})
    check(stat.S_IMODE(os.stat(folder).st_mode) == 0o700 and modes == [0o600],
          "the folder is %o, its files %s" % (stat.S_IMODE(os.stat(folder).st_mode), modes))
    again = on_terminal(sandbox, ["--file", note, "history"], {}, user, None, b"")
    check(again.status == 0 and again.stderr == b"", "said again: %s" % again.describe())
    check(sandbox.run(["--file", note, "save", "d"], user=user).status == 0, "save d failed")
    check(sandbox.run(["--file", note, "show", "3"], user=user).stdout == b"a\n",
          "version 3 is not a")
    os.chown(folder, NOBODY, NOBODY)
    os.chmod(folder, 0o755)
    names = sorted(os.listdir(folder))
    refused = sandbox.run(["--file", note, "save", "e"], user=user)
    message = expect_error_line(refused, ["cannot use the versions folder %s" % folder,
                                          "another user"])
    for advice in ("move it away", "FILENOTE_VERSIONS=0", "rm "):
        check(advice not in message, "the refusal advises %r: %s" % (advice, message))
    check(sorted(os.listdir(folder)) == names and read_or_none(note) == b"d",
          "the refusal changed something")
    return lines[0] + " | " + message
