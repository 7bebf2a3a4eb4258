// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "filenote",
  products: [
    .executable(name: "filenote", targets: ["filenote"])
  ],
  targets: [
    // The few libc calls Swift cannot make itself (variadic ioctl, signal handlers).
    .target(name: "CFilenote"),
    // The terminal line editor: a pure core (keys in, text + cursor + screen out)
    // and a thin layer over the real terminal.
    .target(name: "LineEditor", dependencies: ["CFilenote"]),
    // Everything filenote does: where the note lives, how it is saved, the commands.
    .target(name: "FilenoteCore", dependencies: ["LineEditor", "CFilenote"]),
    .executableTarget(name: "filenote", dependencies: ["FilenoteCore"]),
    .testTarget(name: "LineEditorTests", dependencies: ["LineEditor"]),
    .testTarget(name: "FilenoteCoreTests", dependencies: ["FilenoteCore"]),
    .testTarget(name: "EndToEndTests", dependencies: ["filenote"]),
  ],
  swiftLanguageModes: [.v6]
)
