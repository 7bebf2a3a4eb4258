import SystemCalls

/// A program that puts standard input on the desktop's clipboard, for
/// `filenote copy` where the terminal cannot take the text (or with
/// `--desktop`): `wl-copy` on Wayland, `xclip` or `xsel` on X11.
struct ClipboardTool {
  /// Its name, as messages say it.
  let name: String
  /// Its arguments after the name.
  let arguments: [String]

  static let wlCopy = ClipboardTool(name: "wl-copy", arguments: [])
  static let xclip = ClipboardTool(name: "xclip", arguments: ["-selection", "clipboard", "-in"])
  static let xsel = ClipboardTool(name: "xsel", arguments: ["--clipboard", "--input"])

  /// The tools to try for the display the environment names, in order:
  /// `wl-copy` when `WAYLAND_DISPLAY` is set, then `xclip` and `xsel` when
  /// `DISPLAY` is.
  static func candidates(in environment: Environment) -> [ClipboardTool] {
    var tools: [ClipboardTool] = []
    if !(environment["WAYLAND_DISPLAY"] ?? "").isEmpty { tools.append(.wlCopy) }
    if !(environment["DISPLAY"] ?? "").isEmpty { tools += [.xclip, .xsel] }
    return tools
  }

  /// Runs the tool at `path` with `bytes` on its standard input, and
  /// fails unless it exits 0.
  ///
  /// Its standard output and error go to `/dev/null`: each of these tools
  /// leaves a process of its own behind that serves the clipboard until
  /// another program takes it, and that process would keep a pipe of ours
  /// (or of whoever runs filenote, as `$(filenote copy)` does) open.
  func run(at path: String, input bytes: [UInt8]) throws(FilenoteError) {
    let child: ChildProcess
    let pipe: (readEnd: FileDescriptor, writeEnd: FileDescriptor)
    do {
      pipe = try FileDescriptor.pipe()
    } catch {
      throw .copy(.cannotRun(tool: name, errno: error))
    }
    do {
      child = try ChildProcess.spawn(
        path, arguments: [name] + arguments, standardInput: .descriptor(pipe.readEnd),
        standardOutput: .nullDevice, standardError: .nullDevice)
    } catch {
      pipe.readEnd.close()
      pipe.writeEnd.close()
      throw .copy(.cannotRun(tool: name, errno: error))
    }
    pipe.readEnd.close()
    // A tool that stops reading early (it failed) makes the write fail
    // with EPIPE; its exit status then says what happened.
    try? pipe.writeEnd.writeAll(bytes)
    pipe.writeEnd.close()
    let termination: ChildProcess.Termination
    do {
      termination = try child.wait()
    } catch {
      throw .copy(.cannotRun(tool: name, errno: error))
    }
    guard termination == .exited(0) else {
      throw .copy(.toolFailed(tool: name, termination: termination))
    }
  }
}
