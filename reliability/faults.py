"""Case group 3: saves that cannot succeed, and the odd files a note path
can lead to.

A failed save (doc/DESIGN.md, Saving) prints one line, `filenote: <what
failed>: <why>`, naming the path; exits non-zero; leaves the old note
intact and no temporary file behind. Every fault set up here (mounts, file attributes)
is undone in a `finally`, whatever the case did.
"""

import os
import stat

from harness import (Sandbox, check, expect_error_line, expect_no_temporary_files,
                     expect_only, file_attribute, mounted, read_or_none, show_bytes, write_file)

NOBODY = 65534
OLD = b"the old note\nwith two lines"
NEW_LARGE = b"n" * (1024 * 1024)


def run(settings, ledger):
    cases = [
        ("disk full: a 1 MiB note on a 256 KiB tmpfs", disk_full_midway),
        ("disk full: not one byte free", disk_full_entirely),
        ("disk full: no inode left for the temporary file", no_inodes_left),
        ("file size limit (ulimit -f) below the note's size", file_size_limit),
        ("no write permission on the folder (as nobody)", folder_not_writable),
        ("sticky folder, note owned by someone else (as nobody)", sticky_folder),
        ("immutable folder (chattr +i)", immutable_folder),
        ("immutable note file (chattr +i): the rename fails after the write",
         immutable_note),
        ("read-only file system (mount --bind -o ro)", read_only_mount),
        ("--file in a folder that does not exist", named_folder_missing),
        ("documents folder missing and HOME not writable", documents_cannot_be_created),
        ("documents folder missing: the first save creates it, mode 0700",
         documents_created_on_first_save),
        ("datafile.dat is a directory", note_is_directory),
        ("datafile.dat is a FIFO: show does not hang, save refuses it", note_is_fifo),
        ("dangling symbolic link: the save creates the target and keeps the link",
         dangling_symlink),
        ("dangling symbolic link into a folder that does not exist", dangling_into_nowhere),
        ("symbolic link into another folder: the target is replaced there", symlink_elsewhere),
        ("symbolic link into another folder that is read-only", symlink_elsewhere_read_only),
        ("symbolic link loop", symlink_loop),
        ("path longer than PATH_MAX", path_too_long),
        ("existing folder whose absolute path is longer than PATH_MAX", deep_real_folder),
        ("file name component longer than NAME_MAX", name_too_long),
        ("note file with a legal 255-byte name saves", longest_legal_name),
        ("note not readable (as nobody): show fails clearly", note_not_readable),
        ("clear in an immutable folder", clear_immutable_folder),
    ]
    for name, case in cases:
        ledger.count("faults tried")
        ledger.run("fault: " + name, case, settings)
    rounds = 400 if settings.long else 40
    ledger.run("fault loop: %d saves of random sizes into a tmpfs filled to random levels "
               "either land whole or fail cleanly" % rounds, disk_full_loop, settings, ledger,
               rounds)


def note_in(folder, content=OLD, mode=0o600):
    path = os.path.join(folder, "datafile.dat")
    write_file(path, content, mode)
    return path


def save(sandbox, path, text=None, stdin=b"", **options):
    arguments = ["--file", path, "save"] + ([text] if text is not None else [])
    return sandbox.run(arguments, stdin=stdin, **options)


def expect_failed_save(outcome, path, old, must_name, *other_folders):
    """What a failed save must do (doc/DESIGN.md, Saving); returns the error line."""
    line = expect_error_line(outcome, must_name)
    check(read_or_none(path) == old, "the old note changed: %s" % show_bytes(read_or_none(path)))
    expect_no_temporary_files(os.path.dirname(path), *other_folders)
    return line


def expect_saved(outcome, path, text):
    check(outcome.status == 0, "expected the save to succeed, got %s" % outcome.describe())
    check(read_or_none(path) == text, "the note is %s" % show_bytes(read_or_none(path)))


# --- Full disks ------------------------------------------------------------


def disk_full_midway(settings):
    sandbox = Sandbox(settings, "disk full")
    folder = sandbox.folder("full")
    with mounted(folder, "-t", "tmpfs", "-o", "size=256k,mode=0755", "tmpfs"):
        path = note_in(folder, OLD * 1000)
        input_path = os.path.join(sandbox.root, "input")
        write_file(input_path, NEW_LARGE)
        line = expect_failed_save(save(sandbox, path, stdin=input_path), path, OLD * 1000,
                                  [path, "No space left on device"])
        # And the next save, once there is room, works and leaves nothing behind.
        expect_saved(save(sandbox, path, "small"), path, b"small")
        expect_only(folder, ["datafile.dat"])
    return line


def fill(folder):
    """Takes every free block of the file system `folder` is on."""
    descriptor = os.open(os.path.join(folder, "filler"), os.O_WRONLY | os.O_CREAT, 0o600)
    try:
        for size in (65536, 4096, 1):
            try:
                while True:
                    os.write(descriptor, b"\0" * size)
            except OSError:
                pass
    finally:
        os.close(descriptor)


def disk_full_loop(settings, ledger, rounds):
    """Like SQLite's out-of-space testing: every save either lands or fails
    as a failed save must, whichever byte the space runs out at."""
    from harness import make_note

    rng = settings.rng("disk full loop")
    sandbox = Sandbox(settings, "disk full loop")
    folder = sandbox.folder("full")
    size = 512 * 1024
    failed = 0
    with mounted(folder, "-t", "tmpfs", "-o", "size=%d,mode=0755" % size, "tmpfs"):
        path = os.path.join(folder, "datafile.dat")
        old = make_note("start", 0, 1000, rng)
        write_file(path, old)
        filler = os.path.join(folder, "filler")
        input_path = os.path.join(sandbox.root, "input")
        for round in range(rounds):
            if os.path.exists(filler):
                os.unlink(filler)
            info = os.statvfs(folder)
            free = info.f_bavail * info.f_frsize
            write_file(filler, b"\0" * rng.randrange(0, max(1, free - 4096)))
            new = make_note("round", round, rng.randrange(1, size), rng)
            write_file(input_path, new)
            info = os.statvfs(folder)
            where = "round %d (%d bytes free, a %d-byte note)" % (
                round, info.f_bavail * info.f_frsize, len(new))
            outcome = save(sandbox, path, stdin=input_path)
            if outcome.status == 0:
                check(read_or_none(path) == new, "%s: the save succeeded but the note is %s"
                      % (where, show_bytes(read_or_none(path))))
                old = new
            else:
                failed += 1
                try:
                    expect_failed_save(outcome, path, old, [path, "No space left on device"])
                except Exception as error:
                    raise type(error)("%s: %s" % (where, error))
            expect_only(folder, ["datafile.dat", "filler"])
    ledger.count("faults tried", rounds)
    ledger.count("fault loop saves refused for lack of space", failed)
    return "%d of %d saves ran out of space, each failing cleanly" % (failed, rounds)


def disk_full_entirely(settings):
    sandbox = Sandbox(settings, "disk full entirely")
    folder = sandbox.folder("full")
    with mounted(folder, "-t", "tmpfs", "-o", "size=128k,mode=0755", "tmpfs"):
        path = note_in(folder)
        fill(folder)
        line = expect_failed_save(save(sandbox, path, "a short new note"), path, OLD,
                                  [path, "No space left on device"])
        expect_only(folder, ["datafile.dat", "filler"])
    return line


def no_inodes_left(settings):
    sandbox = Sandbox(settings, "no inodes")
    folder = sandbox.folder("full")
    with mounted(folder, "-t", "tmpfs", "-o", "size=1m,nr_inodes=16,mode=0755", "tmpfs"):
        path = note_in(folder)
        created = 0
        try:
            while created < 1000:
                write_file(os.path.join(folder, "f%d" % created), b"")
                created += 1
        except OSError:
            pass
        check(created < 1000, "could not use up the inodes of a tmpfs with nr_inodes=16")
        line = expect_failed_save(save(sandbox, path, "new"), path, OLD,
                                  [folder, "No space left on device"])
    return line


def file_size_limit(settings):
    # RLIMIT_FSIZE: the kernel refuses the write with EFBIG and, unless the
    # process ignores it, kills it with SIGXFSZ first.
    sandbox = Sandbox(settings, "file size limit")
    folder = sandbox.folder("notes")
    path = note_in(folder)
    input_path = os.path.join(sandbox.root, "input")
    write_file(input_path, NEW_LARGE)
    outcome = save(sandbox, path, stdin=input_path, file_size_limit=64 * 1024)
    return expect_failed_save(outcome, path, OLD, [path, "File too large"])


# --- Permissions and attributes --------------------------------------------


def folder_not_writable(settings):
    sandbox = Sandbox(settings, "not writable")
    folder = sandbox.folder("notes", mode=0o755)  # root's, so not nobody's
    path = note_in(folder, mode=0o644)
    outcome = save(sandbox, path, "new", user=NOBODY)
    return expect_failed_save(outcome, path, OLD, [folder, "Permission denied"])


def sticky_folder(settings):
    # Like /tmp: nobody may create the temporary file, but not rename it
    # over a note that root owns, so the rename is what fails.
    sandbox = Sandbox(settings, "sticky")
    folder = sandbox.folder("shared", mode=0o1777)
    path = note_in(folder, mode=0o666)
    outcome = save(sandbox, path, "new", user=NOBODY)
    return expect_failed_save(outcome, path, OLD, [path, "Operation not permitted"])


def immutable_folder(settings):
    sandbox = Sandbox(settings, "immutable folder")
    folder = sandbox.folder("notes")
    path = note_in(folder)
    with file_attribute(folder, "i"):
        outcome = save(sandbox, path, "new")
        return expect_failed_save(outcome, path, OLD, [folder, "Operation not permitted"])


def immutable_note(settings):
    sandbox = Sandbox(settings, "immutable note")
    folder = sandbox.folder("notes")
    path = note_in(folder)
    with file_attribute(path, "i"):
        input_path = os.path.join(sandbox.root, "input")
        write_file(input_path, NEW_LARGE)
        outcome = save(sandbox, path, stdin=input_path)
        return expect_failed_save(outcome, path, OLD, [path, "Operation not permitted"])


def read_only_mount(settings):
    sandbox = Sandbox(settings, "read-only")
    folder = sandbox.folder("notes")
    path = note_in(folder)
    with mounted(folder, "--bind", "-o", "ro", folder):
        check(not os.access(folder, os.W_OK) or _is_read_only(folder),
              "the bind mount is not read-only")
        outcome = save(sandbox, path, "new")
        return expect_failed_save(outcome, path, OLD, [folder, "Read-only file system"])


def _is_read_only(folder):
    return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)


# --- Missing folders -------------------------------------------------------


def named_folder_missing(settings):
    sandbox = Sandbox(settings, "missing folder")
    folder = os.path.join(sandbox.root, "nowhere")
    path = os.path.join(folder, "datafile.dat")
    outcome = save(sandbox, path, "new")
    line = expect_error_line(outcome, [folder, "No such file or directory"])
    check(not os.path.exists(folder), "the save created %s, which the user named by mistake"
          % folder)
    return line


def documents_cannot_be_created(settings):
    sandbox = Sandbox(settings, "documents missing")
    with file_attribute(sandbox.home, "i"):
        outcome = sandbox.run(["save", "new"])
        line = expect_error_line(outcome, [sandbox.documents])
        check(not os.path.exists(sandbox.documents), "a documents folder appeared")
    return line


def documents_created_on_first_save(settings):
    sandbox = Sandbox(settings, "documents created")
    outcome = sandbox.run(["show"])
    expect_error_line(outcome, [sandbox.note])
    check(not os.path.exists(sandbox.documents), "show created the documents folder")
    expect_saved(sandbox.run(["save", "first"]), sandbox.note, b"first")
    mode = stat.S_IMODE(os.stat(sandbox.documents).st_mode)
    check(mode == 0o700, "the documents folder has mode %o, expected 700" % mode)
    note_mode = stat.S_IMODE(os.stat(sandbox.note).st_mode)
    check(note_mode == 0o600, "the new note has mode %o, expected 600" % note_mode)
    expect_only(sandbox.documents, ["datafile.dat"])


# --- Odd things in the note's place ----------------------------------------


def note_is_directory(settings):
    sandbox = Sandbox(settings, "directory")
    folder = sandbox.folder("notes")
    path = os.path.join(folder, "datafile.dat")
    os.mkdir(path)
    write_file(os.path.join(path, "inside"), b"kept")
    line = expect_error_line(save(sandbox, path, "new"), [path])
    check(read_or_none(os.path.join(path, "inside")) == b"kept", "the directory was changed")
    expect_only(path, ["inside"])
    expect_no_temporary_files(folder)
    expect_error_line(sandbox.run(["--file", path, "show"]), [path])
    return line


def note_is_fifo(settings):
    sandbox = Sandbox(settings, "fifo")
    folder = sandbox.folder("notes")
    path = os.path.join(folder, "datafile.dat")
    os.mkfifo(path, 0o600)
    expect_error_line(sandbox.run(["--file", path, "show"], timeout=10), [path])
    outcome = save(sandbox, path, "new", timeout=10)
    line = expect_error_line(outcome, [path, "not a regular file"])
    check(stat.S_ISFIFO(os.lstat(path).st_mode), "the save replaced the FIFO with a regular file")
    expect_no_temporary_files(folder)
    return line


def dangling_symlink(settings):
    # Like a shell redirect through such a link: the target is created.
    # (Whether this is right is an open question for the lead.)
    sandbox = Sandbox(settings, "dangling")
    folder = sandbox.folder("notes")
    path = os.path.join(folder, "datafile.dat")
    target = os.path.join(folder, "real.dat")
    os.symlink("real.dat", path)
    expect_saved(save(sandbox, path, "new"), path, b"new")
    check(os.path.islink(path) and os.readlink(path) == "real.dat", "the link was not kept")
    check(read_or_none(target) == b"new", "the target does not hold the note")
    mode = stat.S_IMODE(os.stat(target).st_mode)
    check(mode == 0o600, "the created target has mode %o, expected 600" % mode)
    expect_only(folder, ["datafile.dat", "real.dat"])


def dangling_into_nowhere(settings):
    sandbox = Sandbox(settings, "dangling nowhere")
    folder = sandbox.folder("notes")
    path = os.path.join(folder, "datafile.dat")
    nowhere = os.path.join(sandbox.root, "nowhere")
    os.symlink(os.path.join(nowhere, "real.dat"), path)
    line = expect_error_line(save(sandbox, path, "new"), [nowhere])
    check(os.readlink(path) == os.path.join(nowhere, "real.dat"), "the link changed")
    check(not os.path.exists(nowhere), "the save created %s" % nowhere)
    expect_only(folder, ["datafile.dat"])
    return line


def symlink_elsewhere(settings):
    sandbox = Sandbox(settings, "symlink elsewhere")
    folder = sandbox.folder("notes")
    other = sandbox.folder("synced")
    target = note_in(other, mode=0o640)
    path = os.path.join(folder, "datafile.dat")
    os.symlink(target, path)
    expect_saved(save(sandbox, path, "new"), path, b"new")
    check(os.path.islink(path) and os.readlink(path) == target, "the link was not kept")
    mode = stat.S_IMODE(os.stat(target).st_mode)
    check(mode == 0o640, "the target's mode became %o, expected its own 640" % mode)
    expect_only(folder, ["datafile.dat"])
    expect_only(other, ["datafile.dat"])


def symlink_elsewhere_read_only(settings):
    sandbox = Sandbox(settings, "symlink read-only")
    folder = sandbox.folder("notes")
    other = sandbox.folder("synced")
    target = note_in(other)
    path = os.path.join(folder, "datafile.dat")
    os.symlink(target, path)
    with mounted(other, "--bind", "-o", "ro", other):
        line = expect_failed_save(save(sandbox, path, "new"), target, OLD,
                                  [other, "Read-only file system"], folder)
    check(os.readlink(path) == target, "the link changed")
    return line


def symlink_loop(settings):
    sandbox = Sandbox(settings, "symlink loop")
    folder = sandbox.folder("notes")
    path = os.path.join(folder, "datafile.dat")
    os.symlink("other", path)
    os.symlink("datafile.dat", os.path.join(folder, "other"))
    line = expect_error_line(save(sandbox, path, "new"), [path])
    expect_only(folder, ["datafile.dat", "other"])
    return line


# --- Names the system does not allow ---------------------------------------


def path_too_long(settings):
    sandbox = Sandbox(settings, "long path")
    folder = sandbox.folder("notes")
    note_in(folder)
    path = folder + "/" + "x/" * 2100 + "datafile.dat"  # > 4096 bytes
    line = expect_error_line(save(sandbox, path, "new"), [path])
    check(read_or_none(os.path.join(folder, "datafile.dat")) == OLD, "another note changed")
    expect_only(folder, ["datafile.dat"])
    return line[:100] + "..."


def deep_real_folder(settings):
    """A folder that exists but whose absolute path is over PATH_MAX: made
    one relative step at a time, as the kernel allows."""
    sandbox = Sandbox(settings, "deep folder")
    top = sandbox.folder("deep")
    component = "d" * 200
    descriptor = os.open(top, os.O_RDONLY | os.O_DIRECTORY)
    try:
        for _ in range(25):  # 25 x 201 bytes: over 5000
            os.mkdir(component, dir_fd=descriptor)
            deeper = os.open(component, os.O_RDONLY | os.O_DIRECTORY, dir_fd=descriptor)
            os.close(descriptor)
            descriptor = deeper
    finally:
        os.close(descriptor)
    path = top + ("/" + component) * 25 + "/datafile.dat"
    line = expect_error_line(save(sandbox, path, "new"), ["File name too long"])
    return line[:60] + "..." + line[-40:]


def name_too_long(settings):
    sandbox = Sandbox(settings, "long name")
    folder = sandbox.folder("notes")
    path = os.path.join(folder, "n" * 300)
    line = expect_error_line(save(sandbox, path, "new"), [folder, "File name too long"])
    expect_only(folder, [])
    return line[:100] + "..."


def longest_legal_name(settings):
    # A name the file system accepts must be usable as a note; the
    # temporary file's longer name must not be what stops it.
    sandbox = Sandbox(settings, "legal name")
    folder = sandbox.folder("notes")
    path = os.path.join(folder, "n" * 255)
    write_file(path, OLD)
    outcome = save(sandbox, path, "new")
    expect_saved(outcome, path, b"new")
    expect_only(folder, ["n" * 255])


def note_not_readable(settings):
    sandbox = Sandbox(settings, "not readable")
    folder = sandbox.folder("notes")
    path = note_in(folder, mode=0o600)
    outcome = sandbox.run(["--file", path, "show"], user=NOBODY)
    return expect_error_line(outcome, [path, "Permission denied"])


def clear_immutable_folder(settings):
    sandbox = Sandbox(settings, "clear immutable")
    folder = sandbox.folder("notes")
    path = note_in(folder)
    with file_attribute(folder, "i"):
        # clear keeps the note as a version first: making the versions
        # folder is what fails, and the message names where.
        line = expect_error_line(sandbox.run(["--file", path, "clear"]), [folder])
        check(read_or_none(path) == OLD, "clear changed the note although it failed")
    return line
