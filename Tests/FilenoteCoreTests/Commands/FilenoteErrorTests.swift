import SystemCalls
import Testing

@testable import FilenoteCore
@testable import TerminalSession

/// Errors are one line, `filenote: <what failed>: <why>`, with the path where
/// a path is involved (README, Errors and exit codes).
@Suite struct FilenoteErrorTests {
  @Test func aSystemFailureSaysWhatWasDoneToWhatAndWhy() {
    let error = FilenoteError.system(
      .createTemporaryFile, .file("/notes"), errno: .readOnlyFileSystem)
    #expect(
      error.message == "cannot save note: cannot create a file in /notes: Read-only file system")
    #expect(
      FilenoteError.system(.write, .standardOutput, errno: .ioError).message
        == "cannot write standard output: Input/output error")
    #expect(
      FilenoteError.system(.read, .terminal, errno: .ioError).message
        == "cannot read the terminal: Input/output error")
  }

  @Test func aDiskFullOfVersionsSaysHowMuchTheyHoldAndHowToFreeIt() {
    let message = FilenoteError.noSpaceWithVersions(
      path: "/stick/note.txt", folder: "/stick/.note.txt.versions", count: 4, size: 800_000
    ).message
    #expect(message.hasPrefix("cannot save /stick/note.txt: No space left on device; "))
    #expect(message.contains("its 4 versions in /stick/.note.txt.versions hold 782 KiB"))
    #expect(message.contains("forget N") && message.contains("clear --all"))
    #expect(!message.contains("FILENOTE_VERSIONS=0"), "a setting for one save removes nothing")
    #expect(
      FilenoteError.noSpaceWithVersions(path: "/n", folder: "/v", count: 1, size: 30 << 20)
        .message.contains("its version in /v hold 30 MiB"))
  }

  @Test func aTerminalFailureSaysWhatFailedAndCarriesItsErrnoToTheMessage() {
    let error = FilenoteError.terminal(.cannotRead(errno: .badFileDescriptor))
    #expect(error.message == "cannot read the terminal: Bad file descriptor")
    #expect(
      FilenoteError.terminal(.cannotChangeSettings(errno: .ioError)).message
        == "cannot change the terminal settings: Input/output error")
    #expect(error.exitCode == .failure)
  }
}

/// No message moves the cursor, sets a title or writes the clipboard: the
/// text the user or the system gave (arguments, paths, environment values)
/// is printed with its control characters as stand-ins, by the one function
/// that prints messages (README, Errors and exit codes).
@Suite struct MessageControlCharacterTests {
  /// Every character a terminal acts on instead of drawing: the C0 controls,
  /// DEL, the C1 controls and the bidirectional controls, and a byte that is
  /// not UTF-8 as a message has it (decoded, U+FFFD).
  static let hostileScalars: [Unicode.Scalar] = {
    let values: [ClosedRange<UInt32>] = [
      0x01...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069,
    ]
    return values.joined().compactMap { Unicode.Scalar($0) }
  }()

  /// A path with each of them, one at a time, between letters, and the
  /// raw bytes, with a byte that is not UTF-8 (0xFF) too.
  static let hostileBytes: [UInt8] = {
    let each: [UInt8] = hostileScalars.flatMap { [UInt8(ascii: "a")] + Array(String($0).utf8) }
    return Array("/x".utf8) + each + [0xFF] + Array("b".utf8)
  }()
  static let hostile = String(decoding: hostileBytes, as: UTF8.self)

  /// Whether a terminal would act on `scalar` rather than draw it.
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
      || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
  }

  /// Every error that names a path, an argument or a value from the
  /// environment, here each time the hostile text.
  static var errorsNamingText: [FilenoteError] {
    let text = hostile
    let errno = Errno.permissionDenied
    return [
      .usage("unknown command '\(text)'"),
      .noNote(path: text, versionsKept: 0), .noNote(path: text, versionsKept: 2),
      .noNoteButConflictCopies(path: text, count: 2), .fileNotUTF8(path: text, offset: 3),
      .noteChangedWhileSaving(path: text), .notARegularFile(path: text),
      .unsafePath(path: text, why: .othersLink(folder: text)),
      .unsafePath(path: text, why: .othersFile(folder: text)),
      .unsafePath(path: text, why: .plantedLock(name: text)),
      .lockTimeout(path: text, seconds: 10), .fileTooLarge(path: text, limit: 65536),
      .settingNotUTF8(name: "XDG_DOCUMENTS_DIR", path: text),
      .system(.save, .file(text), errno: errno),
      .system(.createTemporaryFile, .file(text), errno: errno),
      .editor(.exited(editor: text, status: 1)), .editor(.killed(editor: text, signal: 9)),
      .editor(.cannotRun(editor: text, errno: errno)), .editConflict(keptIn: text),
      .notSaved(because: nil, keptIn: text),
      .notSaved(because: .notARegularFile(path: text), keptIn: text),
      .versionsFolderUnsafe(path: text, reason: .symbolicLink),
      .cannotKeepVersion(path: text, errno: errno), .noVersion(number: 99, kept: 0, note: text),
      .noVersion(number: 0, kept: 1, note: text), .nothingToUndo(path: text),
      .invalidVersionCount(text), .cannotSettle(path: text, errno: errno),
      .copy(.cannotRun(tool: text, errno: errno)), .cannotWatch(path: text, errno: errno),
      .noSpaceWithVersions(path: text, folder: text, count: 2, size: 100),
      .noteNotPrivate(folder: text, permissions: 0o777),
    ]
  }

  /// The usage errors of command lines that name the hostile text where a
  /// command, an option, its value or an argument goes.
  static var usageErrors: [FilenoteError] {
    let lines: [[[UInt8]]] = [
      [hostileBytes], [Array("-".utf8) + hostileBytes], [Array("--".utf8) + hostileBytes],
      [hostileBytes, Array("--help".utf8)],
      [Array("show".utf8), Array("--".utf8) + hostileBytes],
    ]
    return lines.map { line -> FilenoteError in
      do throws(FilenoteError) {
        _ = try Invocation.parse(line)
        return .usage("parsed")
      } catch {
        return error
      }
    }
  }

  @Test(arguments: errorsNamingText + usageErrors)
  func aMessageShowsEveryControlCharacterAsAStandIn(error: FilenoteError) {
    let line = Filenote.reported(error.message)
    let controls = line.unicodeScalars.filter(Self.isControl)
    #expect(controls.isEmpty, "\(controls.map { String($0.value, radix: 16) }): \(line)")
    #expect(line.hasPrefix("filenote: "))
    // Shown, not dropped: ESC as its Control Picture, a bidirectional
    // control as U+FFFD.
    #expect(line.contains("a\u{241B}a") && line.contains("a\u{FFFD}a"), "\(line)")
  }

  @Test func theHostileTextHoldsEveryControlCharacter() {
    let scalars = Set(Self.hostile.unicodeScalars.map(\.value))
    for value in [0x01, 0x1B, 0x1F, 0x7F, 0x80, 0x9B, 0x9F, 0x202E, 0x2066, 0x2069, 0xFFFD] {
      #expect(scalars.contains(UInt32(value)), "U+\(String(value, radix: 16))")
    }
    #expect(!Self.usageErrors.contains(.usage("parsed")))
  }

  @Test func theWordsOfMessagesAndNoticesHoldNoStandIn() {
    // Escaping the whole line escapes only what was given: the words
    // filenote writes itself come through as they are.
    let plain = FilenoteError.noNote(path: "/home/me/Documents/datafile.dat", versionsKept: 0)
    #expect(Filenote.reported(plain.message) == "filenote: " + plain.message)
  }
}
