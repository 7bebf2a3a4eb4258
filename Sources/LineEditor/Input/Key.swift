/// One key press (or one paste) as the line editor sees it, decoded from the
/// bytes a terminal sends by `KeyDecoder`.
///
/// Keys carry what was pressed, not what it means: `EditState` decides that.
public enum Key: Hashable, Sendable {
  /// Printable text typed at the keyboard. Never contains control characters;
  /// several characters typed quickly may arrive as one `text` key.
  case text(String)
  /// The body of a bracketed paste, exactly as the terminal sent it (it may
  /// contain newlines, carriage returns and other control characters).
  case paste(String)
  /// Enter: a carriage return outside a paste (a line feed is Ctrl-J,
  /// which is bound to accept the line too).
  case enter
  /// The Backspace key (DEL, 0x7F).
  case backspace
  /// The Delete key (`ESC [ 3 ~`).
  case delete
  /// A lone Esc, not the start of a sequence. `EditState` reads it with the
  /// next key as that key with Alt held (readline's meta prefix), and it ends
  /// a search; a session asking a question may take it as an answer.
  case escape
  /// A control character other than Enter and Backspace, named by the
  /// lowercase letter or symbol that is held with Ctrl: Ctrl-A is
  /// `.control("a")`, Tab is `.control("i")`, Ctrl-H (0x08) is
  /// `.control("h")`, Ctrl-_ (0x1F) is `.control("_")`, 0x00 is `.control("@")`,
  /// 0x1C is `.control("\\")`, 0x1D is `.control("]")`, 0x1E is `.control("^")`.
  case control(Character)
  /// Alt (Meta) held with a key, sent as `ESC` followed by the key's
  /// character: Alt-B is `.alt("b")`, Alt-Backspace is `.alt("\u{7F}")`.
  case alt(Character)
  /// An arrow key, with the modifiers held (`ESC [ 1 ; 5 C` is Ctrl-Right).
  case arrow(Arrow, Modifiers)
  /// Home (`ESC [ H`, `ESC O H`, `ESC [ 1 ~`, `ESC [ 7 ~`).
  case home
  /// End (`ESC [ F`, `ESC O F`, `ESC [ 4 ~`, `ESC [ 8 ~`).
  case end

  /// The four arrow keys.
  public enum Arrow: Hashable, Sendable {
    case up, down, right, left
  }

  /// Modifier keys held with a special key, as xterm encodes them.
  public struct Modifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let shift = Modifiers(rawValue: 1)
    public static let alt = Modifiers(rawValue: 2)
    public static let control = Modifiers(rawValue: 4)
    public static let none: Modifiers = []
  }
}
