"""Making the file systems the file-system group (filesystems.py) runs on,
each from a bounded image on a loop device or a FUSE mount under this run's
scratch folder, and taking every one of them down again.

Every step is a context manager: the mount, the loop device and the sshd
are undone in a `finally`, whatever happened inside; an unmount that keeps
failing (a busy FUSE daemon) ends in `umount -l`, a loop device is detached
and waited for until `losetup` no longer lists it, the sshd is killed by its
pid. Every wait has a deadline.

A program or kernel module that is not there raises Unavailable with the
reason and the Debian package, so the file system is skipped, never failed.
"""

import contextlib
import os
import shutil
import socket
import subprocess
import time

from harness import Failure, check, run_tool


class Unavailable(Exception):
    """This file system cannot be made here: the reason says what is missing."""


def tool(argv, timeout=60, env=None):
    """Runs a mount, mkfs or losetup command to its end (`run_tool`); its
    standard output when it exits 0."""
    return run_tool(argv, timeout, env=env).stdout


def need_programs(*pairs):
    """Each (program, Debian package) must be on PATH (sbin included)."""
    path = os.environ.get("PATH", "") + ":/usr/sbin:/sbin"
    for program, package in pairs:
        if shutil.which(program, path=path) is None:
            raise Unavailable("no %s (Debian package %s; scripts/test-tools installs it)"
                              % (program, package))


def program(name):
    return shutil.which(name, path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin")


def need_fuse():
    if not os.path.exists("/dev/fuse"):
        raise Unavailable("no /dev/fuse (FUSE is not available in this kernel or container)")
    if "fuse" not in kernel_file_systems():
        raise Unavailable("the kernel has no fuse file system (/proc/filesystems)")


def kernel_file_systems():
    with open("/proc/filesystems") as file:
        return {line.split()[-1] for line in file if line.strip()}


def kernel_has(fstype):
    """Whether the kernel can mount `fstype`, loading its module when it can."""
    if fstype in kernel_file_systems():
        return True
    modprobe = program("modprobe")
    if modprobe:
        subprocess.run([modprobe, "-q", fstype], capture_output=True, timeout=20)
    return fstype in kernel_file_systems()


def need_kernel(fstype):
    if not kernel_has(fstype):
        raise Unavailable("the kernel has no %s module (see /proc/filesystems)" % fstype)


def mounts_of(target):
    """How many mounts are stacked on `target` now."""
    with open("/proc/self/mountinfo") as file:
        return sum(1 for line in file if line.split()[4] == target)


def wait_until(condition, seconds, what):
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() >= deadline:
            raise Failure("%s within %gs" % (what, seconds))
        time.sleep(0.05)


@contextlib.contextmanager
def image(path, size, make):
    """A sparse file of `size` bytes, formatted by the argv `make` (the
    image's path is appended); removed at the end."""
    with open(path, "wb") as file:
        file.truncate(size)
    try:
        tool(list(make) + [path], timeout=120)
        yield path
    finally:
        os.unlink(path)


@contextlib.contextmanager
def loop_device(path):
    """`losetup --find --show` on the image; detached at the end, and waited
    for until no loop device is left on the image (a FUSE daemon that still
    holds it lets go when it exits)."""
    device = tool(["losetup", "--find", "--show", path]).strip()
    try:
        yield device
    finally:
        detach(device, path)


def detach(device, path):
    # ntfs-3g can hold the device for tens of seconds after its unmount
    # (seen after thousands of saves): `losetup --detach` then only marks it,
    # and it goes once the daemon has let go.
    deadline = time.monotonic() + 120
    while True:
        left = subprocess.run(["losetup", "--associated", path], capture_output=True,
                              text=True, timeout=20).stdout.strip()
        if not left:
            return
        subprocess.run(["losetup", "--detach", device], capture_output=True, timeout=20)
        if time.monotonic() >= deadline:
            raise Failure("the loop device %s on %s is still there: %s" % (device, path, left))
        time.sleep(0.1)


@contextlib.contextmanager
def mounted(target, argv, fuse=False, env=None):
    """Runs `argv` (which mounts something on `target`) and unmounts at the
    end: umount (fusermount -u for a FUSE mount a user could make), retried
    for a few seconds while busy, then `umount -l` as a last resort."""
    os.makedirs(target, exist_ok=True)
    before = mounts_of(target)
    tool(argv, timeout=60, env=env)
    try:
        wait_until(lambda: mounts_of(target) > before, 10, "%s mounted nothing on %s"
                   % (argv[0], target))
        yield target
    finally:
        unmount(target, before, fuse)


def unmount(target, before, fuse):
    commands = [["umount", target]]
    if fuse and program("fusermount3"):
        commands.insert(0, ["fusermount3", "-u", target])
    elif fuse and program("fusermount"):
        commands.insert(0, ["fusermount", "-u", target])
    deadline = time.monotonic() + 10
    while mounts_of(target) > before:
        if time.monotonic() >= deadline:
            subprocess.run(["umount", "-l", target], capture_output=True, timeout=20)
            wait_until(lambda: mounts_of(target) <= before, 10,
                       "umount -l left a mount on %s" % target)
            raise Failure("%s could not be unmounted (busy): unmounted lazily" % target)
        for command in commands:
            if subprocess.run(command, capture_output=True, timeout=20).returncode == 0:
                break
        else:
            time.sleep(0.2)


# --- sshd on a loopback port ------------------------------------------------


def free_loopback_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def sshd(folder):
    """An sshd of the run's own, on 127.0.0.1 and a free port, with its own
    host key and configuration in `folder`: key-only logins as root with the
    client key it makes, nothing else. Yields (port, client key); killed by
    its pid at the end. Never the system's sshd, which is not touched."""
    need_programs(("sshd", "openssh-server"), ("ssh-keygen", "openssh-client"),
                  ("ssh", "openssh-client"))
    os.makedirs(folder, mode=0o700, exist_ok=True)
    host_key = os.path.join(folder, "host_key")
    client_key = os.path.join(folder, "client_key")
    for key in (host_key, client_key):
        tool(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key])
    authorized = os.path.join(folder, "authorized_keys")
    shutil.copy(client_key + ".pub", authorized)
    port = free_loopback_port()
    config = os.path.join(folder, "sshd_config")
    with open(config, "w") as file:
        file.write("\n".join([
            "Port %d" % port,
            "ListenAddress 127.0.0.1",
            "HostKey %s" % host_key,
            "AuthorizedKeysFile %s" % authorized,
            "PermitRootLogin prohibit-password",
            "PubkeyAuthentication yes",
            "PasswordAuthentication no",
            "KbdInteractiveAuthentication no",
            "UsePAM no",
            # The keys live in the scratch folder, whose parents are not root's alone.
            "StrictModes no",
            "PidFile %s" % os.path.join(folder, "sshd.pid"),
            "Subsystem sftp internal-sftp",
            ""]))
    # sshd refuses to start without its privilege separation folder, which
    # only the system's service would otherwise make.
    made_privsep = False
    if not os.path.isdir("/run/sshd"):
        os.makedirs("/run/sshd", mode=0o755)
        made_privsep = True
    log = open(os.path.join(folder, "sshd.log"), "wb")
    server = subprocess.Popen([program("sshd"), "-D", "-e", "-f", config], stdin=subprocess.DEVNULL,
                              stdout=log, stderr=log)
    try:
        def listening():
            check(server.poll() is None, "sshd exited %s: %s" % (
                server.returncode, open(log.name, "rb").read()[-400:]))
            with socket.socket() as probe:
                return probe.connect_ex(("127.0.0.1", port)) == 0

        wait_until(listening, 10, "sshd did not listen on 127.0.0.1:%d" % port)
        yield port, client_key
    finally:
        if server.poll() is None:
            server.terminate()  # the sshd this function started, by its pid
            try:
                server.wait(timeout=5)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait(timeout=5)
        log.close()
        if made_privsep:
            shutil.rmtree("/run/sshd", ignore_errors=True)


def sshfs_command(port, client_key, served, target):
    return ["sshfs", "-F", "/dev/null", "-o", ",".join([
        "IdentityFile=%s" % client_key, "IdentitiesOnly=yes", "Port=%d" % port,
        "StrictHostKeyChecking=no", "UserKnownHostsFile=/dev/null", "BatchMode=yes",
        "ConnectTimeout=10"]), "root@127.0.0.1:%s" % served, target]
