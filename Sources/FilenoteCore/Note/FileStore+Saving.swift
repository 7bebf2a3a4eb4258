import SystemCalls

// Saving is atomic and durable, in the order swift-foundation's atomic write
// uses, plus what that write leaves out on Linux (seen with strace on
// swift-foundation 6.3: `Data.write(to:options: .atomic)` creates its
// temporary file 0666 minus the umask, so a new note would be 0644 and an
// existing 0640 note becomes 0644; it replaces a symbolic link with a regular
// file; it does not fsync the folder after the rename; and a killed writer's
// `.dat.nosync*` file stays forever):
//
// 1. follow `datafile.dat` through any symbolic links to the file to replace,
//    one name at a time and only as the kernel's protected_symlinks rule
//    would (`NoteLocation`), and open its folder for reading, which the
//    final fsync needs (a write-only folder fails here, note untouched);
// 2. create a temporary file beside it, exclusively (O_EXCL), mode 0600, and
//    lock it, so a later save can tell a dead writer's leftover from a live
//    one; until the rename, SIGINT, SIGTERM and SIGHUP remove it;
// 3. write everything, give it the old file's mode (0600 for a new note), fsync;
// 4. holding the writer lock (`WriterLock`), rename it over the target, then
//    fsync the folder so the rename is on disk.
//
// On any failure the temporary file is removed and the old note is untouched.

extension FileStore {
  /// Saves `bytes` as the note; they must be valid UTF-8 and not empty.
  public func save(bytes: [UInt8]) throws(FilenoteError) {
    if let offset = UTF8Validator.firstInvalidOffset(in: bytes) {
      throw .inputNotUTF8(offset: offset)
    }
    guard !bytes.isEmpty else { throw .emptyInput }
    try withWriterLock { note throws(FilenoteError) in try note.save(bytes: bytes) }
  }

  /// Saves what `input` delivers until end of file, streaming: memory does
  /// not grow with the input. Exactly one trailing line ending ("\n" or
  /// "\r\n") is removed. Input that is empty after that, or not UTF-8, is
  /// refused and the note is left as it was.
  public func save(streamingFrom input: FileDescriptor) throws(FilenoteError) {
    let chunkSize = 256 * 1024
    let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
    defer { chunk.deallocate() }
    var validator = UTF8Validator()
    // The last two bytes are held back until the end, when they may turn
    // out to be the one trailing line ending to drop.
    var held: [UInt8] = []
    var replacement: TemporaryNoteFile?
    input.growPipeBuffer()
    do throws(FilenoteError) {
      while true {
        let count: Int
        do {
          count = try input.read(into: chunk)
        } catch {
          throw FilenoteError.system(.read, .standardInput, errno: error)
        }
        if count == 0 { break }
        let bytes = UnsafeRawBufferPointer(rebasing: chunk[0..<count])
        validator.consume(bytes)
        if let offset = validator.firstInvalidOffset {
          throw FilenoteError.inputNotUTF8(offset: offset)
        }

        if replacement == nil {
          replacement = try TemporaryNoteFile(for: WritableNote(self))
        }
        if count >= 2 {
          try replacement!.write(held)
          try replacement!.write(UnsafeRawBufferPointer(rebasing: bytes[0..<(count - 2)]))
          held = Array(bytes[(count - 2)...])
        } else {
          held.append(contentsOf: bytes)
          if held.count > 2 {
            try replacement!.write(Array(held.prefix(held.count - 2)))
            held.removeFirst(held.count - 2)
          }
        }
      }
      validator.finish()
      if let offset = validator.firstInvalidOffset {
        throw FilenoteError.inputNotUTF8(offset: offset)
      }
      if held.last == UInt8(ascii: "\n") {
        held.removeLast()
        if held.last == UInt8(ascii: "\r") { held.removeLast() }
      }
      guard let file = replacement, file.bytesWritten + held.count > 0 else {
        throw FilenoteError.emptyInput
      }
      try file.write(held)
      if file.bytesWritten >= 1 << 20 { try file.flushData() }
      try file.commitKeepingVersion()
    } catch {
      replacement?.discard()
      throw error
    }
  }
}
