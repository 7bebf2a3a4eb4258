/// A numeric argument being typed before a command (readline's
/// digit-argument, Alt-- and universal-argument): how many times the
/// command runs, or how far it reaches, negative for the other way.
struct NumericArgument: Sendable, Equatable {
  /// The digits typed, as a number; nil before the first.
  private var magnitude: Int?
  private var isNegative = false
  /// What universal-argument made it without digits: 4, 16, 64...
  private var universal = 1

  /// Readline's largest argument: bigger ones are cut to it.
  static let limit = 1_000_000

  /// Whether a digit was typed (a minus after that is no longer a sign).
  var hasDigits: Bool { magnitude != nil }

  /// The count the command runs with: Alt-- alone is -1.
  var value: Int {
    let size = magnitude ?? universal
    return isNegative ? -size : size
  }

  /// With `digit` typed after the digits so far.
  func appending(_ digit: Int) -> Self {
    var next = self
    next.magnitude = min((magnitude ?? 0) * 10 + digit, Self.limit)
    return next
  }

  /// With the sign turned round.
  func negated() -> Self {
    var next = self
    next.isNegative.toggle()
    return next
  }

  /// Four times as large (universal-argument), when no digit was typed.
  func multiplied() -> Self {
    var next = self
    if magnitude == nil { next.universal = min(universal * 4, Self.limit) }
    return next
  }
}
