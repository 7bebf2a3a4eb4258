import Testing

@testable import FilenoteCore

/// The environment is read from its raw `NAME=value` entries: a value that
/// is not UTF-8 is named, never repaired, so a path in it is refused.
@Suite struct EnvironmentTests {
  @Test func aVariableIsFoundByItsName() {
    let environment = Environment(entries: [Array("HOME=/home/ann".utf8), Array("TERM=xterm".utf8)])
    #expect(environment["HOME"] == "/home/ann")
    #expect(environment["TERM"] == "xterm")
    #expect(environment["PATH"] == nil)
  }

  @Test func aValueMayHoldEqualsSignsAndBeEmpty() {
    let environment = Environment(entries: [
      Array("EDITOR=vim -c set tw=72".utf8), Array("E=".utf8),
    ])
    #expect(environment["EDITOR"] == "vim -c set tw=72")
    #expect(environment["E"] == "")
  }

  @Test func whereANameRepeatsTheLastEntryWins() {
    let environment = Environment(entries: [Array("HOME=/first".utf8), Array("HOME=/last".utf8)])
    #expect(environment["HOME"] == "/last")
  }

  @Test func namesAreComparedByteForByteAsGetenvDoes() {
    // "é" precomposed and "e" + combining acute: one name to String's ==, two to getenv.
    let environment = Environment(entries: [Array("CAF\u{00C9}=composed".utf8)])
    #expect(environment["CAF\u{00C9}"] == "composed")
    #expect(environment["CAFE\u{0301}"] == nil)
  }

  @Test func anEntryWithoutEqualsSignIsSkipped() {
    let environment = Environment(entries: [Array("NOEQUALS".utf8), Array("A=1".utf8)])
    #expect(environment["NOEQUALS"] == nil)
    #expect(environment["A"] == "1")
  }

  @Test func aValueThatIsNotUTF8IsNamedAndHasNoValue() {
    let environment = Environment(entries: [Array("HOME=/home/".utf8) + [0xFF], Array("A=1".utf8)])
    #expect(environment["HOME"] == nil)
    #expect(environment.isNotUTF8("HOME"))
    #expect(!environment.isNotUTF8("A"))
  }

  @Test func aPathFromAVariableThatIsNotUTF8IsRefused() {
    let environment = Environment(entries: [Array("FILENOTE_FILE=/tmp/".utf8) + [0xC3, 0x28]])
    #expect(throws: FilenoteError.self) {
      try FileStore.resolve(fileOption: nil, environment: environment, notices: Notices())
    }
  }
}
