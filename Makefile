# A thin wrapper over SwiftPM: every target here is one or two commands you
# could type yourself.

PREFIX ?= /usr/local
SWIFT ?= swift
PYTHON ?= python3
# The version of this build (packaging/version): the number of
# Sources/FilenoteCore/Commands/FilenoteVersion.swift at the release, a
# pre-release of the next patch after it, worked out from git. A tree without
# git history (a tarball of the source) says so with +dev: name the version
# instead, make dist VERSION=0.2.0. The Debian package writes a pre-release
# with ~, which dpkg sorts before the release.
VERSION := $(shell packaging/version)
DEB_VERSION = $(subst -dev,~dev,$(VERSION))
# The release build (the one `run`, `install` and `bench` use): one static
# executable, so nothing is loaded before main and the same binary runs on any
# x86-64 Linux; position-independent (static-pie, loaded at an address of
# its own each run), its relocations all made before main and then made
# read-only (-z relro -z now), with a stack that cannot run code. Its
# relocations are packed (RELR: 3 KiB where RELA took 430), so making them
# reads few pages. It is
# linked by lld with the functions a run calls laid out together, so a short
# run maps few pages; filenote's own Swift code is compiled with a section
# per function (-function-sections) so lld can move each, not only whole
# files. That order is traced from the binary being built (see
# `release`) and kept in .build, never committed. See bench/README.md ("What
# gets it there", "Start-up and hardening") for what each of these buys and
# costs. SwiftPM's $ORIGIN run path is left out: there is no library to find.
SYMBOL_ORDER = .build/symbol-order.txt
# Two objects the Makefile compiles (with the toolchain's clang) and links in:
# - the version: one function, filenote_build_version (see
#   Sources/CFilenote/BuildVersion.c), in an object named after the version,
#   so that another version changes the link's command line and SwiftPM
#   links again;
# - packaging/dladdr.c, a dladdr that knows the executable, without which the
#   Swift runtime of a static executable aborts where /proc is not mounted.
VERSION_STAMP = .build/version/filenote-$(VERSION).o
STATIC_DLADDR = .build/version/dladdr.o
RELEASE_FLAGS = -c release --disable-local-rpath -Xswiftc -static-executable \
	-Xswiftc -Xfrontend -Xswiftc -function-sections \
	-Xswiftc -use-ld=lld -Xswiftc -Xclang-linker -Xswiftc -static-pie \
	-Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now -Xlinker -z -Xlinker noexecstack \
	-Xlinker -z -Xlinker pack-relative-relocs \
	-Xlinker --symbol-ordering-file=$(CURDIR)/$(SYMBOL_ORDER) \
	-Xlinker --no-warn-symbol-ordering -Xlinker $(CURDIR)/$(VERSION_STAMP) \
	-Xlinker $(CURDIR)/$(STATIC_DLADDR)
RELEASE_BINARY = .build/release/filenote

# What `make install` puts where. DESTDIR (empty by default) is prepended to
# every path, so a package build can stage the files: make install DESTDIR=/tmp/stage
# zsh reads the completions an administrator installs from site-functions;
# a distribution's package puts its own in vendor-completions instead, so
# make dist sets ZSH_COMPLETIONS=share/zsh/vendor-completions for the .deb.
ZSH_COMPLETIONS = share/zsh/site-functions
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASH_COMPLETION_DIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSH_COMPLETION_DIR = $(DESTDIR)$(PREFIX)/$(ZSH_COMPLETIONS)
FISH_COMPLETION_DIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
# install-files strips the binary it copies: its symbols and debug
# information are two fifths of the release build. The two comment sections
# go too, as Debian's dh_strip removes them. .swift_modhash, the compiler's
# hash of each object file, kept for its own incremental builds and never
# read at run time, covers the object's path, so the same source built in two
# folders would give two binaries: its bytes are zeroed where they are.
# (Removed, it took the read-only-after-relocation segment with it: it lies
# in a loaded segment, which strip then rewrites without GNU_RELRO.)
STRIP = strip
STRIP_FLAGS = --strip-all --remove-section=.comment --remove-section=.note

# The binary that install-files copies: the release build unless told otherwise
# (the tests install the debug binary they already have: make install-files BINARY=...).
BINARY ?= $(RELEASE_BINARY)

.PHONY: all build release run test test-tools format lint clean install install-files \
	uninstall dist dist-check bench bench-check reliability reliability-short fuzz fuzz-short \
	terminals terminals-if-installed screenshots

all: build

build:
	$(SWIFT) build

# Two passes: link (on a fresh clone with an empty order), then, when the
# binary changed, trace which functions a few runs of it call first
# (bench/symbol_order.py) and relink it with that order when the order
# changed. SwiftPM does not see the order file as an input of the link, hence
# the rm. Where the tracer cannot run (see its doc), the binary keeps the
# order it has.
release: $(VERSION_STAMP) $(STATIC_DLADDR)
	@mkdir -p .build && touch -a $(SYMBOL_ORDER)
	$(SWIFT) build $(RELEASE_FLAGS)
	@if [ $(RELEASE_BINARY) -nt $(SYMBOL_ORDER) ] || [ ! -s $(SYMBOL_ORDER) ]; then \
		$(PYTHON) bench/symbol_order.py $(RELEASE_BINARY) $(SYMBOL_ORDER).new || \
			{ echo "release: linked without a traced function order"; exit 0; }; \
		if cmp -s $(SYMBOL_ORDER).new $(SYMBOL_ORDER); then rm $(SYMBOL_ORDER).new; \
		else mv $(SYMBOL_ORDER).new $(SYMBOL_ORDER) && rm $(RELEASE_BINARY) && \
			echo "$(SWIFT) build $(RELEASE_FLAGS)" && $(SWIFT) build $(RELEASE_FLAGS); fi && \
		touch $(SYMBOL_ORDER); \
	fi

# Compiled by the toolchain's clang; the name of the source is the same in
# every build (it is stripped out anyway), so the object is too.
$(VERSION_STAMP):
	@mkdir -p $(@D)
	printf 'const char *filenote_build_version(void) { return "%s"; }\n' '$(VERSION)' \
		>.build/version/stamp.c
	cd .build/version && clang -c -O2 -fPIC -o $(@F) stamp.c

$(STATIC_DLADDR): packaging/dladdr.c
	@mkdir -p $(@D)
	clang -c -O2 -fPIC -Wall -Werror -o $@ packaging/dladdr.c

# make run ARGS="show"
run: release
	$(RELEASE_BINARY) $(ARGS)

# The benchmarks of bench/README.md, judged against their targets (a few
# minutes; not part of `make test`); bench/latency.py is the per-key latency
# table.
# Both programs run even when the first misses a target; either one's miss
# fails the target.
bench: release
	status=0; \
	$(PYTHON) bench/bench.py --binary $(RELEASE_BINARY) || status=1; \
	$(PYTHON) bench/latency.py --binary $(RELEASE_BINARY) || status=1; \
	exit $$status

# Each benchmark once, to show they still run; timings are not judged.
bench-check: release
	$(PYTHON) bench/bench.py --binary $(RELEASE_BINARY) --smoke
	$(PYTHON) bench/latency.py --binary $(RELEASE_BINARY) --smoke

# The whole test suite, as CI runs it: first the programs the tests use
# (installed when missing, see test-tools), then formatting, unit and
# end-to-end tests, one quick run of each benchmark (built so they cannot
# rot; timings are not judged here), the release artifacts installed where
# Swift is not, the short reliability suite and the short fuzzing.
test: test-tools
	$(MAKE) lint
	$(SWIFT) build --build-tests
	$(SWIFT) test
	$(MAKE) bench-check
	$(MAKE) dist-check
	$(MAKE) reliability-short
	$(MAKE) fuzz-short
	$(MAKE) terminals-if-installed

# Checks for every program the tests run (the list is in scripts/test-tools)
# and installs the missing ones with apt-get as root; otherwise prints the one
# command that would, and fails.
test-tools:
	scripts/test-tools install

# The reliability suite (reliability/run.py, Python 3 standard library only):
# kill -9 crash loop, concurrent saves and reads, faults, bad input, terminal
# restoration, against the built binary in temporary folders. Some cases mount
# file systems and set file attributes, so run it as root. The short setting
# (for CI, on the debug build) takes well under a minute; the long one, on the
# release build, gives the figures in reliability/README.md. Pass
# RELIABILITY_FLAGS="--seed N" to repeat a run (each run prints its seed).
RELIABILITY_FLAGS ?=

reliability-short: build
	$(PYTHON) reliability/run.py --setting short --binary .build/debug/filenote $(RELIABILITY_FLAGS)

reliability: release
	$(PYTHON) reliability/run.py --setting long --binary $(RELEASE_BINARY) $(RELIABILITY_FLAGS)

# The prompt in real terminal emulators (xterm, VTE, kitty, alacritty) under a
# private Xvfb, keys typed by xdotool: after every step the cursor must be
# where the emulator draws the text (terminals/run.py; about a minute and a
# half). Its Debian packages are the optional lines of scripts/test-tools
# (`make test` installs them as root); an emulator that is missing is skipped. `make test` runs it when Xvfb,
# xdotool and xmodmap are there. TERMINALS_FLAGS="--verbose --emulator xterm"
# prints every check of one emulator.
TERMINALS_FLAGS ?=

terminals: build
	$(PYTHON) terminals/run.py --binary .build/debug/filenote $(TERMINALS_FLAGS)

terminals-if-installed: build
	$(PYTHON) terminals/run.py --binary .build/debug/filenote --if-installed $(TERMINALS_FLAGS)

# Regenerates the pictures of the prompt (doc/screenshots/*.png, shown in
# README.md and doc/DESIGN.md) in xterm under Xvfb (terminals/screenshots.py);
# same packages as `terminals`.
screenshots: build
	$(PYTHON) terminals/screenshots.py --binary .build/debug/filenote --output doc/screenshots

# libFuzzer harnesses for the key decoder + editor + renderer and the UTF-8
# validator (see fuzz/run.sh); each fails on a crash or a broken invariant.
# fuzz-short is the CI setting, about 25 s of fuzzing after a ~15 s build.
FUZZ_SECONDS ?= 600

fuzz:
	fuzz/run.sh editor=$(FUZZ_SECONDS) inputrc=$(FUZZ_SECONDS) utf8-validator=$(FUZZ_SECONDS)

fuzz-short:
	fuzz/run.sh editor=15 inputrc=10 utf8-validator=10

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

# make install [PREFIX=/usr/local] [DESTDIR=]: installs the release binary
# that `make release` built, stripped, with the man page and the bash, zsh and
# fish completions. It builds nothing, so `sudo make install` never runs the
# Swift build as root (which would leave root's files in .build).
install:
	@test -x $(RELEASE_BINARY) || \
		{ echo "make install: nothing to install: run make release first" >&2; exit 1; }
	$(MAKE) install-files BINARY=$(RELEASE_BINARY)

# Installs the files without building anything first.
install-files:
	install -d "$(BINDIR)" "$(MANDIR)" "$(BASH_COMPLETION_DIR)" \
		"$(ZSH_COMPLETION_DIR)" "$(FISH_COMPLETION_DIR)"
	install -m 0755 "$(BINARY)" "$(BINDIR)/filenote"
	$(STRIP) $(STRIP_FLAGS) "$(BINDIR)/filenote"
	set -- $$(readelf --section-headers --wide "$(BINDIR)/filenote" | sed -n \
		's/.*\] \.swift_modhash *PROGBITS *[0-9a-f]* \([0-9a-f]*\) \([0-9a-f]*\) .*/\1 \2/p'); \
	[ $$# -eq 0 ] || dd if=/dev/zero of="$(BINDIR)/filenote" bs=1 seek=$$((0x$$1)) \
		count=$$((0x$$2)) conv=notrunc status=none
	sed 's/^\(\.TH .*\) "filenote [^"]*"/\1 "filenote $(VERSION)"/' doc/filenote.1 \
		>"$(MANDIR)/filenote.1" && chmod 0644 "$(MANDIR)/filenote.1"
	install -m 0644 completions/filenote.bash "$(BASH_COMPLETION_DIR)/filenote"
	install -m 0644 completions/_filenote "$(ZSH_COMPLETION_DIR)/_filenote"
	install -m 0644 completions/filenote.fish "$(FISH_COMPLETION_DIR)/filenote.fish"

# Removes exactly the files install-files put there; the folders stay, as
# other programs' files may live in them.
uninstall:
	rm -f "$(BINDIR)/filenote" "$(MANDIR)/filenote.1" \
		"$(BASH_COMPLETION_DIR)/filenote" "$(ZSH_COMPLETION_DIR)/_filenote" \
		"$(FISH_COMPLETION_DIR)/filenote.fish"

# make dist: under dist/, the tarball filenote-VERSION-x86_64-linux.tar.gz
# (a folder laid out like a prefix) and the Debian package
# filenote_VERSION-1_amd64.deb, both of the stripped release binary, each with
# its .sha256 (packaging/make-dist; packaging/README.md says what is in them).
# Every time stamp in them is SOURCE_DATE_EPOCH, the last commit's time unless
# set, so two builds of one commit are the same bytes.
DIST = dist
SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null)
DEB_MAINTAINER = the filenote authors <filenote@example.org>
DIST_TARBALL = $(DIST)/filenote-$(VERSION)-x86_64-linux.tar.gz
DIST_DEB = $(DIST)/filenote_$(DEB_VERSION)-1_amd64.deb

# It checks first for the programs it needs besides Swift (packaging/README.md
# lists them) and names the package of a missing one.
dist:
	packaging/make-dist --check-tools
	$(MAKE) release
	SOURCE_DATE_EPOCH="$(SOURCE_DATE_EPOCH)" DEB_MAINTAINER="$(DEB_MAINTAINER)" \
		packaging/make-dist "$(VERSION)" "$(DEB_VERSION)" $(RELEASE_BINARY) $(DIST)

# The artifacts checked: the committed source built twice from nothing, in
# two clones, paths, time zones and umasks, gives the same bytes
# (packaging/check-reproducible, about 7 minutes on 2 cores); then lintian
# on the package, and both installed, used and removed in a clean Debian 12
# made by debootstrap (packaging/check_install.py; as root, else skipped with
# the reason). With the root cached that takes about 20 s after make dist's
# 10; making the root (the first run, then once a week) adds 30 s to 2
# minutes (packaging/README.md).
dist-check: dist
	packaging/check-reproducible
	$(PYTHON) packaging/check_install.py --deb $(DIST_DEB) --tarball $(DIST_TARBALL)

clean:
	rm -rf .build $(DIST)
