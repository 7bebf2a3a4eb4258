extension Array {
  /// `withUnsafeBytes` that throws what `body` throws, as its own type.
  ///
  /// The standard library's rethrows an untyped `any Error` (Swift 6.3), which
  /// a `throws(Errno)` caller cannot pass on; this carries the error out of
  /// the closure by hand, once for every caller. Inlinable, so each caller
  /// gets it specialized, as it got the copy it had before.
  @inlinable
  public func withUnsafeBytesTyped<Value, Failure: Error>(
    _ body: (UnsafeRawBufferPointer) throws(Failure) -> Value
  ) throws(Failure) -> Value {
    try withUnsafeBytes { buffer in Result { () throws(Failure) in try body(buffer) } }.get()
  }

  /// `withUnsafeMutableBytes` that throws what `body` throws, as its own
  /// type (see `withUnsafeBytesTyped`).
  @inlinable
  public mutating func withUnsafeMutableBytesTyped<Value, Failure: Error>(
    _ body: (UnsafeMutableRawBufferPointer) throws(Failure) -> Value
  ) throws(Failure) -> Value {
    try withUnsafeMutableBytes { buffer in Result { () throws(Failure) in try body(buffer) } }
      .get()
  }
}
