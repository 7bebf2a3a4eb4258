"""Case group: the note in a folder that real sync engines keep alike:
two or three Syncthing instances on 127.0.0.1 (reliability/syncthing.py),
Unison (reliability/unison.py) and rclone bisync
(reliability/rclone_bisync.py) between two local folders.

- A save on one machine reaches the other with its versions folder, and
  filenote there shows it and lists its versions.
- Both machines save while apart, then meet: Syncthing keeps one text as the
  note and the other in a conflict copy beside it, on both machines; the
  copy's real name is recorded, for the default note `datafile.dat`, a
  `--file` note without extension and two whose names start with a dot
  (the names ConflictCopyName's tests are checked against). On both
  machines `history` lists the copy, marked with Syncthing and the device,
  the prompt's hint says there is one, and every text saved on either
  machine is reachable through filenote (the note, `show N`).
- Settling on one machine (`resolve`, or Enter in the prompt) clears the
  warning on both: the copy is a settled version on both, nothing is
  beside the note, the hint says nothing of a conflict.
- Pruning on both machines at once, with few versions kept: no save fails,
  `history` never lists a version that is gone.
- Many saves with rescans between them end alike on both machines, with
  nothing of filenote's own left on either, and none of its lock or
  temporary files ever indexed or received.
- A seeded random run (saves, prompt Enters, edit, undo, restore, clear on
  both sides, pauses and resumes) ends with every text ever saved
  reachable on both machines and no version listed twice.
- Every machine saves a text of its own while apart, round after round,
  with each engine (three Syncthing machines; Unison with `-prefer newer`,
  with it and `-copyonconflict`, and without `-prefer`; rclone bisync):
  every text saved on any machine is reachable on every machine, none
  listed twice, whatever the engine did with the note and its copies.
- Throughout, no socket of any Syncthing instance is off 127.0.0.1.
"""

import os
import random
import re
import shlex
import threading
import time

import rclone_bisync
import syncthing
import unison
from harness import LOCK_NAME, Failure, Sandbox, TerminalRun, check, show_bytes

HISTORY_LINE = re.compile(r"\A *(\d+)  \d{4}-\d\d-\d\d \d\d:\d\d:\d\d +\d+  (.*)\Z")
CONFLICT_MARK = re.compile(r"\A\[(settled )?conflict copy, ([^]]*)\] ")
ESCAPE = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")


def run(settings, ledger):
    if not syncthing.available():
        ledger.failed.append("sync: syncthing is not installed")
        print("FAIL sync: syncthing is not installed (scripts/test-tools install)", flush=True)
        return
    print("     %s" % syncthing.version(), flush=True)
    for name, engine in (("unison", unison), ("rclone", rclone_bisync)):
        if not engine.available():
            ledger.failed.append("sync: %s is not installed" % name)
            print("FAIL sync: %s is not installed (scripts/test-tools install)" % name, flush=True)
            return
        print("     %s" % engine.version(), flush=True)
    ledger.run("sync: a save on one machine reaches the other with its versions folder, after "
               "one rescan", propagates, settings, ledger)
    for name, arguments in (("datafile.dat", None), ("note", "note"), (".note", ".note"),
                            (".note.txt", ".note.txt")):
        ledger.run("sync: both machines save %s while apart, then meet: one text is the note, "
                   "the other a conflict copy named as Syncthing 1.19 names it, on both; "
                   "history%s on both shows it, every text reachable on both"
                   % (name, " and the prompt" if arguments is None else ""),
                   apart_then_meet, settings, ledger, name, arguments)
    for how in ("resolve", "Enter in the prompt"):
        ledger.run("sync: settling a conflict on one machine (%s) clears the warning on both"
                   % how, settle_clears_both, settings, ledger, how)
    ledger.run("sync: pruning on both machines at once (FILENOTE_VERSIONS=3) fails no save and "
               "lists no version that is gone", prune_on_both, settings, ledger)
    saves = 1000 if settings.long else 150
    ledger.run("sync: %d saves with rescans running between them end alike on both machines, "
               "nothing of filenote's own left on either or ever received" % saves, churn,
               settings, ledger, saves)
    saves_apart_rounds = 12 if settings.long else 5
    for label, engine, machines, options in ENGINES:
        ledger.run("sync, %s: each machine saves a text of its own apart, %d rounds, synced after "
                   "each: every text saved on any machine reachable on every machine, none "
                   "listed twice" % (label, saves_apart_rounds), saves_apart, settings, ledger,
                   label, engine, machines, options, saves_apart_rounds)
    rounds = 200 if settings.long else 30
    ledger.run("sync: a seeded random run of %d rounds on both machines (saves, prompt Enters, "
               "edit, undo, restore, clear, pauses and resumes): every text saved reachable on "
               "both, no version listed twice" % rounds, random_run, settings, ledger, rounds)


class Machine:
    """One machine: a home of its own whose Documents folder is the shared
    folder, and filenote run there on one note."""

    def __init__(self, settings, label, file_name=None, env=None):
        self.label = label
        self.settings = settings
        self.sandbox = Sandbox(settings, "sync " + label)
        self.folder = self.sandbox.documents
        os.makedirs(self.folder, mode=0o755, exist_ok=True)
        self.env = dict(self.sandbox.env, **(env or {}))
        self.note = self.sandbox.note
        if file_name is not None:
            self.note = os.path.join(self.folder, file_name)
            self.env["FILENOTE_FILE"] = self.note

    def run(self, *arguments, stdin=b""):
        return self.sandbox.run(list(arguments), env=self.env, stdin=stdin)

    def filenote(self, *arguments, stdin=b""):
        outcome = self.run(*arguments, stdin=stdin)
        check(outcome.status == 0, "filenote %s on %s: %s" % (" ".join(arguments), self.label,
                                                             outcome.describe()))
        return outcome

    def save(self, text):
        self.filenote("save", text)

    def show(self):
        """The note, or None when there is none."""
        outcome = self.run("show")
        if outcome.status != 0:
            check(b"no note" in outcome.stderr, "show on %s: %s" % (self.label,
                                                                    outcome.describe()))
            return None
        return outcome.stdout.decode("utf-8", "replace")[:-1]

    def history_lines(self):
        """The first-line column of each line `history` prints, newest first."""
        lines = self.filenote("history").stdout.decode("utf-8", "replace").splitlines()
        # Line 0 is the note itself; the versions start at 1.
        return [match.group(2) for match in map(HISTORY_LINE.match, lines)
                if match and match.group(1) != "0"]

    def history(self):
        """The first lines `history` lists, newest first, a conflict copy's
        mark left out."""
        return [CONFLICT_MARK.sub("", line) for line in self.history_lines()]

    def marks(self):
        """(settled, source) of each conflict copy `history` marks."""
        found = []
        for line in self.history_lines():
            match = CONFLICT_MARK.match(line)
            if match:
                found.append((bool(match.group(1)), match.group(2)))
        return found

    def versions(self):
        """The whole text of each version `show N` prints, as history numbers them."""
        texts = []
        for number in range(1, 1000):
            outcome = self.run("show", str(number))
            if outcome.status != 0:
                check(b"no version" in outcome.stderr, "show %d on %s: %s"
                      % (number, self.label, outcome.describe()))
                return texts
            texts.append(outcome.stdout.decode("utf-8", "replace")[:-1])
        raise Failure("%s lists 1000 versions or more" % self.label)

    def reachable(self):
        """Every text filenote reaches on this machine: the note and each version."""
        note = self.show()
        return ([note] if note is not None else []) + self.versions()

    def terminal(self, *arguments, env=None):
        return TerminalRun(self.settings.binary, list(arguments),
                           dict(self.env, TERM="xterm", **(env or {})), columns=160)

    def open_prompt(self):
        run = self.terminal()
        check(run.wait_for(b"Enter saves", seconds=15), "the prompt did not open on %s: %s"
              % (self.label, show_bytes(run.transcript[-300:], 300)))
        run.wait_until_quiet(0.1)
        return run

    def prompt_hint(self):
        """The prompt's hint line, as drawn; the prompt is then cancelled."""
        run = self.open_prompt()
        try:
            hint = ESCAPE.sub(b"", run.transcript).split(b"\n")[0]
            run.send(b"\x03")
            run.wait()
        finally:
            run.close()
        return hint.decode("utf-8", "replace").strip()

    def prompt_enter(self, text=None):
        """Enter in the prompt: on the note as it is, or on `text` typed
        over it. Says whether it saved."""
        run = self.open_prompt()
        try:
            keys = [b"\x01", b"\x0b", text.encode()] if text is not None else []
            status = run.type_keys(keys + [b"\r"])
            said = ESCAPE.sub(b"", run.transcript)
        finally:
            run.close()
        check(status == 0, "the prompt on %s ended %s: %s" % (self.label, status,
                                                              show_bytes(said[-300:], 300)))
        return b"Saved." in said

    def edit(self, text):
        """`filenote edit` with an editor that writes `text`."""
        source = os.path.join(self.sandbox.root, "edited.txt")
        with open(source, "w") as file:
            file.write(text + "\n")
        run = self.terminal("edit", env={"EDITOR": "cp " + shlex.quote(source)})
        try:
            status = run.wait(seconds=30)
            said = ESCAPE.sub(b"", run.transcript)
        finally:
            run.close()
        check(status == 0, "edit on %s ended %s: %s" % (self.label, status,
                                                        show_bytes(said[-300:], 300)))
        return said

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
    """Machines (two, or three for Syncthing) and the sync engine that keeps
    their folders alike: Syncthing (`syncthing.Cluster`), Unison
    (`unison.Replicas`, given its options) or rclone bisync
    (`rclone_bisync.Replicas`). Stopped when the block ends, whatever
    happened; Syncthing's sockets are checked for any off 127.0.0.1 each
    time `expect_loopback` is called (the other two open none)."""

    def __init__(self, settings, ledger, label, file_name=None, env=None, machines=2,
                 engine="syncthing", options=()):
        self.ledger = ledger
        self.machines = [Machine(settings, "%s %s" % (label, letter), file_name, env)
                         for letter in "abc"[:machines]]
        self.a, self.b = self.machines[:2]
        root, folders = self.a.sandbox.root, [machine.folder for machine in self.machines]
        if engine == "syncthing":
            self.engine = syncthing.Cluster(root, *folders)
        elif engine == "unison":
            self.engine = unison.Replicas(root, *folders, options=options)
        else:
            self.engine = rclone_bisync.Replicas(root, *folders)
        self.networked = engine == "syncthing"
        self.started_in = None

    @property
    def c(self):
        return self.machines[2]

    def __enter__(self):
        started = time.monotonic()
        if not self.networked:
            return self
        self.engine.start()
        self.started_in = time.monotonic() - started
        try:
            self.expect_loopback()
        except BaseException:
            self.engine.stop()
            raise
        return self

    def __exit__(self, *exception):
        if self.networked:
            self.engine.stop()

    def expect_loopback(self):
        if not self.networked:
            return
        sockets = self.engine.sockets()
        # Each listens at least: a sample that found no socket proves nothing.
        check(len(sockets) >= 2 * len(self.machines), "found only %s of the instances' sockets"
              % sockets)
        foreign = self.engine.foreign_sockets()
        self.ledger.count("sync socket samples")
        self.ledger.count("sync sockets seen", len(sockets))
        check(not foreign, "sockets off 127.0.0.1: %s" % foreign)

    def short_id(self, machine):
        """The seven characters of a device ID that Syncthing writes in a
        conflict copy's name (protocol.ShortID)."""
        instance = self.engine.instances[self.machines.index(machine)]
        return instance.device_id.replace("-", "")[:7]


def record_slowest(ledger, figure, seconds):
    """A timing figure: the slowest of the cases that measured it, in ms."""
    ledger.figures[figure] = max(ledger.figures.get(figure, 0), int(round(seconds * 1000)))


def propagates(settings, ledger):
    with Rig(settings, ledger, "propagates") as rig:
        rig.a.save("first")
        rig.engine.wait_synced()
        rig.a.save("second")
        took = rig.engine.wait_synced()
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


def meet_after_conflict(rig, name):
    """Both machines save while apart, then meet: returns the conflict
    copy's name and its device's short ID, after checking what Syncthing
    did (the older text, a's, in the copy, on both; b's the note)."""
    rig.a.save("base")
    rig.engine.wait_synced()
    rig.engine.pause()
    rig.a.save("from a")
    rig.b.save("from b")
    rig.engine.scan()
    rig.expect_loopback()
    met = time.monotonic()
    rig.engine.resume()
    rig.engine.wait_synced()
    took = time.monotonic() - met
    rig.expect_loopback()
    check(rig.a.names() == rig.b.names(), "a holds %s, b %s" % (rig.a.names(), rig.b.names()))
    copies = [other for other in rig.a.names() if other != name]
    check(len(copies) == 1, "expected the note and one conflict copy, found %s" % rig.a.names())
    copy = copies[0]
    match = syncthing_copy(name).match(copy)
    check(match, "%r is not named as Syncthing names a conflict copy of %r" % (copy, name))
    device = match.group(3)
    owners = {rig.short_id(rig.a): "a", rig.short_id(rig.b): "b"}
    check(device in owners, "the copy names device %r, neither a (%s) nor b (%s)"
          % (device, rig.short_id(rig.a), rig.short_id(rig.b)))
    for machine in (rig.a, rig.b):
        texts = sorted([machine.read(name), machine.read(copy)])
        check(texts == ["from a", "from b"], "%s holds %s in the note and its copy"
              % (machine.label, texts))
    return copy, device, owners, took


def expect_reachable(machines, texts):
    """Every text of `texts` is reachable through filenote on every machine,
    and none is listed twice among the versions."""
    for machine in machines:
        reachable = machine.reachable()
        missing = [text for text in texts if text not in reachable]
        check(not missing, "%s cannot reach %s through filenote (it reaches %s)"
              % (machine.label, missing, reachable))
        versions = machine.versions()
        twice = sorted(set(text for text in versions if versions.count(text) > 1))
        check(not twice, "%s lists %s twice: %s" % (machine.label, twice, versions))


def apart_then_meet(settings, ledger, name, file_name):
    with Rig(settings, ledger, "apart " + name, file_name) as rig:
        copy, device, owners, took = meet_after_conflict(rig, name)
        for machine in (rig.a, rig.b):
            check(machine.show() == "from b", "%s shows %r, not the newer text"
                  % (machine.label, machine.show()))
            marks = machine.marks()
            check(marks == [(False, "Syncthing, device " + device)],
                  "%s's history marks %s, not the copy from device %s: %s"
                  % (machine.label, marks, device, machine.history_lines()))
        expect_reachable((rig.a, rig.b), ["base", "from a", "from b"])
        hints = {}
        if file_name is None:
            for machine in (rig.a, rig.b):
                hints[machine.label] = hint = machine.prompt_hint()
                check("1 conflict copy" in hint, "%s's prompt says nothing of the copy: %r"
                      % (machine.label, hint))
        record_slowest(ledger, "sync: ms from meeting until both machines are alike", took)
        ledger.count("sync: conflicts shown on both machines")
        return "copy %s holds %r, its device is %s's; alike %.2fs after resume; history on a %s, " \
               "on b %s%s" % (copy, rig.a.read(copy), owners[device], took, rig.a.history_lines(),
                             rig.b.history_lines(),
                             "; hint %r" % hints[rig.a.label] if hints else "")


def settle_clears_both(settings, ledger, how):
    with Rig(settings, ledger, "settle " + how) as rig:
        copy, device, _, _ = meet_after_conflict(rig, "datafile.dat")
        if how == "resolve":
            said = rig.a.filenote("resolve").stdout
            check(said == b"Settled 1 conflict copy: 'filenote history' lists it as a version.\n",
                  "resolve said %r" % said)
        else:
            rig.a.prompt_enter()
        took = rig.engine.wait_synced()
        for machine in (rig.a, rig.b):
            check(machine.names() == ["datafile.dat"], "%s still holds %s beside the note"
                  % (machine.label, machine.names()))
            marks = machine.marks()
            check(marks == [(True, "Syncthing, device " + device)],
                  "%s's history marks %s, not the settled copy: %s"
                  % (machine.label, marks, machine.history_lines()))
        expect_reachable((rig.a, rig.b), ["base", "from a", "from b"])
        hint = rig.b.prompt_hint()
        check("conflict" not in hint, "b's prompt still warns: %r" % hint)
        return "settled on a, gone from both %.2fs later; b's history %s; b's hint %r" % (
            took, rig.b.history_lines(), hint)


def prune_on_both(settings, ledger):
    """Both machines keep 3 versions and save while apart, then meet and
    save at once with rescans between: each prunes what the other kept too."""
    with Rig(settings, ledger, "prune", env={"FILENOTE_VERSIONS": "3"}) as rig:
        rig.a.save("base")
        rig.engine.wait_synced()
        saved = 0
        for round in range(4):
            rig.engine.pause()
            for number in range(4):
                rig.a.save("a %d.%d" % (round, number))
                rig.b.save("b %d.%d" % (round, number))
                saved += 2
            rig.engine.resume()
            for number in range(4):
                errors = []

                def saving(machine, text):
                    outcome = machine.run("save", text)
                    if outcome.status != 0:
                        errors.append("%s: %s" % (machine.label, outcome.describe()))

                threads = [threading.Thread(target=saving, args=(machine, "%s %d.%d met" % (
                    machine.label[-1], round, number))) for machine in (rig.a, rig.b)]
                for thread in threads:
                    thread.start()
                rig.engine.scan()
                for thread in threads:
                    thread.join(60)
                saved += 2
                for machine in (rig.a, rig.b):
                    # Each listed version is there to be shown.
                    listed = len(machine.history_lines())
                    shown = len(machine.versions())
                    check(shown >= min(listed, 1), "%s lists %d versions, shows %d"
                          % (machine.label, listed, shown))
                check(not errors, "saves failed: %s" % errors)
            rig.engine.wait_synced()
        rig.expect_loopback()
        counts = [len(machine.version_names()) for machine in (rig.a, rig.b)]
        return "%d saves, none failed; versions left on a and b: %s (%s)" % (
            saved, counts, [machine.version_names() for machine in (rig.a, rig.b)])


# The engines `saves_apart` runs: (label, engine, machines, options).
ENGINES = [("three Syncthing machines", "syncthing", 3, ()),
           ("Unison -prefer newer -copyonconflict", "unison", 2,
            ("-prefer", "newer", "-copyonconflict")),
           ("Unison -prefer newer", "unison", 2, ("-prefer", "newer")),
           ("Unison without -prefer", "unison", 2, ()),
           ("rclone bisync", "rclone", 2, ())]


def saves_apart(settings, ledger, label, engine, machines, options, rounds):
    """Every machine saves a text of its own while apart from the others, in
    the same second or two, then the engine makes the folders alike; after
    the last round every text saved on any machine must be reachable through
    filenote (the note, `show N`) on every machine, and none listed twice.
    Whatever the engine does with the note itself: Syncthing with three
    machines drops one of two conflict copies named alike, Unison without
    `-prefer` copies neither text, rclone bisync renames both away
    (doc/SYNC.md has what each did)."""
    with Rig(settings, ledger, label, machines=machines, engine=engine, options=options) as rig:
        # Two texts before the first sync, so a version is there too (rclone
        # bisync refuses a run in which every file it listed changed).
        saved = ["base", "base again"]
        for text in saved:
            rig.a.save(text)
        rig.engine.wait_synced()
        slowest = 0
        for round in range(rounds):
            rig.engine.pause()
            for machine in rig.machines:
                text = "round %d from %s" % (round + 1, machine.label[-1])
                machine.save(text)
                saved.append(text)
            rig.engine.scan()
            rig.engine.resume()
            slowest = max(slowest, rig.engine.wait_synced())
            rig.expect_loopback()
        reachable = {machine.label: machine.reachable() for machine in rig.machines}
        twice = {machine.label: len(versions) - len(set(versions)) for machine, versions in
                 ((machine, machine.versions()) for machine in rig.machines)}
        prefix = "sync, %s: " % label
        ledger.figures[prefix + "texts saved"] = len(saved)
        counts = []
        for machine in rig.machines:
            count = sum(1 for text in saved if text in reachable[machine.label])
            counts.append(count)
            ledger.figures[prefix + "of them reachable on %s" % machine.label[-1]] = count
            ledger.figures[prefix + "listed twice on %s" % machine.label[-1]] = \
                twice[machine.label]
        copies = sorted(name for name in rig.a.names() if name != "datafile.dat")
        said = "%d rounds, %d texts saved, reachable on %s: %s, listed twice: %s; beside the " \
               "note on a at the end: %s; slowest sync %.2fs%s" % (
                   rounds, len(saved), "/".join(machine.label[-1] for machine in rig.machines),
                   "/".join(map(str, counts)), "/".join(str(twice[machine.label])
                                                        for machine in rig.machines),
                   copies or "nothing", slowest,
                   "; skipped by unison: %d" % len(rig.engine.skipped)
                   if engine == "unison" else
                   "; conflicts rclone bisync found: %d" % rig.engine.conflicts
                   if engine == "rclone" else
                   "; Syncthing dropped %d conflict copies as a copy of a copy" % sum(
                       instance.log_tail(1 << 24).count("which is already a conflict copy")
                       for instance in rig.engine.instances))
        try:
            expect_reachable(rig.machines, saved)
        except Failure as failure:
            raise Failure("%s (%s)" % (failure, said))
        return said


# filenote's own files beside the default note: the lock and a save's
# temporary file, as this filenote names them (harness.LOCK_NAME) and as
# filenote 0.2 did.
LOCK = re.compile(r"\A(%s|\.datafile\.dat\.lock)\Z" % re.escape(LOCK_NAME))
TEMPORARY = re.compile(r"\A\.(syncthing\.datafile\.dat\.~|datafile\.dat\.)\d+\.\d+\.tmp\Z")


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
    never index filenote's lock or temporary files (Syncthing skips their
    names: lib/fs/tempname.go), b never receives one, never holds one, and
    both end alike, with the last save, nothing of filenote's own left on
    either. (With the names filenote 0.2 used, b received 2 to 43 lock
    files and up to 30 temporary files a run: doc/SYNC.md.)"""
    with Rig(settings, ledger, "churn") as rig:
        rig.a.save("base")
        rig.engine.wait_synced()
        indexed = DiskEvents(rig.engine.a, "LocalChangeDetected")
        received = DiskEvents(rig.engine.b, "RemoteChangeDetected")
        seen_on_b = set()
        scanner = Scanner(rig.engine.a)
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
        rig.engine.wait_synced()
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
                            if syncthing.is_syncthing_temporary(name) and not filenotes_own(name))
        ledger.count("sync: saves with rescans between", saves)
        ledger.count("sync: rescans during those saves", scanner.scans)
        ledger.count("sync: lock files a's rescans indexed", kinds["indexed"][0])
        ledger.count("sync: temporary files a's rescans indexed", kinds["indexed"][1])
        ledger.count("sync: lock files b received", kinds["received"][0])
        ledger.count("sync: temporary files b received", kinds["received"][1])
        ledger.count("sync: Syncthing's unfinished pulls left on b", len(pulls_left))
        check(kinds == {"indexed": (0, 0), "received": (0, 0)} and not seen_on_b,
              "filenote's own files went through Syncthing: indexed on a %s, received on b %s "
              "(lock, temporary), seen in b's folder %s" % (kinds["indexed"], kinds["received"],
                                                          sorted(seen_on_b)))
        return "%d rescans in %.1fs; a indexed %d lock and %d temporary files, b received %d " \
               "and %d (seen in b's folder: %s); none left on either; Syncthing's unfinished " \
               "pulls of them left on b: %d (%s)" % (
                   scanner.scans, took, kinds["indexed"][0], kinds["indexed"][1],
                   kinds["received"][0], kinds["received"][1], sorted(seen_on_b) or "none",
                   len(pulls_left), ", ".join(pulls_left[:2]) or "none")


# The operations of the random run and how often each is drawn.
# What a round does on one machine, and how often each is drawn; a round
# may instead take the machines apart (together, 1 in 3) or bring them
# together (apart, 1 in 4), so they spend about half the rounds apart, and
# both change the note then.
OPERATIONS = [("save", 5), ("prompt", 3), ("prompt unchanged", 1), ("edit", 2), ("undo", 2),
              ("restore", 2), ("clear", 1), ("resolve", 1)]
PAUSE_CHANCE = 1 / 3
RESUME_CHANCE = 1 / 4


def random_run(settings, ledger, rounds):
    """Both machines, apart or together at random, each round one operation
    on one of them. Every text saved (`save`, the prompt, `edit`) is
    remembered; at the end, together again and synced, every one of them
    must be reachable through filenote on both machines (the note, or a
    version, a conflict copy among them), and no version listed twice."""
    rng = settings.rng("sync random run")
    with Rig(settings, ledger, "random") as rig:
        machines = (rig.a, rig.b)
        received = [DiskEvents(instance, "RemoteChangeDetected")
                    for instance in (rig.engine.a, rig.engine.b)]
        saved = ["first, from a"]
        rig.a.save(saved[0])
        rig.engine.wait_synced()
        apart = False
        done = {name: 0 for name, _ in OPERATIONS + [("pause", 0), ("resume", 0)]}
        conflicts = 0
        copies_seen = set()
        log = []  # what each round did, for a failure's message
        names, weights = zip(*OPERATIONS)
        for round in range(rounds):
            operation = rng.choices(names, weights)[0]
            if rng.random() < (RESUME_CHANCE if apart else PAUSE_CHANCE):
                operation = "resume" if apart else "pause"
            machine = rng.choice(machines)
            # Typed into the prompt, a line break would be Enter.
            words = [word for word in WORDS if word.isprintable()] \
                if operation == "prompt" else WORDS
            text = "round %d on %s: %s" % (round, machine.label[-1], rng.choice(words))
            try:
                if operation == "save":
                    machine.save(text)
                    saved.append(text)
                elif operation == "prompt":
                    check(machine.prompt_enter(text), "the prompt on %s did not save"
                          % machine.label)
                    saved.append(text)
                elif operation == "prompt unchanged":
                    machine.prompt_enter()
                elif operation == "edit":
                    machine.edit(text)
                    saved.append(text)
                elif operation in ("undo", "restore"):
                    count = len(machine.versions())
                    arguments = ["undo"] if operation == "undo" else \
                        ["restore", str(rng.randint(1, count))] if count else ["undo"]
                    outcome = machine.run(*arguments)
                    operation = " ".join(arguments)
                    check(outcome.status == 0 or (count == 0 and b"no version" in outcome.stderr),
                          "%s on %s: %s" % (" ".join(arguments), machine.label,
                                            outcome.describe()))
                elif operation == "clear":
                    machine.filenote("clear")
                elif operation == "resolve":
                    machine.filenote("resolve")
                elif operation == "pause":
                    rig.engine.pause()
                    apart = True
                elif operation == "resume":
                    rig.engine.resume()
                    apart = False
            except Failure as failure:
                raise Failure("round %d (%s on %s): %s; the rounds before: %s" % (
                    round, operation, machine.label, failure, "; ".join(log)))
            done[operation.split()[0]] += 1
            log.append("%d %s %s%s" % (round, machine.label[-1], operation,
                                       " (apart)" if apart else ""))
            if not apart:
                try:
                    rig.engine.wait_synced()
                except Failure as failure:
                    raise Failure("after round %d: %s; the rounds: %s" % (
                        round, failure, "; ".join(log)))
                conflicts = max(conflicts, sum(1 for mark in rig.a.marks() if not mark[0]))
                copies_seen.update(name for name in rig.a.names() if name != "datafile.dat")
            if round % 10 == 9:
                rig.expect_loopback()
                for events in received:
                    events.collect()
        if apart:
            rig.engine.resume()
        rig.engine.wait_synced()
        rig.expect_loopback()
        copies_seen.update(name for name in rig.a.names() if name != "datafile.dat")
        reachable = {machine.label: machine.reachable() for machine in machines}
        twice = {machine.label: len(versions) - len(set(versions))
                 for machine, versions in ((machine, machine.versions()) for machine in machines)}
        for events in received:
            events.collect()
        own = [path for events in received for path in events.paths if filenotes_own(path)]
        ledger.figures["sync random run: rounds"] = rounds
        ledger.figures["sync random run: texts saved"] = len(saved)
        for machine in machines:
            ledger.figures["sync random run: of them reachable on %s" % machine.label[-1]] = \
                sum(1 for text in saved if text in reachable[machine.label])
            ledger.figures["sync random run: versions listed twice on %s"
                           % machine.label[-1]] = twice[machine.label]
        ledger.figures["sync random run: filenote's own files received"] = len(own)
        ledger.figures["sync random run: conflict copies made"] = len(copies_seen)
        check(not own, "filenote's own files reached the other machine: %s" % own[:5])
        try:
            expect_reachable(machines, saved)
        except Failure as failure:
            raise Failure("%s; the rounds: %s" % (failure, "; ".join(log)))
        return "%d texts saved, all reachable on both (a lists %d texts, b %d); operations %s; " \
               "%d conflict copies made, at most %d unsettled at once" % (
                   len(saved), len(reachable[rig.a.label]), len(reachable[rig.b.label]),
                   ", ".join("%s %d" % item for item in done.items() if item[1]),
                   len(copies_seen), conflicts)


WORDS = ["buy milk", "call the plumber", "ticket 4242", "ship it", "rename the branch",
         "café ☕", "two\nlines", "tab\there"]
