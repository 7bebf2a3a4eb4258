import Dispatch
// Foundation re-exports Glibc: the tests compare termios bits and signal
// dispositions with the C library's own definitions.
import Foundation
import LineEditor
import SystemCalls
import TestSupport
import Testing

@testable import TerminalSession

// Serialized: signal dispositions belong to the whole process, so only one
// terminal at a time may be raw.
@Suite(.serialized) struct TerminalTests {
  @Suite struct Opening {
    @Test func aPipeIsNotATerminal() throws {
      let pipe = try Pipe()
      #expect(throws: TerminalError.notATerminal) {
        try Terminal(fileDescriptor: pipe.readEnd, outputDescriptor: pipe.writeEnd)
      }
    }

    @Test func anOutputThatIsNotATerminalIsRefused() throws {
      let pseudoTerminal = try PseudoTerminal()
      let pipe = try Pipe()
      #expect(throws: TerminalError.notATerminal) {
        try Terminal(fileDescriptor: pseudoTerminal.slave, outputDescriptor: pipe.writeEnd)
      }
    }

    @Test func notATerminalSaysSoInLowercase() {
      #expect(TerminalError.notATerminal.message == "not a terminal")
      #expect(TerminalError.notATerminal.errno == Errno(ENOTTY))
    }

    @Test func systemFailuresSayWhatFailedAndWhy() {
      let error = TerminalError.cannotRead(errno: Errno(EIO))
      #expect(error.message == "cannot read the terminal: Input/output error")
      #expect("\(error)" == error.message)
      #expect(error.errno == Errno(EIO))
    }

    @Test func openingChangesNothing() throws {
      let pseudoTerminal = try PseudoTerminal()
      let before = try pseudoTerminal.settingsBytes()
      _ = try pseudoTerminal.terminal()
      #expect(try pseudoTerminal.settingsBytes() == before)
    }
  }

  @Suite struct RawMode {
    @Test func rawModeTurnsOffLineEditingEchoAndSignalKeys() throws {
      let pseudoTerminal = try PseudoTerminal()
      let terminal = try pseudoTerminal.terminal()
      try terminal.enterRawMode()

      let settings = try pseudoTerminal.settings()
      for flag in [ICANON, ECHO, ECHONL, ISIG, IEXTEN] {
        #expect(settings.c_lflag & tcflag_t(flag) == 0)
      }
      for flag in [ICRNL, INLCR, IGNCR, IXON, ISTRIP, BRKINT, INPCK] {
        #expect(settings.c_iflag & tcflag_t(flag) == 0)
      }
      #expect(settings.c_cflag & tcflag_t(CSIZE) == tcflag_t(CS8))
      withUnsafeBytes(of: settings.c_cc) { characters in
        #expect(characters[Int(VMIN)] == 1)
        #expect(characters[Int(VTIME)] == 0)
      }
    }

    @Test func aNewlineWrittenInRawModeStartsTheNextLine() throws {
      let pseudoTerminal = try PseudoTerminal()
      let terminal = try pseudoTerminal.terminal()
      try terminal.enterRawMode()
      _ = try pseudoTerminal.readOutput(count: TerminalCode.enableBracketedPaste.count)

      try terminal.write(Array("a\nb".utf8))

      #expect(try pseudoTerminal.readOutput(count: 4) == Array("a\r\nb".utf8))
    }

    @Test func enteringRawModeTurnsOnBracketedPaste() throws {
      let pseudoTerminal = try PseudoTerminal()
      let terminal = try pseudoTerminal.terminal()

      try terminal.enterRawMode()

      #expect(try pseudoTerminal.readOutput(count: 8) == Array("\u{1B}[?2004h".utf8))
    }

    @Test func restoreBringsBackTheExactOriginalSettings() throws {
      let pseudoTerminal = try PseudoTerminal()
      // Settings no default would produce, so "restored" cannot mean "reset".
      var unusual = try pseudoTerminal.settings()
      unusual.c_iflag |= tcflag_t(IUTF8 | IXANY)
      unusual.c_lflag &= ~tcflag_t(ECHOCTL)
      withUnsafeMutableBytes(of: &unusual.c_cc) { $0[Int(VERASE)] = 0x08 }
      try pseudoTerminal.apply(unusual)
      let original = try pseudoTerminal.settingsBytes()
      let terminal = try pseudoTerminal.terminal()

      try terminal.enterRawMode()
      #expect(try pseudoTerminal.settingsBytes() != original)
      terminal.restore()

      #expect(try pseudoTerminal.settingsBytes() == original)
    }

    @Test func restoreTurnsOffBracketedPaste() throws {
      let pseudoTerminal = try PseudoTerminal()
      let terminal = try pseudoTerminal.terminal()
      try terminal.enterRawMode()
      _ = try pseudoTerminal.readOutput(count: TerminalCode.enableBracketedPaste.count)

      terminal.restore()

      #expect(try pseudoTerminal.readOutput(count: 8) == Array("\u{1B}[?2004l".utf8))
    }

    @Test func restoringTwiceWritesNothingMoreAndKeepsTheSettings() throws {
      let pseudoTerminal = try PseudoTerminal()
      let original = try pseudoTerminal.settingsBytes()
      let terminal = try pseudoTerminal.terminal()
      try terminal.enterRawMode()
      terminal.restore()
      let written = try pseudoTerminal.readOutput(count: 16)
      #expect(written == Array("\u{1B}[?2004h\u{1B}[?2004l".utf8))

      terminal.restore()

      try terminal.write([0x2E])  // a marker: the next byte out must be it
      #expect(try pseudoTerminal.readOutput(count: 1) == [0x2E])
      #expect(try pseudoTerminal.settingsBytes() == original)
      #expect(!terminal.isRaw)
    }

    @Test func restoreWithoutRawModeWritesNothing() throws {
      let pseudoTerminal = try PseudoTerminal()
      let terminal = try pseudoTerminal.terminal()

      terminal.restore()

      try terminal.write([0x2E])
      #expect(try pseudoTerminal.readOutput(count: 1) == [0x2E])
    }

    @Test func lettingGoOfARawTerminalRestoresIt() throws {
      let pseudoTerminal = try PseudoTerminal()
      let original = try pseudoTerminal.settingsBytes()
      do {
        let terminal = try pseudoTerminal.terminal()
        try terminal.enterRawMode()
        #expect(try pseudoTerminal.settingsBytes() != original)
      }

      #expect(try pseudoTerminal.settingsBytes() == original)
    }

    @Test func keysTypedBeforeRawModeAreKept() throws {
      let pseudoTerminal = try PseudoTerminal()
      let terminal = try pseudoTerminal.terminal()
      try pseudoTerminal.type("abc")

      try terminal.enterRawMode()

      #expect(try terminal.read(timeoutMilliseconds: 5000) == .input(Array("abc".utf8)))
    }
  }

  @Suite struct Size {
    @Test func sizeIsWhatTheTerminalReports() throws {
      let pseudoTerminal = try PseudoTerminal()
      try pseudoTerminal.setWindowSize(rows: 33, columns: 101)
      let terminal = try pseudoTerminal.terminal()

      #expect(terminal.size == (rows: 33, columns: 101))

      try pseudoTerminal.setWindowSize(rows: 5, columns: 20)
      #expect(terminal.size == (rows: 5, columns: 20))
    }

    @Test func anUnknownSizeIsTwentyFourRowsByEightyColumns() throws {
      let pseudoTerminal = try PseudoTerminal()
      try pseudoTerminal.setWindowSize(rows: 0, columns: 0)
      let terminal = try pseudoTerminal.terminal()

      #expect(terminal.size == (rows: 24, columns: 80))
    }
  }

  @Suite struct Reading {
    @Test func bytesTypedArriveAsInput() throws {
      let pseudoTerminal = try PseudoTerminal()
      let terminal = try pseudoTerminal.terminal()
      try terminal.enterRawMode()

      try pseudoTerminal.type("héllo 🙂")

      #expect(try terminal.read(timeoutMilliseconds: 5000) == .input(Array("héllo 🙂".utf8)))
    }

    @Test func enterAndControlKeysArriveAsTheBytesTyped() throws {
      let pseudoTerminal = try PseudoTerminal()
      let terminal = try pseudoTerminal.terminal()
      try terminal.enterRawMode()
      // Enter, Ctrl-C, Ctrl-Z, Ctrl-\, Ctrl-S, Ctrl-Q, Ctrl-D: none of them
      // may be turned into a signal, flow control, end of file or a newline.
      let keys: [UInt8] = [0x0D, 0x03, 0x1A, 0x1C, 0x13, 0x11, 0x04]

      try pseudoTerminal.type(keys)

      #expect(try terminal.read(timeoutMilliseconds: 5000) == .input(keys))
    }

    @Test func nothingTypedIsATimeout() throws {
      let pseudoTerminal = try PseudoTerminal()
      let terminal = try pseudoTerminal.terminal()
      try terminal.enterRawMode()

      #expect(try terminal.read(timeoutMilliseconds: 20) == .timeout)
    }

    @Test func aClosedTerminalIsEndOfFileEveryTime() throws {
      let pseudoTerminal = try PseudoTerminal()
      let terminal = try pseudoTerminal.terminal()
      try terminal.enterRawMode()

      pseudoTerminal.closeMaster()

      #expect(try terminal.read(timeoutMilliseconds: 5000) == .endOfFile)
      #expect(try terminal.read(timeoutMilliseconds: nil) == .endOfFile)
    }
  }

  @Suite struct Writing {
    @Test func writtenBytesReachTheScreen() throws {
      let pseudoTerminal = try PseudoTerminal()
      let terminal = try pseudoTerminal.terminal()

      try terminal.write(Array("héllo".utf8))

      #expect(try pseudoTerminal.readOutput(count: 6) == Array("héllo".utf8))
    }

    @Test func aNonBlockingTerminalStillGetsEveryByte() throws {
      let pseudoTerminal = try PseudoTerminal()
      let terminal = try pseudoTerminal.terminal()
      let flags = fcntl(pseudoTerminal.slave, F_GETFL)
      #expect(fcntl(pseudoTerminal.slave, F_SETFL, flags | O_NONBLOCK) == 0)
      // Far more than a pseudo-terminal buffers, so writes come up short
      // and fail with EAGAIN until the reader catches up.
      let bytes = (0..<1_000_000).map { UInt8(0x41 + $0 % 26) }
      let reader = pseudoTerminal.readOutputInBackground(count: bytes.count)

      try terminal.write(bytes)

      #expect(reader.wait() == bytes)
    }
  }

  @Suite struct Signals {
    @Test func aWindowChangeArrivesAsAnEvent() throws {
      let pseudoTerminal = try PseudoTerminal()
      let terminal = try pseudoTerminal.terminal()
      try terminal.enterRawMode()

      deliver(SIGWINCH)

      #expect(try terminal.read(timeoutMilliseconds: 5000) == .signal(.windowResized))
    }

    @Test func aTerminationSignalArrivesAsAnEvent() throws {
      let pseudoTerminal = try PseudoTerminal()
      let terminal = try pseudoTerminal.terminal()
      try terminal.enterRawMode()

      deliver(SIGTERM)

      let event = try terminal.read(timeoutMilliseconds: 5000)
      #expect(event == .signal(.terminationRequested(signalNumber: SIGTERM)))
    }

    @Test func aBurstOfWindowChangesIsOneEvent() throws {
      let pseudoTerminal = try PseudoTerminal()
      let terminal = try pseudoTerminal.terminal()
      try terminal.enterRawMode()

      deliver(SIGWINCH)
      deliver(SIGWINCH)
      deliver(SIGWINCH)

      #expect(try terminal.read(timeoutMilliseconds: 5000) == .signal(.windowResized))
      #expect(try terminal.read(timeoutMilliseconds: 20) == .timeout)
    }

    @Test func aSignalComesBeforeInputThatArrivedWithIt() throws {
      let pseudoTerminal = try PseudoTerminal()
      let terminal = try pseudoTerminal.terminal()
      try terminal.enterRawMode()
      try pseudoTerminal.type("x")
      deliver(SIGWINCH)

      #expect(try terminal.read(timeoutMilliseconds: 5000) == .signal(.windowResized))
      #expect(try terminal.read(timeoutMilliseconds: 5000) == .input([0x78]))
    }

    @Test func signalsAreCaughtOnlyWhileRaw() throws {
      let pseudoTerminal = try PseudoTerminal()
      let terminal = try pseudoTerminal.terminal()
      let before = TerminalSignal.caughtSignals.map(\.rawValue).map(disposition)

      try terminal.enterRawMode()
      #expect(TerminalSignal.caughtSignals.map(\.rawValue).map(disposition) != before)
      terminal.restore()

      #expect(TerminalSignal.caughtSignals.map(\.rawValue).map(disposition) == before)
    }

    @Test func aSignalCaughtJustBeforeRestoreIsStillDelivered() throws {
      let pseudoTerminal = try PseudoTerminal()
      let terminal = try pseudoTerminal.terminal()
      try terminal.enterRawMode()
      deliver(SIGWINCH)

      terminal.restore()

      #expect(try terminal.read(timeoutMilliseconds: 5000) == .signal(.windowResized))
    }

    @Test func aSignalIgnoredAtTheStartStaysIgnored() throws {
      let pseudoTerminal = try PseudoTerminal()
      let terminal = try pseudoTerminal.terminal()
      // As nohup leaves it.
      let previous = signal(SIGHUP, SIG_IGN)
      defer { signal(SIGHUP, previous) }
      let ignored = disposition(of: SIGHUP)

      try terminal.enterRawMode()

      #expect(disposition(of: SIGHUP) == ignored)
      deliver(SIGHUP)
      #expect(try terminal.read(timeoutMilliseconds: 20) == .timeout)
    }

    @Test func onlyOneTerminalAtATimeCanBeRaw() throws {
      let first = try PseudoTerminal()
      let second = try PseudoTerminal()
      let firstTerminal = try first.terminal()
      let secondTerminal = try second.terminal()
      try firstTerminal.enterRawMode()
      let original = try second.settingsBytes()

      #expect(throws: TerminalError.cannotCatchSignals(errno: Errno(EBUSY))) {
        try secondTerminal.enterRawMode()
      }
      #expect(try second.settingsBytes() == original)
    }
  }
}

/// Delivers `signal` to this thread before returning, so the test knows it
/// has been handled. The threads tests run on block most signals (a signal
/// sent to the process goes to some other thread, some time later), so it is
/// unblocked around `raise`.
private func deliver(_ signal: Int32) {
  var unblocked = sigset_t()
  sigemptyset(&unblocked)
  sigaddset(&unblocked, signal)
  var previous = sigset_t()
  pthread_sigmask(SIG_UNBLOCK, &unblocked, &previous)
  raise(signal)
  pthread_sigmask(SIG_SETMASK, &previous, nil)
}

/// The handler and flags of `signal` as raw bytes, to compare dispositions.
private func disposition(of signal: Int32) -> [UInt8] {
  var action = sigaction()
  sigaction(signal, nil, &action)
  return withUnsafeBytes(of: action.__sigaction_handler) { Array($0) }
    + withUnsafeBytes(of: action.sa_flags) { Array($0) }
}

/// A pipe whose ends are closed with it.
private final class Pipe {
  let readEnd: Int32
  let writeEnd: Int32

  init() throws {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { throw SystemCallFailed(call: "pipe", errno: errno) }
    readEnd = ends[0]
    writeEnd = ends[1]
  }

  deinit {
    close(readEnd)
    close(writeEnd)
  }
}

extension PseudoTerminal {
  /// The code under test's terminal: keys and drawing both on `slave`.
  func terminal() throws -> Terminal {
    try Terminal(fileDescriptor: slave, outputDescriptor: slave)
  }
}
