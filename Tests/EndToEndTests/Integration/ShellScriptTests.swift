import Foundation
import Testing

/// `filenote init bash|zsh|fish` (doc/INTEGRATION.md): the scripts load in
/// each shell without rc files and under strict flags, saying nothing, and
/// their prompt segment shows any note as inert text and runs none of it.
@Suite("filenote init")
struct ShellScriptTests {
  /// A note that tries to get something past a prompt, and the line the
  /// prompt segment must show for it.
  struct HostileNote: CustomStringConvertible {
    let name: String
    let bytes: [UInt8]
    /// The segment's text; "" for a note file filenote refuses to show.
    let line: String
    var description: String { name }
  }

  /// The notes of the man page's and doc/INTEGRATION.md's promise; each
  /// one that runs a command would create `marker`.
  static func hostileNotes(marker: String) -> [HostileNote] {
    let plain = [
      ("command substitution", "$(touch \(marker))"),
      ("backticks", "`touch \(marker)`"),
      ("parameter and prompt escapes", "${HOME} $HOME \\u \\w \\$ !! !#"),
      ("zsh prompt sequences", "%F{red}%~%{%}%B%(?.a.b)"),
      ("tmux formats", "#[fg=red]#(touch \(marker))#{pane_id}"),
    ].map { HostileNote(name: $0.0, bytes: Array($0.1.utf8), line: $0.1) }
    return plain + [
      HostileNote(
        name: "a window title sequence", bytes: Array("\u{1B}]0;title\u{07}".utf8),
        line: "\u{241B}]0;title\u{2407}"),
      HostileNote(
        name: "clear screen", bytes: Array("\u{1B}[2J\u{1B}[H".utf8),
        line: "\u{241B}[2J\u{241B}[H"),
      HostileNote(
        name: "two lines", bytes: Array("first\nsecond".utf8), line: "first\u{21B5}second"),
      HostileNote(
        name: "a 1 MiB line", bytes: [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20),
        line: String(repeating: "x", count: 199) + "\u{2026}"),
      HostileNote(
        name: "invalid UTF-8 on disk", bytes: Array("ok".utf8) + [0xFF, 0x1B] + Array("[2J".utf8),
        line: ""),
      HostileNote(
        name: "invalid UTF-8 far into the file", bytes: Array("ok\n".utf8) + [0xFF],
        line: ""),
    ]
  }

  /// The shell command that loads the script of `shell` and prints the
  /// prompt it would draw for `[$(filenote_prompt)]`, by the shell's own
  /// prompt expansion.
  static func promptExpansion(_ shell: String) -> (program: String, arguments: [String]) {
    switch shell {
    case "bash":
      return (
        "bash",
        [
          "--norc", "--noprofile", "-c",
          #"eval "$(filenote init bash)"; PS1='[$(filenote_prompt)]'; printf '%s' "${PS1@P}""#,
        ]
      )
    case "zsh":
      // print -P expands a prompt as zsh draws one, PROMPT_SUBST and all,
      // after the precmd hook zsh runs before each prompt.
      return (
        "zsh",
        [
          "-f", "-c",
          #"eval "$(filenote init zsh)"; setopt prompt_subst prompt_bang; "#
            + #"PROMPT='[${filenote_prompt_line}]'; filenote_precmd; print -rnP -- "$PROMPT""#,
        ]
      )
    default:
      return (
        "fish",
        [
          "--no-config", "-c",
          "filenote init fish | source; "
            + "function fish_prompt; echo -n '['; filenote_prompt; echo -n ']'; end; fish_prompt",
        ]
      )
    }
  }

  @Test("bash --norc --noprofile -euo pipefail loads it and says nothing")
  func bashLoadsStrictly() throws {
    let home = try TemporaryHome()
    let bash = try home.runProgram(
      "bash",
      [
        "--norc", "--noprofile", "-euo", "pipefail", "-c",
        #"eval "$(filenote init bash)"; "#
          + "declare -F filenote_prompt filenote_edit_widget filenote_save_line_widget; "
          + "filenote_prompt",
      ])
    bash.expectSuccess()
    #expect(bash.stdoutText == "filenote_prompt\nfilenote_edit_widget\nfilenote_save_line_widget\n")
  }

  @Test("zsh -f with errexit, nounset and pipefail loads it and says nothing")
  func zshLoadsStrictly() throws {
    let home = try TemporaryHome()
    let zsh = try home.runProgram(
      "zsh",
      [
        "-f", "-e", "-u", "-o", "pipefail", "-c",
        #"eval "$(filenote init zsh)"; "#
          + "whence -w filenote_prompt filenote_edit_widget filenote_save_line_widget; "
          + "filenote_prompt",
      ])
    zsh.expectSuccess()
    #expect(
      zsh.stdoutText
        == "filenote_prompt: function\nfilenote_edit_widget: function\n"
        + "filenote_save_line_widget: function\n")
  }

  @Test("fish --no-config loads it and says nothing")
  func fishLoadsStrictly() throws {
    let home = try TemporaryHome()
    let fish = try home.runProgram(
      "fish",
      [
        "--no-config", "-c",
        "filenote init fish | source; and functions -q filenote_prompt filenote_edit_widget "
          + "filenote_save_line_widget; and echo loaded; filenote_prompt",
      ])
    fish.expectSuccess()
    #expect(fish.stdoutText == "loaded\n")
  }

  @Test("each script is valid code in its shell", arguments: ["bash", "zsh", "fish"])
  func scriptParses(shell: String) throws {
    let home = try TemporaryHome()
    let script = try home.run("init", shell)
    script.expectSuccess()
    let file = home.work + "/init." + shell
    try home.write(script.stdout, to: file)
    let check =
      shell == "fish"
      ? try home.runProgram("fish", ["--no-config", "--no-execute", file])
      : try home.runProgram(shell, ["-n", file])
    check.expectSuccess()
  }

  @Test(
    "the prompt segment shows the note as one line, and nothing without one",
    arguments: ["bash", "zsh", "fish"])
  func segmentShowsTheNote(shell: String) throws {
    let home = try TemporaryHome()
    let (program, arguments) = Self.promptExpansion(shell)
    let empty = try home.runProgram(program, arguments)
    empty.expectSuccess()
    #expect(empty.stdoutText == "[]")
    try home.writeNote("buy milk")
    let prompt = try home.runProgram(program, arguments)
    prompt.expectSuccess()
    #expect(prompt.stdoutText == "[buy milk]")
  }

  @Test("FILENOTE_PROMPT_WIDTH cuts the segment", arguments: ["bash", "zsh", "fish"])
  func segmentWidth(shell: String) throws {
    let home = try TemporaryHome()
    try home.writeNote("call the plumber about the sink")
    let (program, arguments) = Self.promptExpansion(shell)
    let prompt = try home.runProgram(
      program, arguments, environment: ["FILENOTE_PROMPT_WIDTH": "10"])
    prompt.expectSuccess()
    #expect(prompt.stdoutText == "[call the \u{2026}]")
    let wide = try home.runProgram(program, arguments)
    #expect(wide.stdoutText == "[call the plumber about the si\u{2026}]", "30 columns by default")
  }

  @Test(
    "a hostile note is shown as inert text and nothing of it runs",
    arguments: ["bash", "zsh", "fish"])
  func hostileNotesAreInert(shell: String) throws {
    let home = try TemporaryHome()
    let marker = home.work + "/pwned"
    for note in Self.hostileNotes(marker: marker) {
      try home.write(note.bytes, to: home.notePath)
      let (program, arguments) = Self.promptExpansion(shell)
      let prompt = try home.runProgram(
        program, arguments, environment: ["FILENOTE_PROMPT_WIDTH": "200"])
      #expect(prompt.status == 0, "\(note)")
      #expect(prompt.stdoutText == "[" + note.line + "]", "\(note)")
      #expect(
        !prompt.stdout.contains { $0 < 0x20 || $0 == 0x7F }, "\(note): no control byte")
      #expect(!FileManager.default.fileExists(atPath: marker), "\(note) ran a command")
      #expect(prompt.stderrText == "", "\(note): a segment prints no error")
    }
  }

  @Test(
    "a FILENOTE_PROMPT_WIDTH that is not a count of columns: the segment stays quiet, 30 wide",
    arguments: ["bash", "zsh", "fish"])
  func badWidthIsQuiet(shell: String) throws {
    let home = try TemporaryHome()
    try home.writeNote("call the plumber about the sink")
    let (program, arguments) = Self.promptExpansion(shell)
    for width in ["abc", "0", "-5", "", "00", "1.5"] {
      let prompt = try home.runProgram(
        program, arguments, environment: ["FILENOTE_PROMPT_WIDTH": width])
      prompt.expectSuccess()
      #expect(prompt.stderrText == "", "\(width): \(prompt.stderrText)")
      #expect(prompt.stdoutText == "[call the plumber about the si\u{2026}]", "\(width)")
    }
    try home.run("show", "--line", "--width", "abc").expectError(status: 2, mentioning: ["abc"])
  }

  @Test("an unknown or missing shell is a usage error naming the shells")
  func unknownShell() throws {
    let home = try TemporaryHome()
    try home.run("init", "tcsh").expectError(status: 2, mentioning: ["tcsh", "bash, zsh, fish"])
    try home.run("init").expectError(status: 2, mentioning: ["bash, zsh, fish"])
    try home.run("init", "bash", "zsh").expectError(status: 2)
  }
}
