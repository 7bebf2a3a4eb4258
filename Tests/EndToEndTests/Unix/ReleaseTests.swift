import Foundation
import TestSupport
import Testing

@testable import FilenoteCore

extension UnixIntegrationTests {
  /// What a release carries names one version: the number of
  /// `FilenoteVersion`, which `filenote --version` prints, is the newest
  /// release of CHANGELOG.md, the man page's header with that release's date,
  /// and the version `make dist` gives its packages; and what `make install`
  /// installs is stripped.
  @Suite struct Release {
    @Test func theChangelogsNewestReleaseIsTheVersionFilenotePrints() throws {
      let releases = try Changelog().releases
      #expect(releases.first?.version == FilenoteVersion.number, "releases: \(releases)")
      let version = try ExternalProgram.run(try Package.filenoteBinary, ["--version"])
      #expect(version.stdout == "filenote \(FilenoteVersion.number)\n")
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

    @Test func makeDistNamesItsArtifactsAfterTheVersion() throws {
      // -n prints the commands without running them.
      let plan = try Make.run(["-n", "dist"]).stdout
      #expect(
        plan.contains("packaging/make-dist \"\(FilenoteVersion.number)\" .build/release/filenote"),
        "make -n dist printed:\n\(plan)")
      let check = try Make.run(["-n", "dist-check"]).stdout
      let version = FilenoteVersion.number
      #expect(check.contains("dist/filenote_\(version)-1_amd64.deb"), "\(check)")
      #expect(check.contains("dist/filenote-\(version)-x86_64-linux.tar.gz"), "\(check)")
    }

    @Test func theReadmesInstallCommandsNameTheArtifactsOfThisVersion() throws {
      let readme = try String(contentsOfFile: Package.file("README.md"), encoding: .utf8)
      let version = FilenoteVersion.number
      let named = readme.split(separator: "\n").filter {
        $0.contains("filenote_") || $0.contains("filenote-0") || $0.contains("filenote-1")
      }
      #expect(!named.isEmpty)
      for line in named {
        #expect(
          line.contains("filenote_\(version)-1_amd64.deb")
            || line.contains("filenote-\(version)-x86_64-linux.tar.gz"), "\(line)")
      }
    }

    @Test func installStripsTheBinaryOfItsSymbolsDebugInformationAndCompilerNotes() throws {
      let stage = TemporaryFolder(prefix: "filenote-unix")
      let binary = try Package.filenoteBinary
      try Make.run(["install-files", "BINARY=\(binary)", "DESTDIR=\(stage.path)"])
      let installed = stage.path + "/usr/local/bin/filenote"
      let sections = try ExternalProgram.run("readelf", ["--section-headers", "--wide", binary])
      #expect(sections.stdout.contains(" .symtab "), "the binary under test has symbols to strip")
      let stripped = try ExternalProgram.run("readelf", ["--section-headers", "--wide", installed])
      try #require(stripped.status == 0, "\(stripped.stderr)")
      for name in [" .symtab ", " .debug_info ", " .comment ", " .swift_modhash "] {
        #expect(!stripped.stdout.contains(name), "\(name) left in \(installed)")
      }
      let version = try ExternalProgram.run(installed, ["--version"])
      #expect(version.stdout == "filenote \(FilenoteVersion.number)\n")
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
