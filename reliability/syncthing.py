"""Real Syncthing instances on one machine (two, or three), sharing one
folder over 127.0.0.1, for the sync group (reliability/sync.py): machines
that keep the note's folder alike, started and stopped by the tests
themselves.

Nothing leaves loopback. Each instance's config.xml is written before its
first start, with global and local discovery, relays, NAT traversal, STUN,
usage reporting, crash reporting and automatic upgrades off, one
`tcp://127.0.0.1:PORT` listen address, the GUI and REST API on 127.0.0.1
with a known API key, and every other device known only at its own
127.0.0.1 address. The shared folder has the file system watcher off and a
rescan interval of a day, so nothing happens between the steps of a case but
what the case asks for: `scan()` after each change, `wait_synced()` to see
it arrive, `pause()` and `resume()` to take the machines apart and bring
them together. Every wait has a deadline. `foreign_sockets()` lists any
socket of either instance that is not on 127.0.0.1 (there must be none).

Each instance is stopped by its pid when the cluster is closed, also when a
case fails, and at interpreter exit for whatever is left. Debian's
`syncthing` package (1.19) is what scripts/test-tools installs; 1.19 takes
`syncthing generate` and `syncthing serve`.

Standard library only.
"""

import atexit
import hashlib
import http.client
import json
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import time
import urllib.parse
from xml.sax.saxutils import escape, quoteattr

from harness import Failure, check

FOLDER_ID = "note"
RESCAN_INTERVAL_S = 86400
# The shortest reconnection interval Syncthing accepts (lib/config clamps
# anything smaller to 5); a resume dials at once anyway.
RECONNECTION_INTERVAL_S = 5

_STARTED = {}  # pid -> Instance, for the exit handler


def available():
    return shutil.which("syncthing") is not None


def version():
    result = subprocess.run(["syncthing", "--version"], capture_output=True, text=True, timeout=30)
    return result.stdout.strip()


def _stop_all_left():
    for instance in list(_STARTED.values()):
        instance.stop()


atexit.register(_stop_all_left)


def _parent_of(pid):
    try:
        with open("/proc/%d/stat" % pid) as file:
            # The parent is the second field after the command, which is in
            # parentheses and may hold spaces.
            return int(file.read().rsplit(")", 1)[1].split()[1])
    except (FileNotFoundError, ProcessLookupError, IndexError, ValueError):
        return None


def process_tree(pid):
    """`pid` and every process below it: `syncthing serve` is a monitor
    that runs Syncthing itself as its child, even with --no-restart
    (cmd/syncthing/main.go, monitorMain), and the child holds the sockets."""
    pids = [int(name) for name in os.listdir("/proc") if name.isdigit()]
    parents = {other: _parent_of(other) for other in pids}
    tree = [pid]
    for member in tree:
        tree.extend(other for other, parent in parents.items() if parent == member)
    return tree


def _runs_home(pid, home):
    """Whether `pid` is still a syncthing of `home` (and not a reused pid)."""
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as file:
            return ("--home=" + home).encode() in file.read().split(b"\0")
    except (FileNotFoundError, ProcessLookupError):
        return False


def free_port():
    """A TCP port nothing on 127.0.0.1 uses now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Instance:
    """One Syncthing: its home (configuration, keys, database, log), the
    folder it shares, its ports and its device ID."""

    def __init__(self, label, home, folder):
        self.label = label
        self.home = home
        self.folder = folder
        self.gui_port = free_port()
        self.listen_port = free_port()
        self.api_key = secrets.token_hex(16)
        self.log = os.path.join(home, "syncthing.log")
        self.process = None
        os.makedirs(home, mode=0o700, exist_ok=True)
        # `generate` makes the key and certificate, so the device ID is known
        # before the first start; its config.xml is replaced below.
        result = subprocess.run(
            ["syncthing", "generate", "--home=" + home, "--no-default-folder",
             "--skip-port-probing"], capture_output=True, text=True, timeout=60,
            env=self._environment())
        found = re.search(r"Device ID: ([A-Z0-9-]{63})", result.stdout + result.stderr)
        check(result.returncode == 0 and found, "syncthing generate failed: %s %s"
              % (result.stdout[-300:], result.stderr[-300:]))
        self.device_id = found.group(1)

    def _environment(self):
        return {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": self.home,
            "STNOUPGRADE": "1",
            "STNODEFAULTFOLDER": "1",
            "STNORESTART": "1",
        }

    def write_config(self, peers):
        """config.xml for this instance and its `peers`, written before the
        first start: everything that could reach past 127.0.0.1 is off."""
        devices = "".join(
            '    <device id=%s name=%s compression="metadata" introducer="false">\n'
            "        <address>tcp://127.0.0.1:%d</address>\n"
            "        <paused>false</paused>\n"
            "        <autoAcceptFolders>false</autoAcceptFolders>\n"
            "    </device>\n" % (quoteattr(instance.device_id), quoteattr(instance.label),
                                 instance.listen_port)
            for instance in [self] + peers)
        folder_devices = "".join(
            "        <device id=%s></device>\n" % quoteattr(instance.device_id)
            for instance in [self] + peers)
        config = (
            '<configuration version="36">\n'
            '    <folder id=%(id)s label=%(id)s path=%(path)s type="sendreceive"'
            ' rescanIntervalS="%(rescan)d" fsWatcherEnabled="false" ignorePerms="false"'
            ' autoNormalize="true">\n'
            "        <filesystemType>basic</filesystemType>\n"
            "%(folder_devices)s"
            '        <minDiskFree unit="%%">1</minDiskFree>\n'
            "        <versioning></versioning>\n"
            "        <maxConflicts>10</maxConflicts>\n"
            "        <markerName>.stfolder</markerName>\n"
            "    </folder>\n"
            "%(devices)s"
            '    <gui enabled="true" tls="false" debugging="false">\n'
            "        <address>127.0.0.1:%(gui)d</address>\n"
            "        <apikey>%(key)s</apikey>\n"
            "    </gui>\n"
            "    <options>\n"
            "        <listenAddress>tcp://127.0.0.1:%(listen)d</listenAddress>\n"
            "        <globalAnnounceEnabled>false</globalAnnounceEnabled>\n"
            "        <localAnnounceEnabled>false</localAnnounceEnabled>\n"
            "        <relaysEnabled>false</relaysEnabled>\n"
            "        <natEnabled>false</natEnabled>\n"
            "        <stunKeepaliveStartS>0</stunKeepaliveStartS>\n"
            "        <announceLANAddresses>false</announceLANAddresses>\n"
            "        <urAccepted>-1</urAccepted>\n"
            "        <urSeen>3</urSeen>\n"
            "        <crashReportingEnabled>false</crashReportingEnabled>\n"
            "        <autoUpgradeIntervalH>0</autoUpgradeIntervalH>\n"
            "        <startBrowser>false</startBrowser>\n"
            "        <restartOnWakeup>false</restartOnWakeup>\n"
            "        <reconnectionIntervalS>%(reconnect)d</reconnectionIntervalS>\n"
            "    </options>\n"
            "</configuration>\n") % {
                "id": quoteattr(FOLDER_ID), "path": quoteattr(self.folder),
                "rescan": RESCAN_INTERVAL_S, "folder_devices": folder_devices,
                "devices": devices, "gui": self.gui_port, "key": escape(self.api_key),
                "listen": self.listen_port, "reconnect": RECONNECTION_INTERVAL_S}
        path = os.path.join(self.home, "config.xml")
        with open(path, "w") as file:
            file.write(config)
        os.chmod(path, 0o600)

    def start(self, seconds=30):
        check(self.process is None, "%s is already running" % self.label)
        os.makedirs(self.folder, mode=0o755, exist_ok=True)
        # The marker that tells Syncthing the folder is there on purpose.
        os.makedirs(os.path.join(self.folder, ".stfolder"), exist_ok=True)
        log = open(self.log, "ab")
        try:
            self.process = subprocess.Popen(
                ["syncthing", "serve", "--home=" + self.home, "--no-browser", "--no-restart",
                 "--no-upgrade", "--logflags=3"],
                stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                env=self._environment(), start_new_session=True)
        finally:
            log.close()
        _STARTED[self.process.pid] = self
        deadline = time.monotonic() + seconds
        while True:
            check(self.process.poll() is None, "%s ended at start (exit %s): %s"
                  % (self.label, self.process.returncode, self.log_tail()))
            try:
                if self.get("/rest/system/ping").get("ping") == "pong":
                    return
            except (OSError, http.client.HTTPException, ValueError):
                pass
            check(time.monotonic() < deadline, "%s did not answer within %ds: %s"
                  % (self.label, seconds, self.log_tail()))
            time.sleep(0.05)

    def stop(self, seconds=15):
        """Ends this instance by its pid, and the Syncthing its monitor runs:
        SIGTERM to the monitor, which passes it on and waits for its child;
        SIGKILL, by pid, to whichever of them is left after `seconds`."""
        if self.process is None:
            return
        process, self.process = self.process, None
        children = process_tree(process.pid)[1:]
        if process.poll() is None:
            os.kill(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + seconds
        killed = False
        while True:
            left = [pid for pid in children if _runs_home(pid, self.home)]
            if process.poll() is None:
                left.append(process.pid)
            if not left:
                break
            if time.monotonic() >= deadline:
                check(not killed, "%s did not end after SIGKILL: %s" % (self.label, left))
                for pid in left:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                killed = True
                deadline = time.monotonic() + seconds
            time.sleep(0.05)
        _STARTED.pop(process.pid, None)

    def log_tail(self, size=1500):
        try:
            with open(self.log, "rb") as file:
                return file.read()[-size:].decode("utf-8", "replace")
        except FileNotFoundError:
            return "(no log)"

    # --- REST ----------------------------------------------------------

    def request(self, method, path, query=None, timeout=30):
        url = path + ("?" + urllib.parse.urlencode(query) if query else "")
        connection = http.client.HTTPConnection("127.0.0.1", self.gui_port, timeout=timeout)
        try:
            connection.request(method, url, headers={"X-API-Key": self.api_key})
            response = connection.getresponse()
            body = response.read()
        finally:
            connection.close()
        if response.status != 200:
            raise Failure("%s %s %s on %s: HTTP %d %s" % (
                method, path, query or "", self.label, response.status, body[:300]))
        return json.loads(body) if body.strip() else None

    def get(self, path, **query):
        return self.request("GET", path, query)

    def post(self, path, **query):
        return self.request("POST", path, query)

    def scan(self):
        """Rescans the shared folder; returns when the scan is done (the
        REST call waits for it)."""
        self.post("/rest/db/scan", folder=FOLDER_ID)

    def status(self):
        return self.get("/rest/db/status", folder=FOLDER_ID)

    def completion_of(self, peer):
        """How much of the folder `peer` has, as this instance sees it."""
        return self.get("/rest/db/completion", folder=FOLDER_ID, device=peer.device_id)

    def connected_to(self, peer):
        connections = self.get("/rest/system/connections")["connections"]
        return bool(connections.get(peer.device_id, {}).get("connected"))

    def disk_events(self, since):
        """The LocalChangeDetected and RemoteChangeDetected events after
        `since`, without waiting for more."""
        return self.get("/rest/events/disk", since=since, timeout=0) or []


def is_syncthing_temporary(name):
    """A file Syncthing writes while it pulls (`.syncthing.<name>.tmp`, from
    lib/fs/tempname.go): never synced, and kept for a day when a pull fails."""
    return name.startswith(".syncthing.") and name.endswith(".tmp")


def tree(folder):
    """{relative path: (sha256 of the bytes, modification time in ns, mode)}
    of the regular files under `folder`, without Syncthing's own marker and
    temporary files. The time and mode too: Syncthing syncs both, and a
    change of the time alone (the same bytes) is still on its way while the
    bytes are alike; a save that lands on the other machine meanwhile gets
    the time the change carried (Syncthing 1.19 sets it on whatever file is
    there), so a pair is in sync only once the times are alike too."""
    found = {}
    for directory, folders, files in os.walk(folder):
        folders[:] = [name for name in folders if name != ".stfolder"]
        for name in files:
            if is_syncthing_temporary(name):
                continue
            path = os.path.join(directory, name)
            try:
                with open(path, "rb") as file:
                    info = os.fstat(file.fileno())
                    found[os.path.relpath(path, folder)] = (
                        hashlib.sha256(file.read()).hexdigest(), info.st_mtime_ns,
                        info.st_mode & 0o7777)
            except FileNotFoundError:
                continue
    return found


class Cluster:
    """Two or three instances, `a`, `b` (and `c`), sharing one folder each
    (`folders`, the same folder to Syncthing), every one a device of every
    other. Use it as a context manager: all are stopped when the block
    ends, whatever happened."""

    def __init__(self, root, *folders):
        check(2 <= len(folders) <= 3, "a cluster of %d instances" % len(folders))
        self.instances = [Instance(label, os.path.join(root, "syncthing-" + label), folder)
                          for label, folder in zip("abc", folders)]
        for instance in self.instances:
            instance.write_config([peer for peer in self.instances if peer is not instance])

    @property
    def a(self):
        return self.instances[0]

    @property
    def b(self):
        return self.instances[1]

    @property
    def c(self):
        return self.instances[2]

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exception):
        self.stop()

    def start(self, seconds=60):
        try:
            for instance in self.instances:
                instance.start()
            self.wait_connected(True, seconds)
        except BaseException:
            self.stop()
            raise

    def stop(self):
        for instance in self.instances:
            instance.stop()

    def links(self):
        """Each two instances once, (first, second) in the order of `instances`."""
        return [(first, second) for index, first in enumerate(self.instances)
                for second in self.instances[index + 1:]]

    def other(self, instance):
        """The other instance of a cluster of two."""
        return self.b if instance is self.a else self.a

    def wait_connected(self, connected, seconds=30):
        deadline = time.monotonic() + seconds
        while True:
            if all(first.connected_to(second) == connected
                   and second.connected_to(first) == connected
                   for first, second in self.links()):
                return
            check(time.monotonic() < deadline, "the instances were not %s within %ds; logs: %s"
                  % ("connected" if connected else "apart", seconds,
                     " | ".join(instance.log_tail(600) for instance in self.instances)))
            time.sleep(0.05)

    def pause(self, seconds=30):
        """Takes the machines apart: of each two, the first pauses the
        second, which closes their connection; the second's attempts to dial
        are refused until `resume`."""
        for first, second in self.links():
            first.post("/rest/system/pause", device=second.device_id)
        self.wait_connected(False, seconds)

    def resume(self, seconds=90):
        """Brings them together again: of each two, the first resumes the
        second and dials it at once (lib/connections dials a device the
        moment it is unpaused); returns once every instance sees every
        connection. Pausing on one side only keeps this quick: when both
        sides pause and resume, the first dial can reach a side that has not
        resumed yet, and the next comes 20 s later. The deadline leaves room
        for two such redials: on a busy machine a TLS handshake between
        three instances timed out once, and 30 s was not enough."""
        for first, second in self.links():
            first.post("/rest/system/resume", device=second.device_id)
        self.wait_connected(True, seconds)

    def scan(self):
        for instance in self.instances:
            instance.scan()

    def _in_sync(self):
        for instance in self.instances:
            status = instance.status()
            if status.get("state") != "idle" or status.get("needTotalItems", 0) != 0:
                return False
            for peer in self.instances:
                if peer is instance:
                    continue
                completion = instance.completion_of(peer)
                if completion.get("completion") != 100 or completion.get("needItems", 0) != 0:
                    return False
        first = tree(self.a.folder)
        return all(tree(instance.folder) == first for instance in self.instances[1:])

    def wait_synced(self, seconds=60):
        """Scans every folder, then waits until each instance is idle with
        nothing needed, each sees every other complete
        (`/rest/db/completion`) and the folders hold the same files with the
        same bytes. Returns the seconds it took."""
        started = time.monotonic()
        self.scan()
        deadline = started + seconds
        while not self._in_sync():
            if time.monotonic() >= deadline:
                trees = [tree(instance.folder) for instance in self.instances]
                paths = sorted(set().union(*trees))
                differ = [path for path in paths
                          if any(other.get(path) != trees[0].get(path) for other in trees[1:])]
                raise Failure("the folders were not alike within %ds: states %s; they differ "
                              "in %s" % (seconds, [instance.status().get("state")
                                                   for instance in self.instances],
                                         ["%s (%s)" % (path, ", ".join(
                                             "%s %s" % (instance.label, found.get(path))
                                             for instance, found in zip(self.instances, trees)))
                                          for path in differ[:10]]))
            time.sleep(0.05)
        return time.monotonic() - started

    def sockets(self):
        """Every TCP and UDP socket the instances (monitor and Syncthing)
        hold, as (instance, protocol, local, remote): read from /proc, so it
        needs nothing but the kernel."""
        found = []
        for instance in self.instances:
            if instance.process is None:
                continue
            inodes = set()
            for pid in process_tree(instance.process.pid):
                inodes |= _socket_inodes(pid)
            found.extend((instance.label, protocol, local, remote)
                         for protocol, local, remote, inode in _sockets() if inode in inodes)
        return found

    def foreign_sockets(self):
        """The sockets not bound to 127.0.0.1, or connected elsewhere: there
        must be none."""
        return [socket for socket in self.sockets() if not _on_loopback(socket[2], socket[3])]


def _on_loopback(local, remote):
    """A socket bound to 127.0.0.1, unconnected or connected to 127.0.0.1."""
    remote_host, remote_port = remote.rsplit(":", 1)
    unconnected = remote_host in ("0.0.0.0", "[::]") and remote_port == "0"
    return local.rsplit(":", 1)[0] == "127.0.0.1" and (remote_host == "127.0.0.1" or unconnected)


def _socket_inodes(pid):
    inodes = set()
    folder = "/proc/%d/fd" % pid
    try:
        names = os.listdir(folder)
    except (FileNotFoundError, ProcessLookupError):
        return inodes
    for name in names:
        try:
            target = os.readlink(os.path.join(folder, name))
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    return inodes


def _address(text, ipv6):
    host, port = text.split(":")
    raw = bytes.fromhex(host)
    if ipv6:
        # Four 32-bit words, each in the kernel's (little-endian) order.
        raw = b"".join(raw[i:i + 4][::-1] for i in range(0, 16, 4))
        packed = socket.inet_ntop(socket.AF_INET6, raw)
        if packed.startswith("::ffff:") and "." in packed:
            return "%s:%d" % (packed[7:], int(port, 16))
        return "[%s]:%d" % (packed, int(port, 16))
    return "%s:%d" % (socket.inet_ntop(socket.AF_INET, raw[::-1]), int(port, 16))


def _sockets():
    """(protocol, local, remote, inode) of every TCP and UDP socket."""
    for protocol in ("tcp", "tcp6", "udp", "udp6"):
        try:
            with open("/proc/net/" + protocol) as file:
                lines = file.read().splitlines()[1:]
        except FileNotFoundError:
            continue
        for line in lines:
            fields = line.split()
            yield (protocol, _address(fields[1], protocol.endswith("6")),
                   _address(fields[2], protocol.endswith("6")), fields[9])
