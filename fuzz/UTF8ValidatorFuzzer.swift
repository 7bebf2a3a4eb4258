/// libFuzzer's entry point for the streaming UTF-8 validator: every input is
/// checked by `UTF8ValidatorCheck`, which stops the process on a disagreement.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzUTF8Validator(_ data: UnsafeRawPointer, _ count: Int) -> CInt {
  UTF8ValidatorCheck(Array(UnsafeRawBufferPointer(start: data, count: count))).run()
  return 0
}
