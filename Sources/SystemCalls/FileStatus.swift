import Glibc

/// What `stat`, `lstat` and `fstat` tell about a file.
public struct FileStatus: Sendable {
  /// What kind of file it is.
  public enum Kind: Sendable {
    case regular, directory, symbolicLink, other
  }

  public let kind: Kind
  /// The permission bits (`st_mode & 07777`).
  public let permissions: UInt32
  public let owner: UInt32
  public let group: UInt32
  public let device: UInt64
  public let inode: UInt64
  public let size: Int64
  /// How many names the file has (`st_nlink`): more than one, and removing
  /// one leaves the file to the others.
  public let linkCount: UInt64
  /// The last modification (`st_mtim`), in seconds and nanoseconds.
  public let modified: (seconds: Int64, nanoseconds: Int64)
  /// The last status change (`st_ctim`), in seconds and nanoseconds.
  public let changed: (seconds: Int64, nanoseconds: Int64)

  init(_ info: stat) {
    switch info.st_mode & S_IFMT {
    case S_IFREG: kind = .regular
    case S_IFDIR: kind = .directory
    case S_IFLNK: kind = .symbolicLink
    default: kind = .other
    }
    permissions = UInt32(info.st_mode & 0o7777)
    owner = UInt32(info.st_uid)
    group = UInt32(info.st_gid)
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    size = Int64(info.st_size)
    linkCount = UInt64(info.st_nlink)
    modified = (Int64(info.st_mtim.tv_sec), Int64(info.st_mtim.tv_nsec))
    changed = (Int64(info.st_ctim.tv_sec), Int64(info.st_ctim.tv_nsec))
  }
}
