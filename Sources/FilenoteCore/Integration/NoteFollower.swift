import SystemCalls

/// `filenote show --line --follow`: the note's line (`NoteLine`) now and
/// again each time it changes, for a status bar that reads a stream
/// (waybar, polybar, i3blocks, a tmux status line through a file).
///
/// It waits on inotify(7) for the names that make the note: the note's own
/// name in its folder and, through a symbolic link, the name of the file it
/// points to in that folder; while a folder is missing, the nearest one
/// above it that exists, for the name on the way. A save (a rename over the
/// note), an edit in place, a `clear`, a sync engine putting a new file in
/// place: each wakes it at once, and it never polls. A line is written only
/// when it differs from the last one, an empty line when there is no note.
/// A note that cannot be read (not UTF-8, a refused link) gives an empty
/// line and its error on standard error, once, and the following goes on.
///
/// It ends, with status 0, when the reader goes away: a write fails with
/// EPIPE, or standard output reports an error or a hang-up while it waits.
struct NoteFollower {
  let store: FileStore
  /// The width of each line (see `NoteLine`).
  let columns: Int

  /// What wakes it: everything that can change what a name in a watched
  /// folder is, and the folder itself going away.
  static let events: Inotify.Events = [
    .closedAfterWriting, .movedIn, .movedOut, .created, .deleted, .attributesChanged,
    .deletedSelf, .movedSelf,
  ]

  /// A folder being watched and the name in it that makes the note.
  private struct Target: Equatable {
    let folder: String
    let name: [UInt8]
  }

  /// A watch of inotify and the names it is watched for.
  private struct Watch {
    let id: Int32
    var names: [[UInt8]]
  }

  func run() throws(FilenoteError) -> ExitCode {
    let inotify: Inotify
    do {
      inotify = try Inotify.open()
    } catch {
      throw .cannotWatch(path: FileStore.folder(of: store.path), errno: error)
    }
    defer { inotify.close() }
    var watches: [Watch] = []
    var printed: String?
    var reported: FilenoteError?
    while true {
      // Watch first, then read: a change in between is then seen twice,
      // never missed.
      watches = try watch(with: inotify, replacing: watches)
      var line = ""
      do {
        if let (fd, _, path) = try store.open() {
          defer { fd.close() }
          line = try NoteLine.line(reading: fd, path: path, columns: columns)
        }
        reported = nil
      } catch {
        if error != reported { Filenote.report(error) }
        reported = error
      }
      if line != printed {
        do {
          try FileDescriptor.standardOutput.writeAll(line + "\n")
        } catch  where error == .brokenPipe {
          return .success
        } catch {
          throw .system(.write, .standardOutput, errno: error)
        }
        printed = line
      }
      guard try waitForChange(inotify, watches: watches) else { return .success }
    }
  }

  /// Waits until an event may have changed the note (true), or until the
  /// reader of standard output went away (false).
  private func waitForChange(_ inotify: Inotify, watches: [Watch]) throws(FilenoteError) -> Bool {
    while true {
      let ready: [Poll.Events]
      do {
        ready = try Poll.wait(
          for: [(inotify.descriptor, .readable), (.standardOutput, [])], deadline: nil)
      } catch {
        throw .cannotWatch(path: FileStore.folder(of: store.path), errno: error)
      }
      if !ready[1].isDisjoint(with: [.error, .hangUp, .invalid]) { return false }
      guard ready[0].contains(.readable) else { continue }
      let events: [Inotify.Event]
      do {
        events = try inotify.events()
      } catch {
        throw .cannotWatch(path: FileStore.folder(of: store.path), errno: error)
      }
      let selfEvents: Inotify.Events = [.deletedSelf, .movedSelf, .watchRemoved, .overflowed]
      for event in events {
        if !event.events.isDisjoint(with: selfEvents) { return true }
        if let watch = watches.first(where: { $0.id == event.watch }),
          watch.names.contains(event.name)
        {
          return true
        }
      }
    }
  }

  /// Watches the folders of `targets()`, stops the watches of `previous`
  /// that are no longer needed, and returns the watches now.
  private func watch(
    with inotify: Inotify, replacing previous: [Watch]
  ) throws(FilenoteError) -> [Watch] {
    // A folder removed between finding it and watching it: look again.
    for _ in 0..<100 {
      var watches: [Watch] = []
      var vanished = false
      for target in targets() {
        let id: Int32
        do {
          id = try inotify.watchFolder(target.folder, for: Self.events)
        } catch  where error == .noSuchFileOrDirectory || error == .notDirectory {
          vanished = true
          break
        } catch {
          throw .cannotWatch(path: target.folder, errno: error)
        }
        if let index = watches.firstIndex(where: { $0.id == id }) {
          watches[index].names.append(target.name)
        } else {
          watches.append(Watch(id: id, names: [target.name]))
        }
      }
      if vanished { continue }
      for old in previous where !watches.contains(where: { $0.id == old.id }) {
        inotify.stopWatching(old.id)
      }
      return watches
    }
    throw .cannotWatch(path: FileStore.folder(of: store.path), errno: .noSuchFileOrDirectory)
  }

  /// What to watch: the note's name in its folder and, when the note is a
  /// symbolic link, the name of the file it points to in that one's folder;
  /// for a folder that is missing, the nearest existing one above it and
  /// the name of the next folder on the way.
  private func targets() -> [Target] {
    var paths = [store.path]
    if let location = try? NoteLocation.resolve(store.path, missingFolder: nil),
      location.path != store.path
    {
      paths.append(location.path)
    }
    var targets: [Target] = []
    for path in paths {
      var folder = FileStore.folder(of: path)
      var name = path.splitAtLastSlash?.after ?? path
      while folder != "/",
        (try? FileSystem.status(folder))?.kind != .directory
      {
        name = folder.splitAtLastSlash?.after ?? folder
        folder = FileStore.folder(of: folder)
      }
      let target = Target(folder: folder, name: Array(name.utf8))
      if !targets.contains(target) { targets.append(target) }
    }
    return targets
  }
}
