import Foundation
import SystemCalls
import Testing

@testable import FilenoteCore

extension VersionTests {
  /// `forget N` and `save --no-version`: a secret saved by mistake can be
  /// removed for good, and a secret replaced without being kept.
  @Suite struct Forgetting {
    @Test func forgettingVersionNRemovesItsFileAndRenumbersTheOlderOnes() throws {
      let fixture = Fixture()
      try fixture.save("a", "secret", "c", "d")
      let secret = try #require(try fixture.store.keptVersions().dropFirst().first)
      #expect(try fixture.store.forgetVersion(2) == false)
      #expect(try fixture.texts() == ["c", "a"])
      #expect(fixture.note == "d")
      #expect(!fixture.versionNames.contains(secret.name), "its file is gone, not only unlisted")
    }

    @Test(arguments: [0, 3, Int.max])
    func aNumberThatIsNotKeptIsAnErrorAndRemovesNothing(number: Int) throws {
      let fixture = Fixture()
      try fixture.save("a", "b", "c")
      let names = fixture.versionNames
      #expect(throws: FilenoteError.noVersion(number: number, kept: 2, note: fixture.store.path)) {
        try fixture.store.forgetVersion(number)
      }
      #expect(fixture.versionNames == names)
    }

    @Test func withNoFolderItIsAnErrorAndCreatesNothing() throws {
      let fixture = Fixture()
      #expect(throws: FilenoteError.noVersion(number: 1, kept: 0, note: fixture.store.path)) {
        try fixture.store.forgetVersion(1)
      }
      #expect(fixture.folder.names() == [])
    }

    @Test func aVersionThatChangedSinceTheUserWasAskedIsNotForgotten() throws {
      let fixture = Fixture()
      try fixture.save("a", "b", "c")
      let asked = try #require(try fixture.store.keptVersions().first)
      try fixture.save("d")  // what was version 1 is now version 2
      let names = fixture.versionNames
      #expect(throws: FilenoteError.versionChanged(number: 1)) {
        try fixture.store.forgetVersion(1, ifStill: asked)
      }
      #expect(fixture.versionNames == names)
      #expect(try fixture.store.forgetVersion(2, ifStill: asked) == false)
      #expect(try fixture.texts() == ["c", "a"])
    }

    @Test func aLinkNamedLikeAVersionIsNeitherListedNorRemoved() throws {
      let fixture = Fixture()
      try fixture.save("a", "b")
      fixture.folder.write("elsewhere", "not a version")
      let planted = fixture.versionsFolder + "/9999999999-1"
      #expect(symlink(fixture.folder.file("elsewhere"), planted) == 0)
      #expect(throws: FilenoteError.noVersion(number: 2, kept: 1, note: fixture.store.path)) {
        try fixture.store.forgetVersion(2)
      }
      try fixture.store.forgetVersion(1)
      #expect(fixture.folder.bytes("elsewhere") == Array("not a version".utf8))
      // The link, and b's own name (the note's).
      #expect(fixture.versionNames.contains("9999999999-1") && fixture.versionNames.count == 2)
    }

    @Test func aVersionWithAHardLinkElsewhereIsNotListedNorForgottenAndItsFileStays() throws {
      let fixture = Fixture()
      try fixture.save("secret", "b")
      let name = try #require(fixture.versionNames.first)
      #expect(link(fixture.versionsFolder + "/" + name, fixture.folder.file("copy")) == 0)
      #expect(try fixture.texts() == [])
      #expect(throws: FilenoteError.noVersion(number: 1, kept: 0, note: fixture.store.path)) {
        try fixture.store.forgetVersion(1)
      }
      #expect(fixture.versionNames.contains(name) && fixture.versionNames.count == 2)
      #expect(fixture.folder.bytes("copy") == Array("secret".utf8))
    }

    @Test func saveWithoutVersionKeepsNothingOfTheNoteItReplaces() throws {
      let fixture = Fixture()
      try fixture.save("a", "secret")
      var store = fixture.store
      store.keepsReplacedNote = false
      try store.save(bytes: Array("b".utf8))
      #expect(fixture.note == "b")
      #expect(try fixture.texts() == ["a"], "the other versions stay as they are")
      try fixture.save("c")
      #expect(try fixture.texts() == ["b", "a"])
    }

    @Test func saveWithoutVersionRemovesAVersionAKilledWriterMadeOfTheNote() throws {
      let fixture = Fixture()
      try fixture.save("a", "secret")
      // Listed only once the note has moved on.
      let name = fixture.linkTheNote(asVersion: 2, keptAt: 1)
      var store = fixture.store
      store.keepsReplacedNote = false
      try store.save(bytes: Array("b".utf8))
      #expect(try fixture.texts() == ["a"])
      #expect(!fixture.versionNames.contains(name))
    }
  }
}
