import Foundation
import TestSupport
import Testing

@testable import FilenoteCore

extension UnixIntegrationTests {
  /// The version a build says (packaging/version, which `make` links into the
  /// binary and gives the packages): the release's number at the release,
  /// after it a version that sorts after the release and before the next,
  /// in Debian's order and in Semantic Versioning's.
  @Suite struct Version {
    @Test func theReleaseCommitSaysTheNumberAndEachLaterCommitSortsBetweenReleases() throws {
      // A history of its own: the release commit renames [Unreleased] to
      // [1.4.2] - DATE, as CONTRIBUTING.md says to make one; ten commits follow.
      let tree = try sourceTree(number: "1.4.2")
      try git(["-C", tree.path, "init", "--quiet"])
      tree.write("CHANGELOG.md", "# Changelog\n\n## [Unreleased]\n\n- the first change\n")
      try commit(tree, "work before the release")
      tree.write(
        "CHANGELOG.md", "# Changelog\n\n## [Unreleased]\n\n## [1.4.2] - 2026-01-01\n\n- a change\n")
      try commit(tree, "release 1.4.2")
      var versions = [try versionOfTree(tree.path)]
      for count in 1...10 {
        tree.write("work.txt", "\(count)\n")
        try commit(tree, "work \(count)")
        versions.append(try versionOfTree(tree.path))
      }

      #expect(versions[0] == "1.4.2")
      let hash = try git(["-C", tree.path, "rev-parse", "--short=7", "HEAD"])
        .trimmingCharacters(in: .whitespacesAndNewlines)
      #expect(versions[10] == "1.4.3-dev.10+g\(hash)")
      for (count, version) in versions.enumerated().dropFirst() {
        #expect(version.hasPrefix("1.4.3-dev.\(count)+g"), "\(version)")
      }
      // 9 and 10 sort as numbers; each lies between the release and the next ones.
      let ordered = versions + ["1.4.3", "1.5.0"]
      for (lower, higher) in zip(ordered, ordered.dropFirst()) {
        #expect(SemanticVersion(lower) < SemanticVersion(higher), "SemVer: \(lower) < \(higher)")
        let dpkg = try ExternalProgram.run(
          "dpkg", ["--compare-versions", debian(lower) + "-1", "lt", debian(higher) + "-1"])
        #expect(dpkg.status == 0, "dpkg: \(debian(lower))-1 < \(debian(higher))-1")
      }
    }

    @Test func thisTreeSaysAVersionAfterItsLastRelease() throws {
      let version = try versionOfTree(Package.root)
      let number = FilenoteVersion.number
      #expect(version == number || SemanticVersion(number) < SemanticVersion(version), "\(version)")
    }

    @Test func aSourceTreeWithoutGitSaysTheNumberMarkedAsADevelopmentBuild() throws {
      let tree = try sourceTree(number: "1.4.2")
      tree.write("CHANGELOG.md", "# Changelog\n\n## [Unreleased]\n\n## [1.4.2] - 2026-01-01\n")
      #expect(try versionOfTree(tree.path) == "1.4.2+dev")
    }

    /// A folder with what packaging/version reads, the number being `number`.
    private func sourceTree(number: String) throws -> TemporaryFolder {
      let tree = TemporaryFolder(prefix: "filenote-unix")
      tree.write(
        "packaging/version",
        try String(contentsOfFile: Package.file("packaging/version"), encoding: .utf8))
      tree.write(
        "Sources/FilenoteCore/Commands/FilenoteVersion.swift",
        "enum FilenoteVersion {\n  static let number = \"\(number)\"\n}\n")
      return tree
    }

    private func commit(_ tree: TemporaryFolder, _ message: String) throws {
      try git(["-C", tree.path, "add", "--all"])
      try git([
        "-C", tree.path, "-c", "user.name=test", "-c", "user.email=test@example.org", "commit",
        "--quiet", "--message", message,
      ])
    }

    @Test func versionOfABuildWithoutMakeIsNotTheRelease() throws {
      // The binary under test is SwiftPM's own build: make linked no version in.
      let version = try ExternalProgram.run(try Package.filenoteBinary, ["--version"])
      #expect(version.stdout == "filenote \(FilenoteVersion.number)+dev\n")
      #expect(HelpText.version == "filenote \(FilenoteVersion.current)")
    }

    @Test func makeLinksTheVersionOfTheBuildIntoTheReleaseBinary() throws {
      let plan = try Make.run(["-n", "release", "VERSION=9.8.7-dev.6+gabc"]).stdout
      #expect(plan.contains("return \"%s\"; }\\n' '9.8.7-dev.6+gabc'"), "\(plan)")
      #expect(plan.contains("-Xlinker \(Package.root)/.build/version/filenote-9.8.7-dev.6+gabc.o"))
    }

    /// What packaging/version prints in `tree`.
    private func versionOfTree(_ tree: String) throws -> String {
      // Through sh: a copy just written may still be open in a process
      // another test forked (exec would fail with ETXTBSY).
      let run = try ExternalProgram.run("sh", [tree + "/packaging/version"])
      try #require(run.status == 0, "\(run.stderr)")
      return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @discardableResult
    private func git(_ arguments: [String]) throws -> String {
      let run = try ExternalProgram.run("git", arguments)
      try #require(run.status == 0, "git \(arguments): \(run.stderr)")
      return run.stdout
    }

    /// The version as the Debian package writes it (the Makefile's DEB_VERSION).
    private func debian(_ version: String) -> String {
      version.replacingOccurrences(of: "-dev", with: "~dev")
    }

  }

  /// A version's precedence as Semantic Versioning 2.0.0 (section 11) orders
  /// it: the numbers, then a release above its pre-releases, pre-release
  /// fields one by one (numbers as numbers, below words), build metadata
  /// ignored.
  struct SemanticVersion: Comparable {
    let core: [Int]
    let preRelease: [Substring]

    init(_ text: String) {
      let withoutBuild = text.split(separator: "+", maxSplits: 1)[0]
      let parts = withoutBuild.split(separator: "-", maxSplits: 1)
      core = parts[0].split(separator: ".").map { Int($0) ?? -1 }
      preRelease = parts.count > 1 ? parts[1].split(separator: ".") : []
    }

    static func < (lhs: Self, rhs: Self) -> Bool {
      if lhs.core != rhs.core { return lhs.core.lexicographicallyPrecedes(rhs.core) }
      if lhs.preRelease.isEmpty || rhs.preRelease.isEmpty {
        return !lhs.preRelease.isEmpty && rhs.preRelease.isEmpty
      }
      for (left, right) in zip(lhs.preRelease, rhs.preRelease) where left != right {
        switch (Int(left), Int(right)) {
        case (let l?, let r?): return l < r
        case (.some, nil): return true
        case (nil, .some): return false
        case (nil, nil): return left < right
        }
      }
      return lhs.preRelease.count < rhs.preRelease.count
    }
  }
}
