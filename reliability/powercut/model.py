"""What survives a power cut: a file system's operations since the last
boot, which of them were made durable, and the states a crash may leave.

The test file system (powerfs.py) records every operation that changes
something, in order, as a log of plain values (tuples, dicts, bytes, so
either side can read the other's pickle whatever its module path):

    ("add", folder, name, inode, birth)      create, mkdir, symlink, link
    ("remove", folder, name, inode)          unlink, rmdir
    ("rename", folder, name, new_folder, new_name, inode, replaced)
    ("write", inode, offset, data)
    ("truncate", inode, size, old_size)
    ("attr", inode, {"mode": ..., "uid": ..., "gid": ..., "mtime_ns": ...})
    ("fsync", inode, datasync, label)        fsync, fdatasync, of a file or a folder
    ("close", inode)                         the last close of an open file

`birth` is the new inode's (kind, mode, payload) for create, mkdir and
symlink, None for a link. Inodes are numbers of the log's own (never reused),
the root folder is 1. Every operation but "close" is a *point*: a power cut
can come before it.

A crash state is the state at boot (all of it durable) with some of the
logged changes applied, in log order: every durable one, and any choice
among the others that the model allows. Two models:

STRICT, POSIX as written: a file's data (writes, truncation) is durable once
the file is fsynced or fdatasynced; its attributes once it is fsynced; a
name (each half of a rename on its own: the new name in its folder, the old
one's removal in its own) once its folder is fsynced. Nothing else is
durable, and any subset of what is not may survive, in any combination
(not only "all of it lost": reliability/POWERCUT.md says why).

EXT4 data=ordered (with delayed allocation, auto_da_alloc on, no fast
commits), as ext4's documentation and code describe it: every change to
names and attributes goes into one journal, in order, so a crash keeps a
prefix of it (the periodic commit may have written any prefix). fsync of an
inode commits the journal up to that inode's last change (the transaction
holding it, and so all before it), and up to now when it has data still to
write (writing it allocates blocks in the running transaction). A rename is
one atomic journal entry. Data not yet fsynced may have been written back
partly, as a prefix of that file's writes (in pages), or not at all: the
"zero-length file" of delayed allocation. Except, as auto_da_alloc
promises: a rename over an existing name forces the renamed file's data
written so far to disk before that rename commits, and so does the last
close of a file that was truncated to 0 (the replace-via-truncate pattern).

Ignoring an fsync: `ignored` holds the ordinals (0 for the log's first fsync,
1 for the next...) of fsyncs treated as no-ops; the one who wrote the log
saw them succeed, as an fsync that does nothing also succeeds.
"""

import hashlib
import itertools
import os
import stat

PAGE = 4096
ROOT = 1
STRICT = "strict"
EXT4 = "ext4-ordered"
MODELS = (STRICT, EXT4)

FILE, FOLDER, LINK = "file", "folder", "link"


# --- States ------------------------------------------------------------------


def new_inode(kind, mode, payload=None):
    """[kind, mode, payload, attributes]: a file's payload is a bytearray, a
    folder's a dict of name -> inode, a link's its target (str)."""
    if payload is None:
        payload = {FILE: bytearray(), FOLDER: {}, LINK: ""}[kind]
    elif kind == FILE:
        payload = bytearray(payload)
    elif kind == FOLDER:
        payload = dict(payload)
    return [kind, mode, payload, {}]


def copy_state(state):
    return {number: [kind, mode, bytearray(payload) if kind == FILE else
                     dict(payload) if kind == FOLDER else payload, dict(attributes)]
            for number, (kind, mode, payload, attributes) in state.items()}


def snapshot(folder, first=ROOT + 1):
    """The state of a real folder tree (every file read whole), and for each
    inode number given out, the (device, inode) it stands for. The folder
    itself is ROOT, the others are numbered from `first`. Hard links within
    the tree are one inode."""
    state = {}
    identity = {}
    by_file = {}

    def number_of(info):
        key = (info.st_dev, info.st_ino)
        if key not in by_file:
            by_file[key] = ROOT if not by_file else first + len(by_file) - 1
        return by_file[key]

    def visit(path, info):
        number = number_of(info)
        if number in state:
            return number
        identity[number] = (info.st_dev, info.st_ino)
        mode = stat.S_IMODE(info.st_mode)
        if stat.S_ISDIR(info.st_mode):
            entries = {}
            state[number] = new_inode(FOLDER, mode, entries)
            for name in sorted(os.listdir(path)):
                child = os.path.join(path, name)
                state[number][2][name] = visit(child, os.lstat(child))
        elif stat.S_ISLNK(info.st_mode):
            state[number] = new_inode(LINK, mode, os.readlink(path))
        elif stat.S_ISREG(info.st_mode):
            with open(path, "rb") as file:
                state[number] = new_inode(FILE, mode, file.read())
        else:
            raise ValueError("%s: only files, folders and symbolic links are modelled" % path)
        state[number][3] = {"uid": info.st_uid, "gid": info.st_gid,
                            "mtime_ns": info.st_mtime_ns}
        return number

    visit(folder, os.lstat(folder))
    return state, identity


def apply(state, operation, births):
    """Applies one logged operation whole, as the live file system did."""
    kind = operation[0]
    if kind == "add":
        _, folder, name, inode, birth = operation
        _entry(state, births, folder, name, inode)
    elif kind == "remove":
        _, folder, name, _inode = operation
        _entry(state, births, folder, name, None)
    elif kind == "rename":
        _, folder, name, new_folder, new_name, inode, _replaced = operation
        _entry(state, births, folder, name, None)
        _entry(state, births, new_folder, new_name, inode)
    elif kind == "write":
        _, inode, offset, data = operation
        _write(state, births, inode, offset, data)
    elif kind == "truncate":
        _, inode, size, _old = operation
        _truncate(state, births, inode, size)
    elif kind == "attr":
        _, inode, attributes = operation
        _attributes(state, births, inode, attributes)


def _inode(state, births, number):
    if number not in state:
        kind, mode, payload = births[number]
        state[number] = new_inode(kind, mode, payload)
    return state[number]


def _entry(state, births, folder, name, inode):
    entries = _inode(state, births, folder)[2]
    if inode is None:
        entries.pop(name, None)
    else:
        _inode(state, births, inode)
        entries[name] = inode


def _write(state, births, inode, offset, data):
    payload = _inode(state, births, inode)[2]
    if len(payload) < offset:
        payload.extend(bytes(offset - len(payload)))
    payload[offset:offset + len(data)] = data


def _truncate(state, births, inode, size):
    payload = _inode(state, births, inode)[2]
    if len(payload) > size:
        del payload[size:]
    else:
        payload.extend(bytes(size - len(payload)))


def _attributes(state, births, inode, attributes):
    node = _inode(state, births, inode)
    if "mode" in attributes:
        node[1] = attributes["mode"]
    node[3].update((key, value) for key, value in attributes.items() if key != "mode")


def walk(state):
    """(path, inode) of every name reachable from the root, parents first,
    names sorted; a folder reached a second time (only a crash state that
    kept both names of a renamed folder can) is not entered again."""
    seen = set()
    order = []

    def visit(path, number):
        order.append((path, number))
        node = state.get(number)
        if node is None or node[0] != FOLDER or number in seen:
            return
        seen.add(number)
        for name in sorted(node[2]):
            visit(path + "/" + name if path else name, node[2][name])

    visit("", ROOT)
    return order


def path_of(state, number):
    """A path of inode `number` (relative to the root), or None."""
    for path, inode in walk(state):
        if inode == number:
            return path
    return None


def lookup(state, path):
    """The inode at `path` (relative to the root, "/"-separated), or None."""
    number = ROOT
    for part in [part for part in path.split("/") if part]:
        node = state.get(number)
        if node is None or node[0] != FOLDER or part not in node[2]:
            return None
        number = node[2][part]
    return number


def read(state, path):
    """The bytes of the file at `path`, or None when there is no file there."""
    number = lookup(state, path)
    node = state.get(number) if number is not None else None
    if node is None or node[0] != FILE:
        return None
    return bytes(node[2])


def digest(state):
    """Equal for two states a reader cannot tell apart: the same names, the
    same kinds, modes and bytes, and the same names sharing an inode."""
    hasher = hashlib.sha256()
    first_path = {}
    for path, number in walk(state):
        node = state.get(number)
        if node is None:
            continue
        if number in first_path and node[0] != FOLDER:
            hasher.update(b"L %s = %s\n" % (path.encode(), first_path[number].encode()))
            continue
        first_path.setdefault(number, path)
        kind, mode, payload, _ = node
        body = (payload if kind == FILE else payload.encode() if kind == LINK else b"")
        hasher.update(b"%s %s %o %s\n" % (kind.encode(), path.encode(), mode,
                                          hashlib.sha256(body).hexdigest().encode()))
    return hasher.hexdigest()


def materialize(state, folder):
    """Writes `state` into the empty (or missing) folder `folder`: what the
    disk holds when the machine comes back. Hard links stay links; owners
    and modification times are given back where the log knew them."""
    os.makedirs(folder, exist_ok=True)
    written = {}
    modes = []
    for path, number in walk(state):
        node = state.get(number)
        if node is None:
            continue
        kind, mode, payload, attributes = node
        target = os.path.join(folder, path) if path else folder
        if path and number in written and kind != FOLDER:
            os.link(written[number], target, follow_symlinks=False)
            continue
        if path and number in written:
            continue  # a folder's second name: one folder, one place
        written[number] = target
        if kind == FOLDER:
            if path:
                os.mkdir(target, 0o700)
        elif kind == FILE:
            with open(target, "wb") as file:
                file.write(payload)
        else:
            os.symlink(payload, target)
        if kind != LINK:
            modes.append((target, mode, attributes))
    # Deepest first, so a folder made read-only is filled before.
    for target, mode, attributes in reversed(modes):
        if "uid" in attributes:
            os.chown(target, attributes["uid"], attributes.get("gid", -1))
        os.chmod(target, mode)
        if "mtime_ns" in attributes:
            os.utime(target, ns=(attributes["mtime_ns"], attributes["mtime_ns"]))


# --- Logs --------------------------------------------------------------------


def new_log(initial):
    """A log over `initial`, the state at boot."""
    return {"initial": initial, "births": {}, "operations": []}


def is_point(operation):
    return operation[0] != "close"


def points(log):
    """How many points the log has (power can be cut before each, and after
    the last)."""
    return sum(1 for operation in log["operations"] if is_point(operation))


def fsyncs(log):
    """(ordinal, position, operation) of every fsync in the log."""
    found = []
    for position, operation in enumerate(log["operations"]):
        if operation[0] == "fsync":
            found.append((len(found), position, operation))
    return found


def live_state(log):
    """The state with every logged change applied: what a kill -9 leaves."""
    state = copy_state(log["initial"])
    for operation in log["operations"]:
        apply(state, operation, log["births"])
    return state


# --- Units: what a crash keeps or loses, one at a time -----------------------
#
# A unit is (position, kind, fields...); the position orders replay. Kinds:
#   ("entry", folder, name, inode|None)   one name set or removed
#   ("rename", folder, name, new_folder, new_name, inode)   ext4: both at once
#   ("data", inode, "write", offset, bytes) | ("data", inode, "truncate", size)
#   ("attr", inode, attributes)
#   ("force", inode)   ext4: the data of `inode` so far is written before this commits


def _pages(offset, data):
    """A write cut at page boundaries: a disk writes back pages, not calls."""
    pieces = []
    start = 0
    while start < len(data):
        end = min(len(data), (offset + start) // PAGE * PAGE + PAGE - offset)
        pieces.append((offset + start, bytes(data[start:end])))
        start = end
    return pieces or [(offset, b"")]


def _replay(log, units, chosen):
    state = copy_state(log["initial"])
    births = log["births"]
    for index in sorted(chosen):
        unit = units[index]
        kind = unit[1]
        if kind == "entry":
            _entry(state, births, unit[2], unit[3], unit[4])
        elif kind == "rename":
            _entry(state, births, unit[2], unit[3], None)
            _entry(state, births, unit[4], unit[5], unit[6])
        elif kind == "data":
            if unit[3] == "write":
                _write(state, births, unit[2], unit[4], unit[5])
            else:
                _truncate(state, births, unit[2], unit[4])
        elif kind == "attr":
            _attributes(state, births, unit[2], unit[3])
    return state


class Plan:
    """The crash states one log allows under one model: `durable` units are
    in every one of them; `choices()` names the others."""

    def __init__(self, log, model, ignored=()):
        if model not in MODELS:
            raise ValueError("unknown model %r" % model)
        self.log = log
        self.model = model
        self.ignored = frozenset(ignored)
        self.units = []
        if model == STRICT:
            self._plan_strict()
        else:
            self._plan_ext4()

    # Strict ---------------------------------------------------------------

    def _plan_strict(self):
        durable = set()
        by_folder = {}      # folder -> unit indexes not yet durable
        data_of = {}        # inode -> data unit indexes not yet durable
        attributes_of = {}  # inode -> attribute unit indexes not yet durable
        ordinal = 0
        for position, operation in enumerate(self.log["operations"]):
            kind = operation[0]
            added = []
            if kind == "add":
                added.append(("entry", operation[1], operation[2], operation[3]))
            elif kind == "remove":
                added.append(("entry", operation[1], operation[2], None))
            elif kind == "rename":
                _, folder, name, new_folder, new_name, inode, _ = operation
                added.append(("entry", folder, name, None))
                added.append(("entry", new_folder, new_name, inode))
            elif kind == "write":
                for offset, data in _pages(operation[2], operation[3]):
                    added.append(("data", operation[1], "write", offset, data))
            elif kind == "truncate":
                added.append(("data", operation[1], "truncate", operation[2]))
            elif kind == "attr":
                added.append(("attr", operation[1], operation[2]))
            elif kind == "fsync":
                effective = ordinal not in self.ignored
                ordinal += 1
                if effective:
                    inode, datasync = operation[1], operation[2]
                    durable.update(by_folder.pop(inode, ()))
                    durable.update(data_of.pop(inode, ()))
                    if not datasync:
                        durable.update(attributes_of.pop(inode, ()))
            for unit in added:
                index = len(self.units)
                self.units.append((position,) + unit)
                if unit[0] == "entry":
                    by_folder.setdefault(unit[1], []).append(index)
                elif unit[0] == "data":
                    data_of.setdefault(unit[1], []).append(index)
                else:
                    attributes_of.setdefault(unit[1], []).append(index)
        self.durable = durable
        self.pending = [index for index in range(len(self.units)) if index not in durable]

    # ext4 -----------------------------------------------------------------

    def _plan_ext4(self):
        journal = []            # unit indexes, in order
        data = {}               # inode -> its data unit indexes, in order
        data_durable = {}       # inode -> how many of them are durable
        last_change = {}        # inode -> journal length just after its last change
        last_size_change = {}   # the same, for changes fdatasync waits for
        committed = 0
        truncated_to_zero = set()
        forced = []             # (journal index, inode, data count it forces)
        ordinal = 0

        def journal_unit(unit, touched, size_touched=()):
            index = len(self.units)
            self.units.append(unit)
            journal.append(index)
            for inode in touched:
                if inode is not None:
                    last_change[inode] = len(journal)
            for inode in size_touched:
                last_size_change[inode] = len(journal)
            return len(journal) - 1

        for position, operation in enumerate(self.log["operations"]):
            kind = operation[0]
            if kind == "add":
                _, folder, name, inode, birth = operation
                # A new inode's creation is a change fdatasync waits for.
                journal_unit((position, "entry", folder, name, inode), (folder, inode),
                             (inode,) if birth is not None else ())
            elif kind == "remove":
                _, folder, name, inode = operation
                journal_unit((position, "entry", folder, name, None), (folder, inode))
            elif kind == "rename":
                _, folder, name, new_folder, new_name, inode, replaced = operation
                at = journal_unit((position, "rename", folder, name, new_folder, new_name, inode),
                                  (folder, new_folder, inode, replaced))
                if replaced is not None:
                    # auto_da_alloc: replace-via-rename.
                    forced.append((at, inode, len(data.get(inode, ()))))
            elif kind == "write":
                inode = operation[1]
                for offset, piece in _pages(operation[2], operation[3]):
                    data.setdefault(inode, []).append(len(self.units))
                    self.units.append((position, "data", inode, "write", offset, piece))
            elif kind == "truncate":
                _, inode, size, old_size = operation
                journal_unit((position, "data", inode, "truncate", size), (inode,), (inode,))
                if size == 0 and old_size > 0:
                    truncated_to_zero.add(inode)
            elif kind == "attr":
                journal_unit((position, "attr", operation[1], operation[2]), (operation[1],))
            elif kind == "close":
                inode = operation[1]
                if inode in truncated_to_zero:
                    # auto_da_alloc: replace-via-truncate, at the last close.
                    truncated_to_zero.discard(inode)
                    at = journal_unit((position, "force", inode), ())
                    forced.append((at, inode, len(data.get(inode, ()))))
            elif kind == "fsync":
                effective = ordinal not in self.ignored
                ordinal += 1
                if not effective:
                    continue
                inode, datasync = operation[1], operation[2]
                written = len(data.get(inode, ()))
                if written > data_durable.get(inode, 0):
                    # Writing the data back allocates it in the running transaction.
                    committed = len(journal)
                    data_durable[inode] = written
                else:
                    changes = last_size_change if datasync else last_change
                    committed = max(committed, changes.get(inode, 0))
        self.journal = journal
        self.data = data
        self.committed = committed
        self.data_durable = data_durable
        self.forced = forced
        self.durable = set(journal[:committed])
        for inode, indexes in data.items():
            self.durable.update(indexes[:self._data_floor(inode, committed)])
        self.pending = [index for index in range(len(self.units)) if index not in self.durable]

    def _data_floor(self, inode, kept_journal):
        """How many of `inode`'s data units every state keeping the first
        `kept_journal` journal units holds."""
        floor = self.data_durable.get(inode, 0)
        for at, forced_inode, count in self.forced:
            if forced_inode == inode and at < kept_journal:
                floor = max(floor, count)
        return floor

    # Choices --------------------------------------------------------------

    def count(self):
        """How many crash states (choices of units) the model allows."""
        if self.model == STRICT:
            return 2 ** len(self.pending)
        total = 0
        for kept in range(self.committed, len(self.journal) + 1):
            product = 1
            for inode, indexes in self.data.items():
                product *= len(indexes) - self._data_floor(inode, kept) + 1
            total += product
        return total

    def lose_all(self):
        """The state where every change not durable is lost."""
        return self.build(())

    def keep_all(self):
        """The state where nothing was lost (what kill -9 leaves)."""
        return self.build(self.pending)

    def build(self, chosen):
        """The crash state keeping the durable units and `chosen` (for ext4,
        completed to what the model forces: a journal prefix, the data a
        kept rename or close forces)."""
        chosen = set(chosen)
        if self.model == EXT4:
            chosen = self._complete_ext4(chosen)
        return _replay(self.log, self.units, self.durable | chosen)

    def _complete_ext4(self, chosen):
        kept = self.committed
        for position, index in enumerate(self.journal):
            if index in chosen:
                kept = max(kept, position + 1)
        complete = set(self.journal[:kept])
        for inode, indexes in self.data.items():
            count = self._data_floor(inode, kept)
            for position, index in enumerate(indexes):
                if index in chosen:
                    count = max(count, position + 1)
            complete.update(indexes[:count])
        return complete

    def choices(self, rng, limit):
        """Up to `limit` choices of pending units, each a crash state the
        model allows: all of them when there are no more than `limit`, else
        the two extremes, prefixes and suffixes of the pending changes
        (spread evenly when too many) and a seeded random sample."""
        if self.count() <= limit:
            yield from self._every_choice()
            return
        pending = self.pending
        yield ()
        yield tuple(pending)
        budget = limit - 2
        # Suffixes (the later changes without the earlier: a reordering,
        # the last change alone first) and in-order prefixes (what a disk
        # writing back in order keeps), then a random sample.
        steps = min(len(pending) - 1, max(1, budget // 3))
        sizes = sorted({1} | {step * len(pending) // steps for step in range(1, steps)})
        for size in sizes:
            yield tuple(pending[len(pending) - size:])
            yield tuple(pending[:size])
        for _ in range(budget - 2 * len(sizes)):
            yield self._random_choice(rng)

    def _every_choice(self):
        if self.model == STRICT:
            for size in range(len(self.pending) + 1):
                yield from itertools.combinations(self.pending, size)
            return
        inodes = sorted(self.data)
        for kept in range(self.committed, len(self.journal) + 1):
            ranges = [range(self._data_floor(inode, kept), len(self.data[inode]) + 1)
                      for inode in inodes]
            for counts in itertools.product(*ranges):
                chosen = list(self.journal[:kept])
                for inode, count in zip(inodes, counts):
                    chosen.extend(self.data[inode][:count])
                # Exactly this state: _complete_ext4 adds nothing to it.
                yield tuple(index for index in chosen if index not in self.durable)

    def _random_choice(self, rng):
        if self.model == STRICT:
            keep = rng.random()
            return tuple(index for index in self.pending if rng.random() < keep)
        kept = rng.randint(self.committed, len(self.journal))
        chosen = list(self.journal[:kept])
        for inode, indexes in self.data.items():
            chosen.extend(indexes[:rng.randint(self._data_floor(inode, kept), len(indexes))])
        return tuple(index for index in chosen if index not in self.durable)

    def describe(self, chosen):
        """A short account of which pending units a choice keeps."""
        chosen = set(chosen)
        kept = [index for index in self.pending if index in chosen]
        return "kept %d of %d changes not durable" % (len(kept), len(self.pending))
