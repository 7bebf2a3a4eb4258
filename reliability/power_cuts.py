"""Case group: power cuts (reliability/POWERCUT.md).

A kill -9 leaves the kernel's page cache to write everything out; a power
cut keeps only what was made durable. Here a FUSE file system that records
every change (powercut/powerfs.py) and knows what each model of a disk keeps
of it (powercut/model.py: strict POSIX, and ext4 data=ordered) is first
tested on its own (powercut/selftest.py); then every writer of filenote is
cut at every point of its run, every crash state the model allows is
checked with filenote, and each of filenote's fsyncs is ignored in turn to
show that some case needs it (powercut/cuts.py).

Skipped, and said so, where FUSE cannot run (no /dev/fuse, fusermount3 or
python3-pyfuse3: scripts/test-tools installs them).
"""

import os
import tempfile

import harness
from powercut import cuts, mount, selftest


def run(settings, ledger):
    root = tempfile.mkdtemp(prefix="powercut-", dir=harness.scratch_root())
    try:
        reason = mount.missing() or mount.cannot_mount(root)
        if reason:
            print("skip powercut: the test file system cannot run here: %s" % reason,
                  flush=True)
            ledger.count("powercut groups skipped")
            return
        selftest.run(settings, ledger, os.path.join(root, "selftest"))
        budget = cuts.Budget(settings)
        findings = cuts.Findings()
        where = "every point" if settings.long else "a sample of points"
        for index, scenario in enumerate(cuts.scenarios(settings, budget)):
            ledger.run("powercut: %s, cut at %s, every crash state checked under strict POSIX "
                       "and ext4 data=ordered" % (scenario.name, where), cuts.cut_everywhere,
                       settings, ledger, budget, scenario,
                       os.path.join(root, "writer-%d" % index), findings)
        ledger.run("powercut: each of filenote's fsyncs ignored in turn makes some case fail "
                   "(but those POWERCUT.md explains)", cuts.every_fsync_needed, findings,
                   cuts.EXPLAINED)
    finally:
        mount.unmount_all()
