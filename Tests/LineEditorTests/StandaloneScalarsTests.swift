import Testing

@testable import LineEditor

/// Cutting text takes a shortcut between scalars that always stand alone.
@Suite struct StandaloneScalarsTests {
  @Test func everyStandaloneScalarIsACharacterOfItsOwnBesideAnotherOne() {
    let others: [Unicode.Scalar] = ["a", " ", "é", "日", "ア", "가", "α", "Ж", "—"]
    for value in UInt32(0)...0xFFFF where StandaloneScalars.contains(value) {
      guard let scalar = Unicode.Scalar(value) else { continue }
      for other in others {
        #expect(String(String.UnicodeScalarView([scalar, other])).count == 2, "\(value)")
        #expect(String(String.UnicodeScalarView([other, scalar])).count == 2, "\(value)")
      }
      #expect(String(String.UnicodeScalarView([scalar, scalar])).count == 2, "\(value)")
    }
  }
}
