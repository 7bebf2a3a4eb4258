import SystemCalls
import Testing

/// An array's bytes lent to a closure that throws a typed error: the error
/// comes out as that type, the value as it was returned.
@Suite struct TypedBytesTests {
  @Test func theClosuresErrorComesOutTypedAndItsValueAsReturned() throws {
    let bytes: [UInt8] = [1, 2, 3]
    #expect(try bytes.withUnsafeBytesTyped { buffer throws(Errno) in buffer.count } == 3)
    #expect(throws: Errno.ioError) {
      try bytes.withUnsafeBytesTyped { _ throws(Errno) -> Int in throw .ioError }
    }
    var mutable: [UInt8] = [0, 0]
    let written = try mutable.withUnsafeMutableBytesTyped { buffer throws(Errno) in
      buffer[1] = 7
      return buffer.count
    }
    #expect(written == 2 && mutable == [0, 7])
    #expect(throws: Errno.noSpace) {
      try mutable.withUnsafeMutableBytesTyped { _ throws(Errno) -> Int in throw .noSpace }
    }
  }
}
