"""Case group 2: several `filenote save` at once while `filenote show`
runs in a loop.

Every read must print one complete version; each writer's versions must
appear in the order it saved them; saves that are not killed must succeed
(a save that removed another live save's temporary file would make that
save fail); the final note is the last version of one of the writers.
"""

import os
import random
import signal
import threading
import time

from harness import (Failure, Sandbox, check, expect_only, identify, make_note, read_or_none,
                     show_bytes, write_file)

KIB = 1024


def run(settings, ledger):
    if settings.long:
        shapes = [(4, 400, 2 * 1024 * KIB, 3, False), (4, 400, 2 * 1024 * KIB, 3, True)]
    else:
        shapes = [(3, 40, 512 * KIB, 2, False), (3, 40, 512 * KIB, 2, True)]
    for writers, saves, largest, readers, kills in shapes:
        name = "concurrency: %d writers x %d saves (up to %d KiB)%s with %d readers: every " \
               "read is one complete version, the last version wins" % (
                   writers, saves, largest // KIB, ", some killed," if kills else "", readers)
        ledger.run(name, writers_and_readers, settings, ledger, writers, saves, largest, readers,
                   kills)


class Shared:
    def __init__(self):
        self.lock = threading.Lock()
        self.problems = []
        self.running = {}  # writer -> its save in progress, for the killer
        self.reads = 0
        self.kills = 0
        self.saves = 0
        self.writers_done = threading.Event()

    def problem(self, text):
        with self.lock:
            self.problems.append(text)


def writers_and_readers(settings, ledger, writers, saves, largest, readers, kills):
    rng = settings.rng("concurrency %d %s" % (writers, kills))
    sandbox = Sandbox(settings, "concurrency")
    os.mkdir(sandbox.documents, 0o700)
    initial = make_note("initial", 0, 100, rng)
    write_file(sandbox.note, initial)

    # Every version is made up front, so readers can recognise each one.
    plans = []
    for writer in range(writers):
        writer_rng = random.Random(rng.random())
        # Mostly small notes, so saves overlap often; some large ones, so
        # some saves are still writing while others rename.
        sizes = [int(writer_rng.uniform(1, largest) if writer_rng.random() < 0.3
                     else writer_rng.uniform(1, 4 * KIB)) for _ in range(saves)]
        plans.append([make_note("w%d" % writer, seq, size, writer_rng)
                      for seq, size in enumerate(sizes)])
    landed_last = {}  # writer -> seq of its last save known to have landed
    shared = Shared()

    def write(writer):
        for seq, note in enumerate(plans[writer]):
            input_path = os.path.join(sandbox.root, "input-%d" % writer)
            write_file(input_path, note)
            with open(input_path, "rb") as source:
                process = sandbox.start(["save"], stdin=source)
            with shared.lock:
                shared.running[writer] = process
            stdout, stderr = process.communicate()
            with shared.lock:
                del shared.running[writer]
                shared.saves += 1
            if process.returncode == 0:
                landed_last[writer] = seq
            elif process.returncode != -signal.SIGKILL:
                shared.problem("writer %d save %d failed while others saved: exit %s, %s" % (
                    writer, seq, process.returncode, show_bytes(stderr, 300)))

    def read(reader):
        seen = {}  # writer tag -> the highest seq this reader has seen
        while not shared.writers_done.is_set():
            outcome = sandbox.run(["show"])
            with shared.lock:
                shared.reads += 1
            if outcome.status != 0 or not outcome.stdout.endswith(b"\n"):
                shared.problem("reader %d: show failed: %s" % (reader, outcome.describe()))
                return
            version = identify(outcome.stdout[:-1])
            if version is None:
                ledger.count("notes lost or torn")
                shared.problem("reader %d read a torn or mixed note: %s" % (
                    reader, show_bytes(outcome.stdout)))
                return
            tag, seq = version
            if seq < seen.get(tag, -1):
                ledger.count("notes lost or torn")
                shared.problem("reader %d saw %s #%d after #%d: an older version came back"
                               % (reader, tag, seq, seen[tag]))
                return
            seen[tag] = seq

    def kill_some():
        killer_rng = random.Random(rng.random())
        while not shared.writers_done.is_set():
            time.sleep(killer_rng.uniform(0.002, 0.03))
            with shared.lock:
                if not shared.running:
                    continue
                victim = shared.running[killer_rng.choice(sorted(shared.running))]
                # Only a filenote save this case started, and only while it runs.
                if victim.poll() is None:
                    victim.send_signal(signal.SIGKILL)
                    shared.kills += 1

    writer_threads = [threading.Thread(target=write, args=(w,)) for w in range(writers)]
    reader_threads = [threading.Thread(target=read, args=(r,)) for r in range(readers)]
    helpers = reader_threads + ([threading.Thread(target=kill_some)] if kills else [])
    for thread in writer_threads + helpers:
        thread.start()
    for thread in writer_threads:
        thread.join()
    shared.writers_done.set()
    for thread in helpers:
        thread.join()

    if shared.problems:
        raise Failure("; ".join(shared.problems[:5]))
    final = read_or_none(sandbox.note)
    version = identify(final) if final else None
    check(version is not None, "the final note is not one complete version: %s"
          % show_bytes(final))
    if not kills:
        # Each writer saves in order, so the last rename is some writer's last save.
        last_versions = {("w%d" % w, saves - 1) for w in range(writers)}
        check(version in last_versions, "the final note is %s #%d, not the last save of any "
              "writer" % version)
    else:
        tag, seq = version
        writer = int(tag[1:]) if tag.startswith("w") else None
        check(writer is not None and seq >= landed_last.get(writer, -1),
              "the final note %s #%d is older than that writer's last completed save" % version)

    # One more save clears whatever killed saves left.
    closing = make_note("closing", 0, 10, rng)
    outcome = sandbox.run(["save"], stdin=closing)
    check(outcome.status == 0, "the closing save failed: %s" % outcome.describe())
    check(read_or_none(sandbox.note) == closing, "the closing save did not land")
    expect_only(sandbox.documents, ["datafile.dat"])

    ledger.count("concurrent saves", shared.saves)
    ledger.count("concurrent reads", shared.reads)
    ledger.count("concurrent saves killed", shared.kills)
    return "%d saves, %d kills, %d reads, final note %s #%d" % (
        shared.saves, shared.kills, shared.reads, version[0], version[1])
