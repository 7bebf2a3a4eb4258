// swift-tools-version:6.0
import PackageDescription

// The layers, lowest first; a target depends only on those below it.
let package = Package(
  name: "filenote",
  products: [
    .executable(name: "filenote", targets: ["filenote"])
  ],
  targets: [
    // The few libc calls Swift cannot make itself (signal handlers, the
    // arguments before the Swift runtime reads them). Only SystemCalls may
    // depend on it.
    .target(name: "CFilenote"),
    // Every libc call filenote makes, each failure a typed Errno; the only
    // target that imports Glibc.
    .target(name: "SystemCalls", dependencies: ["CFilenote"]),
    // The pure line editor: keys in, text + cursor + screen bytes out. No
    // dependencies at all, so the compiler keeps it free of I/O.
    .target(name: "LineEditor"),
    // The real terminal (raw mode, signals, size) and the editing session
    // that runs the line editor on it.
    .target(name: "TerminalSession", dependencies: ["SystemCalls", "LineEditor"]),
    // Everything filenote does: where the note lives, how it is saved, the commands.
    .target(name: "FilenoteCore", dependencies: ["SystemCalls", "LineEditor", "TerminalSession"]),
    .executableTarget(name: "filenote", dependencies: ["FilenoteCore"]),
    // What tests share that filenote itself never needs (pseudo-terminals,
    // temporary folders).
    // No part of the layers above and never shipped: it may import Glibc.
    .target(name: "TestSupport", path: "Tests/TestSupport"),
    .testTarget(name: "SystemCallsTests", dependencies: ["SystemCalls", "TestSupport"]),
    .testTarget(name: "LineEditorTests", dependencies: ["LineEditor"]),
    .testTarget(
      name: "TerminalSessionTests",
      dependencies: ["TerminalSession", "SystemCalls", "LineEditor", "TestSupport"]),
    .testTarget(
      name: "FilenoteCoreTests",
      dependencies: ["FilenoteCore", "SystemCalls", "TerminalSession", "TestSupport"]),
    .testTarget(name: "EndToEndTests", dependencies: ["filenote", "FilenoteCore", "TestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
