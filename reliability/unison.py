"""Unison between two local folders, for the sync group
(reliability/sync.py): two machines whose folders meet only when the case
runs `unison FIRST SECOND -batch …`, as a user's cron job or hook would.

Nothing but the two folders and the rig's own state folder is touched:
`UNISON` (where Unison keeps its archives) and `HOME` point inside the
case's temporary folder, and both replicas are local paths, so no socket is
opened. Each run is bounded by a deadline and killed by its pid after it.
Debian's `unison` package (2.52) is what scripts/test-tools installs.

Standard library only.
"""

import os
import re
import shutil
import subprocess
import time

from harness import ReplicasSyncedOnDemand, clean_environment, run_tool

# Unison's exit status: 0 everything propagated, 1 some paths skipped (a
# conflict it was not told how to settle), 2 some failed, 3 a fatal error.
SKIPPED = 1


def available():
    return shutil.which("unison") is not None


def version():
    result = subprocess.run(["unison", "-version"], capture_output=True, text=True, timeout=30)
    return result.stdout.strip()


class Replicas(ReplicasSyncedOnDemand):
    """Two folders, `first` and `second`, that `wait_synced()` makes alike with
    one Unison run given `options` (such as `["-prefer", "newer"]`). They
    are apart between runs, so `pause` and `resume` change nothing."""

    def __init__(self, root, first, second, options=()):
        self.folders = [first, second]
        self.options = list(options)
        self.home = os.path.join(root, "unison")
        os.makedirs(self.home, mode=0o700, exist_ok=True)
        self.runs = 0
        self.skipped = []  # the paths each run skipped, with its reason

    def wait_synced(self, seconds=120):
        """Unison runs until one has nothing to propagate (at most four:
        with `-copyonconflict` the copy is made on the side that lost, and
        the next run carries it to the other); returns the seconds they
        took. Without a way to settle a conflict (`-prefer`), Unison skips
        the path: the run ends with status 1 and the folders stay apart
        there."""
        started = time.monotonic()
        for _ in range(4):
            if self._run(started + seconds) == 0:
                break
        return time.monotonic() - started

    def _run(self, deadline):
        """One Unison run, ended by `deadline`; returns how many items it
        transferred."""
        seconds = max(1, deadline - time.monotonic())
        argv = (["unison"] + self.folders + ["-batch", "-times", "-ignore", "Name .syncthing.*"]
                + self.options)
        result = run_tool(argv, seconds, env=clean_environment(self.home, UNISON=self.home),
                          statuses=(0, SKIPPED))
        self.runs += 1
        output = result.stdout + result.stderr
        self.skipped.extend(line.strip() for line in output.splitlines()
                            if line.strip().startswith("skipped:"))
        transferred = re.search(r"\((\d+) items? transferred", output)
        return int(transferred.group(1)) if transferred else 0
