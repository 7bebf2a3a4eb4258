"""Case group: the note in a folder that two real Syncthing instances keep
alike (reliability/syncthing.py), two machines on 127.0.0.1.

- A save on one machine reaches the other with its versions folder, and
  filenote there shows it and lists its versions.
- Both machines save while apart, then meet: Syncthing keeps one text as the
  note and the other in a conflict copy beside it, on both machines; the
  copy's real name is recorded, for the default note `datafile.dat`, a
  `--file` note without extension and two whose names start with a dot
  (the names ConflictCopyName's tests are checked against).
- Many saves with rescans between them end alike on both machines, with
  nothing of filenote's own left on either; how many of its lock and
  temporary files the rescans caught, and how many reached the other
  machine, is measured (that none ever does is not included yet: some do).
- Throughout, no socket of either instance is off 127.0.0.1.

What filenote does not do yet (it does not read conflict copies, and its
version names collide between machines) is printed as `not included yet`
and counted nowhere: the checks here are the ones that hold today.
"""

import os
import re
import threading
import time

import syncthing
from harness import Failure, Sandbox, check

NOT_INCLUDED_YET = [
    "history and the prompt on both machines show the conflict copy",
    "every text saved on either machine is reachable through filenote on both",
    "settling a conflict on one machine clears the warning on both",
    "version names never collide between machines; no version is listed twice",
    "a seeded random run of 30 rounds on both machines, with pauses and resumes",
]

HISTORY_LINE = re.compile(r"\A *(\d+)  \d{4}-\d\d-\d\d \d\d:\d\d:\d\d +\d+  (.*)\Z")


def run(settings, ledger):
    if not syncthing.available():
        ledger.failed.append("sync: syncthing is not installed")
        print("FAIL sync: syncthing is not installed (scripts/test-tools install)", flush=True)
        return
    print("     %s" % syncthing.version(), flush=True)
    ledger.run("sync: a save on one machine reaches the other with its versions folder, after "
               "one rescan", propagates, settings, ledger)
    for name, arguments in (("datafile.dat", None), ("note", "note"), (".note", ".note"),
                            (".note.txt", ".note.txt")):
        ledger.run("sync: both machines save %s while apart, then meet: one text is the note, "
                   "the other a conflict copy named as Syncthing 1.19 names it, on both"
                   % name, apart_then_meet, settings, ledger, name, arguments)
    saves = 1000 if settings.long else 150
    ledger.run("sync: %d saves with rescans running between them end alike on both machines, "
               "nothing of filenote's own left on either" % saves, churn, settings, ledger,
               saves)
    for name in NOT_INCLUDED_YET:
        print("--   sync, not included yet: %s" % name, flush=True)
    print("--   sync, not included yet: filenote's lock and temporary files never reach the "
          "other machine (this run: b received %s)" % (RECEIVED_OWN or "not measured"),
          flush=True)


class Machine:
    """One machine: a home of its own whose Documents folder is the shared
    folder, and filenote run there on one note."""

    def __init__(self, settings, label, file_name=None):
        self.label = label
        self.sandbox = Sandbox(settings, "sync " + label)
        self.folder = self.sandbox.documents
        os.makedirs(self.folder, mode=0o755, exist_ok=True)
        self.env = dict(self.sandbox.env)
        self.note = self.sandbox.note
        if file_name is not None:
            self.note = os.path.join(self.folder, file_name)
            self.env["FILENOTE_FILE"] = self.note

    def filenote(self, *arguments, stdin=b""):
        outcome = self.sandbox.run(list(arguments), env=self.env, stdin=stdin)
        check(outcome.status == 0, "filenote %s on %s: %s" % (" ".join(arguments), self.label,
                                                             outcome.describe()))
        return outcome

    def save(self, text):
        self.filenote("save", text)

    def show(self):
        return self.filenote("show").stdout.decode("utf-8", "replace").rstrip("\n")

    def history(self):
        """The texts `history` lists, newest first."""
        lines = self.filenote("history").stdout.decode("utf-8", "replace").splitlines()
        texts = []
        for line in lines:
            match = HISTORY_LINE.match(line)
            if match:
                texts.append(match.group(2))
        return texts

    @property
    def versions_folder(self):
        return os.path.join(self.folder, "." + os.path.basename(self.note) + ".versions")

    def names(self):
        """The folder's names but the note's versions folder and Syncthing's marker."""
        versions = os.path.basename(self.versions_folder)
        return sorted(name for name in os.listdir(self.folder)
                      if name not in (".stfolder", versions))

    def version_names(self):
        try:
            return sorted(os.listdir(self.versions_folder))
        except FileNotFoundError:
            return []

    def read(self, name):
        with open(os.path.join(self.folder, name), "rb") as file:
            return file.read().decode("utf-8", "replace").rstrip("\n")


class Rig:
    """Two machines and the Syncthing pair that keeps their folders alike;
    stopped when the block ends, whatever happened, and checked for sockets
    off 127.0.0.1 each time `expect_loopback` is called."""

    def __init__(self, settings, ledger, label, file_name=None):
        self.ledger = ledger
        self.a = Machine(settings, label + " a", file_name)
        self.b = Machine(settings, label + " b", file_name)
        self.pair = syncthing.Pair(self.a.sandbox.root, self.a.folder, self.b.folder)
        self.started_in = None

    def __enter__(self):
        started = time.monotonic()
        self.pair.start()
        self.started_in = time.monotonic() - started
        try:
            self.expect_loopback()
        except BaseException:
            self.pair.stop()
            raise
        return self

    def __exit__(self, *exception):
        self.pair.stop()

    def expect_loopback(self):
        sockets = self.pair.sockets()
        # Both listen at least: a sample that found no socket proves nothing.
        check(len(sockets) >= 4, "found only %s of the instances' sockets" % sockets)
        foreign = self.pair.foreign_sockets()
        self.ledger.count("sync socket samples")
        self.ledger.count("sync sockets seen", len(sockets))
        check(not foreign, "sockets off 127.0.0.1: %s" % foreign)

    def short_id(self, machine):
        """The seven characters of a device ID that Syncthing writes in a
        conflict copy's name (protocol.ShortID)."""
        instance = self.pair.a if machine is self.a else self.pair.b
        return instance.device_id.replace("-", "")[:7]


def record_slowest(ledger, figure, seconds):
    """A timing figure: the slowest of the cases that measured it, in ms."""
    ledger.figures[figure] = max(ledger.figures.get(figure, 0), int(round(seconds * 1000)))


def propagates(settings, ledger):
    with Rig(settings, ledger, "propagates") as rig:
        rig.a.save("first")
        rig.pair.wait_synced()
        rig.a.save("second")
        took = rig.pair.wait_synced()
        rig.expect_loopback()
        check(rig.b.show() == "second", "b shows %r, not the note a saved" % rig.b.show())
        check(rig.b.history() == ["first"], "b's history lists %r, not a's version"
              % rig.b.history())
        check(rig.b.version_names() == rig.a.version_names() and rig.b.version_names(),
              "b's versions folder holds %s, a's %s" % (rig.b.version_names(),
                                                         rig.a.version_names()))
        mode = os.stat(rig.b.versions_folder).st_mode & 0o777
        check(mode == 0o700, "b's versions folder has mode %o, not 0700" % mode)
        record_slowest(ledger, "sync: ms from a save's rescan until the other machine has it",
                       took)
        return "started and connected in %.1fs; the second save alike on b %.2fs after the " \
               "rescan" % (rig.started_in, took)


def syncthing_copy(note):
    """The pattern of a conflict copy's name for `note`, by the rule of
    Syncthing's conflictName: `.sync-conflict-<date>-<time>-<device>` before
    the last extension (Go's filepath.Ext: a leading dot starts one too)."""
    dot = note.rfind(".")
    stem, extension = (note[:dot], note[dot:]) if dot >= 0 else (note, "")
    return re.compile(re.escape(stem) + r"\.sync-conflict-(\d{8})-(\d{6})-([A-Z2-7]{7})?"
                      + re.escape(extension) + r"\Z")


def apart_then_meet(settings, ledger, name, file_name):
    with Rig(settings, ledger, "apart " + name, file_name) as rig:
        rig.a.save("base")
        rig.pair.wait_synced()
        rig.pair.pause()
        rig.a.save("from a")
        rig.b.save("from b")
        rig.pair.scan()
        rig.expect_loopback()
        met = time.monotonic()
        rig.pair.resume()
        rig.pair.wait_synced()
        took = time.monotonic() - met
        rig.expect_loopback()

        check(rig.a.names() == rig.b.names(), "a holds %s, b %s" % (rig.a.names(), rig.b.names()))
        copies = [other for other in rig.a.names() if other != name]
        check(len(copies) == 1, "expected the note and one conflict copy, found %s"
              % rig.a.names())
        copy = copies[0]
        match = syncthing_copy(name).match(copy)
        check(match, "%r is not named as Syncthing names a conflict copy of %r" % (copy, name))
        device = match.group(3)
        owners = {rig.short_id(rig.a): "a", rig.short_id(rig.b): "b"}
        check(device in owners, "the copy names device %r, neither a (%s) nor b (%s)"
              % (device, rig.short_id(rig.a), rig.short_id(rig.b)))
        # The older change loses (the copy); its text and the winner's are
        # both on disk on both machines.
        for machine in (rig.a, rig.b):
            texts = sorted([machine.read(name), machine.read(copy)])
            check(texts == ["from a", "from b"], "%s holds %s in the note and its copy"
                  % (machine.label, texts))
            check(machine.show() == "from b", "%s shows %r, not the newer text"
                  % (machine.label, machine.show()))
        record_slowest(ledger, "sync: ms from meeting until both machines are alike", took)
        return "copy %s holds %r, its device is %s's; alike %.2fs after resume; versions %s; " \
               "history on a %s, on b %s" % (copy, rig.a.read(copy), owners[device], took,
                                            rig.a.version_names(), rig.a.history(),
                                            rig.b.history())


# What b received of filenote's own files in each churn, for the line that
# says what is not included yet.
RECEIVED_OWN = []

LOCK = re.compile(r"\A\.datafile\.dat\.lock\Z")
TEMPORARY = re.compile(r"\A\.datafile\.dat\.\d+\.\d+\.tmp\Z")


def filenotes_own(path):
    name = os.path.basename(path)
    return bool(LOCK.match(name) or TEMPORARY.match(name))


class Scanner(threading.Thread):
    """Rescans one instance's folder over and over until stopped."""

    def __init__(self, instance):
        super().__init__(daemon=True)
        self.instance = instance
        self.stopping = threading.Event()
        self.scans = 0
        self.error = None

    def run(self):
        try:
            while not self.stopping.is_set():
                self.instance.scan()
                self.scans += 1
        except Exception as error:  # reported by the case, not lost in the thread
            self.error = error

    def stop(self):
        self.stopping.set()
        self.join(60)
        if self.error is not None:
            raise Failure("rescanning failed: %s" % self.error)


class DiskEvents:
    """The paths an instance reported in its disk events (LocalChangeDetected:
    what its scans indexed; RemoteChangeDetected: what it wrote from the
    other machine), collected often enough that its buffer never overflows."""

    def __init__(self, instance, kind):
        self.instance = instance
        self.kind = kind
        self.since = max([event["id"] for event in instance.disk_events(0)] or [0])
        self.paths = []

    def collect(self):
        for event in self.instance.disk_events(self.since):
            self.since = max(self.since, event["id"])
            if event["type"] == self.kind:
                self.paths.append(event["data"]["path"])


def churn(settings, ledger, saves):
    """Saves on a while a's folder is rescanned over and over: a's scans
    catch filenote's lock and temporary files now and then, and what b
    receives of them is measured (that it never receives one is not
    included yet); what must hold today is that both end alike, with the
    last save, and nothing of filenote's own is left on either."""
    with Rig(settings, ledger, "churn") as rig:
        rig.a.save("base")
        rig.pair.wait_synced()
        indexed = DiskEvents(rig.pair.a, "LocalChangeDetected")
        received = DiskEvents(rig.pair.b, "RemoteChangeDetected")
        seen_on_b = set()
        scanner = Scanner(rig.pair.a)
        scanner.start()
        started = time.monotonic()
        try:
            for number in range(saves):
                rig.a.save("save %d" % number)
                if number % 10 == 9:
                    indexed.collect()
                    received.collect()
                    seen_on_b.update(name for name in os.listdir(rig.b.folder)
                                     if filenotes_own(name))
                if number % 50 == 49:
                    rig.expect_loopback()
        finally:
            scanner.stop()
        took = time.monotonic() - started
        rig.pair.wait_synced()
        indexed.collect()
        received.collect()
        rig.expect_loopback()
        check(rig.b.show() == "save %d" % (saves - 1), "b shows %r after the last save"
              % rig.b.show())
        for machine in (rig.a, rig.b):
            left = [name for name in os.listdir(machine.folder) if filenotes_own(name)]
            check(not left, "%s still holds %s" % (machine.label, left))
        kinds = {}
        for label, paths in (("indexed", indexed.paths), ("received", received.paths)):
            own = [path for path in paths if filenotes_own(path)]
            kinds[label] = (sum(1 for path in own if LOCK.match(path)),
                            sum(1 for path in own if TEMPORARY.match(path)))
        pulls_left = sorted(name for name in os.listdir(rig.b.folder)
                            if syncthing.is_syncthing_temporary(name))
        ledger.count("sync: saves with rescans between", saves)
        ledger.count("sync: rescans during those saves", scanner.scans)
        ledger.count("sync: lock files a's rescans indexed", kinds["indexed"][0])
        ledger.count("sync: temporary files a's rescans indexed", kinds["indexed"][1])
        ledger.count("sync: lock files b received", kinds["received"][0])
        ledger.count("sync: temporary files b received", kinds["received"][1])
        ledger.count("sync: Syncthing's unfinished pulls left on b", len(pulls_left))
        RECEIVED_OWN.append(sum(kinds["received"]))
        return "%d rescans in %.1fs; a indexed %d lock and %d temporary files, b received %d " \
               "and %d (seen in b's folder: %s); none left on either; Syncthing's unfinished " \
               "pulls of them left on b: %d (%s)" % (
                   scanner.scans, took, kinds["indexed"][0], kinds["indexed"][1],
                   kinds["received"][0], kinds["received"][1], sorted(seen_on_b) or "none",
                   len(pulls_left), ", ".join(pulls_left[:2]) or "none")
