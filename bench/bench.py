#!/usr/bin/env python3
"""filenote's benchmarks: each one side by side with a reference command.

Every benchmark runs filenote and its reference in pairs on the same data,
alternating which one goes first, after a warm-up, and reports the median of
each side and the median of the per-pair ratios (filenote / reference), so a
machine that is busier in one moment than the next slows both sides of a pair
alike. Every run gets its own temporary HOME (or --file) prepared, and put on
disk with sync(2), before the clock starts, so that neither side's fsyncs
write back the harness's own set-up; its result is checked after the clock
stops.

Processes and pseudo-terminals are run by the reliability suite's helpers
(reliability/harness.py: run_timed, run_pipeline, type_on_terminal), in the
environment its clean_environment builds from nothing; peak memory is the
maximum resident set size that /usr/bin/time reports, as there.

    bench/bench.py --binary .build/release/filenote       # the table, judged
    bench/bench.py --binary .build/release/filenote --smoke   # each once, not judged

Python 3 standard library only. Exit status: 0 when every target is met (or,
with --smoke, when every benchmark ran without an error), 1 when a target is
missed, 2 when a benchmark could not run.
"""

import argparse
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Callable, Optional

sys.dont_write_bytecode = True  # no __pycache__ in the worktree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "reliability"))
import harness  # noqa: E402

TIME = harness.TIME
KIB = 1024
MIB = 1024 * 1024
# The pseudo-terminal's size, fixed so every run draws the same screen.
ROWS, COLUMNS = 24, 80
# How long a prompt must stay quiet after its first output to count as drawn.
DRAWN_QUIET_SECONDS = 0.06


class BenchError(Exception):
    """A benchmark could not run, or a run did not do what it should."""


# ---------------------------------------------------------------------------
# Data: fixed and seeded, so every run and every machine types the same keys.

WORDS = (
    "note buy milk call the plumber tomorrow at nine remember meeting draft "
    "review send invoice café naïve façade über résumé 日本語 メモ 東京 "
    "α β γ release build static swift editor cursor window terminal"
).split()


def note_text(size: int, seed: int) -> bytes:
    """One line of words, exactly `size` bytes of valid UTF-8, no control characters."""
    rng = random.Random(seed)
    out = bytearray()
    while len(out) < size:
        out += rng.choice(WORDS).encode() + b" "
    # Cut back to `size` on a character boundary, then pad with ASCII.
    cut = size
    while 0 < cut < len(out) and (out[cut] & 0xC0) == 0x80:
        cut -= 1
    text = bytes(out[:cut]).rstrip(b" ")
    return text + b"x" * (size - len(text))


def bulk_input(size: int) -> bytes:
    """`size` bytes of UTF-8 text with line breaks, as `filenote save` might be fed."""
    line = note_text(4 * KIB - 1, seed=7) + b"\n"
    return (line * (size // len(line) + 1))[:size]


# The keys of the prompt benchmarks, as xterm sends them.
MOVES = [b"\x1b[D", b"\x1b[C", b"\x1b[H", b"\x1b[F", b"\x01", b"\x05", b"\x02", b"\x06"]
WORD_JUMPS = [b"\x1bb", b"\x1bf", b"\x1b[1;5D", b"\x1b[1;5C"]
DELETES = [b"\x7f", b"\x1b[3~"]  # Backspace, Delete (never Ctrl-D: it can cancel)
INSERTS = [bytes([c]) for c in b"abcdefghijklmnopqrstuvwxyz     "] + ["é".encode(), "語".encode()]
ENTER = b"\r"


def prompt_keys(count: int = 2000, seed: int = 2000) -> list[bytes]:
    """`count` editing keys (moves, inserts, deletes, word jumps), then Enter."""
    rng = random.Random(seed)
    kinds = [(MOVES, 30), (INSERTS, 35), (DELETES, 20), (WORD_JUMPS, 15)]
    population = [keys for keys, _ in kinds]
    weights = [weight for _, weight in kinds]
    keys = [rng.choice(rng.choices(population, weights)[0]) for _ in range(count)]
    return keys + [ENTER]


# ---------------------------------------------------------------------------
# Running one process.


@dataclass
class Run:
    """One timed run: wall seconds, and peak memory in KiB when it was measured."""

    seconds: float
    peak_kib: Optional[int] = None


def spawn(argv: list[str], env: dict[str, str], stdin: str = "/dev/null",
          stdout: str = "/dev/null", measure_memory: bool = False) -> Run:
    """Runs argv with stdin and stdout redirected to files, and checks its exit status."""
    outcome = harness.run_timed(argv, env, stdin=stdin, stdout=stdout,
                                measure_memory=measure_memory)
    if outcome.status != 0:
        detail = outcome.stderr.decode(errors="replace").strip()
        raise BenchError(f"{' '.join(argv)} exited {outcome.status}: {detail}")
    return Run(outcome.seconds, outcome.max_rss_kib)


def pipeline(source: list[str], sink: list[str], env: dict[str, str], stdout: str,
             measure_memory: bool = False) -> Run:
    """Runs `source | sink > stdout` and times it until both have exited."""
    outcome = harness.run_pipeline(source, sink, env, stdout, measure_memory=measure_memory)
    if outcome.status != 0:
        raise BenchError(f"{' '.join(sink)} exited {outcome.status}")
    return Run(outcome.seconds, outcome.max_rss_kib)


def on_terminal(argv: list[str], env: dict[str, str], keys: list[bytes]) -> tuple[Run, bytes]:
    """Runs argv on a new pseudo-terminal, waits until it has drawn, types
    `keys` as fast as the terminal takes them, and times from the first key
    until the process has exited (0, or harness.Failure). Returns the run and
    everything it wrote."""
    run = harness.type_on_terminal(argv, env, keys, columns=COLUMNS, rows=ROWS,
                                   quiet_seconds=DRAWN_QUIET_SECONDS)
    return Run(run.typing_seconds), run.transcript


# ---------------------------------------------------------------------------
# The benchmarks.


@dataclass
class Workspace:
    """A benchmark's folder: shared inputs, and one fresh folder per run."""

    root: str
    counter: int = 0

    def fresh(self) -> str:
        self.counter += 1
        path = os.path.join(self.root, f"run{self.counter}")
        os.mkdir(path)
        return path


@dataclass
class Benchmark:
    """One row of the table."""

    name: str
    target: str
    # Times one run of filenote / of the reference; each prepares and checks its own.
    subject: Callable[[], Run]
    reference: Optional[Callable[[], Run]]
    pairs: int
    warmup: int
    # Turns the runs into (filenote value, reference value, ratio, passed).
    judge: Callable[[list[Run], list[Run]], tuple[str, str, str, bool]] = None


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def mib(kib: float) -> str:
    return f"{kib / 1024:.1f} MiB"


def judge_ratio(limit: float, count: int = 1):
    """Both medians (per time, for runs that do something `count` times)
    and the median of the per-pair ratios, which must stay within the limit."""
    def judge(ours: list[Run], theirs: list[Run]):
        ratio = statistics.median(a.seconds / b.seconds for a, b in zip(ours, theirs))
        return (ms(statistics.median(r.seconds for r in ours) / count),
                ms(statistics.median(r.seconds for r in theirs) / count), f"{ratio:.2f}",
                ratio <= limit)
    return judge


def judge_memory_ratio(limit: float):
    def judge(ours: list[Run], theirs: list[Run]):
        a = statistics.median(r.peak_kib for r in ours)
        b = statistics.median(r.peak_kib for r in theirs)
        return mib(a), mib(b), f"{a / b:.2f}", a / b <= limit
    return judge


def judge_time_limit(limit_seconds: float):
    def judge(ours: list[Run], _theirs: list[Run]):
        median = statistics.median(r.seconds for r in ours)
        return ms(median), "—", "—", median <= limit_seconds
    return judge


def judge_added_time(limit_seconds: float, count: int):
    """For a run that does something `count` times beside one that does
    the rest: both medians per time, and what each time adds (the median of
    the per-pair differences, per time), which must stay within the limit."""
    def judge(ours: list[Run], theirs: list[Run]):
        added = statistics.median((a.seconds - b.seconds) / count for a, b in zip(ours, theirs))
        return (ms(statistics.median(r.seconds for r in ours) / count),
                ms(statistics.median(r.seconds for r in theirs) / count),
                "+" + ms(added), added <= limit_seconds)
    return judge


def judge_memory_limit(limit_mib: float):
    def judge(ours: list[Run], _theirs: list[Run]):
        peak = max(r.peak_kib for r in ours)
        return mib(peak), "—", "—", peak <= limit_mib * 1024
    return judge


def benchmarks(binary: str, work: Workspace, smoke: bool) -> list[Benchmark]:
    small_note = note_text(100, seed=1)
    small_path = os.path.join(work.root, "note-100")
    with open(small_path, "wb") as f:
        f.write(small_note)
    big_path = os.path.join(work.root, "input-100MiB")
    big_size = 100 * MIB
    big = bulk_input(big_size)
    with open(big_path, "wb") as f:
        f.write(big)
    # `save` drops one trailing line ending.
    expected_big_size = big_size - (2 if big.endswith(b"\r\n") else 1 if big.endswith(b"\n") else 0)
    # The note that saving it makes, for saving the same text again.
    big_note_path = os.path.join(work.root, "note-100MiB")
    with open(big_note_path, "wb") as f:
        f.write(big[:expected_big_size])
    del big

    def home_with_note(note: Optional[bytes], versions: int = 0) -> tuple[str, str]:
        """A fresh HOME with the note (when given) and `versions` versions of
        100 bytes, on disk: the fsyncs a run makes must not also write back
        the folders and files made for it a moment before."""
        home = work.fresh()
        documents = os.path.join(home, "Documents")
        os.mkdir(documents, 0o700)
        path = os.path.join(documents, "datafile.dat")
        if note is not None:
            with open(path, "wb") as f:
                f.write(note)
        if versions:
            versions_folder(path, versions, 100)
        os.sync()
        return home, path

    def read_bytes(path: str) -> bytes:
        with open(path, "rb") as f:
            return f.read()

    def expect_file(path: str, content: bytes) -> None:
        if read_bytes(path) != content:
            raise BenchError(f"{path} does not hold what was saved")

    def show(memory: bool, command: Callable[[str, str], list[str]]) -> Callable[[], Run]:
        def run() -> Run:
            home, note = home_with_note(small_note)
            out = os.path.join(home, "out")
            result = spawn(command(home, note), harness.clean_environment(home), stdout=out,
                           measure_memory=memory)
            expect_file(out, small_note + (b"\n" if command is filenote_show else b""))
            shutil.rmtree(home)
            return result
        return run

    def filenote_show(home: str, note: str) -> list[str]:
        return [binary, "show"]

    def cat_note(home: str, note: str) -> list[str]:
        return [shutil.which("cat"), note]

    def save_small(command: Callable[[str], list[str]]) -> Callable[[], Run]:
        def run() -> Run:
            home, note = home_with_note(b"the note before")
            result = spawn(command(note), harness.clean_environment(home), stdin=small_path,
                           stdout=os.path.join(home, "out"))
            expect_file(note, small_note)
            shutil.rmtree(home)
            return result
        return run

    def save_big(reference: bool, memory: bool = False,
                 from_file: bool = False) -> Callable[[], Run]:
        """100 MiB of new text from a pipe (`cat input | filenote save`
        against `cat input | cat > g; sync g`) or, `from_file`, from the file
        itself (`filenote save < input` against `cat input > g; sync g`); g
        is a new file beside the note, as an atomic save writes one: over
        the note, ext4 starts writing a truncated file back as it closes,
        which no new file gets, and `cat` of a file copies in the kernel
        (bench/README.md, The rows of the one-save issue)."""
        def run() -> Run:
            home, note = home_with_note(b"the note before")
            env = harness.clean_environment(home)
            out = os.path.join(home, "out")
            source = [shutil.which("cat"), big_path]
            if reference:
                # `cat > file` then `sync file`: the same bytes on disk, one fsync.
                target = os.path.join(os.path.dirname(note), "copy")
                if from_file:
                    result = spawn(source, env, stdout=target)
                else:
                    result = pipeline(source, [shutil.which("cat")], env, stdout=target)
                result.seconds += spawn([shutil.which("sync"), target], env).seconds
            elif from_file:
                result = spawn([binary, "save"], env, stdin=big_path, stdout=out,
                               measure_memory=memory)
            else:
                result = pipeline(source, [binary, "save"], env, stdout=out,
                                  measure_memory=memory)
            written = target if reference else note
            size = os.stat(written).st_size
            wanted = big_size if reference else expected_big_size
            if size != wanted:
                raise BenchError(f"{written} holds {size} bytes, not {wanted}")
            shutil.rmtree(home)
            return result
        return run

    def save_big_again(reference: bool, from_pipe: bool = False) -> Callable[[], Run]:
        """The 100 MiB input again, over the note it made: filenote reads
        both, finds them equal and writes nothing; `cmp` reads the same two.
        The input is filenote's standard input itself, or, `from_pipe`, a
        pipe from `cat` on both sides (`cmp -` reads the pipe)."""
        def run() -> Run:
            home, note = home_with_note(None)
            shutil.copyfile(big_note_path, note)
            os.chmod(note, 0o600)
            os.sync()
            before = os.stat(note)
            env = harness.clean_environment(home)
            cmp = [shutil.which("cmp"), "-n", str(expected_big_size)]
            source = [shutil.which("cat"), big_path]
            out = os.path.join(home, "out")
            if reference and from_pipe:
                result = pipeline(source, cmp + ["-", note], env, stdout=out)
            elif reference:
                result = spawn(cmp + [big_path, note], env)
            elif from_pipe:
                result = pipeline(source, [binary, "save"], env, stdout=out)
            else:
                result = spawn([binary, "save"], env, stdin=big_path, stdout=out)
            after = os.stat(note)
            if (after.st_ino, after.st_mtime_ns, after.st_ctime_ns) != (
                    before.st_ino, before.st_mtime_ns, before.st_ctime_ns):
                raise BenchError(f"saving the note's own text again wrote {note}")
            if os.listdir(os.path.dirname(note)) != ["datafile.dat"]:
                raise BenchError("saving the note's own text again left a file beside it")
            shutil.rmtree(home)
            return result
        return run

    def versions_folder(note: str, count: int, size: int) -> str:
        """The versions folder beside `note`, holding `count` versions of
        `size` bytes under the names filenote gives them."""
        folder = os.path.join(os.path.dirname(note), "." + os.path.basename(note) + ".versions")
        os.mkdir(folder, 0o700)
        for sequence in range(1, count + 1):
            path = os.path.join(folder, "%010d-%d" % (sequence, 1_764_000_000 + sequence))
            with open(path, "wb") as f:
                f.write(note_text(size, seed=100 + sequence))
            os.chmod(path, 0o600)
        return folder

    def save_keeping_version(command: Callable[[str], list[str]]) -> Callable[[], Run]:
        def run() -> Run:
            home, note = home_with_note(b"the note before", versions=10)
            folder = os.path.join(os.path.dirname(note), ".datafile.dat.versions")
            result = spawn(command(note), harness.clean_environment(home), stdin=small_path,
                           stdout=os.path.join(home, "out"))
            expect_file(note, small_note)
            # The note it replaced kept, beside the new text's own name.
            if command(note)[0] == binary and not any(
                    read_bytes(os.path.join(folder, name)) == b"the note before"
                    for name in os.listdir(folder)):
                raise BenchError("the save did not keep the note it replaced")
            shutil.rmtree(home)
            return result
        return run

    # `history` only reads: one home with 100 versions of 10 KB serves every run.
    history_home, history_note = home_with_note(note_text(10 * KIB, seed=7))
    history_folder = versions_folder(history_note, 100, 10 * KIB)

    def history(command: list[str]) -> Callable[[], Run]:
        def run() -> Run:
            out = os.path.join(history_home, "out")
            result = spawn(command, harness.clean_environment(history_home), stdout=out)
            with open(out, "rb") as f:
                if f.read().count(b"\n") < 100:
                    raise BenchError(f"{' '.join(command)} did not list 100 versions")
            return result
        return run

    keys = prompt_keys()
    note_10k, note_1k, note_1m = note_text(10 * KIB, 3), note_text(KIB, 4), note_text(MIB, 5)

    def prompt(note: bytes, memory: bool = False) -> Callable[[], Run]:
        def run() -> Run:
            home, path = home_with_note(note)
            env = harness.clean_environment(home, TERM="xterm")
            result, peak = harness.type_into_prompt(binary, path, note, env, keys, on_terminal,
                                                    memory)
            result.peak_kib = peak
            shutil.rmtree(home)
            return result
        return run

    # Up through 100 kept versions of 10 KB, Alt-> back to the line, then a
    # Ctrl-R search of 10 characters that only the oldest version holds, and
    # Enter saves the found line.
    query = "qzxjwvkqpy"
    oldest = query.encode() + b" " + note_text(10 * KIB, seed=101)
    history_keys = ([b"\x1b[A"] * 100 + [b"\x1b>", b"\x12"] + [c.encode() for c in query]
                    + [b"\r"])

    def prompt_history() -> Callable[[], Run]:
        def run() -> Run:
            home, path = home_with_note(note_text(10 * KIB, seed=7))
            folder = versions_folder(path, 100, 10 * KIB)
            with open(os.path.join(folder, "%010d-%d" % (1, 1_764_000_001)), "wb") as f:
                f.write(oldest)  # the only version that holds the query
            env = harness.clean_environment(home, TERM="xterm")
            result, output = on_terminal([binary, "--file", path], env, history_keys)
            if b"Saved." not in output:
                raise BenchError("the prompt did not report Saved.")
            with open(path, "rb") as f:
                if f.read() != oldest:
                    raise BenchError("Enter did not save the version the search found")
            shutil.rmtree(home)
            result.seconds /= len(history_keys)
            return result
        return run

    def readline(note: bytes) -> Callable[[], Run]:
        bash = shutil.which("bash")
        def run() -> Run:
            home = work.fresh()
            env = harness.clean_environment(home, TERM="xterm", note=note.decode())
            result, _ = on_terminal([bash, "-c", 'read -e -i "$note" x'], env, keys)
            shutil.rmtree(home)
            return result
        return run

    # `show --line`, which a prompt or a bar runs again and again, beside
    # `show`: a 100-byte note, and a 1 MiB note on one line (of which the
    # line reads only the beginning, and `show` writes it all).
    line_1m = note_text(MIB, seed=6)

    def show_line(note: bytes, arguments: list[str]) -> Callable[[], Run]:
        def run() -> Run:
            home, _ = home_with_note(note)
            out = os.path.join(home, "out")
            result = spawn([binary] + arguments, harness.clean_environment(home), stdout=out)
            with open(out, "rb") as f:
                printed = f.read()
            if arguments == ["show"]:
                if printed != note + b"\n":
                    raise BenchError("show did not print the note")
            elif printed.count(b"\n") != 1 or not printed.startswith(note[:20]):
                raise BenchError(f"show --line printed {printed[:100]!r}")
            shutil.rmtree(home)
            return result
        return run

    # A shell prompt with `filenote_prompt` (the code of `filenote init`)
    # beside the same prompt without it, and beside one that runs `filenote
    # show` in its place (what a user would write without `init`): the shell
    # expands its prompt PROMPTS times, as it would at each of PROMPTS
    # prompts, after loading the code in every case.
    prompts = 20
    segment_scripts = {
        "bash": ('eval "$(filenote init bash)"; PS1=%s; '
                 'for ((i = 0; i < %d; i++)); do p=${PS1@P}; done; printf "%%s" "$p"',
                 {"segment": "'$(filenote_prompt) \\$ '", "bare": "'\\u:\\w \\$ '",
                  "show": "'$(filenote show 2>/dev/null) \\$ '"}),
        # Each prompt after the precmd hooks, as zsh draws it.
        "zsh": ('eval "$(filenote init zsh)"; setopt prompt_subst; PROMPT=%s; '
                'repeat %d { for f in $precmd_functions; do $f; done; print -Pv p -- "$PROMPT" }; '
                'print -rn -- "$p"',
                # The bare prompt runs no hook of filenote's.
                {"segment": "'${filenote_prompt_line} %~ %# '",
                 "bare": "'%~ %# '; precmd_functions=()",
                 "show": "'$(filenote show 2>/dev/null) %~ %# '; precmd_functions=()"}),
        "fish": ("filenote init fish | source; function fish_prompt; %s; end; "
                 "for i in (seq %d); set p (fish_prompt); end; printf '%%s' $p",
                 {"segment": "filenote_prompt; echo -n ' > '", "bare": "echo -n ' > '",
                  "show": "filenote show 2>/dev/null; echo -n ' > '"}),
    }

    def prompt_segment(shell: str, kind: str) -> Callable[[], Run]:
        script, prompts_of = segment_scripts[shell]
        code = script % (prompts_of[kind], prompts)
        program = shutil.which(shell)
        arguments = {"bash": ["--norc", "--noprofile", "-c"], "zsh": ["-f", "-c"],
                     "fish": ["--no-config", "-c"]}[shell]
        def run() -> Run:
            home, _ = home_with_note(small_note)
            env = harness.clean_environment(
                home, PATH=os.path.dirname(os.path.abspath(binary)) + ":"
                + os.environ.get("PATH", "/usr/bin:/bin"))
            out = os.path.join(home, "out")
            result = spawn([program] + arguments + [code], env, stdout=out)
            with open(out, "rb") as f:
                if kind != "bare" and small_note[:20] not in f.read():
                    raise BenchError(f"{shell}'s prompt did not show the note")
            shutil.rmtree(home)
            return result
        return run

    def pairs(n: int) -> int:
        return 1 if smoke else n

    def warmup(n: int) -> int:
        return 0 if smoke else n

    return [
        Benchmark("show a 100 B note, wall time", "ratio ≤ 1.3",
                  show(False, filenote_show), show(False, cat_note),
                  pairs(60), warmup(5), judge_ratio(1.3)),
        Benchmark("show, peak memory", "≤ 1.5 × cat's",
                  show(True, filenote_show), show(True, cat_note),
                  pairs(10), warmup(1), judge_memory_ratio(1.5)),
        Benchmark("show --line of a 100 B note vs show", "ratio ≤ 1.15",
                  show_line(small_note, ["show", "--line"]), show_line(small_note, ["show"]),
                  pairs(60), warmup(5), judge_ratio(1.15)),
        Benchmark("show --line of a 1 MiB line vs show of it", "ratio ≤ 1.15",
                  show_line(line_1m, ["show", "--line"]), show_line(line_1m, ["show"]),
                  pairs(40), warmup(3), judge_ratio(1.15)),
        *[Benchmark(f"{shell} prompt with init's segment vs without, per prompt",
                    "+ ≤ 3 ms a prompt",
                    prompt_segment(shell, "segment"), prompt_segment(shell, "bare"),
                    pairs(20), warmup(2), judge_added_time(3 / 1000, prompts))
          for shell in ("bash", "zsh", "fish")],
        *[Benchmark(f"{shell} prompt with init's segment vs with $(filenote show)",
                    "ratio ≤ 1.3",
                    prompt_segment(shell, "segment"), prompt_segment(shell, "show"),
                    pairs(20), warmup(2), judge_ratio(1.3, prompts))
          for shell in ("bash", "zsh", "fish")],
        # 1.3 for filenote's own start and work, plus 0.2 for the start of
        # any static-pie Swift program, which a C one like dd does not pay
        # (bench/README.md, The rows of the one-save issue).
        Benchmark("save 100 B (atomic, durable) vs dd conv=fsync", "ratio ≤ 1.5",
                  save_small(lambda note: [binary, "save"]),
                  save_small(lambda note: [shutil.which("dd"), f"of={note}", "conv=fsync",
                                           "status=none"]),
                  pairs(40), warmup(3), judge_ratio(1.5)),
        Benchmark("save 100 B keeping a version (10 kept) vs dd conv=fsync", "ratio ≤ 1.5",
                  save_keeping_version(lambda note: [binary, "save"]),
                  save_keeping_version(lambda note: [shutil.which("dd"), f"of={note}",
                                                     "conv=fsync", "status=none"]),
                  pairs(40), warmup(3), judge_ratio(1.5)),
        Benchmark("history of 100 versions of 10 KB vs ls -l of their folder", "ratio ≤ 1.5",
                  history([binary, "history"]),
                  history([shutil.which("ls"), "-l", history_folder]),
                  pairs(60), warmup(5), judge_ratio(1.5)),
        Benchmark("save 100 MiB from a pipe vs cat > new file; sync it", "ratio ≤ 1.2",
                  save_big(False), save_big(True), pairs(20), warmup(1), judge_ratio(1.2)),
        Benchmark("save < 100 MiB file vs cat file > new file; sync it", "ratio ≤ 1.2",
                  save_big(False, from_file=True), save_big(True, from_file=True), pairs(20),
                  warmup(1), judge_ratio(1.2)),
        Benchmark("save < the same 100 MiB again (writes nothing) vs cmp of the two files",
                  "ratio ≤ 1.15", save_big_again(False), save_big_again(True), pairs(20),
                  warmup(1), judge_ratio(1.15)),
        Benchmark("save the same 100 MiB again from a pipe vs cmp - of the pipe",
                  "ratio ≤ 1.15", save_big_again(False, from_pipe=True),
                  save_big_again(True, from_pipe=True), pairs(20), warmup(1),
                  judge_ratio(1.15)),
        Benchmark("save 100 MiB from a pipe, peak memory", "≤ 32 MiB",
                  save_big(False, memory=True), None, pairs(3), warmup(0),
                  judge_memory_limit(32)),
        Benchmark("prompt: 2,000 keys on 10 KB vs bash read -e", "ratio ≤ 0.1",
                  prompt(note_10k), readline(note_10k), pairs(20), warmup(1),
                  judge_ratio(0.1)),
        Benchmark("prompt: 2,000 keys on 1 MiB vs on 1 KB", "ratio ≤ 3",
                  prompt(note_1m), prompt(note_1k), pairs(20), warmup(1), judge_ratio(3)),
        Benchmark("prompt: 100 versions of 10 KB, Up x100 + Ctrl-R search, per key",
                  "≤ 5 ms a key", prompt_history(), None, pairs(10), warmup(1),
                  judge_time_limit(0.005)),
        Benchmark("prompt: peak memory, 1 MiB note", "≤ 64 MiB",
                  prompt(note_1m, memory=True), None, pairs(3), warmup(0),
                  judge_memory_limit(64)),
    ]


def show_line_benchmarks(binary: str, work: Workspace, smoke: bool) -> list[Benchmark]:
    """`show --line` of a 100 MiB note beside the same of a 100-byte one:
    the line reads only the beginning it shows, so neither its time nor its
    memory may grow with the note past that beginning. The notes are made
    once and named with --file; each run gets a fresh HOME."""
    small = note_text(100, seed=1)
    big = note_text(60, seed=8) + b"\n" + bulk_input(100 * MIB)
    paths = {}
    for name, text in (("line-note-100B", small), ("line-note-100MiB", big)):
        paths[name] = os.path.join(work.root, name)
        with open(paths[name], "wb") as f:
            f.write(text)
    os.sync()

    def show_line(name: str, memory: bool) -> Callable[[], Run]:
        first = (small if name == "line-note-100B" else big)[:20]

        def run() -> Run:
            home = work.fresh()
            out = os.path.join(home, "out")
            result = spawn([binary, "show", "--line", "--width", "80", "--file", paths[name]],
                           harness.clean_environment(home), stdout=out, measure_memory=memory)
            with open(out, "rb") as f:
                printed = f.read()
            if printed.count(b"\n") != 1 or not printed.startswith(first):
                raise BenchError(f"show --line printed {printed[:100]!r}")
            shutil.rmtree(home)
            return result
        return run

    pairs = 1 if smoke else 40
    warmup = 0 if smoke else 3
    return [
        Benchmark("show --line of a 100 MiB note vs of a 100 B note, wall time", "ratio ≤ 1.15",
                  show_line("line-note-100MiB", False), show_line("line-note-100B", False),
                  pairs, warmup, judge_ratio(1.15)),
        Benchmark("show --line of a 100 MiB note vs of a 100 B note, peak memory",
                  "≤ 1.1 × the small one's", show_line("line-note-100MiB", True),
                  show_line("line-note-100B", True), 1 if smoke else 10, warmup,
                  judge_memory_ratio(1.1)),
    ]


# ---------------------------------------------------------------------------


def run_pairs(bench: Benchmark) -> tuple[list[Run], list[Run]]:
    """Warm-up, then pairs in alternating order: filenote first in even pairs."""
    ours: list[Run] = []
    theirs: list[Run] = []
    for index in range(bench.warmup + bench.pairs):
        order = [bench.subject, bench.reference] if index % 2 == 0 else [bench.reference,
                                                                          bench.subject]
        results = {id(f): f() for f in order if f is not None}
        if index >= bench.warmup:
            ours.append(results[id(bench.subject)])
            if bench.reference:
                theirs.append(results[id(bench.reference)])
    return ours, theirs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=".build/release/filenote")
    parser.add_argument("--smoke", action="store_true",
                        help="run each benchmark once and judge nothing (for CI)")
    parser.add_argument("--only", help="run only the benchmarks whose name contains this")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    if not os.access(binary, os.X_OK):
        print(f"bench: no executable at {binary}", file=sys.stderr)
        return 2
    if not os.access(TIME, os.X_OK):
        print(f"bench: {TIME} is needed for peak memory (apt-get install time)", file=sys.stderr)
        return 2

    root = tempfile.mkdtemp(prefix="filenote-bench-")
    started = time.monotonic()
    rows = []
    failed = errored = False
    try:
        work = Workspace(root)
        everything = (benchmarks(binary, work, args.smoke)
                      + show_line_benchmarks(binary, work, args.smoke))
        selected = [b for b in everything if not args.only or args.only in b.name]
        print(f"filenote benchmarks: {binary}")
        print(f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}, data in {root}"
              + (", each benchmark once (smoke: not judged)" if args.smoke else ""))
        for bench in selected:
            try:
                ours, theirs = run_pairs(bench)
                mine, ref, ratio, passed = bench.judge(ours, theirs)
                verdict = "ran" if args.smoke else ("pass" if passed else "FAIL")
                failed |= not passed
                pair_count = f"{len(ours)}" + (" pairs" if bench.reference else " runs")
            except (BenchError, harness.Failure, OSError, UnicodeDecodeError) as error:
                mine = ref = ratio = pair_count = "—"
                verdict = "ERROR"
                errored = True
                print(f"bench: {bench.name}: {error}", file=sys.stderr)
            rows.append((bench.name, mine, ref, ratio, bench.target, verdict, pair_count))
            print(f"  {bench.name}: {verdict}", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)

    header = ("benchmark", "filenote", "reference", "ratio", "target", "result", "runs")
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]
    print()
    for row in [header, tuple("-" * w for w in widths), *rows]:
        print("  ".join(str(cell).ljust(w) for cell, w in zip(row, widths)).rstrip())
    print(f"\nmedians; ratio = median of per-pair ratios; {time.monotonic() - started:.0f} s")
    if errored:
        return 2
    return 0 if args.smoke or not failed else 1


if __name__ == "__main__":
    sys.exit(main())
