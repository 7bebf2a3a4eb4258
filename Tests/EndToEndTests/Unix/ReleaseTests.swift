import Foundation
import TestSupport
import Testing

@testable import FilenoteCore

extension UnixIntegrationTests {
  /// What a release carries names one version: the number of
  /// `FilenoteVersion` is the newest release of CHANGELOG.md and the man
  /// page's header with that release's date; `make dist` names its packages
  /// after the version of the build (packaging/version, VersionTests); and
  /// what `make install` installs is stripped.
  @Suite struct Release {
    @Test func theChangelogsNewestReleaseIsTheVersionFilenotePrints() throws {
      let releases = try Changelog().releases
      #expect(releases.first?.version == FilenoteVersion.number, "releases: \(releases)")
    }

    @Test func theChangelogKeepsAnUnreleasedSectionAboveTheReleasesNewestFirst() throws {
      let changelog = try Changelog()
      #expect(changelog.sections.first == "[Unreleased]", "sections: \(changelog.sections)")
      let dates = changelog.releases.map(\.date)
      #expect(!dates.isEmpty && dates == dates.sorted(by: >), "dates: \(dates)")
    }

    @Test func theManPageHeaderNamesTheVersionAndTheDateOfItsRelease() throws {
      let header = try #require(try ManPageSource().lines.first { $0.hasPrefix(".TH ") })
      let newest = try #require(try Changelog().releases.first)
      #expect(
        header == ".TH FILENOTE 1 \(newest.date) \"filenote \(newest.version)\" \"User Commands\"")
    }

    @Test func makeDistNamesItsArtifactsAfterTheVersionOfTheBuild() throws {
      // -n prints the commands without running them.
      let version = "1.4.3-dev.10+g0123456789ab"
      let plan = try Make.run(["-n", "dist", "VERSION=\(version)"]).stdout
      #expect(
        plan.contains(
          "packaging/make-dist \"\(version)\" \"1.4.3~dev.10+g0123456789ab\" .build/release/filenote"
        ),
        "make -n dist printed:\n\(plan)")
      let check = try Make.run(["-n", "dist-check", "VERSION=\(version)"]).stdout
      #expect(check.contains("dist/filenote_1.4.3~dev.10+g0123456789ab-1_amd64.deb"), "\(check)")
      #expect(check.contains("dist/filenote-\(version)-x86_64-linux.tar.gz"), "\(check)")
    }

    @Test func theReadmesInstallCommandsNameTheArtifactsOfThisVersion() throws {
      let readme = try String(contentsOfFile: Package.file("README.md"), encoding: .utf8)
      let version = FilenoteVersion.number
      let lines = readme.split(separator: "\n")
      let named = lines.filter {
        $0.contains("filenote_") || $0.contains("filenote-0") || $0.contains("filenote-1")
      }
      #expect(!named.isEmpty)
      for line in named {
        #expect(
          line.contains("filenote_\(version)-1_amd64.deb")
            || line.contains("filenote-\(version)-x86_64-linux.tar.gz"), "\(line)")
      }
      // Where the files come from, and how a build after the release is named.
      let parts = version.split(separator: ".").compactMap { Int($0) }
      try #require(parts.count == 3)
      let next = "\(parts[0]).\(parts[1]).\(parts[2] + 1)"
      #expect(readme.contains("`make dist`"))
      #expect(readme.contains("(after \(version): `\(next)-dev.N+gHASH`)"))
      // A fresh account has no ~/.local for tar -C.
      let makesFolder = lines.firstIndex { $0 == "mkdir -p ~/.local" }
      let unpacks = lines.firstIndex { $0.hasPrefix("tar -xzf ") && $0.hasSuffix("-C ~/.local") }
      #expect(makesFolder != nil && unpacks != nil && makesFolder! < unpacks!)
      #expect(readme.contains("`~/.local/share/filenote/uninstall` removes it"))
    }

    @Test func installStripsTheBinaryAndKeepsItsReadOnlyRelocations() throws {
      let stage = TemporaryFolder(prefix: "filenote-unix")
      let binary = try Package.filenoteBinary
      try Make.run(["install-files", "BINARY=\(binary)", "DESTDIR=\(stage.path)"])
      let installed = stage.path + "/usr/local/bin/filenote"
      let sections = try ExternalProgram.run("readelf", ["--section-headers", "--wide", binary])
      #expect(sections.stdout.contains(" .symtab "), "the binary under test has symbols to strip")
      let stripped = try ExternalProgram.run("readelf", ["--section-headers", "--wide", installed])
      try #require(stripped.status == 0, "\(stripped.stderr)")
      for name in [" .symtab ", " .debug_info ", " .comment "] {
        #expect(!stripped.stdout.contains(name), "\(name) left in \(installed)")
      }
      // The compiler's hash of each object file covers the folder it was
      // built in: zeroed where it is, so that the read-only relocations stay.
      #expect(sections.stdout.contains(" .swift_modhash "), "the binary under test has one")
      let hashes = try ExternalProgram.run("readelf", ["--hex-dump=.swift_modhash", installed])
      let words = hashes.stdout.split(separator: "\n").filter { $0.hasPrefix("  0x") }
        .flatMap { $0.split(separator: " ").dropFirst().prefix(4) }
      #expect(
        !words.isEmpty && words.allSatisfy { $0.allSatisfy { $0 == "0" } }, "\(hashes.stdout)")
      for file in [binary, installed] {
        let segments = try ExternalProgram.run("readelf", ["--program-headers", "--wide", file])
        #expect(segments.stdout.contains(" GNU_RELRO "), "no read-only relocations in \(file)")
      }
      let version = try ExternalProgram.run(installed, ["--version"])
      #expect(version.stdout == HelpText.version + "\n")
    }
  }

  /// CHANGELOG.md, read as Keep a Changelog writes it: `## [VERSION] - DATE`
  /// for each release, `## [Unreleased]` for what is not released yet.
  struct Changelog {
    /// The text of every `## ` heading, in order.
    let sections: [String]

    init() throws {
      let text = try String(contentsOfFile: Package.file("CHANGELOG.md"), encoding: .utf8)
      sections = text.split(separator: "\n").filter { $0.hasPrefix("## ") }
        .map { String($0.dropFirst(3)) }
    }

    /// The releases, as they come: each heading `[VERSION] - YYYY-MM-DD`.
    var releases: [(version: String, date: String)] {
      sections.compactMap { heading in
        let parts = heading.split(separator: " ")
        guard parts.count == 3, parts[1] == "-", parts[0].hasPrefix("["), parts[0].hasSuffix("]"),
          parts[2].range(of: #"^\d{4}-\d\d-\d\d$"#, options: .regularExpression) != nil
        else { return nil }
        return (String(parts[0].dropFirst().dropLast()), String(parts[2]))
      }
    }
  }
}
