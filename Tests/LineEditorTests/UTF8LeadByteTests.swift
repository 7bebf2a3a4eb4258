import Testing

@testable import LineEditor

/// `UTF8LeadByte` is table 3-7 of the Unicode Standard, byte for byte: held
/// here to the standard library's own UTF-8 parser.
@Suite struct UTF8LeadByteTests {
  @Test func aByteLeadsASequenceExactlyWhenSomeSequenceItStartsIsWellFormed() {
    for byte in UInt8.min...UInt8.max where byte >= 0x80 {
      let startsOne = (2...4).contains { length in
        (0x80...0xBF).contains { (second: UInt8) in
          let sequence = [byte, second] + Array(repeating: 0x80, count: length - 2)
          return String(validating: sequence, as: UTF8.self) != nil
        }
      }
      #expect((UTF8LeadByte(byte) != nil) == startsOne, "byte \(byte)")
    }
    for ascii in UInt8(0)...0x7F {
      #expect(UTF8LeadByte(ascii) == nil, "ASCII is a character alone")
    }
  }

  @Test func itsLengthSecondBytesAndBitsAreTheStandards() throws {
    for byte in UInt8(0xC2)...0xF4 {
      let lead = try #require(UTF8LeadByte(byte))
      for second in UInt8.min...UInt8.max {
        let sequence = [byte, second] + Array(repeating: 0x80, count: lead.continuations - 1)
        let decoded = String(validating: sequence, as: UTF8.self)?.unicodeScalars
        let allowed = second >= lead.secondLow && second <= lead.secondHigh
        #expect((decoded != nil) == allowed, "\(byte) \(second)")
        guard let scalar = decoded?.first, decoded?.count == 1 else { continue }
        // The lead byte's bits are the scalar's highest ones.
        #expect(scalar.value >> (6 * lead.continuations) == UInt32(lead.scalarBits))
      }
    }
  }
}
