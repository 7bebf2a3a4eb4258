#!/bin/sh
# Builds the libFuzzer harnesses with the toolchain's swiftc and runs them.
#
#   fuzz/run.sh editor=15 inputrc=10 utf8-validator=10   run each fuzzer for that many seconds
#   fuzz/run.sh build                         only build them
#   fuzz/run.sh replay editor FILE...         run inputs once, printing what they do
#
# FUZZ_FLAGS adds libFuzzer flags to every run, e.g. FUZZ_FLAGS="-len_control=0
# -max_len=2048" to try long sessions from the start (libFuzzer otherwise lets
# inputs grow slowly: about 140 bytes after ten minutes).
#
# Each harness is compiled as one module from its own files and the sources it
# tests, so Package.swift is not involved. Everything built or found goes to
# .build/fuzz: the binaries, the corpus each run grows (seeded from
# fuzz/corpus/<name>, which is only read), logs, and crash inputs. Exits
# non-zero when a fuzzer finds a crash, a broken invariant, a leak or a hang.
set -eu

cd "$(dirname "$0")/.."
SWIFTC=${SWIFTC:-swiftc}
OUT=.build/fuzz
FLAGS="-sanitize=fuzzer,address -parse-as-library -O -use-ld=lld"

# LineEditor is the pure line editor: a target without dependencies
# (Package.swift), so all of it compiles with the harness alone.
EDITOR_SOURCES="
  $(find Sources/LineEditor -name '*.swift' | sort)
  fuzz/EditorFuzzer.swift
  fuzz/EditorScenario.swift
  fuzz/EditorSession.swift
  fuzz/ExpectedLine.swift
  fuzz/TerminalLine.swift
"
# The inputrc parser, with the editor it sets up.
INPUTRC_SOURCES="
  $(find Sources/LineEditor -name '*.swift' | sort)
  fuzz/InputrcFuzzer.swift
"
# The validator, the table of UTF-8 lead bytes it shares with LineEditor, and
# its vector loop: C (CFilenote's UTF8Blocks.c, compiled here with the same
# sanitizers) behind the Swift function that calls it.
UTF8_VALIDATOR_SOURCES="
  Sources/FilenoteCore/Note/UTF8Validator.swift
  Sources/LineEditor/Input/UTF8LeadByte.swift
  Sources/SystemCalls/VectorUTF8.swift
  fuzz/UTF8ValidatorFuzzer.swift
  fuzz/UTF8ValidatorCheck.swift
"
CLANG=${CLANG:-clang}

build_one() { # name module sources...
  name=$1 module=$2
  shift 2
  echo "fuzz: building $name"
  # shellcheck disable=SC2086 # FLAGS is a list of flags
  "$SWIFTC" $FLAGS -module-name "$module" "$@" -o "$OUT/$name-fuzzer"
}

build() {
  mkdir -p "$OUT"
  start=$(date +%s)
  # shellcheck disable=SC2086 # the source lists are lists of paths
  build_one editor EditorFuzzer $EDITOR_SOURCES
  # shellcheck disable=SC2086
  build_one inputrc InputrcFuzzer $INPUTRC_SOURCES
  "$CLANG" -fsanitize=fuzzer-no-link,address -O2 -c Sources/CFilenote/UTF8Blocks.c \
    -I Sources/CFilenote/include -o "$OUT/UTF8Blocks.o"
  printf 'module CFilenote {\n  header "%s/Sources/CFilenote/include/CFilenote.h"\n  export *\n}\n' \
    "$PWD" >"$OUT/CFilenote.modulemap"
  # shellcheck disable=SC2086
  build_one utf8-validator UTF8ValidatorFuzzer $UTF8_VALIDATOR_SOURCES "$OUT/UTF8Blocks.o" \
    -Xcc -fmodule-map-file="$OUT/CFilenote.modulemap"
  echo "fuzz: built all three in $(($(date +%s) - start)) s"
}

run_one() { # name seconds
  name=$1 seconds=$2
  corpus="$OUT/corpus/$name"
  log="$OUT/$name.log"
  mkdir -p "$corpus" "$OUT/crashes"
  dict=""
  if [ -f "fuzz/$name.dict" ]; then dict="-dict=fuzz/$name.dict"; fi
  echo "fuzz: running $name for $seconds s (log: $log)"
  status=0
  # New inputs go to the first folder; the seeds in git are only read.
  # shellcheck disable=SC2086 # dict and FUZZ_FLAGS are lists of flags
  "$OUT/$name-fuzzer" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
    -print_funcs=0 -artifact_prefix="$OUT/crashes/$name-" $dict ${FUZZ_FLAGS:-} \
    "$corpus" "fuzz/corpus/$name" >"$log" 2>&1 || status=$?
  if [ "$status" -ne 0 ]; then
    tail -n 60 "$log"
    echo "fuzz: $name FAILED (exit $status); the input is in $OUT/crashes/"
    return 1
  fi
  # The last status line has the coverage; the final stats the executions.
  grep -E '^#[0-9]+' "$log" | tail -n 1
  grep -E '^stat::number_of_executed_units|^Done' "$log" || true
}

case "${1:-}" in
  build)
    build
    ;;
  replay)
    [ $# -ge 3 ] || { echo "usage: fuzz/run.sh replay editor|inputrc|utf8-validator FILE..." >&2; exit 2; }
    name=$2
    shift 2
    FUZZ_VERBOSE=1 "$OUT/$name-fuzzer" "$@"
    ;;
  *=*)
    build
    failed=0
    for job in "$@"; do
      run_one "${job%%=*}" "${job#*=}" || failed=1
    done
    exit "$failed"
    ;;
  *)
    sed -n '2,16p' "$0" >&2
    exit 2
    ;;
esac
