/// A numeric argument being typed before a command (readline's
/// digit-argument, Alt-- and universal-argument): how many times the
/// command runs, or how far it reaches, negative for the other way.
///
/// It follows readline's arithmetic, quirks included, as bash's `read -e`
/// shows them: Alt-- starts the argument at -1; a digit typed after it
/// replaces the 1 (Alt-- 2 is -2), an Alt-digit is appended to it (Alt--
/// Alt-2 is -12); a minus before any digit keeps it negative rather than
/// turning it round.
struct NumericArgument: Sendable, Equatable {
  /// The number so far; nil before a digit or a minus.
  private var magnitude: Int?
  private var isNegative = false
  /// Whether a digit was typed.
  private(set) var hasDigits = false
  /// What universal-argument made it without digits: 4, 16, 64...
  private var universal = 1

  /// Readline's largest argument: bigger ones are cut to it.
  static let limit = 1_000_000

  /// The count the command runs with: Alt-- alone is -1.
  var value: Int {
    let size = magnitude ?? universal
    return isNegative ? -size : size
  }

  /// With `digit` typed after what was typed so far, with Alt held
  /// (`withAlt`) or not.
  func appending(_ digit: Int, withAlt: Bool) -> Self {
    var next = self
    let start = hasDigits || withAlt ? magnitude ?? 0 : 0
    next.magnitude = min(start * 10 + digit, Self.limit)
    next.hasDigits = true
    return next
  }

  /// With a minus typed before any digit: negative, from 1.
  func negated() -> Self {
    var next = self
    next.isNegative = true
    if magnitude == nil { next.magnitude = 1 }
    return next
  }

  /// Four times as large (universal-argument), when no digit was typed.
  func multiplied() -> Self {
    var next = self
    if !hasDigits { next.universal = min(universal * 4, Self.limit) }
    return next
  }
}
