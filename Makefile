# A thin wrapper over SwiftPM: every target here is one or two commands you
# could type yourself.

PREFIX ?= /usr/local
BINDIR = $(DESTDIR)$(PREFIX)/bin
SWIFT ?= swift
RELEASE_FLAGS = -c release
RELEASE_BINARY = .build/release/filenote

.PHONY: all build release run test format lint clean install uninstall

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
