#!/usr/bin/env python3
"""filenote's per-key latency: the table of `make bench` that says how long
the slowest key takes, on notes from 1 KB to 16 MiB.

1. In the process: bench/latency/*.swift, compiled with every source of
   the pure LineEditor (every .swift file under Sources/LineEditor) by swiftc -O, times each
   kind of key from its arrival at the editor to the end of its render. The same
   seeded keys run three times on the same states; each key counts with the
   fastest of its three CPU times (what the key costs, not what else the
   shared machine did meanwhile), of which the table gives p50, p99 and max;
   the longest wall-clock time of any run is shown, not judged. Targets:
   every key ≤ 1 ms on the 1 KB and 1 MiB notes, ≤ 16 ms (one frame at
   60 Hz) on 16 MiB. vi mode's keys (bench/latency/ViKeyLatencies.swift:
   motions, operators, insert sessions, `.`, `u`, in command mode) are rows
   of the same table ("vi ..."), held to the same targets.
2. End to end through a pseudo-terminal: 2,000 mixed keys (word moves
   included) then Enter, on a 1 MiB note that is one word against the same on
   1 KB (target: ≤ 3 ×), with GNU readline (`bash -c 'read -e'`) at 1 KB and
   64 KB typing the same keys, side by side in the same rounds.
3. Peak memory of filenote on a 16 MiB note (open, a few edits, save):
   ≤ 4 × the note's size.
4. A lone Esc in vi mode, from the byte written on the pseudo-terminal to
   command mode drawn (the hint names it, the cursor steps back; `i` goes
   back to insert mode before the next): p99 ≤ 50 ms. filenote takes an Esc that ends a read as the
   Esc key after 10 ms, where readline waits `keyseq-timeout` (500 ms).
5. The inputrc: parsing a 300-line one in the process (fastest of 200,
   judged: ≤ 0.3 ms, the most it may add to the prompt's first paint), and,
   shown beside it, the first paint through a pseudo-terminal with that
   inputrc and without one (median of alternated rounds).

    bench/latency.py --binary .build/release/filenote           # judged
    bench/latency.py --binary .build/release/filenote --smoke   # once, not judged

Python 3 standard library; processes on terminals come from
reliability/harness.py. Exit status: 0 when every target is met (or, with
--smoke, when everything ran), 1 when one is missed, 2 when something could
not run.
"""

import argparse
import os
import random
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "reliability"))
import harness  # noqa: E402

KIB = 1024
MIB = 1024 * KIB
TIME = harness.TIME
BUILD = os.path.join(ROOT, ".build", "latency")
NOTES = ["1 KB", "1 MiB of words", "1 MiB one word", "16 MiB of words"]
# The target for the slowest key of each note, in ms.
TARGETS_MS = {"1 KB": 1.0, "1 MiB of words": 1.0, "1 MiB one word": 1.0, "16 MiB of words": 16.0}
E2E_RATIO_LIMIT = 3.0
MEMORY_FACTOR_LIMIT = 4.0
# How long a prompt must stay quiet after its first output to count as drawn.
DRAWN_QUIET_SECONDS = 0.06


class LatencyError(Exception):
    """Something could not run, or did not do what it should."""


# ---------------------------------------------------------------------------
# Notes and keys, seeded: every run types the same.

WORDS = ("note buy milk call the plumber tomorrow at nine remember meeting draft review "
         "send invoice café naïve façade über résumé 日本語 メモ 東京 α β γ release build "
         "static swift editor cursor window terminal").split()


def words_note(size: int, seed: int) -> bytes:
    """One line of words, exactly `size` bytes (padded with x)."""
    rng = random.Random(seed)
    parts, length = [], 0
    while True:
        word = rng.choice(WORDS).encode() + b" "
        if length + len(word) > size:
            break
        parts.append(word)
        length += len(word)
    return b"".join(parts) + b"x" * (size - length)


def one_word_note(size: int, seed: int) -> bytes:
    """`size` letters and digits: one word, like a pasted key or a minified line."""
    rng = random.Random(seed)
    alphabet = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    return bytes(rng.choice(alphabet) for _ in range(size))


MOVES = [b"\x1b[D", b"\x1b[C", b"\x1b[H", b"\x1b[F", b"\x01", b"\x05", b"\x02", b"\x06"]
WORD_MOVES = [b"\x1bb", b"\x1bf", b"\x1b[1;5D", b"\x1b[1;5C"]
DELETES = [b"\x7f", b"\x1b[3~"]
INSERTS = [bytes([c]) for c in b"abcdefghijklmnopqrstuvwxyz     "] + ["é".encode(), "語".encode()]


def mixed_keys(count: int = 2000, seed: int = 13) -> list[bytes]:
    """`count` keys: moves, word moves, typing and deletes, then Enter."""
    rng = random.Random(seed)
    kinds = [(MOVES, 25), (WORD_MOVES, 20), (INSERTS, 35), (DELETES, 20)]
    keys = [rng.choice(rng.choices([k for k, _ in kinds], [w for _, w in kinds])[0])
            for _ in range(count)]
    return keys + [b"\r"]


# ---------------------------------------------------------------------------
# 1. In the process.


def build_in_process_bench() -> str:
    """Compiles bench/latency/*.swift with all of Sources/LineEditor, when
    any of them is newer than the binary."""
    editor = os.path.join(ROOT, "Sources", "LineEditor")
    bench = os.path.join(ROOT, "bench", "latency")
    sources = sorted(os.path.join(folder, name) for folder, _, names in os.walk(editor)
                     for name in names if name.endswith(".swift"))
    sources += sorted(os.path.join(bench, name) for name in os.listdir(bench)
                      if name.endswith(".swift"))
    binary = os.path.join(BUILD, "latency-bench")
    if os.path.exists(binary) and all(os.path.getmtime(s) < os.path.getmtime(binary)
                                      for s in sources):
        return binary
    os.makedirs(BUILD, exist_ok=True)
    swiftc = os.environ.get("SWIFTC", "swiftc")
    print("latency: building the in-process benchmark", file=sys.stderr, flush=True)
    command = [swiftc, "-O", "-parse-as-library", "-module-name", "LatencyBench", *sources,
               "-o", binary]
    if subprocess.run(command).returncode != 0:
        raise LatencyError("the in-process benchmark did not build")
    return binary


def in_process(rounds: int, trials: int) -> dict[str, dict[str, list[float]]]:
    """{note: {kind: [samples, p50, p99, max, max wall]}}, times in ms."""
    binary = build_in_process_bench()
    result = subprocess.run([binary, "--rounds", str(rounds), "--trials", str(trials)],
                            capture_output=True, text=True)
    if result.returncode != 0:
        raise LatencyError(f"latency-bench exited {result.returncode}: {result.stderr[-300:]}")
    table: dict[str, dict[str, list[float]]] = {}
    for line in result.stdout.splitlines():
        note, kind, count, *nanoseconds = line.split("\t")
        table.setdefault(note, {})[kind] = [int(count)] + [int(n) / 1e6 for n in nanoseconds]
    return table


# ---------------------------------------------------------------------------
# 2. End to end, through a pseudo-terminal.


def on_terminal(argv: list[str], env: dict[str, str], keys: list[bytes]) -> tuple[float, bytes]:
    """Types `keys` into argv on a pseudo-terminal once it has drawn (one key
    per write, as fast as the terminal takes them, reading all the while);
    the seconds from the first key until the process exited 0, and what it
    drew."""
    run = harness.type_on_terminal(argv, env, keys, quiet_seconds=DRAWN_QUIET_SECONDS,
                                   seconds=120)
    return run.typing_seconds, run.transcript


def filenote_typing(binary: str, work: str, note: bytes, keys: list[bytes],
                    measure_memory: bool = False) -> tuple[float, int]:
    """Seconds to type `keys` into `filenote` on `note`, and its peak KiB when
    asked (0 otherwise)."""
    home = tempfile.mkdtemp(dir=work)
    path = os.path.join(home, "note.txt")
    with open(path, "wb") as f:
        f.write(note)
    env = harness.clean_environment(home, TERM="xterm")
    seconds, peak = harness.type_into_prompt(binary, path, note, env, keys, on_terminal,
                                             measure_memory)
    shutil.rmtree(home)
    return seconds, peak or 0


def readline_typing(work: str, note: bytes, keys: list[bytes]) -> float:
    home = tempfile.mkdtemp(dir=work)
    bash = shutil.which("bash")
    if bash is None:
        raise LatencyError("bash is needed for the readline anchor")
    env = harness.clean_environment(home, TERM="xterm", note=note.decode())
    seconds, _ = on_terminal([bash, "-c", 'read -e -i "$note" x'], env, keys)
    shutil.rmtree(home)
    return seconds


def end_to_end(binary: str, work: str, rounds: int) -> dict[str, list[float]]:
    """Seconds of each run, by subject; the subjects take turns going first."""
    keys = mixed_keys()
    note_1k, note_64k = words_note(KIB, 4), words_note(64 * KIB, 5)
    note_one_word = one_word_note(MIB, 6)
    subjects = [
        ("filenote, 1 KB", lambda: filenote_typing(binary, work, note_1k, keys)[0]),
        ("filenote, 1 MiB one word", lambda: filenote_typing(binary, work, note_one_word, keys)[0]),
        ("readline, 1 KB", lambda: readline_typing(work, note_1k, keys)),
        ("readline, 64 KB", lambda: readline_typing(work, note_64k, keys)),
    ]
    times: dict[str, list[float]] = {name: [] for name, _ in subjects}
    for round_index in range(rounds + 1):  # the first round warms up
        turn = round_index % len(subjects)
        for name, run in subjects[turn:] + subjects[:turn]:
            seconds = run()
            if round_index > 0:
                times[name].append(seconds)
    return times


# ---------------------------------------------------------------------------
# 4. A lone Esc; 5. the inputrc.

ESCAPE_TARGET_MS = 50.0
INPUTRC_PARSE_TARGET_MS = 0.3
ESCAPE_INPUTRC = 'set editing-mode vi\n'


def wait_for_output(run: harness.TerminalRun, seconds: float) -> float | None:
    """Seconds until the terminal has something to read, or None."""
    start = time.perf_counter()
    readable, _, _ = select.select([run.master], [], [], seconds)
    if not readable:
        return None
    elapsed = time.perf_counter() - start
    run.drain()
    return elapsed


def settle(run: harness.TerminalRun) -> None:
    """Reads until nothing has come for 30 ms."""
    while wait_for_output(run, 0.03) is not None:
        pass


def lone_escape(binary: str, work: str, presses: int) -> list[float]:
    """Milliseconds from each lone Esc written to the first byte drawn."""
    home = tempfile.mkdtemp(dir=work)
    rc = os.path.join(home, "inputrc")
    with open(rc, "w") as f:
        f.write(ESCAPE_INPUTRC)
    path = os.path.join(home, "note.txt")
    with open(path, "wb") as f:
        f.write(b"a note to move about in")
    env = harness.clean_environment(home, TERM="xterm", INPUTRC=rc)
    run = harness.TerminalRun(binary, ["--file", path], env)
    times = []
    try:
        run.wait_until_quiet(DRAWN_QUIET_SECONDS, seconds=30)
        os.set_blocking(run.master, False)
        for _ in range(presses):
            os.write(run.master, b"\x1b")
            elapsed = wait_for_output(run, 2)
            if elapsed is None:
                raise LatencyError("a lone Esc drew nothing within 2 s")
            times.append(elapsed * 1000)
            settle(run)
            os.write(run.master, b"i")  # insert mode again: the next Esc enters command mode
            settle(run)
        os.write(run.master, b"\r")
        settle(run)
    finally:
        run.close()
        shutil.rmtree(home)
    return times


def first_paint(binary: str, work: str, inputrc: str | None, rounds: int) -> list[float]:
    """Milliseconds from starting the prompt to its first output."""
    home = tempfile.mkdtemp(dir=work)
    path = os.path.join(home, "note.txt")
    with open(path, "wb") as f:
        f.write(b"a note")
    rc = os.path.join(home, "inputrc")
    if inputrc is not None:
        with open(rc, "w") as f:
            f.write(inputrc)
    times = []
    env = harness.clean_environment(home, TERM="xterm", INPUTRC=rc)
    for _ in range(rounds):
        start = time.perf_counter()
        run = harness.TerminalRun(binary, ["--file", path], env)
        os.set_blocking(run.master, False)
        try:
            if wait_for_output(run, 10) is None:
                raise LatencyError("the prompt drew nothing within 10 s")
            times.append((time.perf_counter() - start) * 1000)
            settle(run)
            os.write(run.master, b"\x03")
            run.read_for(0.2)
        finally:
            run.close()
    shutil.rmtree(home)
    return times


def inputrc_parse_ms() -> tuple[float, float]:
    """The fastest and the median time to parse the 300-line inputrc, in ms."""
    binary = build_in_process_bench()
    result = subprocess.run([binary, "--inputrc"], capture_output=True, text=True)
    if result.returncode != 0:
        raise LatencyError(f"latency-bench --inputrc exited {result.returncode}")
    _, _, _, fastest, median = result.stdout.strip().split("\t")
    return int(fastest) / 1e6, int(median) / 1e6


def bench_inputrc_text() -> str:
    """The 300-line inputrc the in-process parse times, for the first-paint rows."""
    lines = []
    for index in range(300):
        letter = "abcdefghijklmnopqrstuvwxyz"[index % 26]
        lines.append([f'"\\C-x{letter}": backward-kill-word', f"Control-{letter}: beginning-of-line",
                      f'"\\M-{letter}": upcase-word', "set completion-ignore-case on",
                      f'"\\C-x\\C-{letter}": "macro text {index}"',
                      f"# a comment {index}"][index % 6])
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=".build/release/filenote")
    parser.add_argument("--smoke", action="store_true",
                        help="run everything once, briefly, and judge nothing (for CI)")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    for needed in (binary, TIME):
        if not os.access(needed, os.X_OK):
            print(f"latency: no executable at {needed}", file=sys.stderr)
            return 2
    work = tempfile.mkdtemp(prefix="filenote-latency-")
    started = time.monotonic()
    try:
        table = in_process(rounds=2 if args.smoke else 100, trials=1 if args.smoke else 3)
        e2e = end_to_end(binary, work, rounds=1 if args.smoke else 6)
        note_16m = words_note(16 * MIB, 7)
        _, peak_kib = filenote_typing(binary, work, note_16m, mixed_keys(40, seed=16),
                                      measure_memory=True)
        escapes = lone_escape(binary, work, presses=10 if args.smoke else 100)
        parse_fastest, parse_median = inputrc_parse_ms()
        paint_rounds = 3 if args.smoke else 30
        paints = {"without an inputrc": [], "with a 300-line inputrc": []}
        text = bench_inputrc_text()
        for _ in range(paint_rounds):
            paints["without an inputrc"] += first_paint(binary, work, None, 1)
            paints["with a 300-line inputrc"] += first_paint(binary, work, text, 1)
    except (LatencyError, OSError, UnicodeDecodeError, harness.Failure) as error:
        print(f"latency: {error}", file=sys.stderr)
        return 2
    finally:
        shutil.rmtree(work, ignore_errors=True)

    passed = True
    print(f"\nper-key latency in the process (core + renderer): CPU time per key (fastest "
          f"of 3 runs), ms, p50 / p99 / max; {os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[0]:.2f}")
    kinds = [kind for kind in table[NOTES[0]] if kind != "open"]
    header = ["key", *NOTES]
    rows = []
    for kind in kinds:
        rows.append([kind] + ["{:.3f} / {:.3f} / {:.3f}".format(*table[n][kind][1:4])
                              for n in NOTES])
    slowest = {n: max(table[n][k][3] for k in kinds) for n in NOTES}
    verdicts = {n: slowest[n] <= TARGETS_MS[n] for n in NOTES}
    passed &= all(verdicts.values())
    rows.append(["slowest key (max)"] + [f"{slowest[n]:.3f}" for n in NOTES])
    rows.append(["target (max)"] + [f"≤ {TARGETS_MS[n]:g}" for n in NOTES])
    rows.append(["result"] + ["pass" if verdicts[n] else "FAIL" for n in NOTES])
    rows.append(["longest wall time"] + [f"{max(table[n][k][4] for k in kinds):.3f}"
                                         for n in NOTES])
    rows.append(["opening the note"] + [f"{table[n]['open'][1]:.3f}" for n in NOTES])
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    for row in [header, ["-" * w for w in widths], *rows]:
        print("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())

    medians = {name: statistics.median(seconds) for name, seconds in e2e.items()}
    ratio = statistics.median(
        one / small for one, small in zip(e2e["filenote, 1 MiB one word"], e2e["filenote, 1 KB"]))
    e2e_passed = ratio <= E2E_RATIO_LIMIT
    passed &= e2e_passed
    print(f"\nend to end through a pty: 2,000 mixed keys (20 % word moves) then Enter, "
          f"median of {len(e2e['filenote, 1 KB'])} rounds")
    for name, median in medians.items():
        print(f"  {name:<26} {median * 1000:8.1f} ms")
    print(f"  1 MiB one word / 1 KB, median per-round ratio: {ratio:.2f} "
          f"(target ≤ {E2E_RATIO_LIMIT:g}): {'pass' if e2e_passed else 'FAIL'}")

    factor = peak_kib * KIB / (16 * MIB)
    memory_passed = factor <= MEMORY_FACTOR_LIMIT
    passed &= memory_passed
    print(f"\npeak memory, filenote on a 16 MiB note (open, 40 keys, save): "
          f"{peak_kib / KIB:.1f} MiB = {factor:.2f} × the note "
          f"(target ≤ {MEMORY_FACTOR_LIMIT:g} ×): {'pass' if memory_passed else 'FAIL'}")
    escapes.sort()
    escape_p99 = escapes[min(len(escapes) - 1, len(escapes) * 99 // 100)]
    escape_passed = escape_p99 <= ESCAPE_TARGET_MS
    passed &= escape_passed
    print(f"\na lone Esc to the prompt's answer drawn, through a pty, {len(escapes)} presses: "
          f"p50 {statistics.median(escapes):.1f} ms, p99 {escape_p99:.1f} ms, "
          f"max {escapes[-1]:.1f} ms (target p99 ≤ {ESCAPE_TARGET_MS:g}): "
          f"{'pass' if escape_passed else 'FAIL'}")

    parse_passed = parse_fastest <= INPUTRC_PARSE_TARGET_MS
    passed &= parse_passed
    print(f"\nthe inputrc: parsing 300 lines in the process, fastest {parse_fastest:.3f} ms, "
          f"median {parse_median:.3f} ms (target ≤ {INPUTRC_PARSE_TARGET_MS:g}): "
          f"{'pass' if parse_passed else 'FAIL'}")
    for name, times in paints.items():
        print(f"  first paint {name:<26} median {statistics.median(times):6.2f} ms "
              f"({len(times)} alternated rounds, shown, not judged)")
    print(f"\n{time.monotonic() - started:.0f} s" + (", smoke: not judged" if args.smoke else ""))
    return 0 if args.smoke or passed else 1


if __name__ == "__main__":
    sys.exit(main())
