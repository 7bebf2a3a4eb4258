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
        if let source = file.source, source != "doc/filenote.1" {
          // The man page's header names the build's version (ManPageTests).
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

    @Test func installInstallsTheReleaseBinaryAndBuildsNothing() throws {
      let stage = TemporaryFolder(prefix: "filenote-unix")
      let binary = try Package.filenoteBinary
      // -n prints the commands without running them (and passes -n on to
      // the sub-make that installs the files).
      let plan = try Make.run([
        "-n", "install", "DESTDIR=\(stage.path)", "RELEASE_BINARY=\(binary)",
      ])
      .stdout
      #expect(!plan.contains("swift build"), "make -n install printed:\n\(plan)")
      #expect(plan.contains("\(binary)\" \"\(stage.path)/usr/local/bin/filenote\""), "\(plan)")
      #expect(try stage.regularFiles() == [], "make -n installs nothing")
    }

    @Test func installWithNothingBuiltSaysToRunMakeReleaseFirst() throws {
      let stage = TemporaryFolder(prefix: "filenote-unix")
      let make = try ExternalProgram.run(
        "make",
        [
          "-C", Package.root, "install", "DESTDIR=\(stage.path)",
          "RELEASE_BINARY=\(stage.path)/none",
        ])
      #expect(make.status != 0)
      #expect(make.stderr.hasPrefix("make install: nothing to install: run make release first\n"))
      #expect(try stage.regularFiles() == [])
    }

    private func permissions(of path: String) throws -> Int? {
      try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
    }
  }
}
