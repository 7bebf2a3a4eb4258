import SystemCalls

/// The text of one save on its way to becoming the note, compared with the
/// note it replaces as it arrives (steps 2–4 of `FileStore+Saving.swift`).
///
/// While the text matches the note file, read alongside it, nothing is
/// written. At the first difference (usually in the first bytes; a text
/// longer than the note differs at once, without a read) the temporary file
/// is made and given the bytes that matched, and from then on the text goes
/// to it and the note is no longer read. So a save that changes nothing
/// writes nothing, and one that changes the note writes it once and reads
/// the old note only as far as the two agree.
final class IncomingText {
  /// The note the text replaces, its folder open.
  let note: WriteTarget
  /// The note file as the text is compared with it; nil when there was none.
  private var originalStatus: FileStatus?
  /// That file, open for reading, while the text matches it so far.
  private var original: FileDescriptor?
  private var hasOpenedOriginal = false
  /// Where the note's next bytes are read to be compared.
  private var buffer: UnsafeMutableRawBufferPointer?
  /// The text, when it came whole (`append(contentsOf:)`): the part that
  /// matched is then written from memory, never read again from the note.
  private var wholeText: [UInt8]?
  /// Bytes of the text taken in so far.
  private(set) var count = 0
  /// The file that replaces the note, made at the text's first difference from it.
  private var replacement: TemporaryNoteFile?

  /// How much of a stream is read at a time (`read`), and the most of the
  /// note read at a time to compare.
  static let chunkSize = 256 * 1024

  /// The text of a save to the note of `note`, whose file is `status` as
  /// last looked at (nil: none): as the walk found it, or as the writer
  /// lock did.
  init(for note: WriteTarget, status: FileStatus?) {
    self.note = note
    originalStatus = status
  }

  deinit {
    original?.close()
    buffer?.deallocate()
  }

  /// How long the text can be, when that is known before it is read (it
  /// comes from a regular file: `save < file`). A note of another size
  /// cannot be the text, and is then not read at all: the text is written
  /// from its first byte, and nothing is read twice.
  var possibleCounts: ClosedRange<Int64>?

  /// Whether the text matches the note so far: nothing has been written.
  var isMatchingNote: Bool { replacement == nil }

  /// Takes in the text's next bytes (already checked, see `Check`).
  func append(_ piece: UnsafeRawBufferPointer) throws(FilenoteError) {
    guard piece.count > 0 else { return }
    if replacement == nil {
      if matchesNote(piece) {
        count += piece.count
        return
      }
      try startReplacement()
    }
    try replacement!.write(piece)
    count += piece.count
  }

  /// Takes in the whole text at once, instead of `append(_:)`.
  func append(contentsOf text: [UInt8]) throws(FilenoteError) {
    precondition(count == 0, "the whole text comes in one piece")
    wholeText = text
    try text.withUnsafeBytesTyped { bytes throws(FilenoteError) in try append(bytes) }
  }

  /// Ends the text: the file that is to replace the note (with the note
  /// file its text was compared with), or nil when the
  /// note holds the text already, and nothing happens at all: no file, no
  /// fsync, no writer lock. (It held the text when it was opened, and did
  /// not change until the compare ended, so that is when this save took
  /// place: a writer that replaced it since came after.) A text that
  /// matched the note so far but is shorter differs from it too; one that
  /// matched all of it is the note only when the note file did not change
  /// while it was compared. A large file goes to disk here, before the
  /// writer lock is taken, so other writers do not wait for its fsync.
  func end() throws(FilenoteError) -> LockedTarget.Successor? {
    if replacement == nil {
      let matchedAll = originalStatus.map { Int64(count) == $0.size } ?? false
      if matchedAll && isOriginalUnchanged {
        // Nothing to write, but what a killed save left beside the note goes.
        TemporaryNoteFile.removeLeftovers(beside: note)
        return nil
      }
      if matchedAll && wholeText == nil {
        // The text matched a note that changed meanwhile, and only the note held it.
        throw .noteChangedWhileSaving(path: note.path)
      }
      try startReplacement()
    }
    guard let replacement else { return nil }
    if replacement.bytesWritten >= 1 << 20 { try replacement.makeDurable(like: originalStatus) }
    return .file(replacement, compared: originalStatus)
  }

  /// Removes the temporary file, if any; the note is left as it was.
  func discard() {
    replacement?.discard()
    replacement = nil
    closeOriginal()
  }

  // MARK: - Comparing

  /// Whether `piece`, the text's next bytes, is the note file's next bytes
  /// too (read now). False as soon as it cannot be: no note, a shorter one,
  /// one of a size the text cannot have (`possibleCounts`), or one that
  /// cannot be read.
  private func matchesNote(_ piece: UnsafeRawBufferPointer) -> Bool {
    guard let size = originalStatus?.size, Int64(count + piece.count) <= size,
      possibleCounts?.contains(size) ?? true,
      let file = openOriginal(), let buffer,
      let status = originalStatus, Int64(count + piece.count) <= status.size
    else { return false }
    var offset = 0
    while offset < piece.count {
      let wanted = min(piece.count - offset, buffer.count)
      var got = 0
      while got < wanted {
        // A regular file gives fewer bytes than asked only at its end.
        guard let read = try? file.read(into: .init(rebasing: buffer[got..<wanted])), read > 0
        else { return false }
        got += read
      }
      let mine = UnsafeRawBufferPointer(rebasing: piece[offset..<(offset + wanted)])
      guard mine.hasSameBytes(as: UnsafeRawBufferPointer(rebasing: buffer[0..<wanted])) else {
        return false
      }
      offset += wanted
    }
    return true
  }

  /// The note file, opened at the first compare (never through a link, and
  /// only a regular file); what it is then is what the text is compared with.
  private func openOriginal() -> FileDescriptor? {
    if let original { return original }
    // Checked before the open: opening a device can do something (a tape rewinds).
    guard !hasOpenedOriginal, originalStatus?.kind == .regular else { return nil }
    hasOpenedOriginal = true
    // nonBlocking: a FIFO swapped in meanwhile cannot hang the open.
    guard
      let file = try? note.folder.open(
        note.location.name, .readOnly, options: [.nonBlocking, .noFollow])
    else { return nil }
    guard let status = try? file.status(), status.kind == .regular else {
      file.close()
      return nil
    }
    original = file
    originalStatus = status
    // No bigger than the note: a short one's compare touches a page, not 256 KiB.
    buffer = .allocate(
      byteCount: Int(min(max(status.size, 1), Int64(Self.chunkSize))), alignment: 16)
    return file
  }

  private func closeOriginal() {
    original?.close()
    original = nil
  }

  /// Whether the bytes of the note file that was compared are as they were
  /// when it was opened: the same size and modification time (which a
  /// write in place changes). Not the status change time: another save
  /// keeping the file as a version (a hard link) changes that, not its bytes.
  private var isOriginalUnchanged: Bool {
    guard let original, let status = originalStatus, let now = try? original.status() else {
      return false
    }
    return now.size == status.size && now.modified == status.modified
  }

  // MARK: - Writing

  /// Makes the temporary file at the text's first difference from the
  /// note, holding the `count` bytes of the text that matched the note.
  private func startReplacement() throws(FilenoteError) {
    let file = try TemporaryNoteFile(for: note, replacing: originalStatus)
    do throws(FilenoteError) {
      if count > 0 {
        if let wholeText {
          try file.write(Array(wholeText[0..<count]))
        } else {
          try copyMatchedPart(into: file)
        }
      }
    } catch {
      file.discard()
      throw error
    }
    replacement = file
    closeOriginal()
  }

  /// Copies the note's first `count` bytes, which the text matched and
  /// which are gone from memory, to `file`. They are the text's only when
  /// the note did not change since they were compared.
  private func copyMatchedPart(into file: TemporaryNoteFile) throws(FilenoteError) {
    guard let original, let buffer else { preconditionFailure("matched bytes without a note") }
    var offset = 0
    while offset < count {
      let wanted = min(count - offset, buffer.count)
      let read: Int
      do {
        read = try original.read(into: .init(rebasing: buffer[0..<wanted]), at: Int64(offset))
      } catch {
        throw .system(.read, .file(note.path), errno: error)
      }
      guard read > 0 else { throw .noteChangedWhileSaving(path: note.path) }
      try file.write(UnsafeRawBufferPointer(rebasing: buffer[0..<read]))
      offset += read
    }
    guard isOriginalUnchanged else { throw .noteChangedWhileSaving(path: note.path) }
  }

  // MARK: - Input

  /// The checks a save makes of its text as it arrives, once each: valid
  /// UTF-8 (the message says where the first bad byte is), and not empty.
  ///
  /// Past the first MiB, while the save only reads (its text matches the
  /// note so far), each piece is checked on a second thread while the save
  /// compares it (`HelperThread`): there the check costs as much CPU as the
  /// two reads and the compare together. Once the save writes, the check
  /// is made in line again: the writing fills the save's own core and a
  /// pipe's writer the other (bench/README.md, "Measured choices in the
  /// code", for both). A bad piece checked beside is
  /// reported with the next one, before anything is made permanent.
  final class Check {
    private var validator = UTF8Validator()
    private var helper: HelperThread?
    private var hasTriedHelper = false
    private var isOnHelper = false
    private var taken = 0

    /// Whether the next pieces may be checked on the helper thread: while
    /// the save is only reading them (see above).
    var mayCheckBeside = true

    /// How much is checked on this thread before the helper is started:
    /// a short text never pays for a thread.
    static let checkedHereFirst = 1 << 20

    deinit { helper?.end() }

    /// Checks the text's next bytes, or starts checking them on the
    /// helper thread: their memory must then stay as it is until the next
    /// call (of any method).
    func take(_ piece: UnsafeRawBufferPointer) throws(FilenoteError) {
      try waitForHelper()
      taken += piece.count
      if !hasTriedHelper && mayCheckBeside && taken > Self.checkedHereFirst {
        hasTriedHelper = true
        // Without a thread (none to be had), everything is checked here.
        helper = try? HelperThread()
      }
      if let helper, mayCheckBeside {
        isOnHelper = true
        // Beside the compare the check has time to spare, and there the
        // vector loop was slower (bench/README.md, "Measured choices in the code").
        helper.start { [unowned self] in self.validator.consume(piece, usingVectors: false) }
      } else {
        validator.consume(piece)
        try reportInvalid()
      }
    }

    /// Ends the text: a character cut off at its end, or no text at all, is refused.
    func end() throws(FilenoteError) {
      try waitForHelper()
      helper?.end()
      validator.end()
      try reportInvalid()
      guard validator.count > 0 else { throw .emptyInput }
    }

    /// Waits for the helper's piece, whatever happens next (the owner is
    /// about to free its memory).
    func stop() {
      helper?.wait()
      isOnHelper = false
    }

    /// Checks a whole text.
    static func check(_ text: [UInt8]) throws(FilenoteError) {
      let check = Check()
      try text.withUnsafeBytesTyped { bytes throws(FilenoteError) in try check.take(bytes) }
      try check.end()
    }

    private func waitForHelper() throws(FilenoteError) {
      guard isOnHelper else { return }
      stop()
      try reportInvalid()
    }

    private func reportInvalid() throws(FilenoteError) {
      if let offset = validator.firstInvalidOffset { throw .inputNotUTF8(offset: offset) }
    }
  }

  /// Reads `input` to its end and hands `body` the text in pieces (none
  /// empty): every byte but exactly one trailing line ending ("\n" or
  /// "\r\n"), which is left out, as `save` and `edit` take text. Each piece
  /// is first handed to `check`, when there is one (`Check`), which is told
  /// of the end (`Check.end`). Memory stays at two chunks, whatever the
  /// input's size.
  static func read(
    _ input: FileDescriptor, from subject: FilenoteError.Subject, checking check: Check?,
    _ body: (UnsafeRawBufferPointer) throws(FilenoteError) -> Void
  ) throws(FilenoteError) {
    // The last two bytes read are held back until the end shows whether
    // they are that line ending, just before where the next read lands, so
    // that every piece is one run of memory (one write, one compare). Two
    // buffers take turns: one piece is checked on the helper thread while
    // the next is read into the other.
    let hold = 2
    // One allocation for both: one mmap, not two, for a short save.
    let memory = UnsafeMutableRawBufferPointer.allocate(
      byteCount: 2 * (hold + chunkSize), alignment: 16)
    defer { memory.deallocate() }
    let buffers = (
      UnsafeMutableRawBufferPointer(rebasing: memory[0..<(hold + chunkSize)]),
      UnsafeMutableRawBufferPointer(rebasing: memory[(hold + chunkSize)...])
    )
    // Runs first: no piece is still being checked once the buffers go.
    defer { check?.stop() }
    var buffer = buffers.0
    var held = 0  // the bytes at buffer[hold - held ..< hold]
    while true {
      let count: Int
      do {
        count = try input.read(into: .init(rebasing: buffer[hold...]))
      } catch {
        throw .system(.read, subject, errno: error)
      }
      if count == 0 { break }
      let (start, end) = (hold - held, hold + count)
      let keep = min(hold, end - start)
      if end - keep > start {
        let piece = UnsafeRawBufferPointer(rebasing: buffer[start..<(end - keep)])
        try check?.take(piece)
        try body(piece)
      }
      // The other buffer's piece has been checked (`take` waited for it):
      // the bytes held back go just before where the next read lands there.
      let next = buffer.baseAddress == buffers.0.baseAddress ? buffers.1 : buffers.0
      next[hold - 1] = buffer[end - 1]
      if keep == 2 { next[hold - 2] = buffer[end - 2] }
      buffer = next
      held = keep
    }
    var tail = Array(buffer[(hold - held)..<hold])
    tail.removeLast(TrailingLineEnding.length(in: tail))
    if !tail.isEmpty {
      try tail.withUnsafeBytesTyped { bytes throws(FilenoteError) in
        try check?.take(bytes)
        check?.stop()
        try body(bytes)
      }
    }
    try check?.end()
  }
}
