/// Reads the keys of vi's command mode into `ViCommand`s: a count, then an
/// operator and a second count, then a motion (`2d3w`); or a command alone
/// (`x`, `p`, `3rx`). It keeps only the keys read so far, never the text,
/// so every key sequence can be tested without an editor.
struct ViCommandParser: Sendable {
  /// What reading one key gave.
  enum Result: Equatable, Sendable {
    /// The key is part of a command not complete yet (`d`, `3`, `f`).
    case pending
    /// A whole command.
    case command(ViCommand)
    /// The keys so far make no command (`dx`, Esc after `d`); they are
    /// dropped, as readline drops them.
    case rejected
  }

  /// What the next key completes, for the commands that take a character.
  private enum Awaited: Equatable, Sendable {
    case findTarget(isForward: Bool, stopsBefore: Bool)
    case replacement
  }

  /// The largest count kept: readline's own limit, which also keeps the
  /// product of two counts from overflowing.
  static let countLimit = 1_000_000

  private var count: Int?
  private var pendingOperator: (ViOperator, Character)?
  private var motionCount: Int?
  private var awaited: Awaited?

  /// Whether keys of an unfinished command were read.
  var isPending: Bool { count != nil || pendingOperator != nil || awaited != nil }

  /// Forgets the keys of an unfinished command.
  mutating func reset() { self = ViCommandParser() }

  /// Reads one key. Text is read one Character at a time: `EditState` hands
  /// a key of several Characters over one by one.
  mutating func parse(_ key: Key) -> Result {
    if let awaited {
      self.awaited = nil
      guard case .text(let text) = key, let character = text.first else { return reject() }
      switch awaited {
      case .findTarget(let isForward, let stopsBefore):
        return finish(
          .find(
            ViCharacterSearch(target: character, isForward: isForward, stopsBefore: stopsBefore)))
      case .replacement: return finish(.replaceCharacters(character))
      }
    }
    switch key {
    case .text(let text):
      guard let character = text.first else { return .rejected }
      return parse(character)
    case .arrow(let arrow, let modifiers):
      let byWord = !modifiers.isDisjoint(with: [.control, .alt])
      switch arrow {
      case .left: return byWord ? command(.edit(.backwardWord)) : finish(.left)
      case .right: return byWord ? command(.edit(.forwardWord)) : finish(.right)
      case .up: return command(.history(older: true))
      case .down: return command(.history(older: false))
      }
    case .home: return finish(.lineStart)
    case .end: return finish(.lineEnd)
    case .control("h"): return finish(.left)
    case .delete: return command(.deleteCharacters)
    case .enter: return command(.edit(.acceptLine))
    case .paste(let text): return command(.edit(.bracketedPaste(text)))
    case .control(let name): return controlCommand(name)
    case .backspace, .escape, .alt: return reject()
    }
  }

  /// Command mode's control keys: those readline binds there.
  private mutating func controlCommand(_ name: Character) -> Result {
    switch name {
    case "c": return command(.edit(.cancel))
    case "d": return command(.edit(.deleteCharOrEndOfInput))
    case "j", "m": return command(.edit(.acceptLine))
    case "k": return command(.edit(.killLine))
    case "l": return command(.edit(.clearScreen))
    case "n": return command(.history(older: false))
    case "p": return command(.history(older: true))
    case "r": return command(.edit(.reverseSearchHistory))
    case "s": return command(.edit(.forwardSearchHistory))
    case "t": return command(.edit(.transposeChars))
    case "u": return command(.edit(.unixLineDiscard))
    case "w": return command(.edit(.unixWordRubout))
    case "y": return command(.edit(.yank))
    case "z": return command(.edit(.suspend))
    case "_": return command(.undo)
    default: return reject()
    }
  }

  private mutating func parse(_ character: Character) -> Result {
    if let digit = character.wholeNumberValue, character.isASCII,
      digit > 0 || (pendingOperator == nil ? count : motionCount) != nil
    {
      if pendingOperator == nil {
        count = Swift.min((count ?? 0) * 10 + digit, Self.countLimit)
      } else {
        motionCount = Swift.min((motionCount ?? 0) * 10 + digit, Self.countLimit)
      }
      return .pending
    }
    if let motion = Self.motion(character) { return finish(motion) }
    switch character {
    case "f", "F", "t", "T":
      awaited = .findTarget(
        isForward: character == "f" || character == "t",
        stopsBefore: character == "t" || character == "T")
      return .pending
    default: break
    }
    if let (op, key) = pendingOperator {
      // Only the operator's own key again (`dd`) is not a motion.
      guard character == key else { return reject() }
      return command(.applyToLine(op))
    }
    switch character {
    case "d": return startOperator(.delete, character)
    case "c": return startOperator(.change, character)
    case "y": return startOperator(.yank, character)
    case "D": return command(.apply(.delete, .lineEnd))
    case "C": return command(.apply(.change, .lineEnd))
    case "Y": return command(.apply(.yank, .lineEnd))
    case "S": return command(.applyToLine(.change))
    case "s": return command(.substituteCharacters)
    case "x": return command(.deleteCharacters)
    case "X": return command(.deleteCharactersBefore)
    case "r":
      awaited = .replacement
      return .pending
    case "R": return command(.replaceMode)
    case "~": return command(.toggleCase)
    case "p": return command(.put(afterCursor: true))
    case "P": return command(.put(afterCursor: false))
    case "u": return command(.undo)
    case "U": return command(.revertLine)
    case ".": return command(.repeatLastChange)
    case "i": return command(.insert(.atCursor))
    case "a": return command(.insert(.afterCursor))
    case "I": return command(.insert(.lineStart))
    case "A": return command(.insert(.lineEnd))
    case "k", "-": return command(.history(older: true))
    case "j", "+": return command(.history(older: false))
    case "/": return command(.startSearch(olderFirst: true))
    case "?": return command(.startSearch(olderFirst: false))
    case "n": return command(.searchAgain(reversed: false))
    case "N": return command(.searchAgain(reversed: true))
    case "v": return command(.editInEditor)
    // `#` (comment the line out and accept it) and `*` (expand a glob)
    // are readline's for a shell; in a note they would only surprise.
    default: return reject()
    }
  }

  /// The motion `character` names alone, without a character to find.
  private static func motion(_ character: Character) -> ViMotion? {
    switch character {
    case "h": .left
    case "l", " ": .right
    case "w": .nextWordStart(.word)
    case "W": .nextWordStart(.bigWord)
    case "b": .previousWordStart(.word)
    case "B": .previousWordStart(.bigWord)
    case "e": .wordEnd(.word)
    case "E": .wordEnd(.bigWord)
    case "0": .lineStart
    case "^": .firstNonBlank
    case "$": .lineEnd
    case "|": .column
    case ";": .repeatFind(reversed: false)
    case ",": .repeatFind(reversed: true)
    default: nil
    }
  }

  private mutating func startOperator(_ op: ViOperator, _ key: Character) -> Result {
    pendingOperator = (op, key)
    return .pending
  }

  /// The command a motion completes: the motion alone, or the pending
  /// operator over it.
  private mutating func finish(_ motion: ViMotion) -> Result {
    if let (op, _) = pendingOperator { return command(.apply(op, motion)) }
    return command(.move(motion))
  }

  /// The command for `replaceCharacters`, kept apart from `finish(_:)`
  /// since `r` is no motion.
  private mutating func finish(_ action: ViCommand.Action) -> Result {
    command(action)
  }

  /// `action` with the counts read, which are then forgotten.
  private mutating func command(_ action: ViCommand.Action) -> Result {
    var total: Int?
    if count != nil || motionCount != nil {
      total = Swift.min((count ?? 1) * (motionCount ?? 1), Self.countLimit)
    }
    reset()
    return .command(ViCommand(count: total, action: action))
  }

  private mutating func reject() -> Result {
    reset()
    return .rejected
  }
}
