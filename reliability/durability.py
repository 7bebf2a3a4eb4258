"""What a kill -9 cannot show: that a save survives a power cut too.

A killed process leaves the kernel's page cache intact, so the crash loop
would pass even without a single fsync. Here `strace` records the save's
system calls, which must be those of an atomic, durable replacement: the
temporary file created exclusively with mode 0600 beside the target, every
byte written to it, fsync, rename over the target, then fsync of the folder
holding the target (through a symbolic link, the target's folder).

filenote names files relative to folders it holds open (openat, renameat),
so the trace shows each descriptor's path (`strace -y`) and a name is
joined to its folder's path here. Besides the temporary file, a save
creates the writer lock's file (`.syncthing.datafile.dat.~lock.tmp`), which is not part of
the note's replacement and is left out.
"""

import os
import re
import shutil
import subprocess

from harness import Failure, Sandbox, check, read_or_none, strace_calls, write_file

# A descriptor as `strace -y` prints it: 4</tmp/x/notes>, or AT_FDCWD.
DESCRIPTOR = re.compile(r"(\d+|AT_FDCWD)(?:<([^>]*)>)?")
TRACED = "openat,open,creat,write,pwrite64,writev,fsync,fdatasync,rename,renameat,renameat2," \
         "close,fchmod"


def run(settings, ledger):
    ledger.run("durability: a short note is written, fsynced, renamed, and its folder fsynced",
               durable_save, settings, "argument", False)
    ledger.run("durability: a 3 MiB note streamed from standard input, the same order",
               durable_save, settings, "stdin", False)
    ledger.run("durability: through a symbolic link, the target's folder is the one fsynced",
               durable_save, settings, "argument", True)


def trace(settings, sandbox, arguments, stdin_path=None):
    if shutil.which("strace") is None:
        raise Failure("needs strace (apt-get install strace)")
    log = os.path.join(sandbox.root, "strace.log")
    command = ["strace", "-f", "-qq", "-y", "-s", "0", "-o", log, "-e", "trace=" + TRACED,
               settings.binary] + arguments
    with open(stdin_path or os.devnull, "rb") as source:
        result = subprocess.run(command, stdin=source, env=sandbox.env, capture_output=True,
                                timeout=120)
    check(result.returncode == 0, "the traced save failed: %r" % result.stderr[-300:])
    with open(log) as file:
        return [(name, arguments, result)
                for _, name, arguments, result in strace_calls(file.read().splitlines())]


def quoted(arguments):
    return re.findall(r'"((?:[^"\\]|\\.)*)"', arguments)


def descriptor_of(arguments):
    """The first argument's descriptor number, without the path -y adds."""
    return DESCRIPTOR.match(arguments.strip()).group(1)


def folder_of(argument):
    """The path of a descriptor argument as `strace -y` shows it."""
    match = DESCRIPTOR.match(argument.strip())
    return match.group(2) if match and match.group(2) else os.getcwd()


def paths(arguments):
    """The files a call names: each quoted name joined to the path of the
    folder descriptor before it (openat, renameat), or as it is."""
    named = []
    parts = [part.strip() for part in arguments.split(",")]
    for index, part in enumerate(parts):
        if part.startswith('"'):
            name = quoted(part)[0]
            if not name.startswith("/") and index > 0:
                name = os.path.join(folder_of(parts[index - 1]), name)
            named.append(os.path.normpath(name))
    return named


def durable_save(settings, route, through_link):
    sandbox = Sandbox(settings, "durability")
    folder = sandbox.folder("notes")
    target_folder = sandbox.folder("synced") if through_link else folder
    target = os.path.join(target_folder, "datafile.dat")
    write_file(target, b"old")
    path = os.path.join(folder, "datafile.dat")
    if through_link:
        os.symlink(target, path)
    note = b"x" * (3 * 1024 * 1024) if route == "stdin" else b"a durable note"
    if route == "stdin":
        input_path = os.path.join(sandbox.root, "input")
        write_file(input_path, note)
        calls = trace(settings, sandbox, ["--file", path, "save"], input_path)
    else:
        calls = trace(settings, sandbox, ["--file", path, "save", note.decode()])
    check(read_or_none(target) == note, "the traced save did not land")

    # 1. The temporary file: beside the target, exclusive, 0600.
    created = [(index, arguments, result) for index, (name, arguments, result) in enumerate(calls)
               if name in ("openat", "open") and "O_CREAT" in arguments
               and not paths(arguments)[0].endswith(".~lock.tmp")]
    check(len(created) == 1, "expected one file created, got %s" % [c[1] for c in created])
    start, arguments, result = created[0]
    temporary = paths(arguments)[0]
    check(os.path.dirname(temporary) == target_folder,
          "the temporary file %s is not in the target's folder %s" % (temporary, target_folder))
    check("O_EXCL" in arguments and arguments.rstrip().endswith("0600"),
          "the temporary file is not created exclusively with mode 0600: %s" % arguments)
    descriptor = result
    rest = calls[start + 1:]

    def first(predicate, after=0, what=""):
        for index in range(after, len(rest)):
            if predicate(*rest[index]):
                return index
        raise Failure("no %s after the temporary file was created; calls: %s"
                      % (what, [c[0] for c in rest][:40]))

    # 2. Every byte written to it, then fsync, then close: before the rename.
    closed = first(lambda n, a, r: n == "close" and descriptor_of(a) == descriptor,
                   what="close of the temporary file")
    written = sum(int(r) for n, a, r in rest[:closed]
                  if n in ("write", "pwrite64", "writev") and descriptor_of(a) == descriptor)
    check(written == len(note), "wrote %d bytes to the temporary file, expected %d"
          % (written, len(note)))
    synced = [index for index, (n, a, r) in enumerate(rest[:closed])
              if n in ("fsync", "fdatasync") and descriptor_of(a) == descriptor and r == "0"]
    last_write = max(index for index, (n, a, r) in enumerate(rest[:closed])
                     if n in ("write", "pwrite64", "writev") and descriptor_of(a) == descriptor)
    check(synced and synced[-1] > last_write,
          "the temporary file is not fsynced after its last write")

    # 3. The rename over the target, after the fsync.
    renamed = first(lambda n, a, r: n.startswith("rename") and paths(a)[:2] == [temporary, target]
                    and r == "0", what="rename of %s over %s" % (temporary, target))
    check(renamed > closed, "the rename comes before the temporary file is closed")

    # 4. Then the folder holding the target fsynced (it is opened before
    # anything changes, so a folder that cannot be synced fails first).
    first(lambda n, a, r: n in ("fsync", "fdatasync") and folder_of(a) == target_folder
          and r == "0", after=renamed, what="fsync of the folder %s after the rename"
          % target_folder)
    return "%d system calls checked" % len(calls)
