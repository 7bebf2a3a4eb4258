import Testing

@testable import FilenoteCore

/// A number on the command line, in the environment or in a file name is
/// ASCII digits alone (`DecimalNumber`).
@Suite struct DecimalNumberTests {
  @Test func aNumberIsDigitsAlone() {
    func value(_ text: String) -> Int? { DecimalNumber.value(of: text.utf8) }
    #expect(value("0") == 0 && value("42") == 42 && value("0042") == 42)
    #expect(value("9223372036854775807") == Int.max && value("9223372036854775808") == Int.max)
    #expect(value("99999999999999999999999x") == nil)
    for bad in ["", "-1", "+1", "1_000", "1 ", "1.0", "١"] {
      #expect(value(bad) == nil, "\(bad)")
    }
    #expect((0...255).filter { DecimalNumber.isDigit(UInt8($0)) } == Array(48...57))
  }
}
