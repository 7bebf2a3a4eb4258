# A thin wrapper over SwiftPM: every target here is one or two commands you
# could type yourself.

PREFIX ?= /usr/local
BINDIR = $(DESTDIR)$(PREFIX)/bin
SWIFT ?= swift
RELEASE_FLAGS = -c release
RELEASE_BINARY = .build/release/filenote

.PHONY: all build release run test format lint clean install uninstall reliability \
	reliability-short

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

format:
	$(SWIFT) format --in-place --recursive Package.swift Sources Tests

lint:
	$(SWIFT) format lint --strict --recursive Package.swift Sources Tests

install: release
	install -d $(BINDIR)
	install -m 0755 $(RELEASE_BINARY) $(BINDIR)/filenote

uninstall:
	rm -f $(BINDIR)/filenote

clean:
	rm -rf .build
