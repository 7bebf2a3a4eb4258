# A thin wrapper over SwiftPM: every target here is one or two commands you
# could type yourself.

PREFIX ?= /usr/local
BINDIR = $(DESTDIR)$(PREFIX)/bin
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

.PHONY: all build release run test format lint clean install uninstall \
	bench bench-check symbol-order

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
# targets (a few minutes; not part of `make test`).
bench: release
	python3 bench/bench.py --binary $(RELEASE_BINARY)

# Each benchmark once, to show they still run; timings are not judged.
bench-check: release
	python3 bench/bench.py --binary $(RELEASE_BINARY) --smoke

# Rewrites bench/symbol-order.txt from a trace of the release binary.
symbol-order: release
	python3 bench/symbol_order.py $(RELEASE_BINARY) bench/symbol-order.txt

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
