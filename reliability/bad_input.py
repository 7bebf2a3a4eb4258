"""Case group 4: a corpus of bad and odd input, through `filenote save`
(standard input from a file, from a pipe a byte at a time, and as an
argument) and placed directly in `datafile.dat` before `show` and the
prompt.

Invalid UTF-8 is refused with the offset of the first bad byte (where the
ill-formed sequence starts, as Python's decoder reports it) and changes
nothing; valid input, however odd, is kept byte for byte except for one
trailing line ending on standard input.
"""

import hashlib
import os
import shutil
import subprocess
import time

from harness import (Sandbox, TerminalRun, check, expect_error_line, expect_no_temporary_files,
                     expect_only, file_identity, read_or_none, reap, run_measured, show_bytes,
                     write_file)

OLD = b"the old note"
CHUNK = 256 * 1024  # filenote's read size: offsets around it cross a chunk edge
MIB = 1024 * 1024

INVALID = [
    ("stray continuation byte alone", b"\x80"),
    ("stray continuation byte inside text", b"abc\x80def"),
    ("two stray continuation bytes", b"ab\xbf\xbf"),
    ("continuation byte after a complete character", b"\xc3\xa9\xa9"),
    ("2-byte sequence cut at the end", b"abc\xc3"),
    ("3-byte sequence cut at the end", b"abc\xe2\x82"),
    ("4-byte sequence cut at the end", b"abc\xf0\x9f\x98"),
    ("lead byte cut at the end before a newline", b"abc\xe2\x82\n"),
    ("lead byte cut at the end before CRLF", b"abc\xf0\r\n"),
    ("lead byte followed by ASCII", b"\xc3a"),
    ("3-byte lead followed by ASCII", b"\xe2\x82a"),
    ("overlong slash C0 AF", b"\xc0\xaf"),
    ("overlong C1 BF", b"\xc1\xbf"),
    ("overlong NUL C0 80", b"a\xc0\x80b"),
    ("overlong 3-byte E0 80 AF", b"\xe0\x80\xaf"),
    ("overlong 3-byte E0 9F BF", b"\xe0\x9f\xbf"),
    ("overlong 4-byte F0 80 80 AF", b"\xf0\x80\x80\xaf"),
    ("overlong 4-byte F0 8F BF BF", b"\xf0\x8f\xbf\xbf"),
    ("high surrogate U+D800", b"x\xed\xa0\x80"),
    ("low surrogate U+DFFF", b"\xed\xbf\xbf"),
    ("surrogate pair in CESU-8", b"\xed\xa0\xbd\xed\xb8\x80"),
    ("U+110000", b"\xf4\x90\x80\x80"),
    ("F5 lead", b"\xf5\x80\x80\x80"),
    ("F7 BF BF BF", b"\xf7\xbf\xbf\xbf"),
    ("5-byte form", b"\xf8\x88\x80\x80\x80"),
    ("6-byte form", b"\xfc\x84\x80\x80\x80\x80"),
    ("0xFE", b"ok\xfe"),
    ("0xFF", b"\xff"),
    ("UTF-16 LE byte order mark", b"\xff\xfeh\x00i\x00"),
    ("UTF-16 BE byte order mark", b"\xfe\xff\x00h\x00i"),
    ("Latin-1 text", b"caf\xe9 cr\xe8me"),
    ("bad byte after a newline", b"line one\n\xff"),
    ("bad byte after NUL", b"\x00\x00\xff"),
]

# Input, and what `save` from standard input stores.
VALID = [
    ("NUL byte alone", b"\x00", b"\x00"),
    ("NUL bytes inside text", b"a\x00b\x00\x00c", b"a\x00b\x00\x00c"),
    ("NUL then newline", b"\x00\n", b"\x00"),
    ("CRLF lines", b"one\r\ntwo\r\n", b"one\r\ntwo"),
    ("lone CR inside", b"one\rtwo", b"one\rtwo"),
    ("lone CR at the end is kept", b"one\r", b"one\r"),
    ("lone CR alone", b"\r", b"\r"),
    ("two newlines: one is kept", b"a\n\n", b"a\n"),
    ("CRLF after LF: only the CRLF goes", b"a\n\r\n", b"a\n"),
    ("LF after CRLF: only the LF goes", b"a\r\n\n", b"a\r\n"),
    ("CR CR LF: one CRLF goes", b"a\r\r\n", b"a\r"),
    ("UTF-8 byte order mark kept", b"\xef\xbb\xbfhello", b"\xef\xbb\xbfhello"),
    ("UTF-8 byte order mark alone", b"\xef\xbb\xbf", b"\xef\xbb\xbf"),
    ("UTF-8 byte order mark and newline", b"\xef\xbb\xbf\n", b"\xef\xbb\xbf"),
    ("boundaries of each length", b"\x7f\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf",
     b"\x7f\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf"),
    ("around the surrogates", b"\xed\x9f\xbf\xee\x80\x80", b"\xed\x9f\xbf\xee\x80\x80"),
    ("U+10000 and U+10FFFF", b"\xf0\x90\x80\x80\xf4\x8f\xbf\xbf",
     b"\xf0\x90\x80\x80\xf4\x8f\xbf\xbf"),
    ("noncharacters U+FFFE U+FFFF", b"\xef\xbf\xbe\xef\xbf\xbf", b"\xef\xbf\xbe\xef\xbf\xbf"),
    ("escape and controls", b"\x1b[31mred\x1b[0m\x07\x08\t\x0b\x0c\x7f",
     b"\x1b[31mred\x1b[0m\x07\x08\t\x0b\x0c\x7f"),
    ("C1 control U+0085", b"a\xc2\x85b", b"a\xc2\x85b"),
    ("combining marks and emoji", "e\u0301 👩‍👩‍👧 🇫🇷".encode(), "e\u0301 👩‍👩‍👧 🇫🇷".encode()),
]

EMPTY = [("empty input", b""), ("a newline alone", b"\n"), ("CRLF alone", b"\r\n")]


def expected_offset(data):
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        return error.start
    return None


def run(settings, ledger):
    sandbox = Sandbox(settings, "bad input")
    os.mkdir(sandbox.documents, 0o700)

    invalid = list(INVALID) + chunk_edge_corpus()
    for name, data in invalid:
        for route in ("stdin", "argument", "trickle"):
            if route == "argument" and (b"\x00" in data or len(data) > 100 * 1024):
                continue  # an argument cannot hold NUL, nor be that long
            if route == "trickle" and len(data) > 64:
                continue
            ledger.run("bad input via %s refused: %s" % (route, name), save_refused, sandbox,
                       route, data)
        ledger.run("bad input in datafile.dat, show refuses it unchanged: " + name, show_refused,
                   sandbox, data)
    for name, data in invalid[:: 4 if not settings.long else 1]:
        ledger.run("bad input in datafile.dat, the prompt refuses it unchanged: " + name,
                   prompt_refused, sandbox, data)
    ledger.count("invalid inputs tried", len(invalid))

    valid = list(VALID) + [(name, data, data if stored is None else stored)
                           for name, data, stored in chunk_edge_valid()]
    for name, data, stored in valid:
        for route in ("stdin", "argument", "trickle"):
            if route == "argument" and (b"\x00" in data or len(data) > 100 * 1024):
                continue
            if route == "trickle" and len(data) > 64:
                continue
            expected = data if route == "argument" else stored
            ledger.run("odd input via %s kept: %s" % (route, name), save_kept, sandbox, route,
                       data, expected)
        ledger.run("odd input in datafile.dat shown byte for byte: " + name, show_exact, sandbox,
                   data)
        if len(data) <= 64:
            ledger.run("odd input in datafile.dat, the prompt's Enter keeps it byte for byte: "
                       + name, prompt_keeps, sandbox, data, b"")
            ledger.run("odd input in datafile.dat, typing at its end in the prompt keeps the "
                       "rest byte for byte: " + name, prompt_keeps, sandbox, data, b"x")
    for name, data in EMPTY:
        ledger.run("empty input refused: " + name, empty_refused, sandbox, data)
    ledger.count("odd valid inputs tried", len(valid))

    size = 100 * MIB if settings.long else 8 * MIB
    ledger.run("a %d MiB single line is saved streaming and shown back whole" % (size // MIB),
               huge_line, settings, size)
    ledger.run("a %d MiB single line with a bad last byte is refused at that offset"
               % (size // MIB), huge_line_bad_end, settings, size)


def chunk_edge_corpus():
    """Bad bytes where filenote's 256 KiB reads meet, and far from the start."""
    filler = b"a" * CHUNK
    cases = []
    for offset in (CHUNK - 1, CHUNK, CHUNK + 1):
        cases.append(("0xFF at offset %d" % offset, filler[:offset] + b"\xff" + b"tail"))
    cases.append(("3-byte sequence cut by the chunk edge, then ASCII",
                  filler[:CHUNK - 1] + b"\xe2\x82" + b"a"))
    cases.append(("lead byte last in the first chunk, input ends",
                  filler[:CHUNK - 1] + b"\xe2"))
    cases.append(("surrogate across the chunk edge", filler[:CHUNK - 2] + b"\xed\xa0\x80z"))
    return cases


def chunk_edge_valid():
    """(name, input, stored) where filenote's 256 KiB reads meet."""
    filler = b"a" * CHUNK
    return [
        ("3-byte character across the chunk edge", filler[:CHUNK - 1] + "€".encode() + b"z",
         None),
        ("4-byte character across the chunk edge", filler[:CHUNK - 2] + "😀".encode() + b"z",
         None),
        ("CR last in a chunk, LF first in the next", filler[:CHUNK - 1] + b"\r\n",
         filler[:CHUNK - 1]),
        ("LF alone in the second chunk", filler + b"\n", filler),
        ("CR LF alone in the second chunk", filler + b"\r\n", filler),
    ]


def reset(sandbox, content=OLD):
    for name in os.listdir(sandbox.documents):
        path = os.path.join(sandbox.documents, name)
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path)  # the note's versions
        else:
            os.unlink(path)
    write_file(sandbox.note, content)


def save_via(sandbox, route, data):
    if route == "argument":
        return sandbox.run(["save", data])
    if route == "stdin":
        path = os.path.join(sandbox.root, "input")
        write_file(path, data)
        return sandbox.run(["save"], stdin=path)
    return trickle(sandbox, data)


def trickle(sandbox, data):
    """Feeds standard input a byte at a time, so filenote's reads are tiny."""
    from harness import Outcome

    process = sandbox.start(["save"], stdin=subprocess.PIPE)
    try:
        try:
            for index in range(len(data)):
                process.stdin.write(data[index:index + 1])
                process.stdin.flush()
                time.sleep(0.001)
        except BrokenPipeError:
            pass  # refused early: the rest does not matter
        finally:
            try:
                process.stdin.close()
            except BrokenPipeError:
                pass
        # Its output is one short line at most: reading it cannot block the writer.
        stdout = process.stdout.read()
        stderr = process.stderr.read()
        process.wait(timeout=30)
    finally:
        reap(process)
    return Outcome(process.returncode, stdout, stderr)


def save_refused(sandbox, route, data):
    reset(sandbox)
    offset = expected_offset(data)
    outcome = save_via(sandbox, route, data)
    line = expect_error_line(outcome, ["not valid UTF-8", "offset %d" % offset])
    check(read_or_none(sandbox.note) == OLD, "the note changed: %s"
          % show_bytes(read_or_none(sandbox.note)))
    expect_only(sandbox.documents, ["datafile.dat"])
    return None if len(data) > 64 else line.split(": ", 1)[1][:70]


def show_refused(sandbox, data):
    reset(sandbox, data)
    before = file_identity(sandbox.note)
    line = expect_error_line(sandbox.run(["show"]), [
        sandbox.note, "not valid UTF-8", "offset %d" % expected_offset(data)])
    check(read_or_none(sandbox.note) == data and file_identity(sandbox.note) == before,
          "reading changed the file")
    expect_only(sandbox.documents, ["datafile.dat"])
    return None if len(data) > 64 else line.split(": ", 2)[2][:70]


def prompt_refused(sandbox, data):
    reset(sandbox, data)
    before = file_identity(sandbox.note)
    env = dict(sandbox.env, TERM="xterm-256color")
    run = TerminalRun(sandbox.settings.binary, [], env)
    try:
        if run.wait_for(b"offset", seconds=10) is False and run.poll() is None:
            # It opened a prompt on a note it cannot show: leave it with Ctrl-C.
            run.send(b"\x03")
        status = run.wait(seconds=10)
    finally:
        run.close()
    screen = run.transcript.decode("utf-8", "replace")
    check(status == 1, "expected exit 1, got %s; screen: %r" % (status, screen[-300:]))
    check("not valid UTF-8" in screen and "offset %d" % expected_offset(data) in screen,
          "the error is not on the screen: %r" % screen[-300:])
    check(read_or_none(sandbox.note) == data and file_identity(sandbox.note) == before,
          "the prompt changed the file")
    expect_only(sandbox.documents, ["datafile.dat"])


def prompt_keeps(sandbox, data, typed):
    """The prompt shows an odd note with stand-ins; Enter (after typing
    `typed` at the end) saves it back with every other byte as it was."""
    reset(sandbox, data)
    before = file_identity(sandbox.note)
    env = dict(sandbox.env, TERM="xterm-256color")
    run = TerminalRun(sandbox.settings.binary, [], env)
    try:
        check(run.wait_for(b"\x1b[?2004h") and run.wait_for(b"> "),
              "the prompt did not open: %s" % show_bytes(run.transcript))
        run.send(typed + b"\r")
        status = run.wait(seconds=10)
    finally:
        run.close()
    check(status == 0, "expected exit 0, got %s; screen: %s" % (
        status, show_bytes(run.transcript[-300:], 300)))
    check(read_or_none(sandbox.note) == data + typed, "the note became %s, expected %s" % (
        show_bytes(read_or_none(sandbox.note)), show_bytes(data + typed)))
    if not typed:
        check(file_identity(sandbox.note) == before, "Enter on an unchanged note rewrote the file")
    expect_only(sandbox.documents, ["datafile.dat"])


def save_kept(sandbox, route, data, stored):
    reset(sandbox)
    outcome = save_via(sandbox, route, data)
    check(outcome.status == 0, "the save failed: %s" % outcome.describe())
    check(read_or_none(sandbox.note) == stored, "stored %s, expected %s" % (
        show_bytes(read_or_none(sandbox.note)), show_bytes(stored)))
    expect_only(sandbox.documents, ["datafile.dat"])


def show_exact(sandbox, data):
    reset(sandbox, data)
    outcome = sandbox.run(["show"])
    # One newline ends the output, unless the note ends with its own.
    expected = data if data.endswith(b"\n") else data + b"\n"
    check(outcome.status == 0 and outcome.stdout == expected,
          "expected the bytes and one newline, got %s" % outcome.describe())


def empty_refused(sandbox, data):
    reset(sandbox)
    line = expect_error_line(sandbox.run(["save"], stdin=data), ["empty"])
    check(read_or_none(sandbox.note) == OLD, "the note changed")
    expect_no_temporary_files(sandbox.documents)
    return line


# --- One very long line ----------------------------------------------------


def write_huge_line(path, size, tail=b""):
    """`size` bytes of one line of mixed-width text, without holding it all."""
    block = ("abc déf ghï 日本語 😀 " * 2000).encode()
    digest = hashlib.sha256()
    with open(path, "wb") as file:
        written = 0
        while written < size:
            piece = block[:size - written]
            piece = piece.decode("utf-8", "ignore").encode() or b"a"
            file.write(piece)
            digest.update(piece)
            written += len(piece)
        file.write(tail)
        digest.update(tail)
    return written + len(tail), digest.hexdigest()


def file_digest(path):
    digest = hashlib.sha256()
    with open(path, "rb") as file:
        while True:
            block = file.read(MIB)
            if not block:
                return digest.hexdigest()
            digest.update(block)


def huge_line(settings, size):
    sandbox = Sandbox(settings, "huge line")
    input_path = os.path.join(sandbox.root, "input")
    length, digest = write_huge_line(input_path, size, b"\n")
    small_path = os.path.join(sandbox.root, "small")
    write_file(small_path, b"small\n")
    small = run_measured(settings.binary, ["save"], sandbox.env, small_path)
    check(small.status == 0, "a small save failed: %s" % small.describe())
    big = run_measured(settings.binary, ["save"], sandbox.env, input_path)
    check(big.status == 0, "the save failed: %s" % big.describe())
    _, stored_digest = write_huge_line(os.path.join(sandbox.root, "expected"), size)
    check(os.path.getsize(sandbox.note) == length - 1, "stored %d bytes, expected %d" % (
        os.path.getsize(sandbox.note), length - 1))
    check(file_digest(sandbox.note) == stored_digest, "the stored line differs from the input")
    grown_mib = (big.max_rss_kib - small.max_rss_kib) / 1024
    # Streaming: memory must not follow the input's size (holding even half
    # of the input would fail this).
    allowed_mib = min(16, size / MIB / 2)
    check(grown_mib < allowed_mib, "save's peak memory grew by %.1f MiB for a %d MiB input "
          "(allowed: %.0f MiB)" % (grown_mib, size // MIB, allowed_mib))
    output_path = os.path.join(sandbox.root, "output")
    with open(output_path, "wb") as output:
        status = subprocess.run([settings.binary, "show"], stdout=output, env=sandbox.env,
                                stderr=subprocess.PIPE, timeout=600).returncode
    check(status == 0, "show failed")
    check(file_digest(output_path) == digest, "show did not print the line and one newline")
    expect_only(sandbox.documents, ["datafile.dat"])
    return "max RSS %.1f MiB for the %d MiB save, %.1f MiB for a 6-byte one" % (
        big.max_rss_kib / 1024, size // MIB, small.max_rss_kib / 1024)


def huge_line_bad_end(settings, size):
    sandbox = Sandbox(settings, "huge bad line")
    os.mkdir(sandbox.documents, 0o700)
    write_file(sandbox.note, OLD)
    input_path = os.path.join(sandbox.root, "input")
    length, _ = write_huge_line(input_path, size, b"\xf0\x9f\x98")
    outcome = run_measured(settings.binary, ["save"], sandbox.env, input_path)
    line = expect_error_line(outcome, ["offset %d" % (length - 3)])
    check(read_or_none(sandbox.note) == OLD, "the note changed")
    expect_only(sandbox.documents, ["datafile.dat"])
    return line.split(": ", 1)[1][:90]
