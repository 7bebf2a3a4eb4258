import Foundation
import SystemCalls
import TestSupport
import Testing

/// `show --follow` learns of a change from inotify, without polling.
@Suite struct InotifyTests {
  /// The events that come within `seconds` of waiting (a deadline only, in
  /// case none comes).
  private func events(_ inotify: Inotify, seconds: Int64 = 5) throws -> [Inotify.Event] {
    let deadline = CurrentProcess.monotonicMilliseconds + seconds * 1000
    let ready = try Poll.wait(for: [(inotify.descriptor, .readable)], deadline: deadline)
    return ready[0].contains(.readable) ? try inotify.events() : []
  }

  @Test func aRenameIntoTheFolderIsSeenWithItsName() throws {
    let folder = TemporaryFolder()
    let inotify = try Inotify.open()
    defer { inotify.close() }
    let watch = try inotify.watchFolder(folder.path, for: [.movedIn])
    try "x".write(toFile: folder.path + "/.tmp", atomically: false, encoding: .utf8)
    try FileManager.default.moveItem(atPath: folder.path + "/.tmp", toPath: folder.path + "/note")
    let seen = try events(inotify)
    #expect(seen.count == 1)
    #expect(seen.first?.watch == watch)
    #expect(seen.first?.events.contains(.movedIn) == true)
    #expect(seen.first?.name == Array("note".utf8))
  }

  @Test func nothingIsWaitingWhenNothingHappened() throws {
    let folder = TemporaryFolder()
    let inotify = try Inotify.open()
    defer { inotify.close() }
    _ = try inotify.watchFolder(folder.path, for: [.movedIn, .created])
    #expect(try inotify.events().isEmpty)
  }

  @Test func removingTheFolderEndsItsWatch() throws {
    var folder: TemporaryFolder? = TemporaryFolder()
    let inotify = try Inotify.open()
    defer { inotify.close() }
    _ = try inotify.watchFolder(folder!.path, for: [.deletedSelf])
    folder = nil
    var seen: Inotify.Events = []
    for event in try events(inotify) { seen.formUnion(event.events) }
    #expect(seen.contains(.deletedSelf))
  }

  @Test func watchingTheSameFolderTwiceIsOneWatch() throws {
    let folder = TemporaryFolder()
    let inotify = try Inotify.open()
    defer { inotify.close() }
    let first = try inotify.watchFolder(folder.path, for: [.movedIn])
    #expect(try inotify.watchFolder(folder.path, for: [.created]) == first)
  }

  @Test func aFileIsNotAFolderToWatch() throws {
    let folder = TemporaryFolder()
    FileManager.default.createFile(atPath: folder.path + "/file", contents: nil)
    let inotify = try Inotify.open()
    defer { inotify.close() }
    #expect(throws: Errno.notDirectory) {
      try inotify.watchFolder(folder.path + "/file", for: [.created])
    }
  }
}
