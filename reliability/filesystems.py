"""Case group: filenote on every file system a note may live on.

Each file system is made from a bounded image on a loop device (64 MiB;
xfs 300 MiB, its smallest, sparse) or a FUSE mount under this run's scratch
folder (mounts.py), and the same checks run on each: save, versions
(history, show N, the README's `history` recipe), undo/restore, clear,
`edit` (EDITOR a script), the prompt, four concurrent writers, `kill -9`
during a large save, invalid UTF-8, no stray files, and modes: 0600 for
the note and its versions, 0700 for the versions folder, where the file
system can store modes, else the modes it gives (found by trying, once per
mount). A tmpfs that is full, one out of inodes and a read-only bind mount
get the checks that apply there: what is kept can be read, and every
writing command fails with one line naming the path, the note unchanged.

Checks that encode the behaviour the README promises but today's binary
does not give are listed in KNOWN_FAILING, each with the defect it stands
for. Such a check still runs: when it fails it is reported as "known, not
yet fixed" (neither passed nor failed); when it passes, it fails the group
until its line is removed, so the list cannot go stale. RACES lists the
checks whose failure depends on timing: a pass of one of those is reported,
not taken as a fix.

A file system whose program, kernel module or FUSE is missing is skipped
with the reason (scripts/test-tools installs the Debian packages).
"""

import contextlib
import os
import re
import shutil
import signal
import stat
import subprocess
import threading
import time
import traceback

import faults
import mounts
from harness import (Failure, Sandbox, TerminalRun, check, expect_error_line, identify,
                     make_note, read_or_none, require_root, show_bytes, temporary_files,
                     versions_folder_of, write_file)

NOBODY = 65534
MIB = 1024 * 1024
IMAGE_SIZE = 64 * MIB


class Defect:
    """A way today's binary breaks a promise: what it is, and the words a
    check's failure shows when it is this defect and not another."""

    def __init__(self, description, signature):
        self.description = description
        self.signature = re.compile(signature)


# The checks today's binary fails, by the defect each is kept to catch:
# (file systems, checks, defect), "*" for every file system. A listed
# check that fails shows the defect's words, else it is a new failure; a
# listed check that passes fails the group until its entry is narrowed or
# removed, so remove an entry once its fix has landed
# (reliability/FILESYSTEMS.md says which defects were fixed and how).
BINDFS_STALE_LINKS = [
    "versions", "the README's history recipe", "undo and restore", "clear",
    "FILENOTE_VERSIONS=0 clear beside kept versions", "edit", "four writers with versions",
]
KNOWN_FAILING = [
    ({"bindfs-chmod-deny"}, set(BINDFS_STALE_LINKS),
     Defect("bindfs reports the replaced note's second name for about a second after a save, "
            "and the versions folder's rule leaves a file with a name filenote did not make out",
            r"history listed 1 lines|gave b'three|nothing to undo|removed kept versions"
            r"|kept no version|history lists 0 versions")),
]

# Checks whose failure is a race: a run that passes them proves no fix.
RACES = {"four writers", "four writers with versions"} | set(BINDFS_STALE_LINKS)

FOUR_WRITER_RUNS_LONG = {"ext4", "ntfs", "ntfs-permissions", "exfat", "sshfs"}


def run(settings, ledger):
    require_root("the file-system cases (they make loop devices and mounts)")
    for system in FILE_SYSTEMS:
        started = time.monotonic()
        tally = {"ok": 0, "known": 0, "failed": 0}
        try:
            with system.made(settings) as place:
                print("-- %s: %s" % (system.name, place.describe()), flush=True)
                checks = CONSTRAINED_CHECKS if system.constrained else CHECKS
                for name, function in checks:
                    run_check(settings, ledger, system, place, name, function, tally)
                run_check(settings, ledger, system, place, "no stray files on the file system",
                          no_stray_files, tally)
        except mounts.Unavailable as reason:
            print("skip filesystems: %s: %s" % (system.name, reason), flush=True)
            ledger.count("file systems skipped")
            continue
        except (Failure, OSError) as failure:
            # Making, probing or taking down the file system failed: that is a
            # failure of its own, whatever the checks said.
            ledger.failed.append("filesystems: %s: mount" % system.name)
            tally["failed"] += 1
            print("FAIL filesystems: %s: %s" % (system.name, failure), flush=True)
        ledger.count("file systems tried")
        print("-- %s: %d ok, %d known not yet fixed, %d failed [%.1fs]" % (
            system.name, tally["ok"], tally["known"], tally["failed"],
            time.monotonic() - started), flush=True)


def known_defects(system, check_name):
    return [defect for systems, checks, defect in KNOWN_FAILING
            if (systems == "*" or system.name in systems) and check_name in checks]


def run_check(settings, ledger, system, place, name, function, tally):
    """One check on one file system, with the known-failing list applied."""
    label = "filesystems: %s: %s" % (system.name, name)
    defects = known_defects(system, name)
    started = time.monotonic()
    context = None
    try:
        context = Context(settings, system, place, name)
        note = function(context)
    except NotApplicable as reason:
        print("skip %s: %s" % (label, reason), flush=True)
        return
    except Failure as failure:
        known = [defect for defect in defects if defect.signature.search(str(failure))]
        if known:
            tally["known"] += 1
            ledger.count("file-system checks known to fail, not yet fixed")
            print("known %s: not yet fixed (%s): %s" % (label, known[0].description, failure),
                  flush=True)
            return
        tally["failed"] += 1
        ledger.failed.append(label)
        print("FAIL %s: %s" % (label, failure), flush=True)
        return
    except Exception:
        tally["failed"] += 1
        ledger.failed.append(label)
        print("FAIL %s: the check raised:\n%s" % (label, traceback.format_exc()), flush=True)
        return
    finally:
        if system.constrained and context:
            # A full or tiny file system has room for one check's files at a time.
            shutil.rmtree(context.folder, ignore_errors=True)
    elapsed = time.monotonic() - started
    if defects and name in RACES:
        print("ok   %s (%s) [%.1fs]; listed as known to fail (%s), but a race: this pass "
              "proves no fix" % (label, note or "passed", elapsed, defects[0].description),
              flush=True)
    elif defects:
        tally["failed"] += 1
        ledger.failed.append(label)
        print("FAIL %s: passes now, but KNOWN_FAILING lists it (%s): take it out of the list"
              % (label, defects[0].description), flush=True)
        return
    else:
        print("ok   %s%s [%.1fs]" % (label, " (%s)" % note if note else "", elapsed),
              flush=True)
    tally["ok"] += 1
    ledger.passed += 1


class NotApplicable(Exception):
    """The file system cannot hold what the check needs (no chown, no links)."""


# --- What a file system allows ----------------------------------------------


class Allowed:
    """What the file system at `folder` does with modes, owners and links,
    found by trying once on a throwaway file and folder."""

    def __init__(self, folder):
        probe = os.path.join(folder, "probe")
        os.mkdir(probe, 0o700)
        try:
            os.chmod(probe, 0o700)
        except OSError:
            pass
        self.folder_mode = stat.S_IMODE(os.stat(probe).st_mode)
        path = os.path.join(probe, "file")
        descriptor = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        try:
            os.fchmod(descriptor, 0o600)
            self.fchmod = None
        except OSError as error:
            self.fchmod = error.strerror
        finally:
            os.close(descriptor)
        self.file_mode = stat.S_IMODE(os.stat(path).st_mode)
        try:
            os.chown(path, NOBODY, NOBODY)
            self.chown = os.stat(path).st_uid == NOBODY
        except OSError:
            self.chown = False
        try:
            os.symlink("file", os.path.join(probe, "link"))
            self.symlinks = True
        except OSError:
            self.symlinks = False
        try:
            os.link(path, os.path.join(probe, "hard"))
            self.hard_links = True
        except OSError:
            self.hard_links = False
        shutil.rmtree(probe)

    @property
    def private(self):
        """Whether a file and a folder can be closed to other users here."""
        return self.file_mode & 0o077 == 0 and self.folder_mode & 0o077 == 0

    def describe(self):
        return "new files %04o, folders %04o%s, chown %s, symbolic links %s, hard links %s" % (
            self.file_mode, self.folder_mode,
            "" if self.fchmod is None else " (fchmod: %s)" % self.fchmod,
            "yes" if self.chown else "no", "yes" if self.symlinks else "no",
            "yes" if self.hard_links else "no")


class Place:
    """A mounted file system: the folder the checks work in, what it allows,
    and what made it."""

    def __init__(self, folder, how, allowed=None):
        self.folder = folder
        self.how = how
        self.allowed = allowed
        self.count = 0

    def describe(self):
        return self.how + ("; " + self.allowed.describe() if self.allowed else "")


class Context:
    """What a check gets: a sandbox (HOME), a fresh folder on the file
    system under test, and the note path in it."""

    def __init__(self, settings, system, place, name):
        self.settings = settings
        self.system = system
        self.place = place
        self.allowed = place.allowed
        place.count += 1
        self.sandbox = Sandbox(settings, "fs " + system.name)
        self.folder = os.path.join(place.folder, "check%02d" % place.count)
        os.mkdir(self.folder, 0o755)
        self.note = os.path.join(self.folder, "note.txt")
        self.rng = settings.rng("%s %s" % (system.name, name))

    def run(self, arguments, stdin=b"", env=None, timeout=60):
        environment = dict(self.sandbox.env, **(env or {}))
        return self.sandbox.run(["--file", self.note] + list(arguments), stdin=stdin,
                                env=environment, timeout=timeout)

    def save(self, text, env=None):
        outcome = self.run(["save"], stdin=text, env=env)
        check(outcome.status == 0, "save of %s failed: %s" % (show_bytes(text, 40),
                                                             outcome.describe()))
        return outcome

    def show(self, *arguments):
        outcome = self.run(["show"] + list(arguments))
        check(outcome.status == 0, "show %s failed: %s" % (" ".join(arguments),
                                                           outcome.describe()))
        return outcome.stdout

    def history(self):
        outcome = self.run(["history"])
        check(outcome.status == 0, "history failed: %s" % outcome.describe())
        return outcome.stdout.decode().splitlines()

    def versions(self):
        """The lines of `history` that are versions: all but 0, the note."""
        return [line for line in self.history() if line.split()[0] != "0"]

    def expect_note(self, content):
        data = read_or_none(self.note)
        check(data == content, "expected the note to be %s, it is %s"
              % (show_bytes(content), show_bytes(data)))

    def expect_clean(self, names=("note.txt",)):
        """The folder holds `names` and the versions folder, nothing else:
        no temporary file, no lock file, no copy left in the versions folder."""
        present = sorted(os.listdir(self.folder))
        allowed = sorted(list(names) + [os.path.basename(versions_folder_of(self.note))])
        stray = [name for name in present if name not in allowed]
        check(not stray, "stray files in %s: %s" % (self.folder, stray))
        versions = versions_folder_of(self.note)
        if os.path.isdir(versions):
            odd = [name for name in os.listdir(versions)
                   if not re.match(r"\A(\d{10}-\d+|\d+\.\d{9}-[0-9a-f]{16})\Z", name)]
            check(not odd, "stray files in %s: %s" % (versions, odd))


# --- The file systems --------------------------------------------------------


class FileSystem:
    """One kind of mount: `make(work, settings)` is a context manager that
    yields a Place (the folder to work in and how it was made)."""

    def __init__(self, name, make, constrained=False):
        self.name = name
        self.make = make
        self.constrained = constrained

    @contextlib.contextmanager
    def made(self, settings):
        work = Sandbox(settings, "mount " + self.name).root
        with self.make(work) as place:
            if place.allowed is None and not self.constrained:
                place.allowed = Allowed(place.folder)
            yield place


@contextlib.contextmanager
def loop_mount(work, make, mount_argv, size=IMAGE_SIZE, fuse=False):
    """An image formatted by `make`, on a loop device, mounted by
    `mount_argv(device, target)`."""
    target = os.path.join(work, "mnt")
    with mounts.image(os.path.join(work, "image"), size, make) as path:
        with mounts.loop_device(path) as device:
            with mounts.mounted(target, mount_argv(device, target), fuse=fuse):
                yield target


def kernel_loop(fstype, make, package, size=IMAGE_SIZE, options=None):
    @contextlib.contextmanager
    def make_it(work):
        mounts.need_kernel(fstype)
        mounts.need_programs((make[0], package))
        argv = lambda device, target: ["mount", "-t", fstype] + (
            ["-o", options] if options else []) + [device, target]
        with loop_mount(work, make, argv, size) as target:
            yield Place(target, "kernel %s on a %d MiB loop image" % (fstype, size // MIB))

    return make_it


@contextlib.contextmanager
def fat(work):
    """Kernel vfat where there is one, else fusefat (the kernel has no vfat)."""
    mounts.need_programs(("mkfs.vfat", "dosfstools"))
    if mounts.kernel_has("vfat"):
        with kernel_loop("vfat", ["mkfs.vfat"], "dosfstools")(work) as place:
            yield place
        return
    mounts.need_fuse()
    mounts.need_programs(("fusefat", "fusefat"))
    target = os.path.join(work, "mnt")
    with mounts.image(os.path.join(work, "image"), IMAGE_SIZE, ["mkfs.vfat"]) as path:
        with mounts.mounted(target, ["fusefat", "-o", "rw+", path, target], fuse=True):
            yield Place(target, "fusefat -o rw+ on a 64 MiB image (the kernel has no vfat)")


def exfat(options):
    @contextlib.contextmanager
    def make_it(work):
        mounts.need_programs(("mkfs.exfat", "exfatprogs"))
        how = "-o " + options if options else "the default mount"
        if mounts.kernel_has("exfat"):
            with kernel_loop("exfat", ["mkfs.exfat"], "exfatprogs", options=options)(work) as place:
                yield place
            return
        mounts.need_fuse()
        mounts.need_programs(("mount.exfat-fuse", "exfat-fuse"))
        argv = lambda device, target: [mounts.program("mount.exfat-fuse")] + (
            ["-o", options] if options else []) + [device, target]
        with loop_mount(work, ["mkfs.exfat"], argv, fuse=True) as target:
            yield Place(target, "exfat-fuse, %s, on a 64 MiB loop image" % how)

    return make_it


def ntfs(options):
    @contextlib.contextmanager
    def make_it(work):
        mounts.need_fuse()
        mounts.need_programs(("mkfs.ntfs", "ntfs-3g"), ("ntfs-3g", "ntfs-3g"))
        argv = lambda device, target: ["ntfs-3g"] + (["-o", options] if options else []) + [
            device, target]
        with loop_mount(work, ["mkfs.ntfs", "--quick", "--force"], argv, fuse=True) as target:
            yield Place(target, "ntfs-3g, %s, on a 64 MiB loop image"
                        % ("-o " + options if options else "the default mount"))

    return make_it


@contextlib.contextmanager
def overlay(work):
    mounts.need_kernel("overlay")
    layers = {name: os.path.join(work, name) for name in ("lower", "upper", "work")}
    for path in layers.values():
        os.mkdir(path, 0o755)
    target = os.path.join(work, "mnt")
    options = "lowerdir=%(lower)s,upperdir=%(upper)s,workdir=%(work)s" % layers
    with mounts.mounted(target, ["mount", "-t", "overlay", "overlay", "-o", options, target]):
        yield Place(target, "overlayfs over folders of the scratch folder")


@contextlib.contextmanager
def fuse_over_folder(work, argv, how, env=None):
    """A FUSE mount, by `argv(source, target)`, of a folder of the scratch folder."""
    source = os.path.join(work, "source")
    os.mkdir(source, 0o755)
    target = os.path.join(work, "mnt")
    with mounts.mounted(target, argv(source, target), fuse=True, env=env):
        yield Place(target, how)


def bindfs_chmod_deny(work):
    mounts.need_fuse()
    mounts.need_programs(("bindfs", "bindfs"))
    return fuse_over_folder(work, lambda source, target: ["bindfs", "--chmod-deny", source,
                                                          target],
                            "bindfs --chmod-deny over a folder of the scratch folder")


@contextlib.contextmanager
def sshfs(work):
    mounts.need_fuse()
    mounts.need_programs(("sshfs", "sshfs"))
    # ssh writes nothing into the real home: HOME is the scratch folder.
    env = dict(os.environ, HOME=work)
    with mounts.sshd(os.path.join(work, "sshd")) as (port, key):
        with fuse_over_folder(work, lambda source, target: mounts.sshfs_command(
                port, key, source, target),
                "sshfs to an sshd of its own on 127.0.0.1:%d" % port, env=env) as place:
            yield place


# The constrained ones: a note with two versions is made first, then the
# file system is filled or made read-only. `place.full` frees it again.


def keep_two_versions(folder, settings):
    """A note `note.txt` with versions "one" and "two" behind "three"."""
    sandbox = Sandbox(settings, "fill")
    for text in (b"one", b"two", b"three"):
        outcome = sandbox.run(["--file", os.path.join(folder, "note.txt"), "save"], stdin=text)
        check(outcome.status == 0, "preparing the note failed: %s" % outcome.describe())


def small_tmpfs(options, how, fill):
    """A tmpfs mounted with `options`, which `fill` fills when a check asks."""

    @contextlib.contextmanager
    def make_it(work):
        target = os.path.join(work, "mnt")
        with mounts.mounted(target, ["mount", "-t", "tmpfs", "-o", options + ",mode=0755",
                                     "tmpfs", target]):
            place = Place(target, how)
            place.fill = fill
            yield place

    return make_it


@contextlib.contextmanager
def read_only_bind(work):
    source = os.path.join(work, "source")
    os.mkdir(source, 0o755)
    target = os.path.join(work, "mnt")
    with mounts.mounted(target, ["mount", "--bind", source, target]):
        place = Place(target, "a read-only bind mount (mount --bind, then remount,ro,bind)")

        def fill(folder):
            mounts.tool(["mount", "-o", "remount,ro,bind", target])
            return lambda: mounts.tool(["mount", "-o", "remount,rw,bind", target])

        place.fill = fill
        yield place


def fill_blocks(folder):
    """Takes every free block; returns how to give them back."""
    root = os.path.dirname(folder)
    faults.fill(root)
    return lambda: os.unlink(os.path.join(root, "filler"))


def fill_inodes(folder):
    """Takes every free inode; returns how to give them back."""
    filler = os.path.join(os.path.dirname(folder), "inodes")
    made = []
    try:
        os.mkdir(filler)
        made.append(filler)
        for number in range(100000):
            path = os.path.join(filler, str(number))
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
            made.append(path)
    except OSError:
        pass

    def free():
        for path in reversed(made):
            if os.path.isdir(path):
                os.rmdir(path)
            else:
                os.unlink(path)

    return free


FILE_SYSTEMS = [
    FileSystem("ext4", kernel_loop("ext4", ["mkfs.ext4", "-q", "-F"], "e2fsprogs")),
    FileSystem("fat", fat),
    FileSystem("exfat", exfat(None)),
    FileSystem("exfat-umask077", exfat("umask=077")),
    FileSystem("ntfs", ntfs(None)),
    FileSystem("ntfs-permissions", ntfs("permissions")),
    FileSystem("btrfs", kernel_loop("btrfs", ["mkfs.btrfs", "-q", "--mixed"], "btrfs-progs")),
    # xfsprogs makes nothing smaller than 300 MiB; the image is sparse.
    FileSystem("xfs", kernel_loop("xfs", ["mkfs.xfs", "-q"], "xfsprogs", size=300 * MIB)),
    FileSystem("overlayfs", overlay),
    FileSystem("bindfs-chmod-deny", bindfs_chmod_deny),
    FileSystem("sshfs", sshfs),
    FileSystem("tmpfs-full", small_tmpfs("size=1m", "tmpfs of 1 MiB, every block taken",
                                         fill_blocks), constrained=True),
    FileSystem("tmpfs-no-inodes", small_tmpfs("size=8m,nr_inodes=64",
                                              "tmpfs of 64 inodes, every inode taken",
                                              fill_inodes), constrained=True),
    FileSystem("read-only-bind", read_only_bind, constrained=True),
]


# --- The checks --------------------------------------------------------------


def expected_modes(context):
    """The modes SPEC promises (0600 note, 0700 versions folder) where the
    file system can store them, else those it gives every file."""
    allowed = context.allowed
    if allowed.file_mode == 0o600 and allowed.folder_mode == 0o700:
        return 0o600, 0o700
    return allowed.file_mode, allowed.folder_mode


def mode_of(path):
    return stat.S_IMODE(os.stat(path).st_mode)


def check_save(context):
    outcome = context.save(b"hello")
    context.expect_note(b"hello")
    check(context.show() == b"hello\n", "show did not print the saved note")
    context.save(b"hello again")
    context.expect_note(b"hello again")
    context.expect_clean()
    return "stderr %s" % show_bytes(outcome.stderr, 60) if outcome.stderr else None


def check_modes(context):
    context.save(b"one")
    context.save(b"two")
    note_mode, folder_mode = expected_modes(context)
    folder = versions_folder_of(context.note)
    check(os.path.isdir(folder), "no versions folder after the second save")
    found = [("the note", mode_of(context.note), note_mode),
             ("the versions folder", mode_of(folder), folder_mode)]
    found += [("version " + name, mode_of(os.path.join(folder, name)), note_mode)
              for name in os.listdir(folder)]
    wrong = ["%s is %04o, not %04o" % (what, mode, want) for what, mode, want in found
             if mode != want]
    check(not wrong, "; ".join(wrong))
    return "note %04o, versions folder %04o" % (note_mode, folder_mode)


def check_privacy_notice(context):
    """Where no mode can close the note to others, the user is told so,
    plainly, once: a line on standard error of the save that creates it."""
    if context.allowed.private:
        raise NotApplicable("this file system keeps files private (new files %04o)"
                            % context.allowed.file_mode)
    first = context.save(b"a secret")
    text = first.stderr.decode("utf-8", "replace")
    check(text.startswith("filenote: ") and text.count("\n") == 1 and context.folder in text,
          "the first save on a file system that shows every file %04o said nothing about it "
          "(stderr %r)" % (context.allowed.file_mode, text[:300]))
    return text.strip()


def check_versions(context):
    for text in (b"one", b"two", b"three"):
        context.save(text)
    # The note itself as 0, then the versions.
    lines = context.history()
    check(len(lines) == 3, "history listed %d lines: %r" % (len(lines), lines))
    check(lines[0].endswith("  three") and lines[1].endswith("  two")
          and lines[2].endswith("  one"),
          "history does not end its lines with the note's and versions' first lines: %r"
          % lines)
    check(context.show("1") == b"two\n" and context.show("2") == b"one\n",
          "show 1 / show 2 did not print the versions")
    context.expect_clean()


def history_recipe():
    """The README's `sed -E` recipe that cuts history's first-line field."""
    readme = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "README.md")
    with open(readme) as file:
        text = file.read()
    start = text.find("`history` prints")
    check(start >= 0, "README.md has no paragraph saying what `history` prints")
    match = re.search(r"\(`sed -E '([^']+)'`\)", text[start:start + 2000])
    check(match, "README.md's history paragraph has no sed -E recipe")
    return match.group(1)


def check_history_recipe(context):
    for text in (b"one", b"two", b"three"):
        context.save(text)
    history = context.run(["history"])
    check(history.status == 0, "history failed: %s" % history.describe())
    recipe = history_recipe()
    cut = subprocess.run(["sed", "-E", recipe], input=history.stdout, capture_output=True,
                         timeout=10)
    check(cut.stdout == b"three\ntwo\none\n", "the README's recipe sed -E '%s' gave %s from %s"
          % (recipe, show_bytes(cut.stdout), show_bytes(history.stdout)))


def check_undo_restore(context):
    for text in (b"one", b"two", b"three"):
        context.save(text)
    undone = context.run(["undo"])
    check(undone.status == 0 and undone.stdout == b"Restored version 1.\n",
          "undo: %s" % undone.describe())
    context.expect_note(b"two")
    redone = context.run(["undo"])
    check(redone.status == 0, "undo again: %s" % redone.describe())
    context.expect_note(b"three")
    numbers = [line.split()[0] for line in context.history() if line.endswith("  one")]
    check(numbers, "history lost version 'one': %r" % context.history())
    restored = context.run(["restore", numbers[0]])
    check(restored.status == 0 and restored.stdout == b"Restored version %s.\n"
          % numbers[0].encode(), "restore %s: %s" % (numbers[0], restored.describe()))
    context.expect_note(b"one")
    context.expect_clean()


def check_no_versions_named(context):
    """`show 1`, `undo`, `restore 1` with no versions name the note, as
    `history` does."""
    context.save(b"only")
    lines = [expect_error_line(context.run(arguments), [context.note])
             for arguments in (["show", "1"], ["undo"], ["restore", "1"])]
    context.expect_note(b"only")
    return lines[0]


def check_clear(context):
    context.save(b"one")
    context.save(b"two")
    cleared = context.run(["clear"])
    check(cleared.status == 0, "clear: %s" % cleared.describe())
    check(not os.path.lexists(context.note), "clear left the note")
    undone = context.run(["undo"])
    check(undone.status == 0, "undo after clear: %s" % undone.describe())
    context.expect_note(b"two")
    kept = len(context.versions())
    all_gone = context.run(["clear", "--all"])
    check(all_gone.status == 0 and all_gone.stdout.startswith(b"Removed the note and %d" % kept),
          "clear --all: %s" % all_gone.describe())
    check(not os.path.lexists(context.note), "clear --all left the note")
    context.expect_clean(names=())


def check_clear_without_versions(context):
    """`FILENOTE_VERSIONS=0 clear` removes the note and leaves the kept
    versions, and a read-only command never fails because versions cannot
    be kept."""
    context.save(b"one")
    context.save(b"two")
    history = context.run(["history"])
    check(history.status == 0, "history: %s" % history.describe())
    cleared = context.run(["clear"], env={"FILENOTE_VERSIONS": "0"})
    check(cleared.status == 0, "FILENOTE_VERSIONS=0 clear: %s" % cleared.describe())
    check(not os.path.lexists(context.note), "the note is still there")
    # "one", and "two" under the name its own save gave it (where a hard
    # link can be made): nothing kept is removed.
    check(len(context.versions()) >= 1, "FILENOTE_VERSIONS=0 clear removed kept versions")
    context.expect_clean(names=())


def editor_script(context):
    path = os.path.join(context.sandbox.root, "editor.sh")
    with open(path, "w") as file:
        file.write('#!/bin/sh\nprintf "%s\\n" "added by the editor" >> "$1"\n')
    os.chmod(path, 0o755)
    return path


def check_edit(context):
    context.save(b"hello")
    env = dict(context.sandbox.env, TERM="xterm", EDITOR=editor_script(context))
    run = TerminalRun(context.settings.binary, ["--file", context.note, "edit"], env)
    try:
        status = run.wait(seconds=30)
    finally:
        run.close()
    check(status == 0, "edit exited %s: %s" % (status, show_bytes(run.transcript[-300:], 300)))
    context.expect_note(b"hello\nadded by the editor")
    check(len(context.versions()) == 1, "edit kept no version of the note it replaced")
    context.expect_clean()


def check_prompt(context):
    context.save(b"hello")
    env = dict(context.sandbox.env, TERM="xterm")
    run = TerminalRun(context.settings.binary, ["--file", context.note], env)
    try:
        check(run.wait_for(b"Enter saves", seconds=15),
              "the prompt did not open: %s" % show_bytes(run.transcript[-300:], 300))
        run.wait_until_quiet(0.1)
        run.send(b" world\r")
        status = run.wait(seconds=20)
    finally:
        run.close()
    check(status == 0 and b"Saved." in run.transcript,
          "the prompt exited %s: %s" % (status, show_bytes(run.transcript[-300:], 300)))
    context.expect_note(b"hello world")
    context.expect_clean()


def four_writers(context, runs, env):
    """Four writers, each saving `runs` recognisable notes in a loop: every
    save must succeed (a writer waits for the lock), the note must end as
    one of them whole, and nothing may be left behind."""
    context.save(make_note("start", 0, 200, context.rng))
    failures = []
    written = set()
    lock = threading.Lock()

    def writer(number):
        rng = context.settings.rng("%s writer %d" % (context.system.name, number))
        for sequence in range(runs):
            note = make_note("w%d" % number, sequence, rng.randrange(10, 3000), rng)
            with lock:
                written.add(("w%d" % number, sequence))
            try:
                outcome = context.run(["save"], stdin=note, env=env, timeout=60)
            except Failure as failure:
                with lock:
                    failures.append(str(failure))
                continue
            if outcome.status != 0:
                with lock:
                    failures.append(outcome.stderr.decode("utf-8", "replace").strip())

    threads = [threading.Thread(target=writer, args=(number,)) for number in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    problems = []
    if failures:
        problems.append("%d of %d saves failed: %s" % (
            len(failures), 4 * runs, " | ".join(sorted(set(failures))[:4])))
    final = identify(read_or_none(context.note) or b"")
    if final not in written and not (failures and final == ("start", 0)):
        problems.append("the note is not one written note whole: %s"
                        % show_bytes(read_or_none(context.note)))
    check(not problems, "; ".join(problems))
    context.expect_clean()
    return "%d saves by four writers at once, none failed" % (4 * runs)


def writer_runs(context, long_runs):
    if not context.settings.long:
        return 15
    return long_runs if context.system.name in FOUR_WRITER_RUNS_LONG else 200


def check_four_writers(context):
    return four_writers(context, writer_runs(context, 2000), {"FILENOTE_VERSIONS": "0"})


def check_four_writers_with_versions(context):
    runs = 8 if not context.settings.long else 100
    summary = four_writers(context, runs, {"FILENOTE_VERSIONS": "5"})
    lines = context.versions()
    check(1 <= len(lines) <= 5, "history lists %d versions with FILENOTE_VERSIONS=5"
          % len(lines))
    return summary


def check_kill_during_large_save(context):
    """`kill -9` at a random moment of a large save: the note is the old
    one or the new one whole; the next save that changes the note removes
    what the killed one left (its temporary file, the lock file, a half
    copy). A save of the note's own text takes no lock, so it leaves the
    lock file (it does remove a dead writer's temporary file): found by the
    CI of 38fd1ba, where the killed save held the lock and the next one
    saved the old text again."""
    size = 16 * MIB if context.settings.long else 8 * MIB
    rounds = 6 if context.settings.long else 2
    # One version at most: where versions are copies (no hard links), the
    # note, its copy and the new temporary file must fit in the image.
    versions = {"FILENOTE_VERSIONS": "1"}
    old = make_note("old", 0, 2000, context.rng)
    context.save(old, env=versions)
    source = os.path.join(context.sandbox.root, "large")
    big = make_note("big", 1, size, context.rng)
    write_file(source, big)
    started = time.monotonic()
    whole = context.run(["save"], stdin=source, env=versions, timeout=120)
    duration = time.monotonic() - started
    check(whole.status == 0, "a %d MiB save failed: %s" % (size // MIB, whole.describe()))
    context.expect_note(big)
    context.save(old, env=versions)
    outcomes = []
    for round_number in range(rounds):
        delay = context.rng.uniform(0.0, duration)
        with open(source, "rb") as stdin:
            process = subprocess.Popen(
                [context.settings.binary, "--file", context.note, "save"], stdin=stdin,
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                env=dict(context.sandbox.env, **versions))
        try:
            time.sleep(delay)
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
        which = identify(read_or_none(context.note) or b"")
        check(which in (("old", 0), ("big", 1)), "round %d (killed after %.2fs): the note is %s"
              % (round_number, delay, show_bytes(read_or_none(context.note))))
        left = temporary_files(context.folder)
        check(len(left) <= 1, "round %d: more than one temporary file: %s" % (round_number,
                                                                              left))
        outcomes.append("%.2fs:%s%s" % (delay, which[0], "+tmp" if left else ""))
        between = make_note("between", round_number, 100, context.rng)
        context.save(between, env=versions)
        context.expect_note(between)
        context.expect_clean()
        context.save(old, env=versions)
        context.expect_note(old)
    return "a %d MiB save takes %.1fs; killed at %s" % (size // MIB, duration,
                                                       ", ".join(outcomes))


def check_invalid_utf8(context):
    context.save(b"valid")
    line = expect_error_line(context.run(["save"], stdin=b"ab\xff\xfecd"), ["UTF-8"])
    context.expect_note(b"valid")
    context.expect_clean()
    return line


def check_refusals_kept(context):
    """What another user could really plant is still refused here: a
    versions folder of nobody's, a symbolic link in its place."""
    if not context.allowed.chown and not context.allowed.symlinks:
        raise NotApplicable("no file here can belong to another user or be a link")
    context.save(b"one")
    folder = versions_folder_of(context.note)
    # The first save made it, for its note's own name: planted instead.
    shutil.rmtree(folder, ignore_errors=True)
    tried = []
    if context.allowed.chown:
        os.mkdir(folder, 0o700)
        os.chown(folder, NOBODY, NOBODY)
        expect_error_line(context.run(["save"], stdin=b"two"),
                          ["cannot use the versions folder %s" % folder])
        os.rmdir(folder)
        tried.append("nobody's folder")
    if context.allowed.symlinks:
        elsewhere = os.path.join(context.sandbox.root, "elsewhere")
        os.mkdir(elsewhere, 0o700)
        os.symlink(elsewhere, folder)
        expect_error_line(context.run(["save"], stdin=b"two"),
                          ["cannot use the versions folder %s" % folder])
        check(os.listdir(elsewhere) == [], "the save wrote through the link")
        os.unlink(folder)
        tried.append("a link")
    context.expect_note(b"one")
    return "refused: " + ", ".join(tried)


STRAY = re.compile(r"(\.tmp|\.lock|\.copy\.\d+\.\d+)\Z|\A\.copy\.")


def no_stray_files(context):
    """After every check: nothing filenote writes for a moment is left
    anywhere on the file system."""
    stray = []
    for folder, folders, files in os.walk(context.place.folder):
        stray += [os.path.join(folder, name) for name in files if STRAY.search(name)]
    check(not stray, "left behind: %s" % stray[:10])


CHECKS = [
    ("save", check_save),
    ("modes", check_modes),
    ("told when the note cannot be private", check_privacy_notice),
    ("versions", check_versions),
    ("the README's history recipe", check_history_recipe),
    ("undo and restore", check_undo_restore),
    ("show 1, undo, restore 1 with no versions name the note", check_no_versions_named),
    ("clear", check_clear),
    ("FILENOTE_VERSIONS=0 clear beside kept versions", check_clear_without_versions),
    ("edit", check_edit),
    ("the prompt", check_prompt),
    ("four writers", check_four_writers),
    ("four writers with versions", check_four_writers_with_versions),
    ("kill -9 during a large save", check_kill_during_large_save),
    ("invalid UTF-8", check_invalid_utf8),
    ("planted versions folders are still refused", check_refusals_kept),
]


# --- On a full or read-only file system -------------------------------------


@contextlib.contextmanager
def filled(context):
    """The note with two versions, then the file system filled (or made
    read-only) for the duration."""
    keep_two_versions(context.folder, context.settings)
    give_back = context.place.fill(context.folder)
    try:
        yield
    finally:
        give_back()


def expect_refused_cleanly(context, outcome, what):
    line = expect_error_line(outcome, [context.folder])
    context.expect_note(b"three")
    lines = context.versions()
    check(len(lines) == 2, "%s changed the versions: %r" % (what, lines))
    context.expect_clean()
    return line


def check_reading_works(context):
    with filled(context):
        check(context.show() == b"three\n", "show did not print the note")
        check(len(context.versions()) == 2, "history did not list the two versions")
        check(context.show("1") == b"two\n", "show 1 did not print version 1")


def writing_command(arguments, done, stdin=b""):
    """A check that runs `arguments` on the full or read-only file system:
    it fails with one line naming the path, the note and its versions
    unchanged, or (where it needs no room: a rename, a hard link, a removal
    on tmpfs) succeeds and has done what it says, as `done(context,
    outcome)` checks. On a read-only mount it must fail."""

    def check_it(context):
        with filled(context):
            outcome = context.run(arguments, stdin=stdin)
            if outcome.status == 0 and context.system.name != "read-only-bind":
                done(context, outcome)
                return "needed no room here, and worked"
            return expect_refused_cleanly(context, outcome, " ".join(arguments))

    return check_it


def restored(context, outcome):
    check(outcome.stdout.startswith(b"Restored version 1."), "said %s" % outcome.describe())
    context.expect_note(b"two")
    context.expect_clean()


def removed(context, outcome):
    check(not os.path.lexists(context.note), "the note is still there")
    context.expect_clean(names=())


def never(context, outcome):
    raise Failure("a 2 MiB save succeeded where there is no room for it")


def check_saves_again_once_freed(context):
    with filled(context):
        failed = context.run(["save"], stdin=b"x" * (2 * MIB))
        check(failed.status != 0, "the save succeeded on a full file system")
    context.save(b"four")
    context.expect_note(b"four")
    check(len(context.versions()) == 3, "the versions are not one, two, three: %r"
          % context.versions())
    context.expect_clean()


def check_prompt_refused(context):
    with filled(context):
        env = dict(context.sandbox.env, TERM="xterm")
        run = TerminalRun(context.settings.binary, ["--file", context.note], env)
        try:
            check(run.wait_for(b"Enter saves", seconds=15), "the prompt did not open: %s"
                  % show_bytes(run.transcript[-300:], 300))
            run.wait_until_quiet(0.1)
            run.send(b" more" + b"x" * 100 + b"\r")
            # The prompt stays open with the reason on the screen; the user
            # then cancels, and what was typed goes to a recovery file.
            refused = run.wait_for(b"Not saved: ", seconds=20)
            if refused:
                run.read_for(0.2)
                run.send(b"\x03")
            status = run.wait(seconds=20)
        finally:
            run.close()
        check(refused and status == 130 and context.folder.encode() in run.transcript
              and b"what you wrote is kept in " in run.transcript,
              "the prompt's failed save: exit %s, screen %s"
              % (status, show_bytes(run.transcript[-400:], 400)))
        context.expect_note(b"three")
        context.expect_clean()


def check_versions_fill_the_disk(context):
    """The disk filled by filenote's own versions: the failed save says how
    much they hold and how to free it (`forget N`, `clear --all`)."""
    if context.system.name != "tmpfs-full":
        raise NotApplicable("only on the 1 MiB tmpfs")
    failed = None
    for number in range(10):
        outcome = context.run(["save"], stdin=make_note("v", number, 200 * 1000, context.rng))
        if outcome.status != 0:
            failed = outcome
            break
    check(failed is not None, "ten saves of 200 KB fitted in 1 MiB")
    kept = len(context.versions())
    line = expect_error_line(failed, [context.folder, "No space left on device"])
    check("version" in line and any(way in line for way in ("forget", "clear --all")),
          "with %d versions holding the space, the message does not say so: %s" % (kept, line))
    return line


def check_versions_off_frees_the_space(context):
    """FILENOTE_VERSIONS=0 removes none kept (a setting for one command
    never destroys what earlier saves kept); `clear --all` frees the space."""
    if context.system.name != "tmpfs-full":
        raise NotApplicable("only on the 1 MiB tmpfs")
    for number in range(10):
        note = make_note("v", number, 200 * 1000, context.rng)
        if context.run(["save"], stdin=note).status != 0:
            break
    kept = len(context.versions())
    last = make_note("last", 0, 200 * 1000, context.rng)
    context.run(["save"], stdin=last, env={"FILENOTE_VERSIONS": "0"})
    check(len(context.versions()) == kept, "FILENOTE_VERSIONS=0 removed kept versions")
    cleared = context.run(["clear", "--all"])
    check(cleared.status == 0, "clear --all: %s" % cleared.describe())
    outcome = context.run(["save"], stdin=last)
    check(outcome.status == 0, "the save after clear --all: %s" % outcome.describe())
    context.expect_note(last)
    context.expect_clean()


CONSTRAINED_CHECKS = [
    ("show, history, show 1 still work", check_reading_works),
    ("a 2 MiB save fails cleanly", writing_command(["save"], never, b"x" * (2 * MIB))),
    ("undo fails cleanly or undoes", writing_command(["undo"], restored)),
    ("restore 1 fails cleanly or restores", writing_command(["restore", "1"], restored)),
    ("clear fails cleanly or clears", writing_command(["clear"], removed)),
    ("the prompt's save fails cleanly", check_prompt_refused),
    ("a save works again once there is room", check_saves_again_once_freed),
    ("versions filling the disk: the message says so", check_versions_fill_the_disk),
    ("versions filling the disk: clear --all frees it", check_versions_off_frees_the_space),
]
