import Glibc

/// libFuzzer's entry point for the inputrc parser: the bytes before the
/// first NUL are an inputrc (and every file it `$include`s: the same
/// bytes again, so includes nest and loop), the bytes after it keys typed
/// into an editor set up with what it read. Stops the process when a rule
/// breaks: a binding of no keys, a cursor outside the text, a buffer whose
/// Characters are not its string's.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInputrc(_ data: UnsafeRawPointer, _ count: Int) -> CInt {
  let bytes = Array(UnsafeRawBufferPointer(start: data, count: count))
  let split = bytes.firstIndex(of: 0) ?? bytes.count
  let inputrc = Array(bytes[..<split])
  let keys = split < bytes.count ? Array(bytes[(split + 1)...]) : []

  var includes = 0
  var parser = InputrcParser(terminalName: "xterm-256color") { _ in
    includes += 1
    return inputrc
  }
  parser.parse(inputrc, path: "/fuzz/inputrc")
  let configuration = parser.configuration
  // Each level can include at most every line of the file.
  let lines = inputrc.filter { $0 == UInt8(ascii: "\n") }.count + 1
  require(
    includes <= lines * (InputrcParser.maximumIncludeDepth + 1),
    "\(includes) includes of a file of \(lines) lines")
  for keymap in Keymap.allCases {
    for binding in configuration[bindingsOf: keymap].bindings {
      require(!binding.keys.isEmpty, "a binding of no keys")
    }
  }

  var state = EditState(
    text: "note é 🇫🇷", versions: ["older", "oldest note"], configuration: configuration)
  var decoder = KeyDecoder()
  for start in stride(from: 0, to: keys.count, by: 7) {
    for key in decoder.decode(keys[start..<min(start + 7, keys.count)]) {
      _ = state.handle(key)
      require((0...state.buffer.count).contains(state.cursor), "cursor outside the text")
    }
    if state.isWaitingForMoreKeys { _ = state.finishPendingKeys() }
  }
  require(
    Array(state.buffer).elementsEqual(Array(state.text)),
    "the buffer's Characters are not its string's")
  return 0
}

/// Stops the process with `message` when `condition` is false.
private func require(_ condition: Bool, _ message: @autoclosure () -> String) {
  guard !condition else { return }
  fputs("inputrc fuzzer: \(message())\n", stderr)
  abort()
}
