"""rclone bisync between two local folders, for the sync group
(reliability/sync.py): two machines whose folders meet only when the case
runs `rclone bisync FIRST SECOND` (`--resync` the first time, as bisync
requires).

Nothing but the two folders and the rig's own state folder is touched:
rclone's configuration is an empty file there, its bisync listings
(`--workdir`) and `HOME` are there too, and both paths are local, so no
socket is opened. Each run is bounded by a deadline and killed by its pid
after it. Debian's `rclone` package (1.60) is what scripts/test-tools
installs; 1.60 renames both sides of a conflict `NAME..path1` and
`NAME..path2`.

Standard library only.
"""

import os
import shutil
import subprocess
import time

from harness import ReplicasSyncedOnDemand, clean_environment, run_tool


def available():
    return shutil.which("rclone") is not None


def version():
    result = subprocess.run(["rclone", "version"], capture_output=True, text=True, timeout=30)
    return result.stdout.splitlines()[0].strip() if result.stdout else "rclone"


class Replicas(ReplicasSyncedOnDemand):
    """Two folders, `first` and `second`, that `wait_synced()` makes alike with
    one bisync run. They are apart between runs, so `pause` and `resume`
    change nothing."""

    def __init__(self, root, first, second):
        self.folders = [first, second]
        self.home = os.path.join(root, "rclone")
        os.makedirs(self.home, mode=0o700, exist_ok=True)
        self.config = os.path.join(self.home, "rclone.conf")
        open(self.config, "a").close()
        self.runs = 0
        self.conflicts = 0  # paths "new or changed in both paths"

    def wait_synced(self, seconds=120):
        """One bisync run (the first with `--resync`); returns the seconds it took."""
        started = time.monotonic()
        argv = (["rclone", "bisync"] + self.folders
                + ["--workdir", os.path.join(self.home, "bisync"), "--exclude", ".syncthing.*"]
                + (["--resync"] if self.runs == 0 else []))
        result = run_tool(argv, seconds,
                          env=clean_environment(self.home, RCLONE_CONFIG=self.config))
        self.runs += 1
        output = result.stdout + result.stderr
        self.conflicts += output.count("New or changed in both paths")
        return time.monotonic() - started
