#!/usr/bin/env python3
"""filenote's reliability suite: tries hard to make the built binary lose,
tear or empty a note, leave temporary files behind, or answer bad input
with anything but a clear error.

    python3 reliability/run.py --setting short --binary .build/debug/filenote
    python3 reliability/run.py --setting long --binary .build/release/filenote --seed 7

Everything happens in folders under the system's temporary folder (HOME
points there), never in the real home. Some cases mount file systems and
set file attributes: run as root, as CI does. The last line of output is
`N passed, N failed`; the exit status is 1 when anything failed.
"""

import argparse
import os
import random
import signal
import sys
import time

# No __pycache__ beside the sources: the suite is run from the worktree.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import bad_input  # noqa: E402
import concurrency  # noqa: E402
import crash_loop  # noqa: E402
import durability  # noqa: E402
import faults  # noqa: E402
import filesystems  # noqa: E402
import harness  # noqa: E402
import power_cuts  # noqa: E402
import readline_diff  # noqa: E402
import security  # noqa: E402
import sync  # noqa: E402
import terminal  # noqa: E402
import versions  # noqa: E402
import writers  # noqa: E402

GROUPS = [("crash", crash_loop), ("durability", durability), ("concurrency", concurrency),
          ("faults", faults), ("bad-input", bad_input), ("terminal", terminal),
          ("security", security), ("writers", writers), ("versions", versions), ("sync", sync),
          ("filesystems", filesystems), ("powercut", power_cuts),
          ("readline", readline_diff)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--setting", choices=("short", "long"), default="short")
    parser.add_argument("--binary", default=".build/debug/filenote")
    parser.add_argument("--seed", type=int, default=None,
                        help="reproduce a run (the seed is printed at the start)")
    parser.add_argument("--only", action="append", default=[],
                        help="run only these groups: " + ", ".join(name for name, _ in GROUPS))
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    options = parser.parse_args()

    seed = options.seed if options.seed is not None else random.SystemRandom().randrange(10**6)
    settings = harness.Settings(options.setting, options.binary, seed, options.keep)
    ledger = harness.Ledger()
    if not os.access(settings.binary, os.X_OK):
        print("no filenote binary at %s (build it first)" % settings.binary)
        print("0 passed, 1 failed")
        return 1

    # SIGTERM unwinds like Ctrl-C, so every mount and attribute is undone.
    def stop(number, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    # The cases signal filenote and expect each signal's default action. A
    # suite started under nohup, or as a background job of a shell without
    # job control, has SIGHUP, SIGINT or SIGQUIT ignored, and every process
    # it starts would inherit that.
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    print("filenote reliability suite: setting %s, binary %s, seed %d"
          % (settings.name, settings.binary, seed), flush=True)
    started = time.monotonic()
    try:
        for name, group in GROUPS:
            if options.only and name not in options.only:
                continue
            print("== %s" % name, flush=True)
            group.run(settings, ledger)
    except KeyboardInterrupt:
        ledger.failed.append("interrupted")
        print("FAIL interrupted", flush=True)
    finally:
        harness.remove_scratch_root(options.keep)

    print("== figures (setting %s, seed %d, %.0f s)" % (settings.name, seed,
                                                      time.monotonic() - started))
    for figure, value in ledger.figures.items():
        print("%s: %d" % (figure, value))
    if ledger.failed:
        print("failed cases:")
        for name in ledger.failed:
            print("  " + name)
    print("%d passed, %d failed" % (ledger.passed, len(ledger.failed)), flush=True)
    return 1 if ledger.failed else 0


if __name__ == "__main__":
    sys.exit(main())
