import Foundation
import TestSupport
import Testing

@testable import FilenoteCore

@Suite struct DocumentsFolderTests {
  /// The documents folder for a HOME in a temporary folder with this
  /// `user-dirs.dirs` (none when nil).
  func resolve(userDirs: String?, extra: [String: String] = [:]) throws -> (
    folder: String, home: String
  ) {
    try resolve(userDirs: userDirs.map { Array($0.utf8) }, extra: extra)
  }

  /// The same for a `user-dirs.dirs` given as bytes.
  func resolve(userDirs: [UInt8]?, extra: [String: String] = [:]) throws -> (
    folder: String, home: String
  ) {
    let temporary = TemporaryFolder()
    if let userDirs { temporary.write(".config/user-dirs.dirs", bytes: userDirs) }
    let environment = ["HOME": temporary.path].merging(extra) { $1 }
    return (try DocumentsFolder(environment: Environment(environment)).path, temporary.path)
  }

  @Suite struct WhenNothingIsConfigured {
    @Test func itIsDocumentsInTheHomeFolder() throws {
      let (folder, home) = try DocumentsFolderTests().resolve(userDirs: nil as [UInt8]?)
      #expect(folder == home + "/Documents")
    }

    @Test func itHonoursHOME() throws {
      let environment = ["HOME": "/somewhere/else"]
      #expect(
        try DocumentsFolder(environment: Environment(environment)).path
          == "/somewhere/else/Documents")
    }

    @Test func aTrailingSlashInHOMEIsDropped() throws {
      #expect(
        try DocumentsFolder(environment: ["HOME": "/home/ann/"]).path == "/home/ann/Documents")
    }

    @Test func withoutHOMEItAsksFileManagerForTheHomeFolder() throws {
      let expected = FileManager.default.homeDirectoryForCurrentUser.path + "/Documents"
      #expect(try DocumentsFolder(environment: [:]).path == expected)
    }

    @Test(arguments: ["", "relative/home", "."])
    func anEmptyOrRelativeHOMECountsAsUnset(home: String) throws {
      let expected = try DocumentsFolder(environment: [:]).path
      #expect(try DocumentsFolder(environment: ["HOME": home]).path == expected)
    }
  }

  @Suite struct WhenUserDirsConfiguresIt {
    let standardFile = """
      # This file is written by xdg-user-dirs-update
      # If you want to change or add directories, just edit the line you're
      # interested in. All local changes will be retained on the next run.
      # Format is XDG_xxx_DIR="$HOME/yyy", where yyy is a shell-escaped
      # homedir-relative path, or XDG_xxx_DIR="/yyy", where /yyy is an
      # absolute path. No other format is supported.
      #
      XDG_DESKTOP_DIR="$HOME/Desktop"
      XDG_DOWNLOAD_DIR="$HOME/Downloads"
      XDG_DOCUMENTS_DIR="$HOME/Dokumente"
      XDG_MUSIC_DIR="$HOME/Music"

      """

    @Test func aHomeRelativeEntryIsUsed() throws {
      let (folder, home) = try DocumentsFolderTests().resolve(userDirs: standardFile)
      #expect(folder == home + "/Dokumente")
    }

    @Test func anAbsoluteEntryIsUsed() throws {
      let (folder, _) = try DocumentsFolderTests().resolve(
        userDirs: "XDG_DOCUMENTS_DIR=\"/srv/docs\"\n")
      #expect(folder == "/srv/docs")
    }

    @Test func shellEscapesAndSpacesAreUnderstood() throws {
      let (folder, home) = try DocumentsFolderTests().resolve(
        userDirs: #"XDG_DOCUMENTS_DIR="$HOME/My \"Docs\" \$x""# + "\n")
      #expect(folder == home + #"/My "Docs" $x"#)
    }

    @Test func bracedHOMEIsUnderstood() throws {
      let (folder, home) = try DocumentsFolderTests().resolve(
        userDirs: "XDG_DOCUMENTS_DIR=\"${HOME}/Papers\"")
      #expect(folder == home + "/Papers")
    }

    @Test func theLastEntryWins() throws {
      let (folder, home) = try DocumentsFolderTests().resolve(
        userDirs: "XDG_DOCUMENTS_DIR=\"$HOME/One\"\nXDG_DOCUMENTS_DIR=\"$HOME/Two\"\n")
      #expect(folder == home + "/Two")
    }

    @Test func theHomeFolderItselfIsAllowed() throws {
      let (folder, home) = try DocumentsFolderTests().resolve(
        userDirs: "XDG_DOCUMENTS_DIR=\"$HOME/\"\n")
      #expect(folder == home)
    }

    @Test(arguments: [
      "XDG_DOCUMENTS_DIR=\"Documents relative\"\n",
      "XDG_DOCUMENTS_DIR=\"$HOMEDIR/x\"\n",
      "XDG_DOCUMENTS_DIR=\"$XDG_DATA_HOME/x\"\n",
      "XDG_DOCUMENTS_DIR=\"$HOME/unterminated\n",
      "XDG_DOCUMENTS_DIR=\"~/Docs\"\n",
      "XDG_DOCUMENTS_DIR=\"$HOME/a\" trailing\n",
      "# XDG_DOCUMENTS_DIR=\"$HOME/commented\"\n",
      "XDG_PICTURES_DIR=\"$HOME/Pictures\"\n",
      "",
    ])
    func entriesOutsideTheFormatFallBackToDocuments(userDirs: String) throws {
      let (folder, home) = try DocumentsFolderTests().resolve(userDirs: userDirs)
      #expect(folder == home + "/Documents")
    }

    @Test func configHomeIsWhereTheFileIsLookedFor() throws {
      let temporary = TemporaryFolder()
      temporary.write("elsewhere/user-dirs.dirs", "XDG_DOCUMENTS_DIR=\"$HOME/FromElsewhere\"\n")
      temporary.write(".config/user-dirs.dirs", "XDG_DOCUMENTS_DIR=\"$HOME/FromDefault\"\n")
      let environment = ["HOME": temporary.path, "XDG_CONFIG_HOME": temporary.file("elsewhere")]
      #expect(
        try DocumentsFolder(environment: Environment(environment)).path == temporary.path
          + "/FromElsewhere")
    }

    @Test func aRelativeConfigHomeIsIgnored() throws {
      let temporary = TemporaryFolder()
      temporary.write(".config/user-dirs.dirs", "XDG_DOCUMENTS_DIR=\"$HOME/FromDefault\"\n")
      let environment = ["HOME": temporary.path, "XDG_CONFIG_HOME": "relative"]
      #expect(
        try DocumentsFolder(environment: Environment(environment)).path == temporary.path
          + "/FromDefault")
    }
  }

  @Suite struct WhenUserDirsIsNotAPlainTextFile {
    let entry = Array("XDG_DOCUMENTS_DIR=\"$HOME/Dokumente\"".utf8)

    @Test func crlfLineEndingsAreLineEndings() throws {
      let crlf = Array("# written on Windows\r\n".utf8) + entry + Array("\r\n".utf8)
      let (folder, home) = try DocumentsFolderTests().resolve(userDirs: crlf)
      #expect(folder == home + "/Dokumente")
    }

    @Test func aByteThatIsNotUTF8OnAnotherLineChangesNothing() throws {
      let latin1Comment = Array("# Verzeichnisse f".utf8) + [0xFC] + Array("r den Benutzer\n".utf8)
      let (folder, home) = try DocumentsFolderTests().resolve(userDirs: latin1Comment + entry)
      #expect(folder == home + "/Dokumente")
    }

    @Test func aConfiguredFolderThatIsNotUTF8IsAnErrorNamingTheFile() throws {
      let temporary = TemporaryFolder()
      temporary.write(
        ".config/user-dirs.dirs", bytes: Array("XDG_DOCUMENTS_DIR=\"$HOME/D".utf8) + [0xF6, 0x22])
      let file = temporary.file(".config/user-dirs.dirs")
      #expect(throws: FilenoteError.settingNotUTF8(name: "XDG_DOCUMENTS_DIR", path: file)) {
        try DocumentsFolder(environment: ["HOME": temporary.path]).path
      }
    }

    /// A FIFO would make a blocking open wait for a writer for ever, and a
    /// link to /dev/zero would be read for ever.
    @Test(arguments: ["FIFO", "link to /dev/zero"])
    func anythingButARegularFileIsAnErrorNamingTheFile(kind: String) throws {
      let temporary = TemporaryFolder()
      try FileManager.default.createDirectory(
        atPath: temporary.file(".config"), withIntermediateDirectories: true)
      let file = temporary.file(".config/user-dirs.dirs")
      #expect((kind == "FIFO" ? mkfifo(file, 0o600) : symlink("/dev/zero", file)) == 0)
      #expect(throws: FilenoteError.notARegularFile(path: file)) {
        try DocumentsFolder(environment: ["HOME": temporary.path]).path
      }
    }

    @Test func aFileLargerThan64KiBIsAnError() throws {
      let limit = DocumentsFolder.userDirsSizeLimit
      #expect(limit == 64 * 1024)
      let padding = Array(repeating: UInt8(ascii: "#"), count: limit - entry.count - 1) + [0x0A]
      let (atLimit, home) = try DocumentsFolderTests().resolve(userDirs: padding + entry)
      #expect(atLimit == home + "/Dokumente", "a file of exactly 64 KiB is read")

      let temporary = TemporaryFolder()
      temporary.write(".config/user-dirs.dirs", bytes: [0x23] + padding + entry)
      let file = temporary.file(".config/user-dirs.dirs")
      #expect(throws: FilenoteError.fileTooLarge(path: file, limit: limit)) {
        try DocumentsFolder(environment: ["HOME": temporary.path]).path
      }
    }
  }

  @Suite struct AgreesWithXdgUserDir {
    /// What `xdg-user-dir DOCUMENTS` prints in this environment.
    func xdgUserDir(_ environment: [String: String]) throws -> String {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/xdg-user-dir")
      process.arguments = ["DOCUMENTS"]
      process.environment = environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }
      let output = Pipe()
      process.standardOutput = output
      try process.run()
      let data = output.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    @Test(arguments: [
      "XDG_DOCUMENTS_DIR=\"$HOME/Dokumente\"\r\n",
      "# comment\r\nXDG_DOCUMENTS_DIR=\"/srv/docs\"\r\nXDG_MUSIC_DIR=\"$HOME/Music\"\r\n",
      "XDG_DOCUMENTS_DIR=\"$HOME/Documents\"\n",
      "XDG_DOCUMENTS_DIR=\"$HOME/Dokumente\"\n",
      "XDG_DOCUMENTS_DIR=\"$HOME/My Documents\"\n",
      "XDG_DOCUMENTS_DIR=\"/srv/shared docs\"\n",
      #"XDG_DOCUMENTS_DIR="$HOME/quote \" and \$dollar""# + "\n",
      "XDG_DOCUMENTS_DIR=\"$HOME/one\"\nXDG_DOCUMENTS_DIR=\"$HOME/two\"\n",
      "XDG_DOCUMENTS_DIR=\"${HOME}/braced\"\n",
    ])
    func whenAFolderIsConfigured(userDirs: String) throws {
      try #require(
        FileManager.default.isExecutableFile(atPath: "/usr/bin/xdg-user-dir"),
        "xdg-user-dir is missing: install Debian's xdg-user-dirs (.ci/run does)")
      let temporary = TemporaryFolder()
      temporary.write(".config/user-dirs.dirs", userDirs)
      let environment = ["HOME": temporary.path]
      let theirs = try xdgUserDir(environment).trimmingTrailingSlashes
      #expect(try DocumentsFolder(environment: Environment(environment)).path == theirs)
    }

    @Test func whenAnotherLineHoldsAByteThatIsNotUTF8() throws {
      try #require(
        FileManager.default.isExecutableFile(atPath: "/usr/bin/xdg-user-dir"),
        "xdg-user-dir is missing: install Debian's xdg-user-dirs (.ci/run does)")
      let temporary = TemporaryFolder()
      temporary.write(
        ".config/user-dirs.dirs",
        bytes: Array("# f".utf8) + [0xFC]
          + Array("r Benutzer\nXDG_DOCUMENTS_DIR=\"$HOME/Dokumente\"\n".utf8))
      let environment = ["HOME": temporary.path]
      let theirs = try xdgUserDir(environment).trimmingTrailingSlashes
      #expect(theirs == temporary.path + "/Dokumente")
      #expect(try DocumentsFolder(environment: Environment(environment)).path == theirs)
    }
  }
}
