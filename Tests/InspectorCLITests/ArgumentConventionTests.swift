import CommandLineKit
import Foundation
import Testing

@testable import InspectorCLI

/// The argument conventions users know from swift-argument-parser tools and git, run through
/// `inspector` itself: a mistyped command gets the nearest one at every level, a group without
/// a subcommand is a usage error that shows the group's help, and a number too large for its
/// option says so. Every one exits 64 with stdout empty.
@Suite struct ArgumentConventionTests {
  /// A mistyped command line and the suggestion its first stderr line must end with.
  @Test(arguments: [
    (["lsit"], "Unknown command 'lsit'. Did you mean 'list'?"),
    (["animal", "ad"], "Unknown command 'ad'. Did you mean 'add'?"),
    (["animal", "rmeove", "crow"], "Unknown command 'rmeove'. Did you mean 'remove'?"),
    (["incidnet", "list"], "Unknown command 'incidnet'. Did you mean 'incident'?"),
    (["migrate", "stauts"], "Unknown command 'stauts'. Did you mean 'status'?"),
    (["--json", "fruit", "lits"], "Unknown command 'lits'. Did you mean 'list'?"),
    (["favorite", "remvoe"], "Unknown command 'remvoe'. Did you mean 'remove'?"),
    (["completoins", "bash"], "Unknown command 'completoins'. Did you mean 'completions'?"),
    (["list", "--jsno"], "Unknown option '--jsno'. Did you mean '--json'?"),
  ])
  func aMistypedCommandSuggestsTheNearest(_ arguments: [String], _ message: String) throws {
    let cli = try CLITestCase(seeded: true)
    let outcome = cli.run(arguments)
    #expect(outcome.status == 64)
    #expect(outcome.standardOutput == "")
    #expect(lines(outcome.standardError).first == "inspector: error: \(message)")
  }

  @Test(arguments: [
    (["animal"], "add, edit or remove"), (["fruit"], "list, add, edit or remove"),
    (["favorite"], "add, move or remove"), (["incident"], "add, edit, remove, list or show"),
    (["migrate"], "status or up"), (["changes"], "export, show or apply"),
  ])
  func aGroupWithoutASubcommandShowsItsHelpOnStderr(_ arguments: [String], _ names: String)
    throws
  {
    let cli = try CLITestCase()
    let outcome = cli.run(arguments + ["--json"])
    #expect(outcome.status == 64)
    #expect(outcome.standardOutput == "")
    let path = arguments.joined(separator: " ")
    let parser = ArgumentParser(root: CommandTree.root)
    #expect(
      outcome.standardError
        == "inspector: error: 'inspector \(path)' needs a subcommand (\(names))\n\n"
        + parser.helpText(for: arguments) + "\n")
    // Asked for, the same help is no error: stdout, exit 0.
    let help = cli.run(arguments + ["--help"])
    #expect(help.status == 0 && help.standardError == "")
    #expect(help.standardOutput == parser.helpText(for: arguments) + "\n")
  }

  /// `help` is built in as in swift-argument-parser: `help X` is `X --help`, and `help --help`
  /// is the help of `help` itself, on stdout with exit 0.
  @Test func theHelpCommandHasHelpOfItsOwn() throws {
    let cli = try CLITestCase()
    let expected = """
      OVERVIEW: Show subcommand help information.

      USAGE: inspector help [<subcommands> ...]

      ARGUMENTS:
        <subcommands> ...       The command to show the help of, such as 'animal add'.

      OPTIONS:
        -h, --help              Show help information.

      """
    for arguments in [["help", "--help"], ["help", "-h"], ["help", "help"]] {
      let outcome = cli.run(arguments)
      #expect(outcome.status == 0 && outcome.standardError == "", "\(arguments)")
      #expect(outcome.standardOutput == expected, "\(arguments)")
    }
    #expect(cli.succeed("help", "list") == cli.succeed("list", "--help"))
    #expect(cli.succeed("help", "animal", "add") == cli.succeed("animal", "add", "--help"))
    #expect(cli.succeed("help") == cli.succeed("--help"))
    #expect(
      cli.succeed("help").contains(
        "\n  help                    Show subcommand help information.\n\n"
          + "  See 'inspector help <subcommand>' for detailed help.\n"))
    let unknown = cli.run("help", "nosuch")
    #expect(unknown.status == 64 && unknown.standardOutput == "")
    #expect(lines(unknown.standardError).first == "inspector: error: Unknown command 'nosuch'")
  }

  @Test func theProgramAloneShowsItsHelpOnStdout() throws {
    let cli = try CLITestCase()
    let outcome = cli.run([])
    #expect(outcome.status == 0 && outcome.standardError == "")
    #expect(outcome.standardOutput.hasPrefix("OVERVIEW: The Fruit Inspectors' case database"))
  }

  /// A whole number beyond what the option can hold, and one the option refuses for another
  /// reason, each with the reason that fits.
  @Test(arguments: [
    (
      ["rank", "--limit", "99999999999999999999"],
      "'--limit <n>': too large, at most 9223372036854775807"
    ),
    (
      ["rank", "--limit", "+9223372036854775808"],
      "'--limit <n>': too large, at most 9223372036854775807"
    ),
    (["rank", "--limit", "0"], "'--limit <n>': expected a whole number, 1 or more"),
    (
      ["rank", "--limit", "-99999999999999999999"],
      "'--limit <n>': expected a whole number, 1 or more"
    ),
    (["rank", "--limit", "1e3"], "'--limit <n>': expected a whole number, 1 or more"),
    (
      ["list", "--busy-timeout", "18446744073709551616"],
      "'--busy-timeout <ms>': too large, at most 9223372036854775807"
    ),
    (
      ["migrate", "up", "--to", "99999999999999999999"],
      "'--to <version>': too large, at most 9223372036854775807"
    ),
  ])
  func aNumberTooLargeForItsOptionSaysSo(_ arguments: [String], _ ending: String) throws {
    let cli = try CLITestCase(seeded: true)
    let before = cli.snapshot()
    let outcome = cli.run(arguments)
    #expect(outcome.status == 64)
    #expect(outcome.standardOutput == "")
    let first = try #require(lines(outcome.standardError).first)
    #expect(first.hasPrefix("inspector: error: The value '"), "\(first)")
    #expect(first.hasSuffix(ending), "\(first)")
    #expect(cli.snapshot() == before)
  }

  /// The built binary, as a shell runs it: status and both streams.
  @Test func theBuiltBinaryFollowsTheConventions() throws {
    let sandbox = try ProcessSandbox(seeded: false)
    let group = try sandbox.run("incident")
    #expect(group.status == 64 && group.standardOutput == "")
    #expect(
      lines(group.standardError).first
        == "inspector: error: 'inspector incident' needs a subcommand"
        + " (add, edit, remove, list or show)")
    #expect(group.standardError.contains("\nSUBCOMMANDS:\n"))
    let typo = try sandbox.run("lsit")
    #expect(typo.status == 64 && typo.standardOutput == "")
    #expect(
      lines(typo.standardError).first
        == "inspector: error: Unknown command 'lsit'. Did you mean 'list'?")
  }
}

/// One rule for an option given twice (docs/command-line.md, "Options given twice"): a
/// single-valued option is refused (64), whichever command or global option it is; a repeatable
/// one keeps every value; a flag given twice is the same as once.
@Suite struct RepeatedOptionTests {
  let parser = ArgumentParser(root: CommandTree.root)

  /// Every single-valued option of every command of the real tree, own and global, given twice.
  @Test func everySingleValuedOptionGivenTwiceIsRefused() throws {
    var checked = 0
    for path in CommandTreeChecker.leafPaths(of: CommandTree.root) {
      let command = try #require(parser.command(at: path))
      for option in command.options + CommandTree.root.options where option.kind == .value {
        let first = option.allowedValues.first ?? "a"
        let second = option.allowedValues.last ?? "b"
        let line = path + ["--\(option.name)", first, "--\(option.name)=\(second)"]
        do {
          let outcome = try parser.parse(line)
          Issue.record("\(line) was taken: \(outcome)")
        } catch {
          #expect(error.kind == .repeatedOption, "\(line)")
          #expect(
            error.message
              == "The option '\(option.synopsis)' may be given only once, but was given"
              + " '\(first)' and '\(second)'")
        }
        checked += 1
      }
    }
    #expect(checked > 60)
  }

  @Test func repeatableOptionsAndFlagsMayBeGivenTwice() throws {
    let add = try parser.parse(
      [
        "animal", "add", "--name", "Foxy", "--species", "Fox", "--paw", "small", "--fruit", "Fig",
        "--fruit", "Kiwi", "--json", "--json",
      ])
    guard case .run(let parsed) = add else {
      Issue.record("\(add)")
      return
    }
    #expect(parsed.options("fruit") == ["Fig", "Kiwi"])
    #expect(parsed.flag("json"))
    let sql = try parser.parse(["sql", "SELECT :a, :b", "--param", "a=1", "--param", "b=2"])
    guard case .run(let query) = sql else {
      Issue.record("\(sql)")
      return
    }
    #expect(query.options("param") == ["a=1", "b=2"])
  }

  /// Through `inspector` itself: one error line, the usage line, exit 64, nothing changed.
  @Test(arguments: [
    (
      ["animal", "add", "--name", "Foxy", "--species", "Fox", "--paw", "small", "--name", "Vix"],
      "The option '--name <name>' may be given only once, but was given 'Foxy' and 'Vix'",
      "animal add"
    ),
    (
      ["--db", "a.sqlite", "list", "--db", "b.sqlite"],
      "The option '--db <path>' may be given only once, but was given 'a.sqlite' and 'b.sqlite'",
      "list"
    ),
    (
      ["suspect", "crow", "0.9", "--note", "first", "--note=second"],
      "The option '--note <text>' may be given only once, but was given 'first' and 'second'",
      "suspect"
    ),
  ])
  func aRepeatedOptionIsAUsageError(arguments: [String], message: String, command: String)
    throws
  {
    let cli = try CLITestCase(seeded: true)
    let before = cli.snapshot()
    let outcome = cli.run(arguments)
    #expect(outcome.status == 64)
    #expect(outcome.standardOutput == "")
    let errorLines = lines(outcome.standardError)
    #expect(errorLines.first == "inspector: error: \(message)")
    #expect(errorLines.last == "See 'inspector \(command) --help'.")
    #expect(cli.snapshot() == before)
    #expect(!cli.fileExists(cli.directory.appendingPathComponent("a.sqlite").path))
  }
}
