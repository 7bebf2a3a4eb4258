# A thin wrapper over SwiftPM: every target here is one or two commands you
# could type yourself.

PREFIX ?= /usr/local
SWIFT ?= swift
RELEASE_FLAGS = -c release
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
	fuzz fuzz-short

all: build

build:
	$(SWIFT) build

release:
	$(SWIFT) build $(RELEASE_FLAGS)

# make run ARGS="show"
run: release
	$(RELEASE_BINARY) $(ARGS)

test:
	$(SWIFT) build --build-tests
	$(SWIFT) test

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
