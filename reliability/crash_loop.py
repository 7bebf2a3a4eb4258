"""Case group 1: `filenote save` killed with SIGKILL at random moments.

After every kill the note must be exactly the old version or the new one
(never empty, torn, mixed or missing once a save has completed), and the
temporary files of killed saves must not pile up: a later save removes
those whose writer is gone, never one that a live save is still writing.
"""

import math
import os
import signal
import stat
import subprocess
import threading
import time

from harness import (LOCK_NAME, Failure, Sandbox, check, dead_writers_files, expect_only,
                     held_lock, identify, make_note, pid_of, process_exists, read_or_none, reap,
                     show_bytes, temporary_files, temporary_name, unused_pid, write_file)

MIB = 1024 * 1024
# Arguments are capped by the kernel at 128 KiB each (MAX_ARG_STRLEN).
ARGUMENT_LIMIT = 100 * 1024
ROUTES = ("stdin-file", "stdin-pipe", "argument")


def run(settings, ledger):
    iterations = 2000 if settings.long else 300
    largest = 8 * MIB if settings.long else 4 * MIB
    ledger.run("crash loop: %d saves of 3 B to %d MiB, each killed with SIGKILL at a random "
               "moment, leave the old note or the new one and no pile of temporary files"
               % (iterations, largest // MIB),
               crash_loop, settings, ledger, iterations, largest)
    link_iterations = 500 if settings.long else 60
    ledger.run("crash loop through a symbolic link into another folder: %d saves killed at "
               "random moments; the link stays, its target is the old note or the new one"
               % link_iterations,
               crash_loop, settings, ledger, link_iterations, 1 * MIB, True)
    ledger.run("leftovers: a dead writer's unlocked temporary file is removed by the next save",
               dead_writer_file_is_removed, settings)
    ledger.run("leftovers: a file whose writer pid is gone but whose lock is held is kept",
               locked_file_is_kept, settings)
    ledger.run("leftovers: a file whose writer pid is alive is kept", live_pid_file_is_kept,
               settings)
    ledger.run("leftovers: names that are not exactly a save's temporary file are kept",
               foreign_names_are_kept, settings)
    ledger.run("leftovers: a symbolic link named like a leftover is not followed",
               leftover_symlink_is_not_followed, settings)
    ledger.run("leftovers: a save still writing keeps its file while another save completes; "
               "then it lands whole", live_save_survives_another_save, settings)


def note_size(rng, largest):
    """Log-uniform, so small, medium and large notes all come up often."""
    return int(math.exp(rng.uniform(math.log(3), math.log(largest))))


def start_save(sandbox, route, note):
    """Starts `filenote save` with the note; returns (process, feeder)."""
    if route == "argument":
        return sandbox.start(["save", note.decode()]), None
    if route == "stdin-file":
        path = os.path.join(sandbox.root, "input")
        write_file(path, note)
        with open(path, "rb") as source:
            return sandbox.start(["save"], stdin=source), None
    process = sandbox.start(["save"], stdin=subprocess.PIPE)

    def feed():
        try:
            process.stdin.write(note)
            process.stdin.close()
        except (BrokenPipeError, ValueError, OSError):
            pass  # killed while we were still feeding it: that is the point

    feeder = threading.Thread(target=feed, daemon=True)
    feeder.start()
    return process, feeder


def finish(process, feeder):
    process.wait()
    if feeder:
        feeder.join()
    stdout = process.stdout.read()
    stderr = process.stderr.read()
    process.stdout.close()
    process.stderr.close()
    if process.stdin:
        try:
            process.stdin.close()
        except OSError:
            pass
    return process.returncode, stdout, stderr


def calibrate(sandbox, rng, largest):
    """How long an unkilled save takes, by route and size, so kills land
    throughout the save rather than mostly during start-up."""
    timings = {}
    for route in ROUTES:
        sizes = (10, ARGUMENT_LIMIT if route == "argument" else largest)
        measured = []
        for size in sizes:
            best = None
            for attempt in range(3):
                note = make_note("calibration", attempt, size, rng)
                started = time.monotonic()
                process, feeder = start_save(sandbox, route, note)
                status, _, stderr = finish(process, feeder)
                check(status == 0, "calibration save failed: %s" % stderr[:300])
                elapsed = time.monotonic() - started
                best = elapsed if best is None else min(best, elapsed)
            measured.append((size, best))
        timings[route] = measured
    return timings


def kill_window(timings, route, size):
    (small, small_time), (large, large_time) = timings[route]
    per_byte = max(0.0, (large_time - small_time) / max(1, large - small))
    return (small_time + per_byte * size) * 1.1


def crash_loop(settings, ledger, iterations, largest, through_link=False):
    rng = settings.rng("crash loop" + (" through a link" if through_link else ""))
    ledger.count("notes lost or torn", 0)
    sandbox = Sandbox(settings, "crash loop")
    folder = sandbox.documents
    link_target = None
    if through_link:
        # The note is a link in the documents folder to a file elsewhere
        # (a synced folder, say): saves replace the file there.
        os.mkdir(sandbox.documents, 0o700)
        folder = sandbox.folder("synced", mode=0o700)
        link_target = os.path.join(folder, "datafile.dat")
        os.symlink(link_target, sandbox.note)
    # Calibration saves would make the first kill land on an existing
    # note; measure in a home of its own so the loop starts from nothing.
    timings = calibrate(Sandbox(settings, "calibration"), rng, largest)

    committed = None  # the note once a save is known to have landed
    tally = {"iterations": 0, "kills": 0, "completed": 0, "old note after kill": 0,
             "new note after kill": 0, "no note yet after kill": 0,
             "kills that left a temporary file": 0, "bytes saved": 0}
    most_leftovers = 0
    for iteration in range(iterations):
        route = rng.choice(ROUTES)
        size = note_size(rng, ARGUMENT_LIMIT if route == "argument" else largest)
        note = make_note("crash", iteration, size, rng)
        before = read_or_none(sandbox.note)
        check(before == committed, "iteration %d: the note changed between saves: %s"
              % (iteration, show_bytes(before)))

        window = kill_window(timings, route, len(note))
        # Half the kills skip most of start-up, where nothing is on disk yet.
        earliest = 0 if rng.random() < 0.5 else min(window, 0.8 * timings[route][0][1])
        delay = rng.uniform(earliest, window)
        process, feeder = start_save(sandbox, route, note)
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)  # only this process, which we started
        status, stdout, stderr = finish(process, feeder)
        after = read_or_none(sandbox.note)
        tally["iterations"] += 1
        where = "iteration %d (%s, %d bytes, killed after %.1f ms, exit %s)" % (
            iteration, route, len(note), delay * 1000, status)

        if status == 0:
            if after != note:
                ledger.count("notes lost or torn")
            check(after == note, "%s: the save completed but the note is %s"
                  % (where, describe(after)))
            tally["completed"] += 1
            committed = note
        elif status == -signal.SIGKILL:
            tally["kills"] += 1
            if after == note:
                tally["new note after kill"] += 1
                committed = note
            elif after is not None and after == committed:
                tally["old note after kill"] += 1
            elif after is None and committed is None:
                tally["no note yet after kill"] += 1
            else:
                ledger.count("notes lost or torn")
                raise Failure("%s: expected the old note %s or the new one, got %s"
                              % (where, describe(committed), describe(after)))
        else:
            raise Failure("%s: unexpected end: stderr %s" % (where, show_bytes(stderr, 300)))
        tally["bytes saved"] += len(note)

        if through_link:
            check(os.path.islink(sandbox.note) and os.readlink(sandbox.note) == link_target,
                  "%s: the symbolic link was replaced or changed" % where)
            check(os.listdir(sandbox.documents) == ["datafile.dat"],
                  "%s: files appeared beside the link: %s" % (where, os.listdir(sandbox.documents)))
        if after is not None:
            mode = stat.S_IMODE(os.stat(sandbox.note).st_mode)
            check(mode == 0o600, "%s: the note's mode is %o, expected 600" % (where, mode))
        if os.path.isdir(folder):
            mode = stat.S_IMODE(os.stat(folder).st_mode)
            check(mode == 0o700, "%s: the documents folder's mode is %o, expected 700"
                  % (where, mode))
            leftovers = temporary_files(folder)
            # A save killed while it held the writer lock leaves the lock's
            # file (the kernel released the lock); the next writer takes it.
            others = (set(os.listdir(folder)) - set(leftovers)
                      - {"datafile.dat", LOCK_NAME, ".datafile.dat.versions"})
            check(not others, "%s: unexpected files in the folder: %s" % (where, sorted(others)))
            # Every save that gets as far as creating its own temporary file
            # first removes those of dead writers, so at most one (the last
            # killed save's) may be there; a completed save leaves none (its
            # own pid, reused by an earlier leftover, excepted).
            dead = dead_writers_files(folder)
            if status == 0:
                stale = [name for name in dead if pid_of(name) != process.pid]
                check(not stale, "%s: a completed save left temporary files of dead writers: %s"
                      % (where, stale))
                own = [name for name in leftovers if pid_of(name) == process.pid]
                check(not own, "%s: a completed save left its temporary file %s" % (where, own))
            else:
                check(len(dead) <= 1, "%s: temporary files of killed saves pile up: %s"
                      % (where, dead))
                if any(pid_of(name) == process.pid for name in leftovers):
                    tally["kills that left a temporary file"] += 1
            most_leftovers = max(most_leftovers, len(leftovers))

    final = make_note("crash", iterations, 1000, rng)
    process, feeder = start_save(sandbox, "stdin-file", final)
    status, _, stderr = finish(process, feeder)
    check(status == 0, "the save after the loop failed: %s" % show_bytes(stderr, 300))
    check(read_or_none(sandbox.note) == final, "the save after the loop did not land")
    expect_only(folder, ["datafile.dat"])

    if through_link:
        check(os.path.islink(sandbox.note), "the symbolic link was replaced")
        expect_only(sandbox.documents, ["datafile.dat"])
    for key, value in tally.items():
        ledger.count("crash loop " + key, value)
    return "%d kills: %d old, %d new, %d before the first save landed; %d left a temporary " \
           "file (at most %d at once); %d completed" % (
               tally["kills"], tally["old note after kill"], tally["new note after kill"],
               tally["no note yet after kill"], tally["kills that left a temporary file"],
               most_leftovers, tally["completed"])


def describe(data):
    if data is None:
        return "(missing)"
    if data == b"":
        return "(empty)"
    version = identify(data)
    if version:
        return "version %s #%d" % version
    return "an unrecognisable note (torn or mixed): %s" % show_bytes(data)


# --- The removal rule, case by case ----------------------------------------


def folder_with_note(settings, label):
    sandbox = Sandbox(settings, label)
    os.mkdir(sandbox.documents, 0o700)
    write_file(sandbox.note, b"old note")
    return sandbox


def save_and_expect_success(sandbox, text=b"new note"):
    outcome = sandbox.run(["save"], stdin=text)
    check(outcome.status == 0, "save failed: %s" % outcome.describe())
    check(read_or_none(sandbox.note) == text, "the note is %s" % show_bytes(
        read_or_none(sandbox.note)))


def dead_writer_file_is_removed(settings):
    sandbox = folder_with_note(settings, "dead writer")
    leftover = os.path.join(sandbox.documents, temporary_name(unused_pid(), 12345))
    write_file(leftover, b"half a no")
    # And one an older filenote left, named as it named them.
    older = os.path.join(sandbox.documents, ".datafile.dat.%d.12345.tmp" % unused_pid())
    write_file(older, b"half a no")
    save_and_expect_success(sandbox)
    expect_only(sandbox.documents, ["datafile.dat"])


def locked_file_is_kept(settings):
    # A reused pid could make a live writer look dead; its lock says otherwise.
    sandbox = folder_with_note(settings, "locked leftover")
    name = temporary_name(unused_pid(), 777)
    leftover = os.path.join(sandbox.documents, name)
    write_file(leftover, b"being written")
    with held_lock(leftover):
        save_and_expect_success(sandbox)
        expect_only(sandbox.documents, ["datafile.dat", name])
    save_and_expect_success(sandbox, b"third")
    expect_only(sandbox.documents, ["datafile.dat"])


def live_pid_file_is_kept(settings):
    sandbox = folder_with_note(settings, "live pid")
    sleeper = subprocess.Popen(["sleep", "30"])
    try:
        name = temporary_name(sleeper.pid, 42)
        write_file(os.path.join(sandbox.documents, name), b"maybe being written")
        save_and_expect_success(sandbox)
        expect_only(sandbox.documents, ["datafile.dat", name])
    finally:
        sleeper.kill()
        sleeper.wait()
    save_and_expect_success(sandbox, b"third")
    expect_only(sandbox.documents, ["datafile.dat"])


def foreign_names_are_kept(settings):
    sandbox = folder_with_note(settings, "foreign names")
    dead = unused_pid()
    names = [".datafile.dat.%d.tmp" % dead, ".datafile.dat.%d.x1.tmp" % dead,
             ".datafile.dat.x.%d.tmp" % dead, ".other.dat.%d.1.tmp" % dead,
             "datafile.dat.%d.1.tmp" % dead, ".datafile.dat.%d.1.tmp.keep" % dead,
             ".datafile.dat.%d.1.2.tmp" % dead, "notes.tmp",
             ".syncthing.datafile.dat.~%d.tmp" % dead, ".syncthing.datafile.dat.%d.1.tmp" % dead,
             ".syncthing.other.dat.~%d.1.tmp" % dead, ".syncthing.datafile.dat.~%d.1.2.tmp" % dead]
    for name in names:
        write_file(os.path.join(sandbox.documents, name), b"not filenote's")
    save_and_expect_success(sandbox)
    expect_only(sandbox.documents, ["datafile.dat"] + names)


def leftover_symlink_is_not_followed(settings):
    sandbox = folder_with_note(settings, "leftover symlink")
    elsewhere = os.path.join(sandbox.folder("elsewhere"), "precious")
    write_file(elsewhere, b"precious")
    name = temporary_name(unused_pid(), 9)
    os.symlink(elsewhere, os.path.join(sandbox.documents, name))
    save_and_expect_success(sandbox)
    check(read_or_none(elsewhere) == b"precious", "the file a leftover-named link points to "
          "was changed")


def live_save_survives_another_save(settings):
    """A save that is still streaming its input holds a temporary file; a
    second save must leave it alone, and the first must then land whole."""
    rng = settings.rng("live save")
    sandbox = folder_with_note(settings, "live save")
    first = make_note("slow", 1, 3 * 1024 * 1024, rng)
    process = sandbox.start(["save"], stdin=subprocess.PIPE)
    try:
        process.stdin.write(first[:1024 * 1024])
        process.stdin.flush()
        deadline = time.monotonic() + 10
        while not temporary_files(sandbox.documents) and time.monotonic() < deadline:
            time.sleep(0.01)
        live = temporary_files(sandbox.documents)
        check(len(live) == 1, "expected the streaming save's temporary file, found %s" % live)
        check(process_exists(pid_of(live[0])), "the temporary file's pid is not the live save")

        second = make_note("fast", 2, 1000, rng)
        save_and_expect_success(sandbox, second)
        check(live[0] in os.listdir(sandbox.documents),
              "the second save removed the temporary file of a save still in progress")

        process.stdin.write(first[1024 * 1024:])
        process.stdin.close()
        status = process.wait(timeout=60)
        stderr = process.stderr.read()
        check(status == 0, "the first save failed after the second completed: exit %s, %s"
              % (status, show_bytes(stderr, 300)))
        check(read_or_none(sandbox.note) == first, "the first save did not land whole: %s"
              % describe(read_or_none(sandbox.note)))
        expect_only(sandbox.documents, ["datafile.dat"])
    finally:
        reap(process)
