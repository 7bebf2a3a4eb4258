import Foundation
import Testing

extension TemporaryHome {
  /// `PATH` with the folder of the filenote under test first, so that the
  /// scripts of `filenote init` (which call `command filenote`) and the
  /// recipes of doc/INTEGRATION.md find it.
  var pathWithFilenote: String {
    get throws {
      (try FilenoteProcess.binaryPath() as NSString).deletingLastPathComponent
        + ":/usr/local/bin:/usr/bin:/bin"
    }
  }

  /// The environment of `run(_:)` with filenote on `PATH`, and `extra`.
  func environmentWithFilenote(_ extra: [String: String] = [:]) throws -> [String: String] {
    environment.merging(["PATH": try pathWithFilenote]) { $1 }.merging(extra) { $1 }
  }

  /// Runs another program (a shell, tmux, i3blocks) to its end, in this
  /// home, with filenote on `PATH`. A missing program cancels the test,
  /// naming it (`scripts/test-tools` installs them).
  func runProgram(
    _ name: String, _ arguments: [String], input: FilenoteProcess.Input = .nullDevice,
    environment extra: [String: String] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> FilenoteProcess.Result {
    let process = FilenoteProcess(
      executable: try Self.locate(name), arguments: arguments,
      environment: try environmentWithFilenote(extra), currentDirectory: work, input: input)
    return try process.run(sourceLocation: sourceLocation)
  }

  /// The path of program `name` in the usual folders; the test fails when
  /// it is not installed, naming it.
  static func locate(_ name: String) throws -> String {
    for folder in ["/usr/local/bin", "/usr/bin", "/bin"] {
      let candidate = folder + "/" + name
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    throw FilenoteProcess.LocateError(
      message: "this test needs \(name): scripts/test-tools install (or apt-get install it)")
  }
}
