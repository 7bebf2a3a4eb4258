import Foundation
import Testing

@testable import FilenoteCore

@Suite struct DocumentsFolderTests {
  /// The documents folder for a HOME in a temporary folder with this
  /// `user-dirs.dirs` (none when nil).
  func resolve(userDirs: String?, extra: [String: String] = [:]) -> (folder: String, home: String) {
    let temporary = TemporaryFolder()
    if let userDirs { temporary.write(".config/user-dirs.dirs", userDirs) }
    let environment = ["HOME": temporary.path].merging(extra) { $1 }
    return (DocumentsFolder(environment: environment).path, temporary.path)
  }

  @Suite struct WhenNothingIsConfigured {
    @Test func itIsDocumentsInTheHomeFolder() {
      let (folder, home) = DocumentsFolderTests().resolve(userDirs: nil)
      #expect(folder == home + "/Documents")
    }

    @Test func itHonoursHOME() {
      let environment = ["HOME": "/somewhere/else"]
      #expect(DocumentsFolder(environment: environment).path == "/somewhere/else/Documents")
    }

    @Test func aTrailingSlashInHOMEIsDropped() {
      #expect(DocumentsFolder(environment: ["HOME": "/home/ann/"]).path == "/home/ann/Documents")
    }

    @Test func withoutHOMEItAsksFileManagerForTheHomeFolder() {
      let expected = FileManager.default.homeDirectoryForCurrentUser.path + "/Documents"
      #expect(DocumentsFolder(environment: [:]).path == expected)
      #expect(DocumentsFolder(environment: ["HOME": "relative/home"]).path == expected)
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

    @Test func aHomeRelativeEntryIsUsed() {
      let (folder, home) = DocumentsFolderTests().resolve(userDirs: standardFile)
      #expect(folder == home + "/Dokumente")
    }

    @Test func anAbsoluteEntryIsUsed() {
      let (folder, _) = DocumentsFolderTests().resolve(
        userDirs: "XDG_DOCUMENTS_DIR=\"/srv/docs\"\n")
      #expect(folder == "/srv/docs")
    }

    @Test func shellEscapesAndSpacesAreUnderstood() {
      let (folder, home) = DocumentsFolderTests().resolve(
        userDirs: #"XDG_DOCUMENTS_DIR="$HOME/My \"Docs\" \$x""# + "\n")
      #expect(folder == home + #"/My "Docs" $x"#)
    }

    @Test func bracedHOMEIsUnderstood() {
      let (folder, home) = DocumentsFolderTests().resolve(
        userDirs: "XDG_DOCUMENTS_DIR=\"${HOME}/Papers\"")
      #expect(folder == home + "/Papers")
    }

    @Test func theLastEntryWins() {
      let (folder, home) = DocumentsFolderTests().resolve(
        userDirs: "XDG_DOCUMENTS_DIR=\"$HOME/One\"\nXDG_DOCUMENTS_DIR=\"$HOME/Two\"\n")
      #expect(folder == home + "/Two")
    }

    @Test func theHomeFolderItselfIsAllowed() {
      let (folder, home) = DocumentsFolderTests().resolve(
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
    func entriesOutsideTheFormatFallBackToDocuments(userDirs: String) {
      let (folder, home) = DocumentsFolderTests().resolve(userDirs: userDirs)
      #expect(folder == home + "/Documents")
    }

    @Test func configHomeIsWhereTheFileIsLookedFor() {
      let temporary = TemporaryFolder()
      temporary.write("elsewhere/user-dirs.dirs", "XDG_DOCUMENTS_DIR=\"$HOME/FromElsewhere\"\n")
      temporary.write(".config/user-dirs.dirs", "XDG_DOCUMENTS_DIR=\"$HOME/FromDefault\"\n")
      let environment = ["HOME": temporary.path, "XDG_CONFIG_HOME": temporary.file("elsewhere")]
      #expect(DocumentsFolder(environment: environment).path == temporary.path + "/FromElsewhere")
    }

    @Test func aRelativeConfigHomeIsIgnored() {
      let temporary = TemporaryFolder()
      temporary.write(".config/user-dirs.dirs", "XDG_DOCUMENTS_DIR=\"$HOME/FromDefault\"\n")
      let environment = ["HOME": temporary.path, "XDG_CONFIG_HOME": "relative"]
      #expect(DocumentsFolder(environment: environment).path == temporary.path + "/FromDefault")
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
      let theirs = DocumentsFolder.trimmingTrailingSlashes(try xdgUserDir(environment))
      #expect(DocumentsFolder(environment: environment).path == theirs)
    }
  }
}
