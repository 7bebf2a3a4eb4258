# A thin wrapper over SwiftPM: every target here is one or two commands you
# could type yourself.

PREFIX ?= /usr/local
SWIFT ?= swift
# The release build (the one `run`, `install` and `bench` use): one static
# executable, so nothing is loaded or relocated before main, linked by lld
# with the functions a run calls laid out together (bench/symbol-order.txt,
# written by `make symbol-order`), so a short run maps few pages. See the
# Performance section of README.md for what each of these buys.
RELEASE_FLAGS = -c release -Xswiftc -static-executable -Xswiftc -use-ld=lld \
	-Xlinker --symbol-ordering-file=$(CURDIR)/bench/symbol-order.txt \
	-Xlinker --no-warn-symbol-ordering
RELEASE_BINARY = .build/release/filenote

# What `make install` puts where. DESTDIR (empty by default) is prepended to
# every path, so a package build can stage the files: make install DESTDIR=/tmp/stage
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASH_COMPLETION_DIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSH_COMPLETION_DIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISH_COMPLETION_DIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

# The binary that install-files copies: the release build unless told otherwise
# (the tests install the debug binary they already have: make install-files BINARY=...).
BINARY ?= $(RELEASE_BINARY)

.PHONY: all build release run test format lint clean install install-files uninstall \
	bench bench-check symbol-order reliability reliability-short fuzz fuzz-short

all: build

build:
	$(SWIFT) build

release:
	@# SwiftPM does not see the ordering file as an input of the link: relink when it changed.
	@if [ bench/symbol-order.txt -nt $(RELEASE_BINARY) ]; then rm -f $(RELEASE_BINARY); fi
	$(SWIFT) build $(RELEASE_FLAGS)

# make run ARGS="show"
run: release
	$(RELEASE_BINARY) $(ARGS)

# The benchmarks of README.md's Performance section, judged against their
# targets (a few minutes; not part of `make test`); bench/latency.py is the
# per-key latency table.
bench: release
	python3 bench/bench.py --binary $(RELEASE_BINARY)
	python3 bench/latency.py --binary $(RELEASE_BINARY)

# Each benchmark once, to show they still run; timings are not judged.
bench-check: release
	python3 bench/bench.py --binary $(RELEASE_BINARY) --smoke
	python3 bench/latency.py --binary $(RELEASE_BINARY) --smoke

# Rewrites bench/symbol-order.txt from a trace of the release binary.
symbol-order: release
	python3 bench/symbol_order.py $(RELEASE_BINARY) bench/symbol-order.txt

# The whole test suite, as CI runs it: formatting, unit and end-to-end tests,
# and one quick run of each benchmark (built so they cannot rot; timings are
# not judged here).
test: lint
	$(SWIFT) build --build-tests
	$(SWIFT) test
	$(MAKE) bench-check
	$(MAKE) reliability-short
	$(MAKE) fuzz-short

# The reliability suite (reliability/run.py, Python 3 standard library only):
# kill -9 crash loop, concurrent saves and reads, faults, bad input, terminal
# restoration, against the built binary in temporary folders. Some cases mount
# file systems and set file attributes, so run it as root. The short setting
# (for CI, on the debug build) takes well under a minute; the long one, on the
# release build, gives the figures in README.md. Pass RELIABILITY_FLAGS="--seed N"
# to repeat a run.
PYTHON ?= python3
RELIABILITY_FLAGS ?=

reliability-short: build
	$(PYTHON) reliability/run.py --setting short --binary .build/debug/filenote $(RELIABILITY_FLAGS)

reliability: release
	$(PYTHON) reliability/run.py --setting long --binary $(RELEASE_BINARY) $(RELIABILITY_FLAGS)

# libFuzzer harnesses for the key decoder + editor + renderer and the UTF-8
# validator (see fuzz/run.sh); each fails on a crash or a broken invariant.
# fuzz-short is the CI setting, about 25 s of fuzzing after a ~15 s build.
FUZZ_SECONDS ?= 600

fuzz:
	fuzz/run.sh editor=$(FUZZ_SECONDS) utf8-validator=$(FUZZ_SECONDS)

fuzz-short:
	fuzz/run.sh editor=15 utf8-validator=10

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

# make install [PREFIX=/usr/local] [DESTDIR=]: build the release binary, then
# install it with the man page and the bash, zsh and fish completions.
install: release
	$(MAKE) install-files BINARY=$(RELEASE_BINARY)

# Installs the files without building anything first.
install-files:
	install -d "$(BINDIR)" "$(MANDIR)" "$(BASH_COMPLETION_DIR)" \
		"$(ZSH_COMPLETION_DIR)" "$(FISH_COMPLETION_DIR)"
	install -m 0755 "$(BINARY)" "$(BINDIR)/filenote"
	install -m 0644 doc/filenote.1 "$(MANDIR)/filenote.1"
	install -m 0644 completions/filenote.bash "$(BASH_COMPLETION_DIR)/filenote"
	install -m 0644 completions/_filenote "$(ZSH_COMPLETION_DIR)/_filenote"
	install -m 0644 completions/filenote.fish "$(FISH_COMPLETION_DIR)/filenote.fish"

# Removes exactly the files install-files put there; the folders stay, as
# other programs' files may live in them.
uninstall:
	rm -f "$(BINDIR)/filenote" "$(MANDIR)/filenote.1" \
		"$(BASH_COMPLETION_DIR)/filenote" "$(ZSH_COMPLETION_DIR)/_filenote" \
		"$(FISH_COMPLETION_DIR)/filenote.fish"

clean:
	rm -rf .build
