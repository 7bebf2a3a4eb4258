import Foundation
import TestSupport
import Testing

@testable import FilenoteCore

extension UnixIntegrationTests {
  @Suite struct MakeInstall {
    @Test func installLaysOutExactlyTheBinaryTheManPageAndTheCompletions() throws {
      let stage = TemporaryFolder(prefix: "filenote-unix")
      try Make.run([
        "install-files", "BINARY=\(try Package.filenoteBinary)", "DESTDIR=\(stage.path)",
      ])

      let expected = UnixIntegrationTests.installedFiles.map { "usr/local/" + $0.path }
      #expect(try stage.regularFiles() == expected.sorted())
      for file in UnixIntegrationTests.installedFiles {
        let installed = stage.path + "/usr/local/" + file.path
        #expect(try permissions(of: installed) == file.mode, "mode of \(file.path)")
        if let source = file.source {
          #expect(
            FileManager.default.contentsEqual(atPath: installed, andPath: Package.file(source)),
            "\(file.path) is a copy of \(source)")
        }
      }
      let version = try ExternalProgram.run(
        stage.path + "/usr/local/bin/filenote", ["--version"], in: stage.path)
      #expect(version.stdout == HelpText.version + "\n")
    }

    @Test func prefixMovesEveryInstalledFile() throws {
      let stage = TemporaryFolder(prefix: "filenote-unix")
      try Make.run([
        "install-files", "BINARY=\(try Package.filenoteBinary)", "DESTDIR=\(stage.path)",
        "PREFIX=/opt/filenote",
      ])
      let expected = UnixIntegrationTests.installedFiles.map { "opt/filenote/" + $0.path }
      #expect(try stage.regularFiles() == expected.sorted())
    }

    @Test func uninstallRemovesExactlyTheInstalledFiles() throws {
      let stage = TemporaryFolder(prefix: "filenote-unix")
      let binary = try Package.filenoteBinary
      try Make.run(["install-files", "BINARY=\(binary)", "DESTDIR=\(stage.path)"])
      // Another program's files in the same folders must survive.
      let neighbours = ["usr/local/bin/other", "usr/local/share/man/man1/other.1"]
      for neighbour in neighbours {
        stage.write(neighbour, "")
      }

      try Make.run(["uninstall", "DESTDIR=\(stage.path)"])
      #expect(try stage.regularFiles() == neighbours.sorted())
    }

    @Test func installBuildsTheReleaseBinaryAndInstallsThatOne() throws {
      let stage = TemporaryFolder(prefix: "filenote-unix")
      // -n prints the commands without running them (and passes -n on to
      // the sub-make that installs the files).
      let plan = try Make.run(["-n", "install", "DESTDIR=\(stage.path)"]).stdout
      let lines = plan.split(separator: "\n").map(String.init)
      let build = lines.firstIndex { $0.contains("swift build -c release") }
      let copy = lines.firstIndex {
        $0.contains(".build/release/filenote")
          && $0.contains("\(stage.path)/usr/local/bin/filenote")
      }
      #expect(build != nil && copy != nil && build! < copy!, "make -n install printed:\n\(plan)")
      #expect(try stage.regularFiles() == [], "make -n installs nothing")
    }

    private func permissions(of path: String) throws -> Int? {
      try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    }
  }
}
