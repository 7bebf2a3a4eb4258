import Glibc

/// Watching folders for changes to the names in them (inotify(7)), so that
/// a reader learns of a save the moment it happens, without polling.
///
/// Like `FileDescriptor`, it does not close itself: the owner closes it in
/// a `defer`. Its descriptor is non-blocking and close-on-exec; wait for it
/// to be readable with `Poll`, then take what happened with `events()`.
public struct Inotify: Sendable {
  /// The inotify instance; readable when events are waiting.
  public let descriptor: FileDescriptor

  /// What happened to a watched folder or to a name in it (the `IN_` masks).
  public struct Events: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// IN_CLOSE_WRITE: a file opened for writing was closed (an edit in place).
    public static let closedAfterWriting = Events(rawValue: UInt32(IN_CLOSE_WRITE))
    /// IN_MOVED_TO: a name was renamed into the folder (a save's rename).
    public static let movedIn = Events(rawValue: UInt32(IN_MOVED_TO))
    /// IN_MOVED_FROM: a name was renamed away.
    public static let movedOut = Events(rawValue: UInt32(IN_MOVED_FROM))
    /// IN_CREATE: a name was created.
    public static let created = Events(rawValue: UInt32(IN_CREATE))
    /// IN_DELETE: a name was removed.
    public static let deleted = Events(rawValue: UInt32(IN_DELETE))
    /// IN_ATTRIB: a file's mode, owner or link count changed.
    public static let attributesChanged = Events(rawValue: UInt32(IN_ATTRIB))
    /// IN_DELETE_SELF: the watched folder itself was removed.
    public static let deletedSelf = Events(rawValue: UInt32(IN_DELETE_SELF))
    /// IN_MOVE_SELF: the watched folder itself was renamed.
    public static let movedSelf = Events(rawValue: UInt32(IN_MOVE_SELF))
    /// IN_IGNORED: the watch is gone (its folder was removed or unmounted).
    public static let watchRemoved = Events(rawValue: UInt32(IN_IGNORED))
    /// IN_Q_OVERFLOW: events were lost; anything may have changed.
    public static let overflowed = Events(rawValue: UInt32(IN_Q_OVERFLOW))
  }

  /// One thing that happened: to `name` in the folder of `watch`, or to
  /// the folder itself (`name` empty); `watch` is -1 for `overflowed`.
  public struct Event: Sendable {
    public let watch: Int32
    public let events: Events
    /// The name in the folder, as bytes (a name need not be UTF-8).
    public let name: [UInt8]
  }

  /// A new inotify instance (inotify_init1(2)).
  public static func open() throws(Errno) -> Inotify {
    let fd = try valueOrErrno { inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK)) }
    return Inotify(descriptor: FileDescriptor(rawValue: fd))
  }

  public func close() { descriptor.close() }

  /// Starts watching the folder at `path` (following a symbolic link to it)
  /// for `events`, and returns the watch (inotify_add_watch(2)). Watching
  /// a folder that is watched already gives the same watch, now for these
  /// events.
  public func watchFolder(_ path: String, for events: Events) throws(Errno) -> Int32 {
    try valueOrErrno {
      inotify_add_watch(descriptor.rawValue, path, events.rawValue | UInt32(IN_ONLYDIR))
    }
  }

  /// Stops a watch (inotify_rm_watch(2)); one that is gone already is no error.
  public func stopWatching(_ watch: Int32) {
    _ = inotify_rm_watch(descriptor.rawValue, watch)
  }

  /// The events waiting now, oldest first; none when there are none.
  public func events() throws(Errno) -> [Event] {
    // Room for many events at once: each is 16 bytes and a name of up to
    // 256 (NAME_MAX and its padding).
    let size = 64 * 1024
    var events: [Event] = []
    let buffer = UnsafeMutableRawBufferPointer.allocate(
      byteCount: size, alignment: MemoryLayout<inotify_event>.alignment)
    defer { buffer.deallocate() }
    while true {
      let count: Int
      do {
        count = try descriptor.read(into: buffer)
      } catch  where error == .wouldBlock {
        return events
      }
      if count == 0 { return events }
      var offset = 0
      let header = MemoryLayout<inotify_event>.size
      while offset + header <= count {
        let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
        let nameLength = Int(event.len)
        let nameBytes = UnsafeRawBufferPointer(
          rebasing: buffer[(offset + header)..<min(count, offset + header + nameLength)])
        // The name is padded with NULs to an aligned length.
        let name = Array(nameBytes.prefix { $0 != 0 })
        events.append(Event(watch: event.wd, events: Events(rawValue: event.mask), name: name))
        offset += header + nameLength
      }
    }
  }
}

extension Errno {
  /// EMFILE: here, more inotify instances than `fs.inotify.max_user_instances`.
  public static let tooManyOpenFiles = Errno(EMFILE)
}
