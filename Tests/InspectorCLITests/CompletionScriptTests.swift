import CommandLineKit
import Foundation
import Testing

@testable import InspectorCLI

/// `inspector completions bash|zsh|fish` (README "Set-up"): the bash script is sourced in a
/// real `bash` and asked for the completions of partial command lines, as bash itself asks
/// (`COMP_WORDS`, `COMP_CWORD`, then the function, then `COMPREPLY`); the fish script is asked
/// through `complete -C`; the zsh script is checked for syntax and for registering itself.
@Suite(.tags(.slow, .processes), .skippedInFastSet) struct CompletionScriptTests {
  /// A case directory holding the three generated scripts and some files to complete.
  final class Fixture {
    let cli: CLITestCase
    let directory: URL

    init() throws {
      cli = try CLITestCase()
      directory = cli.directory
      for shell in CompletionShell.allCases {
        let outcome = cli.run("completions", shell.rawValue)
        guard outcome.status == 0 else {
          throw SetupFailure(description: "completions \(shell): \(outcome.standardError)")
        }
        try outcome.standardOutput.write(to: script(shell), atomically: true, encoding: .utf8)
      }
      for file in ["cases.sqlite", "cases-old.sqlite", "notes.txt"] {
        try Data().write(to: directory.appendingPathComponent(file))
      }
      try FileManager.default.createDirectory(
        at: directory.appendingPathComponent("backups"), withIntermediateDirectories: false)
    }

    func script(_ shell: CompletionShell) -> URL {
      directory.appendingPathComponent("completion.\(shell.rawValue)")
    }

    /// Runs a shell program with the given arguments in the fixture's directory.
    func shell(_ executable: String, _ arguments: [String]) throws -> ChildProcess.Result {
      try ChildProcess(
        executable, arguments,
        environment: ["PATH": "/usr/bin:/bin", "HOME": directory.path, "LC_ALL": "C"],
        directory: directory
      ).wait()
    }

    /// What the bash script completes for `words`, whose last word is the one being
    /// completed, one bash process for many queries.
    func bash(_ queries: [[String]]) throws -> [[String]] {
      var program = "source \(CompletionScript.singleQuoted(script(.bash).path))\n"
      for words in queries {
        program +=
          "COMP_WORDS=(\(words.map(CompletionScript.singleQuoted).joined(separator: " ")))\n"
        program += "COMP_CWORD=\(words.count - 1); COMPREPLY=(); _inspector\n"
        program += "printf '%s\\037' \"${COMPREPLY[@]}\"; printf '\\n'\n"
      }
      let result = try shell("/bin/bash", ["-c", program])
      #expect(result.status == 0 && result.standardError.isEmpty, "\(result.standardError)")
      let lines = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
      return queries.indices.map { index in
        guard index < lines.count else { return ["<missing>"] }
        return lines[index].split(separator: "\u{1F}").map(String.init)
      }
    }

    func bash(_ words: String...) throws -> [String] { try bash([words])[0] }

    /// What zsh completes for each of `lines` (typed at a prompt, then Tab), one interactive
    /// zsh in a pseudo-terminal (`zsh/zpty`) for all of them: `compadd` is wrapped to print
    /// every match it is given, and a marker command after each line ends its answer.
    func zsh(_ lines: [String]) throws -> [[String]] {
      let program = #"""
        zmodload zsh/zpty || exit 1
        zpty z zsh -f -i
        zpty -w z 'PROMPT="<<PRO""MPT>>"; autoload -U compinit && compinit -u -d "$HOME/zcompdump" && source "$SCRIPT"'
        zpty -w z 'compadd() { builtin compadd -O __hits "$@"; print -r -- "<<${^__hits[@]}>>"; builtin compadd "$@"; }'
        zpty -w z 'print -r -- "<<REA""DY>>"'
        zpty -r z out '*<<READY>>*'
        # Each line is typed only once the line editor shows its prompt, and a first completion
        # (which loads the completion system's functions) is thrown away: under load, a line
        # typed before the editor was ready came back with no completion at all.
        for query in 'inspector ' "$@"; do
          zpty -r z out '*<<PROMPT>>*' || exit 1
          zpty -w -n z "$query"$'\t'$'\C-u''print -r -- "<<DO""NE>>"'$'\n'
          zpty -r z out '*<<DONE>>*' || exit 1
          [[ $query == 'inspector ' ]] && continue
          hits=(${(f)"$(print -r -- ${out//$'\r'/} | grep -o '<<[^>]*>>' \
            | grep -v -e '^<<DONE>>$' -e '"' | sed 's/^<<//; s/>>$//' | sort -u)"})
          print -r -- "${(pj:\x1f:)hits}"
        done
        zpty -d z
        """#
      let result = try ChildProcess(
        "/usr/bin/zsh", ["-f", "-c", program, "zsh"] + lines,
        environment: [
          "PATH": "/usr/bin:/bin", "HOME": directory.path, "LC_ALL": "C",
          "SCRIPT": script(.zsh).path,
        ],
        directory: directory
      ).wait()
      #expect(result.status == 0 && result.standardError.isEmpty, "\(result.standardError)")
      let answers = result.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
      return lines.indices.map { index in
        guard index < answers.count else { return ["<missing>"] }
        return answers[index].split(separator: "\u{1F}").map(String.init)
      }
    }

    /// What fish's `complete -C` offers for `line`, without descriptions.
    func fish(_ line: String) throws -> [String] {
      let program =
        "source \(CompletionScript.singleQuoted(script(.fish).path)); complete -C $argv[1]"
      let result = try shell("/usr/bin/fish", ["-c", program, line])
      #expect(result.status == 0 && result.standardError.isEmpty, "\(result.standardError)")
      return lines(result.standardOutput).map { String($0.prefix { $0 != "\t" }) }
    }
  }

  static let hasZsh = FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh")
  static let hasFish = FileManager.default.isExecutableFile(atPath: "/usr/bin/fish")

  // MARK: - bash

  /// Partial command lines and exactly what bash offers for their last word.
  @Test(arguments: [
    (["inspector", "li"], ["list"]),
    (["inspector", "animal", "a"], ["add"]),
    (["inspector", "m"], ["migrate", "manual"]),
    (["inspector", "--db", "x.sqlite", "fruit", ""], ["list", "add", "edit", "remove"]),
    (["inspector", "help", "anim"], ["animal"]),
    (["inspector", "rank", "--format", ""], ["table", "json", "ndjson", "csv"]),
    (["inspector", "animal", "add", "--paw", ""], ["small", "medium", "large"]),
    (["inspector", "animal", "add", "--name", "Foxy", "--paw", "l"], ["large"]),
    (["inspector", "incident", "add", "--fruit", "Elstar Apple", "--paw", "l"], ["large"]),
    (["inspector", "incident", "add", "--p"], ["--paw"]),
    (["inspector", "backup", "--verify", ""], ["quick", "full", "none"]),
    (["inspector", "completions", ""], ["bash", "zsh", "fish"]),
    (["inspector", "--format=nd"], ["--format=ndjson"]),
    (["inspector", "list", "--format", "=", "c"], ["csv"]),
    (["inspector", "list", "--format", "="], ["table", "json", "ndjson", "csv"]),
    (["inspector", "show", "crow", "--j"], ["--json"]),
    (["inspector", "--v"], ["--version"]),
    (["inspector", "list", "--v"], []),
    (["inspector", "show", ""], []),
    (["inspector", "suspect", "crow", "-0.5", "--no"], ["--no-color", "--note"]),
    (["inspector", "alibi", "fish", "--", "--c"], []),
    (["inspector", "lsit", ""], []),
    // `--` ends the options: past the last argument, nothing more is offered.
    (["inspector", "backup", "x.sqlite", "--", ""], []),
    (["inspector", "backup", "x.sqlite", "--", "--"], []),
    (["inspector", "list", "--", "--j"], []),
    // `help` takes command words only.
    (["inspector", "help", "animal", ""], ["add", "edit", "remove"]),
    (["inspector", "help", "animal", "add", ""], []),
    (["inspector", "he"], ["help"]),
  ])
  func bashCompletes(_ words: [String], _ expected: [String]) throws {
    let fixture = try Fixture()
    #expect(try fixture.bash([words])[0] == expected, "\(words)")
  }

  @Test func bashCompletesFilePathsOnlyWhereAValueIsAFile() throws {
    let fixture = try Fixture()
    let base = fixture.directory.path + "/"
    let databases = [base + "cases-old.sqlite", base + "cases.sqlite"]
    #expect(try fixture.bash("inspector", "--db", base + "cas").sorted() == databases)
    #expect(try fixture.bash("inspector", "list", "--db", base + "cas").sorted() == databases)
    #expect(
      try fixture.bash("inspector", "--db=" + base + "cas").sorted()
        == databases.map { "--db=" + $0 })
    #expect(try fixture.bash("inspector", "backup", base + "b") == [base + "backups"])
    #expect(try fixture.bash("inspector", "restore", base + "n") == [base + "notes.txt"])
    #expect(try fixture.bash("inspector", "import", base + "n") == [base + "notes.txt"])
    #expect(try fixture.bash("inspector", "import", "--", base + "n") == [base + "notes.txt"])
    #expect(try fixture.bash("inspector", "import", "--", "--") == [])
    // Free text, and a second positional that does not exist, complete no file names.
    #expect(try fixture.bash("inspector", "show", base + "c") == [])
    #expect(try fixture.bash("inspector", "sql", base + "c") == [])
    #expect(try fixture.bash("inspector", "backup", "x.sqlite", base + "c") == [])
  }

  /// Every command and every option of the tree completes, so the script cannot fall behind.
  @Test func bashCompletesEveryCommandAndOptionOfTheTree() throws {
    let fixture = try Fixture()
    var queries: [[String]] = []
    var expected: [(query: [String], word: String)] = []
    func visit(_ command: CommandSpec, path: [String]) {
      for subcommand in command.subcommands {
        let query = ["inspector"] + path + [String(subcommand.name.prefix(2))]
        queries.append(query)
        expected.append((query, subcommand.name))
        visit(subcommand, path: path + [subcommand.name])
      }
      guard !command.isGroup else { return }
      for option in command.options + CommandTree.root.options {
        let query = ["inspector"] + path + ["--" + option.name]
        queries.append(query)
        expected.append((query, "--" + option.name))
        guard !option.allowedValues.isEmpty else { continue }
        let valueQuery = ["inspector"] + path + ["--" + option.name, ""]
        queries.append(valueQuery)
        expected.append((valueQuery, option.allowedValues.joined(separator: " ")))
      }
    }
    visit(CommandTree.root, path: [])
    #expect(queries.count > 60)
    let answers = try fixture.bash(queries)
    for (index, item) in expected.enumerated() {
      let answer = answers[index]
      if item.query.last == "" {
        #expect(answer.joined(separator: " ") == item.word, "\(item.query)")
      } else {
        #expect(answer.contains(item.word), "\(item.query) offered \(answer)")
      }
    }
  }

  @Test func bashRegistersTheFunctionForInspector() throws {
    let fixture = try Fixture()
    let result = try fixture.shell(
      "/bin/bash",
      ["-c", "source \"$1\" && complete -p inspector", "bash", fixture.script(.bash).path])
    #expect(result.status == 0)
    #expect(result.standardOutput == "complete -F _inspector inspector\n")
  }

  // MARK: - zsh and fish

  @Test(.enabled(if: hasZsh, "zsh is not installed (apt-get install zsh): zsh script not checked"))
  func zshScriptParsesAndRegistersItself() throws {
    let fixture = try Fixture()
    let path = fixture.script(.zsh).path
    let syntax = try fixture.shell("/usr/bin/zsh", ["-n", path])
    #expect(syntax.status == 0 && syntax.standardError.isEmpty, "\(syntax.standardError)")
    let program = """
      autoload -U compinit && compinit -u -d "$HOME/zcompdump" && source "$1" \
      && print -r -- "$_comps[inspector]" && whence -w _inspector_animal_add
      """
    let loaded = try fixture.shell("/usr/bin/zsh", ["-f", "-c", program, "zsh", path])
    #expect(loaded.status == 0, "\(loaded.standardError)")
    #expect(loaded.standardOutput == "_inspector\n_inspector_animal_add: function\n")
    // `history` runs itself and has a subcommand: its first word offers `prune`, and `prune`
    // hands the rest of the line to `history prune`'s function.
    let script = try String(contentsOf: URL(fileURLWithPath: path), encoding: .utf8)
    #expect(script.contains("    '::animal:(prune)'"))
    #expect(
      script.contains(
        "      'prune') shift words; (( CURRENT-- )); _inspector_history_prune; return ;;"))
  }

  /// zsh itself completing: file names where a value is a file (`import`'s `<file>` too), and
  /// no options after `--`.
  @Test(.enabled(if: hasZsh, "zsh is not installed (apt-get install zsh): zsh script not checked"))
  func zshCompletesFilesAndNoOptionsAfterDoubleDash() throws {
    let fixture = try Fixture()
    let answers = try fixture.zsh([
      "inspector li", "inspector list --j", "inspector import n", "inspector import -- n",
      "inspector restore n", "inspector backup x.sqlite -- --", "inspector list -- --j",
      "inspector help animal a",
    ])
    #expect(
      answers == [
        ["list"], ["--json"], ["notes.txt"], ["notes.txt"], ["notes.txt"], [], [], ["add"],
      ])
  }

  @Test(
    .enabled(if: hasFish, "fish is not installed (apt-get install fish): fish script not checked"))
  func fishScriptParsesAndCompletes() throws {
    let fixture = try Fixture()
    let syntax = try fixture.shell("/usr/bin/fish", ["-n", fixture.script(.fish).path])
    #expect(syntax.status == 0 && syntax.standardError.isEmpty, "\(syntax.standardError)")
    #expect(try fixture.fish("inspector li") == ["list"])
    #expect(try fixture.fish("inspector animal a") == ["add"])
    #expect(
      try fixture.fish("inspector rank --format ").sorted() == ["csv", "json", "ndjson", "table"])
    #expect(
      try fixture.fish("inspector animal add --paw ").sorted() == ["large", "medium", "small"])
    #expect(try fixture.fish("inspector help ani") == ["animal"])
    #expect(try fixture.fish("inspector show ") == [])
    let base = fixture.directory.path + "/"
    #expect(try fixture.fish("inspector backup \(base)b") == [base + "backups/"])
    #expect(try fixture.fish("inspector --db \(base)n") == [base + "notes.txt"])
    #expect(try fixture.fish("inspector import \(base)n") == [base + "notes.txt"])
    #expect(try fixture.fish("inspector import -- \(base)n") == [base + "notes.txt"])
    #expect(try fixture.fish("inspector backup x.sqlite -- --") == [])
  }
}
