import Synchronization

/// What storage has to tell the user beside what a command does (the
/// versions folder it took back from other users): storage never prints,
/// it adds the notice here, and the command that ran says them when it is
/// done (`Filenote.report(_:)`). A save's own notices come back in its
/// outcome instead (`FileStore.Saved`).
final class Notices: Sendable {
  /// A notice, and whether it is for a person at a terminal only.
  struct Notice: Equatable, Sendable {
    let notice: FilenoteError
    let onlyOnTerminal: Bool
  }

  private let list = Mutex<[Notice]>([])

  /// Adds `notice`; `onlyOnTerminal`: said only when standard error or
  /// standard output is a terminal (a script is not told).
  func add(_ notice: FilenoteError, onlyOnTerminal: Bool) {
    list.withLock { $0.append(Notice(notice: notice, onlyOnTerminal: onlyOnTerminal)) }
  }

  /// The notices added so far, in order, and none left.
  func take() -> [Notice] {
    list.withLock { list in
      defer { list = [] }
      return list
    }
  }
}
