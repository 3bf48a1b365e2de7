import Foundation
import Testing

@testable import CommandLineKit

/// The completion scripts of any command tree: the bash script of a small tree, sourced in a
/// real bash and asked as bash asks (`COMP_WORDS`, `COMP_CWORD`, the function, `COMPREPLY`).
@Suite struct CompletionScriptTests {
  /// A tool with a global option, one command taking a file and an enumerated option, and a
  /// group.
  static let tree = CommandSpec(
    name: "tool", abstract: "A tool.",
    options: [.option("db", valueName: "path", help: "The file.", completion: .file)],
    subcommands: [
      CommandSpec(
        name: "load", abstract: "Load.", arguments: [ArgumentSpec("src", help: "Read this.")],
        options: [
          .option("speed", help: "How fast.", allowedValues: ["slow", "fast"]),
          .flag("quiet", help: "Say nothing."),
        ]),
      CommandSpec(
        name: "store", abstract: "Store.",
        subcommands: [
          CommandSpec(name: "put", abstract: "Put."), CommandSpec(name: "pop", abstract: "Pop."),
        ]),
    ])

  static let hasBash = FileManager.default.isExecutableFile(atPath: "/bin/bash")

  /// What bash offers for the last word of each line.
  func bash(_ queries: [[String]]) throws -> [[String]] {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("commandlinekit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let script = directory.appendingPathComponent("tool.bash")
    try CompletionScript(root: Self.tree).script(for: .bash)
      .write(to: script, atomically: true, encoding: .utf8)
    var program = "source \(CompletionScript.singleQuoted(script.path))\n"
    for words in queries {
      program +=
        "COMP_WORDS=(\(words.map(CompletionScript.singleQuoted).joined(separator: " ")))\n"
      program += "COMP_CWORD=\(words.count - 1); COMPREPLY=(); _tool\n"
      program += "printf '%s\\037' \"${COMPREPLY[@]}\"; printf '\\n'\n"
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", program]
    process.currentDirectoryURL = directory
    process.environment = ["PATH": "/usr/bin:/bin", "LC_ALL": "C"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let lines = String(decoding: data, as: UTF8.self)
      .split(separator: "\n", omittingEmptySubsequences: false)
    return queries.indices.map { index in
      guard index < lines.count else { return ["<missing>"] }
      return lines[index].split(separator: "\u{1F}").map(String.init)
    }
  }

  @Test(.enabled(if: hasBash, "bash is not installed"))
  func bashCompletesTheTreesCommandsOptionsAndValues() throws {
    let queries: [([String], [String])] = [
      (["tool", "l"], ["load"]),
      (["tool", "s"], ["store"]),
      (["tool", "store", "p"], ["put", "pop"]),
      (["tool", "load", "--sp"], ["--speed"]),
      (["tool", "load", "--speed", ""], ["slow", "fast"]),
      (["tool", "load", "--q"], ["--quiet"]),
      (["tool", "load", "x", "--d"], ["--db"]),
      (["tool", "load", "x", "--", "--q"], []),
      (["tool", "he"], ["help"]),
    ]
    let answers = try bash(queries.map(\.0))
    for (query, answer) in zip(queries, answers) {
      #expect(answer == query.1, "\(query.0)")
    }
  }

  @Test func everyShellsScriptNamesTheProgramAndEveryCommand() {
    let script = CompletionScript(root: Self.tree)
    for shell in CompletionShell.allCases {
      let text = script.script(for: shell)
      for word in ["tool", "load", "store", "put", "pop", "speed", "quiet", "slow", "fast", "db"] {
        #expect(text.contains(word), "\(shell): \(word)")
      }
    }
  }
}
