import Glibc

/// Set `FUZZ_VERBOSE=1` to have every scenario, key and outcome printed: run
/// the fuzzer on one crash file to see what it did.
private let isVerbose = getenv("FUZZ_VERBOSE") != nil

/// libFuzzer's entry point for the key decoder, the editor and the renderer:
/// any byte string is an `EditorScenario`, played by an `EditorSession` that
/// stops the process when a rule breaks.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEditor(_ data: UnsafeRawPointer, _ count: Int) -> CInt {
  let scenario = EditorScenario(Array(UnsafeRawBufferPointer(start: data, count: count)))
  if isVerbose {
    fputs("--- scenario ---\n\(scenario)\n--- session ---\n", stderr)
  }
  var session = EditorSession(scenario, isVerbose: isVerbose)
  session.play()
  return 0
}
