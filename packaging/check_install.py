#!/usr/bin/env python3
"""Checks the artifacts of `make dist` where Swift is not: a clean Debian 12.

    packaging/check_install.py --deb dist/filenote_V-1_amd64.deb \\
        --tarball dist/filenote-V-x86_64-linux.tar.gz

1. Each artifact matches the .sha256 beside it.
2. lintian reports no error and no warning on the package, and the
   informational tags it reports are the ones packaging/README.md lists.
3. In a Debian 12 root made by `debootstrap --variant=minbase bookworm` (with
   man-db and bash-completion, as a desktop has them):
   - `apt-get install ./filenote_….deb` installs it; `filenote --version`
     prints the version; a user saves a note and shows it; `man filenote`
     finds the page; an interactive bash loads the completion from the
     package;
   - `apt-get purge filenote` leaves none of the paths `dpkg -L` listed that
     the package brought, and no other file outside dpkg's and apt's books;
   - the package's filenote runs where no /proc is mounted;
   - the tarball unpacked into the user's ~/.local runs from a login shell's
     PATH, with its man page and bash completion, and its uninstall script
     removes every file it brought.

The root is made once and kept in /var/cache/filenote-test (FILENOTE_TEST_CACHE
changes it), remade when it is older than a week; each run works on a copy
of it, removed at the end. Nothing is run in the root but through chroot, and
each command there runs in mount and PID namespaces of its own with a /proc of
its own (the Swift runtime reads /proc/self/exe as it starts): the mount goes
with the namespace, however the command ends, and none is ever seen outside.

Step 3 needs root: as another user it is skipped, with that reason. Python
3 standard library only; the last line is `dist-check: passed (…)`, with what
was skipped, or says what failed, and the exit status is 1 when anything failed.
"""

import argparse
import fcntl
import glob
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SUITE = "bookworm"
VARIANT = "minbase"
# What a desktop Debian has and the checks use: man for `man filenote`,
# bash-completion for the completion's loader.
INCLUDE = ["man-db", "bash-completion"]
# A root older than this is made again, so it follows the mirror's updates.
CACHE_DAYS = 7
# The longest each step may take: making the root (a download of 35 MB),
# and any one command in it.
DEBOOTSTRAP_SECONDS = 900
COMMAND_SECONDS = 120
DEFAULT_MIRROR = "http://deb.debian.org/debian"
USER = "alice"
# Where installing and purging may leave files besides the package's own:
# apt's records, caches and log, the manual's index (man-db's trigger), and
# what the checks themselves put there (the artifacts, the user's note).
BOOKKEEPING = ("var/lib/apt/", "var/cache/apt/", "var/log/apt/", "var/cache/man/",
               "tmp/filenote", f"home/{USER}/")


# The heading of packaging/README.md whose table lists the informational tags.
LINTIAN_SECTION = "## What lintian says"


class CheckFailed(Exception):
    pass


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deb", required=True)
    parser.add_argument("--tarball", required=True)
    parser.add_argument("--mirror", default=os.environ.get("FILENOTE_TEST_MIRROR"),
                        help="the Debian mirror debootstrap uses (default: the one apt uses here)")
    arguments = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))  # so every finally runs
    started = time.monotonic()
    try:
        for artifact in (arguments.deb, arguments.tarball):
            check_checksum(artifact)
        check_lintian(arguments.deb)
        check_binary_and_copyright(arguments.deb, arguments.tarball)
        skipped = ""
        if os.geteuid() != 0:
            skipped = "; the Debian 12 root skipped: debootstrap and chroot need root"
        else:
            check_in_debian(arguments.deb, arguments.tarball, arguments.mirror or host_mirror())
    except CheckFailed as failure:
        print(f"dist-check: FAILED: {failure}")
        return 1
    print(f"dist-check: passed ({time.monotonic() - started:.1f} s{skipped})")
    return 0


def check_checksum(artifact: str) -> None:
    with open(artifact + ".sha256") as f:
        expected, name = f.read().split()
    if name != os.path.basename(artifact):
        raise CheckFailed(f"{artifact}.sha256 names {name}")
    with open(artifact, "rb") as f:
        actual = hashlib.sha256(f.read()).hexdigest()
    if actual != expected:
        raise CheckFailed(f"{artifact}: sha256 {actual}, but its .sha256 says {expected}")
    print(f"dist-check: {artifact} matches its .sha256")


def check_binary_and_copyright(deb: str, tarball: str) -> None:
    """The packaged binary is hardened (hardening-check: position-independent,
    read-only relocations, immediate binding), the tarball's is the same
    file, and both carry the same copyright file."""
    with tempfile.TemporaryDirectory(prefix="filenote-dist-check-") as work:
        subprocess.run(["dpkg-deb", "-x", deb, work + "/deb"], check=True)
        os.makedirs(work + "/tar")
        subprocess.run(["tar", "-xzf", tarball, "-C", work + "/tar", "--strip-components=1"],
                       check=True)
        binary = work + "/deb/usr/bin/filenote"
        report = run(["hardening-check", binary]).stdout
        for line in ("Position Independent Executable: yes", "Read-only relocations: yes",
                     "Immediate binding: yes"):
            if line not in report:
                raise CheckFailed(f"hardening-check does not say {line!r}:\n{report}")
        pairs = [(binary, work + "/tar/bin/filenote"),
                 (work + "/deb/usr/share/doc/filenote/copyright",
                  work + "/tar/share/doc/filenote/copyright")]
        for packaged, unpacked in pairs:
            with open(packaged, "rb") as a, open(unpacked, "rb") as b:
                if a.read() != b.read():
                    raise CheckFailed(f"the package's and the tarball's "
                                      f"{os.path.basename(packaged)} differ")
    print("dist-check: hardening-check: PIE, read-only relocations, immediate binding; "
          "the package and the tarball carry the same binary and copyright file")


def check_lintian(deb: str) -> None:
    lintian = run(["lintian", "--fail-on", "error,warning", "--display-info", "--pedantic", deb])
    everything = lintian.stdout
    if lintian.returncode != 0:
        raise CheckFailed(f"lintian reports errors or warnings:\n{everything}")
    reported = sorted({match for match in re.findall(r"^[IP]: filenote: (\S+)", everything, re.M)})
    readme = os.path.join(os.path.dirname(os.path.abspath(__file__)), "README.md")
    with open(readme) as f:
        section = f.read().split(LINTIAN_SECTION, 1)[-1].split("\n## ", 1)[0]
    listed = sorted(set(re.findall(r"^\| `([a-z0-9-]+)` \|", section, re.M)))
    if reported != listed:
        raise CheckFailed(f"lintian's informational tags are {reported}, but {readme} "
                          f"lists {listed}:\n{everything}")
    print(f"dist-check: lintian: no error, no warning; informational: {', '.join(reported)}")


def check_in_debian(deb: str, tarball: str, mirror: str) -> None:
    cache = os.environ.get("FILENOTE_TEST_CACHE", "/var/cache/filenote-test")
    os.makedirs(cache, exist_ok=True)
    runs = os.path.join(cache, "runs")
    os.makedirs(runs, exist_ok=True)
    with open(os.path.join(cache, "lock"), "w") as lock:
        # One run at a time makes, refreshes or copies the cached root.
        fcntl.flock(lock, fcntl.LOCK_EX)
        remove_abandoned_runs(runs)
        cached = cached_root(cache, mirror)
        work = tempfile.mkdtemp(prefix=f"run-{os.getpid()}-", dir=runs)
        started = time.monotonic()
        try:
            copy = os.path.join(work, "root")
            subprocess.run(["cp", "-a", "--reflink=auto", cached, copy], check=True)
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)
            raise
    try:
        root = DebianRoot(copy)
        print(f"dist-check: a copy of the cached root in {time.monotonic() - started:.1f} s")
        check_package(root, deb)
        check_tarball(root, tarball)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def cached_root(cache: str, mirror: str) -> str:
    """The cached root, made first when there is none or it is too old."""
    key = hashlib.sha256(" ".join([SUITE, VARIANT] + INCLUDE).encode()).hexdigest()[:12]
    root = os.path.join(cache, f"{SUITE}-{VARIANT}-{key}")
    stamp = os.path.join(root, ".filenote-test-made")
    if os.path.exists(stamp) and time.time() - os.path.getmtime(stamp) < CACHE_DAYS * 86400:
        return root
    # Roots of other settings, too old, or left half-made by a killed run go
    # (this run holds the lock); a new one is made beside and takes the name
    # only once complete.
    for old in glob.glob(os.path.join(cache, f"{SUITE}-{VARIANT}-*")) + glob.glob(
            os.path.join(cache, "making-*")):
        shutil.rmtree(old)
    new = tempfile.mkdtemp(prefix="making-", dir=cache)
    started = time.monotonic()
    print(f"dist-check: making a Debian 12 root with debootstrap from {mirror} "
          f"(kept in {cache} for {CACHE_DAYS} days)")
    try:
        # In a mount namespace of its own, so the /proc and /sys debootstrap
        # mounts in the root go with it even if it is killed.
        made = run(["unshare", "--mount", "--propagation", "private", "debootstrap",
                    f"--variant={VARIANT}", "--include=" + ",".join(INCLUDE), SUITE,
                    new, mirror], timeout=DEBOOTSTRAP_SECONDS)
        if made.returncode != 0:
            raise CheckFailed(f"debootstrap failed ({made.returncode}):\n{made.stdout[-3000:]}")
        os.chmod(new, 0o755)  # the root's own /, made 0700 by mkdtemp
        with open(os.path.join(new, ".filenote-test-made"), "w") as f:
            f.write(f"debootstrap --variant={VARIANT} {SUITE} {mirror}\n")
        os.rename(new, root)
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise
    print(f"dist-check: root made in {time.monotonic() - started:.1f} s")
    return root


def remove_abandoned_runs(runs: str) -> None:
    """Removes the copies of runs that were killed before removing their own."""
    for folder in glob.glob(os.path.join(runs, "run-*-*")):
        pid = int(os.path.basename(folder).split("-")[1])
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)


def host_mirror() -> str:
    """The Debian mirror this machine's apt uses, else deb.debian.org."""
    for path in sorted(glob.glob("/etc/apt/sources.list") + glob.glob("/etc/apt/sources.list.d/*")):
        try:
            with open(path) as f:
                text = f.read()
        except OSError:
            continue
        for uri in re.findall(r"(?:^deb\s+(?:\[[^]]*\]\s+)?|^URIs:\s*)(\S+)", text, re.M):
            if re.fullmatch(r"https?://\S+/debian/?", uri):
                return uri.rstrip("/")
    return DEFAULT_MIRROR


class DebianRoot:
    """A Debian root, run in through chroot."""

    def __init__(self, path: str):
        self.path = path

    def run(self, command: str, user: str = "", stdin: str = "", login: bool = False,
            proc: bool = True) -> str:
        """Runs a shell command in the root, as root or as the user, with a
        clean environment: its output, or CheckFailed when it fails. Without
        proc, no /proc is mounted in the root, as in a bare chroot."""
        home = f"/home/{user}" if user else "/root"
        environment = ["HOME=" + home, "LANG=C.UTF-8", "TERM=dumb",
                       "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                       "DEBIAN_FRONTEND=noninteractive", "USER=" + (user or "root")]
        shell = ["bash", "-l", "-c", command] if login else ["sh", "-c", command]
        argv = ["unshare", "--mount", "--pid", "--fork"] + (
                [f"--mount-proc={self.path}/proc"] if proc else []) + [
                "chroot"] + ([f"--userspec={user}:{user}"] if user else []) + [
                self.path, "/usr/bin/env", "-i", "--chdir=" + home] + environment + shell
        result = run(argv, stdin=stdin)
        if result.returncode != 0:
            raise CheckFailed(f"in the Debian root{' as ' + user if user else ''}: {command}\n"
                              f"exit {result.returncode}:\n{result.stdout}")
        return result.stdout

    def paths(self) -> set[str]:
        """Every path in the root, relative to it (folders end with a slash)."""
        found = set()
        for folder, folders, files in os.walk(self.path):
            relative = os.path.relpath(folder, self.path)
            prefix = "" if relative == "." else relative + "/"
            if prefix == "proc/":
                continue
            found.update(prefix + name + "/" for name in folders)
            found.update(prefix + name for name in files)
        return found

    def exists(self, path: str) -> bool:
        return os.path.lexists(self.path + path)


# What the bash of a user types, in effect, when Tab is pressed after
# `filenote sh`: bash-completion's loader (complete -D) is asked for the
# command's completion, then the completion it loaded is asked for the word.
COMPLETE = r"""
complete -p filenote >/dev/null 2>&1 && echo "a completion before the loader ran"
loader=$(complete -p -D | sed -n 's/.*-F \([^ ]*\) .*/\1/p')
COMP_WORDS=(filenote sh); COMP_CWORD=1; COMP_LINE="filenote sh"; COMP_POINT=${#COMP_LINE}
"$loader" filenote sh filenote
function=$(complete -p filenote 2>/dev/null | sed -n 's/.*-F \([^ ]*\) .*/\1/p')
echo "function=$function"
COMPREPLY=()
[ -n "$function" ] && "$function" filenote sh filenote
printf 'reply=%s\n' "${COMPREPLY[@]}"
"""


def check_package(root: DebianRoot, deb: str) -> None:
    name = os.path.basename(deb)
    deb_version = re.fullmatch(r"filenote_(.+)-1_amd64\.deb", name).group(1)
    # The program writes a pre-release as SemVer does (-dev), the package as
    # Debian does (~dev).
    version = deb_version.replace("~dev", "-dev")
    root.run(f"useradd --create-home --shell /bin/bash {USER}")
    if root.run("command -v swift swiftc || true").strip():
        raise CheckFailed("the Debian root has a Swift toolchain")
    shutil.copy(deb, os.path.join(root.path, "tmp", name))
    before = root.paths()
    started = time.monotonic()
    # No pseudo-terminal for dpkg: the root has no /dev/pts.
    root.run(f"apt-get install -y -o Dpkg::Use-Pty=0 /tmp/{name}")
    print(f"dist-check: apt-get install ./{name}: {time.monotonic() - started:.1f} s")
    status = root.run("dpkg-query -W -f '${Status} ${Version}' filenote")
    expect_equal(status, f"install ok installed {deb_version}-1",
                 "dpkg-query of the installed package")
    expect_equal(root.run("filenote --version"), f"filenote {version}\n", "filenote --version")
    root.run("filenote save buy milk", user=USER)
    expect_equal(root.run("filenote show", user=USER), "buy milk\n", "filenote show after a save")
    # Where no /proc is mounted (a bare chroot), it runs all the same.
    if root.exists("/proc/self"):
        raise CheckFailed("the root has a /proc mounted outside the commands")
    expect_equal(root.run("filenote --version", proc=False), f"filenote {version}\n",
                 "filenote --version without /proc")
    root.run("filenote save bread too", user=USER, proc=False)
    expect_equal(root.run("filenote show", user=USER, proc=False), "bread too\n",
                 "filenote show without /proc")
    page = root.run("MANWIDTH=80 MANPAGER=cat man filenote", user=USER)
    expect_in(f"filenote {version}", page, "man filenote")
    expect_equal(root.run("man -w filenote"), "/usr/share/man/man1/filenote.1.gz\n", "man -w")
    completion = root.run("bash -i 2>/dev/null", user=USER, stdin=COMPLETE)
    expect_equal(completion, "function=_filenote\nreply=show\n", "bash -i completing 'filenote sh'")
    listed = [path for path in root.run("dpkg -L filenote").split() if path != "/."]
    # The paths the package brought; the others are folders it shares.
    brought = [path for path in listed
               if path.lstrip("/") not in before and path.lstrip("/") + "/" not in before]

    root.run("apt-get purge -y -o Dpkg::Use-Pty=0 filenote")
    left = [path for path in brought if root.exists(path)]
    if left:
        raise CheckFailed(f"apt-get purge left paths of the package: {left}")
    shared = [path for path in listed if path not in brought and not root.exists(path)]
    if shared:
        raise CheckFailed(f"apt-get purge removed folders other packages have: {shared}")
    new = sorted(path for path in root.paths() - before if not path.startswith(BOOKKEEPING))
    if new:
        raise CheckFailed(f"installing and purging the package left {new}")
    if root.run("command -v filenote || true").strip():
        raise CheckFailed("filenote is still on PATH after the purge")
    print(f"dist-check: the package installs, works and purges: the {len(brought)} paths it "
          f"brought gone, the {len(listed) - len(brought)} folders it shares kept")


def check_tarball(root: DebianRoot, tarball: str) -> None:
    name = os.path.basename(tarball)
    version = re.fullmatch(r"filenote-(.+)-x86_64-linux\.tar\.gz", name).group(1)
    shutil.copy(tarball, os.path.join(root.path, "tmp", name))
    root.run(f"mkdir -p ~/.local && tar -xzf /tmp/{name} --strip-components=1 -C ~/.local",
             user=USER)
    # A login shell, as a new terminal would be: Debian's ~/.profile puts
    # ~/.local/bin on PATH once it exists.
    found = root.run("command -v filenote", user=USER, login=True)
    expect_equal(found, f"/home/{USER}/.local/bin/filenote\n", "filenote on a login shell's PATH")
    expect_equal(root.run("filenote --version", user=USER, login=True), f"filenote {version}\n",
                 "the tarball's filenote --version")
    root.run("filenote save from the tarball", user=USER, login=True)
    expect_equal(root.run("filenote show", user=USER, login=True), "from the tarball\n",
                 "the tarball's filenote show")
    expect_equal(root.run("man -w filenote", user=USER, login=True),
                 f"/home/{USER}/.local/share/man/man1/filenote.1\n", "man -w from ~/.local")
    completion = root.run("bash -i 2>/dev/null", user=USER, stdin=COMPLETE)
    expect_equal(completion, "function=_filenote\nreply=show\n",
                 "bash -i completing 'filenote sh' from ~/.local/share/bash-completion")
    # As the README says to remove it: the uninstall script it carries.
    files = [line for line in subprocess.run(
        ["tar", "-tzf", tarball], check=True, capture_output=True, text=True).stdout.split()
        if not line.endswith("/")]
    root.run("~/.local/share/filenote/uninstall", user=USER)
    left = [path for path in files
            if root.exists(f"/home/{USER}/.local/" + path.split("/", 1)[1])]
    if left:
        raise CheckFailed(f"the tarball's uninstall left {left}")
    if not root.exists(f"/home/{USER}/.local/bin"):
        raise CheckFailed("the tarball's uninstall removed ~/.local/bin, a shared folder")
    print(f"dist-check: the tarball in ~/.local runs, with its man page and completion; "
          f"its uninstall removes its {len(files)} files")


def expect_equal(actual: str, expected: str, what: str) -> None:
    if actual != expected:
        raise CheckFailed(f"{what}: {actual!r}, expected {expected!r}")


def expect_in(part: str, text: str, what: str) -> None:
    if part not in text:
        raise CheckFailed(f"{what}: no {part!r} in:\n{text[:2000]}")


def run(argv: list[str], stdin: str = "",
        timeout: int = COMMAND_SECONDS) -> subprocess.CompletedProcess:
    """Runs a command to its end or its deadline, output and errors together.
    It runs in a process group of its own, so a deadline ends all of it."""
    process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        output, _ = process.communicate(stdin, timeout=timeout)
    except BaseException:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        if sys.exc_info()[0] is subprocess.TimeoutExpired:
            raise CheckFailed(f"{' '.join(argv)}: still running after {timeout} s; ended")
        raise
    return subprocess.CompletedProcess(argv, process.returncode, output, "")


if __name__ == "__main__":
    sys.exit(main())
