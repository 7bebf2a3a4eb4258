/// A number as filenote reads it from the command line, the environment and
/// file names: ASCII digits alone, no sign, no space, no `_` (what `Int(_:)`
/// would also take, `+5` or `-0`, is refused).
enum DecimalNumber {
  /// Whether `byte` is an ASCII digit, `0` to `9`.
  static func isDigit(_ byte: UInt8) -> Bool {
    byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
  }

  /// The value of `digits`, ASCII digits alone and at least one; `Int.max`
  /// when it is larger (a number that large means "as many as there are").
  /// nil for anything else.
  static func value(of digits: some Collection<UInt8>) -> Int? {
    guard !digits.isEmpty else { return nil }
    var value = 0
    for byte in digits {
      guard isDigit(byte) else { return nil }
      let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflowAgain) = times10.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
      value = overflow || overflowAgain ? Int.max : sum
    }
    return value
  }
}
