import Testing

@testable import CommandLineKit

/// A slice of the real command tree (README "A short tour").
private let inspector = CommandSpec(
  name: "inspector",
  abstract: "Keep the Fruit Inspectors' case database.",
  options: [
    .option("db", valueName: "path", help: "The case database."),
    .option("format", help: "Output format.", allowedValues: ["table", "json", "csv"]),
    .flag("json", help: "Short for --format json."),
    .flag("no-color", help: "Never colour the output."),
    .option("busy-timeout", valueName: "ms", help: "How long a write waits for a lock."),
  ],
  subcommands: [
    CommandSpec(name: "list", abstract: "Show the suspect table."),
    CommandSpec(
      name: "show", abstract: "Show one suspect.",
      arguments: [ArgumentSpec("animal", help: "Species, name or id.")]),
    CommandSpec(
      name: "animal", abstract: "Add, edit and remove suspects.",
      subcommands: [
        CommandSpec(
          name: "add", abstract: "Add a suspect.",
          options: [
            .option("name", short: "n", help: "The suspect's name.", isRequired: true),
            .option("species", help: "The species, unique.", isRequired: true),
            .option(
              "paw", help: "Paw size.", isRequired: true,
              allowedValues: ["small", "medium", "large"]),
            .option("emoji", help: "One emoji."),
            .repeatingOption("fruit", help: "A favourite fruit, in order."),
          ]),
        CommandSpec(
          name: "remove", abstract: "Remove a suspect.",
          arguments: [ArgumentSpec("animal", help: "Species, name or id.")]),
      ]),
    CommandSpec(
      name: "alibi", abstract: "Set, clear or print an alibi.",
      arguments: [
        ArgumentSpec("animal", help: "Species, name or id."),
        ArgumentSpec("text", help: "The alibi.", isOptional: true, isRepeating: true),
      ],
      options: [.flag("clear", help: "Remove the alibi.")]),
    CommandSpec(
      name: "suspect", abstract: "Set the suspicion level.",
      arguments: [
        ArgumentSpec("animal", help: "Species, name or id."),
        ArgumentSpec("level", help: "A number in [0, 1]."),
      ]),
    CommandSpec(
      name: "incident", abstract: "Record and list bulletins.",
      subcommands: [
        CommandSpec(
          name: "add", abstract: "Record a bulletin.",
          options: [
            .option("fruit", help: "The nibbled fruit.", isRequired: true),
            .option("lat", valueName: "degrees", help: "Latitude."),
            .option("lon", valueName: "degrees", help: "Longitude."),
          ])
      ]),
  ],
  version: "inspector 0.1.0 (SQLite 3.45.1)"
)

private let parser = ArgumentParser(root: inspector)

/// One successful parse: the command line and what must come out.
struct ParseCase: Sendable, CustomTestStringConvertible {
  var arguments: [String]
  var path: [String]
  var options: [String: [String]] = [:]
  var flags: Set<String> = []
  var positionals: [String] = []
  var testDescription: String { arguments.joined(separator: " ") }
}

/// One usage error: the command line and the exact message.
struct ErrorCase: Sendable, CustomTestStringConvertible {
  var arguments: [String]
  var message: String
  var path: [String]
  var testDescription: String { arguments.joined(separator: " ") }
}

@Suite("Argument parser")
struct ArgumentParserTests {
  @Test(
    "command lines that parse",
    arguments: [
      ParseCase(arguments: ["list"], path: ["list"]),
      ParseCase(
        arguments: ["--db", "x.sqlite", "list", "--json"], path: ["list"],
        options: ["db": ["x.sqlite"]], flags: ["json"]),
      ParseCase(
        arguments: ["list", "--json", "--db", "x.sqlite"], path: ["list"],
        options: ["db": ["x.sqlite"]], flags: ["json"]),
      ParseCase(
        arguments: ["list", "--db=a", "--format=csv", "--no-color", "--no-color"], path: ["list"],
        options: ["db": ["a"], "format": ["csv"]], flags: ["no-color"]),
      ParseCase(arguments: ["show", "Crow"], path: ["show"], positionals: ["Crow"]),
      ParseCase(
        arguments: [
          "animal", "add", "--name", "Catie", "--species", "Crow", "--paw=small",
          "--emoji", "🐦‍⬛", "--fruit", "Pink Pearl Apple", "--fruit", "Golden Nectar Plum",
        ],
        path: ["animal", "add"],
        options: [
          "name": ["Catie"], "species": ["Crow"], "paw": ["small"], "emoji": ["🐦‍⬛"],
          "fruit": ["Pink Pearl Apple", "Golden Nectar Plum"],
        ]),
      ParseCase(
        arguments: ["alibi", "fish", "--", "--weird", "text", "--json"], path: ["alibi"],
        positionals: ["fish", "--weird", "text", "--json"]),
      ParseCase(arguments: ["alibi", "fish", "-"], path: ["alibi"], positionals: ["fish", "-"]),
      ParseCase(
        arguments: ["alibi", "--clear", "Dove"], path: ["alibi"], flags: ["clear"],
        positionals: ["Dove"]),
      ParseCase(
        arguments: ["suspect", "Crow", "-0.5"], path: ["suspect"], positionals: ["Crow", "-0.5"]),
      ParseCase(
        arguments: ["suspect", "Crow", "-.5"], path: ["suspect"], positionals: ["Crow", "-.5"]),
      ParseCase(
        arguments: [
          "incident", "add", "--fruit", "Pink Pearl Apple", "--lat", "37.334371", "--lon",
          "-122.009558",
        ],
        path: ["incident", "add"],
        options: ["fruit": ["Pink Pearl Apple"], "lat": ["37.334371"], "lon": ["-122.009558"]]),
      ParseCase(
        arguments: ["incident", "add", "--fruit=", "--lon=-1"], path: ["incident", "add"],
        options: ["fruit": [""], "lon": ["-1"]]),
      ParseCase(
        arguments: ["--busy-timeout", "100", "show", "--", "-h"], path: ["show"],
        options: ["busy-timeout": ["100"]], positionals: ["-h"]),
    ])
  func parses(_ testCase: ParseCase) throws {
    let outcome = try parser.parse(testCase.arguments)
    guard case .run(let parsed) = outcome else {
      Issue.record("expected a command to run, got \(outcome)")
      return
    }
    #expect(parsed.commandPath == testCase.path)
    #expect(parsed.optionValues == testCase.options)
    #expect(parsed.flags == testCase.flags)
    #expect(parsed.positionals == testCase.positionals)
  }

  @Test("a single-valued option given twice, under its short and long name, is refused")
  func repeatedShortAndLongName() {
    #expect {
      _ = try parser.parse(["animal", "add", "-n", "Catie", "--species", "Crow", "--name", "Cat"])
    } throws: { error in
      (error as? UsageError)?.kind == .repeatedOption
        && (error as? UsageError)?.message
          == "The option '--name <name>' may be given only once, but was given 'Catie' and 'Cat'"
    }
  }

  @Test("accessors read single, repeated, flag and named positional values")
  func accessors() throws {
    let outcome = try parser.parse([
      "animal", "add", "-n", "Rénard", "--species", "Raccoon",
      "--paw", "medium", "--fruit", "Christmas Berry", "--fruit", "Kaki Fuyu Persimmon", "--json",
    ])
    guard case .run(let parsed) = outcome else {
      Issue.record("expected a command to run, got \(outcome)")
      return
    }
    #expect(parsed.option("name") == "Rénard")
    #expect(parsed.option("emoji") == nil)
    #expect(parsed.options("fruit") == ["Christmas Berry", "Kaki Fuyu Persimmon"])
    #expect(parsed.options("emoji") == [])
    #expect(parsed.flag("json"))
    #expect(!parsed.flag("no-color"))

    guard case .run(let alibi) = try parser.parse(["alibi", "Fish", "in", "the", "pond"]) else {
      Issue.record("expected alibi to run")
      return
    }
    #expect(alibi.argument("animal") == "Fish")
    #expect(alibi.arguments("text") == ["in", "the", "pond"])
    guard case .run(let bare) = try parser.parse(["alibi", "Fish"]) else {
      Issue.record("expected alibi to run")
      return
    }
    #expect(bare.argument("text") == nil)
    #expect(bare.arguments("text") == [])
  }

  @Test(
    "usage errors read like swift-argument-parser's",
    arguments: [
      ErrorCase(arguments: ["list", "--foo"], message: "Unknown option '--foo'", path: ["list"]),
      ErrorCase(arguments: ["--foo", "list"], message: "Unknown option '--foo'", path: []),
      ErrorCase(arguments: ["list", "-x"], message: "Unknown option '-x'", path: ["list"]),
      ErrorCase(
        arguments: ["list", "--jsn"], message: "Unknown option '--jsn'. Did you mean '--json'?",
        path: ["list"]),
      ErrorCase(
        arguments: ["show", "--clear", "Crow"], message: "Unknown option '--clear'", path: ["show"]),
      ErrorCase(
        arguments: ["show"], message: "Missing expected argument '<animal>'", path: ["show"]),
      ErrorCase(
        arguments: ["suspect", "Crow"], message: "Missing expected argument '<level>'",
        path: ["suspect"]),
      ErrorCase(
        arguments: ["animal", "add", "--name"], message: "Missing value for '--name <name>'",
        path: ["animal", "add"]),
      ErrorCase(
        arguments: ["animal", "add", "--name", "--json"],
        message: "Missing value for '--name <name>'",
        path: ["animal", "add"]),
      ErrorCase(
        arguments: ["animal", "add", "--name", "Catie", "--species", "Crow"],
        message: "Missing expected argument '--paw <paw>'", path: ["animal", "add"]),
      ErrorCase(
        arguments: ["animal", "add", "--paw", "huge"],
        message:
          "The value 'huge' is invalid for '--paw <paw>'. "
          + "Please provide one of 'small', 'medium' or 'large'.",
        path: ["animal", "add"]),
      ErrorCase(
        arguments: ["list", "--format", "yaml"],
        message:
          "The value 'yaml' is invalid for '--format <format>'. "
          + "Please provide one of 'table', 'json' or 'csv'.",
        path: ["list"]),
      ErrorCase(
        arguments: ["list", "--json=yes"],
        message: "The option '--json' does not take any value, but 'yes' was specified.",
        path: ["list"]),
      ErrorCase(
        arguments: ["show", "Crow", "x"], message: "Unexpected argument 'x'", path: ["show"]),
      ErrorCase(
        arguments: ["list", "a", "b"], message: "2 unexpected arguments: 'a', 'b'", path: ["list"]),
      ErrorCase(arguments: ["frobnicate"], message: "Unknown command 'frobnicate'", path: []),
      ErrorCase(
        arguments: ["lst"], message: "Unknown command 'lst'. Did you mean 'list'?", path: []),
      ErrorCase(arguments: ["animal", "eat"], message: "Unknown command 'eat'", path: ["animal"]),
      ErrorCase(
        arguments: ["lsit"], message: "Unknown command 'lsit'. Did you mean 'list'?", path: []),
      ErrorCase(
        arguments: ["animal", "rmeove", "crow"],
        message: "Unknown command 'rmeove'. Did you mean 'remove'?", path: ["animal"]),
      ErrorCase(
        arguments: ["list", "--jsno"], message: "Unknown option '--jsno'. Did you mean '--json'?",
        path: ["list"]),
      ErrorCase(
        arguments: ["list", "--version"], message: "Unknown option '--version'", path: ["list"]),
    ])
  func usageErrors(_ testCase: ErrorCase) {
    #expect {
      _ = try parser.parse(testCase.arguments)
    } throws: { error in
      guard let error = error as? UsageError else { return false }
      return error.message == testCase.message && error.commandPath == testCase.path
    }
  }

  @Test("a usage error renders as the error line, the usage line and the help hint")
  func renderedError() {
    do {
      _ = try parser.parse(["show"])
      Issue.record("expected a usage error")
    } catch {
      #expect(
        error.rendered == """
          inspector: error: Missing expected argument '<animal>'
          Usage: inspector show <animal> [--db <path>] [--format <format>] [--json] \
          [--no-color] [--busy-timeout <ms>]
          See 'inspector show --help'.
          """)
    }
  }

  @Test("errors made after parsing carry the command's usage")
  func laterErrors() {
    let error = parser.invalidValue("abc", for: "lat", commandPath: ["incident", "add"])
    #expect(error.message == "The value 'abc' is invalid for '--lat <degrees>'")
    #expect(
      parser.invalidValue("2", for: "level", commandPath: ["suspect"], reason: "not in [0, 1]")
        .message
        == "The value '2' is invalid for '<level>': not in [0, 1]")
    #expect(error.rendered.hasSuffix("\nSee 'inspector incident add --help'."))
  }

  @Test("help text of a leaf command")
  func leafHelp() throws {
    let expected = """
      OVERVIEW: Add a suspect.

      USAGE: inspector animal add --name <name> --species <species> --paw <paw>
             [--emoji <emoji>] [--fruit <fruit> ...] [--db <path>] [--format <format>]
             [--json] [--no-color] [--busy-timeout <ms>]

      OPTIONS:
        -n, --name <name>       The suspect's name.
        --species <species>     The species, unique.
        --paw <paw>             Paw size. (values: small, medium, large)
        --emoji <emoji>         One emoji.
        --fruit <fruit>         A favourite fruit, in order.
        --db <path>             The case database.
        --format <format>       Output format. (values: table, json, csv)
        --json                  Short for --format json.
        --no-color              Never colour the output.
        --busy-timeout <ms>     How long a write waits for a lock.
        -h, --help              Show help information.
      """
    #expect(parser.helpText(for: ["animal", "add"]) == expected)
    #expect(
      try parser.parse(["animal", "add", "--help"])
        == .help(commandPath: ["animal", "add"], text: expected))
  }

  @Test("help text of a command with arguments")
  func argumentsHelp() {
    let help = parser.helpText(for: ["alibi"])
    #expect(
      help.hasPrefix(
        """
        OVERVIEW: Set, clear or print an alibi.

        USAGE: inspector alibi <animal> [<text> ...] [--clear] [--db <path>]
        """))
    #expect(
      help.contains(
        """
        ARGUMENTS:
          <animal>                Species, name or id.
          <text> ...              The alibi.

        OPTIONS:
          --clear                 Remove the alibi.
        """))
  }

  @Test("help text of a group, and of the root")
  func groupHelp() {
    #expect(
      parser.helpText(for: ["animal"]) == """
        OVERVIEW: Add, edit and remove suspects.

        USAGE: inspector animal <subcommand>

        OPTIONS:
          --db <path>             The case database.
          --format <format>       Output format. (values: table, json, csv)
          --json                  Short for --format json.
          --no-color              Never colour the output.
          --busy-timeout <ms>     How long a write waits for a lock.
          -h, --help              Show help information.

        SUBCOMMANDS:
          add                     Add a suspect.
          remove                  Remove a suspect.

          See 'inspector help animal <subcommand>' for detailed help.
        """)
    let root = parser.helpText(for: [])
    #expect(
      root.hasPrefix(
        "OVERVIEW: Keep the Fruit Inspectors' case database.\n\nUSAGE: inspector <subcommand>\n"))
    #expect(
      root.contains(
        "\n  --version               Show the version.\n"
          + "  -h, --help              Show help information.\n"
      ))
    #expect(root.contains("\n  incident                Record and list bulletins.\n"))
  }

  @Test(
    "help is requested by -h, --help anywhere, or the help command, for the deepest command named",
    arguments: [
      (["--help"], [String]()),
      (["-h"], []),
      ([], []),
      (["help"], []),
      (["help", "animal", "add"], ["animal", "add"]),
      (["animal", "-h"], ["animal"]),
      (["help", "animal"], ["animal"]),
      (["--help", "animal", "add"], ["animal", "add"]),
      (["animal", "add", "--bogus", "-h"], ["animal", "add"]),
      (["show", "-h"], ["show"]),
      (["--db", "x", "incident", "--help", "add"], ["incident", "add"]),
      (["--version", "--help"], []),
      (["help", "--help"], ["help"]),
      (["help", "-h"], ["help"]),
      (["--help", "help"], ["help"]),
      (["help", "help"], ["help"]),
      (["help", "animal", "--help"], ["animal"]),
      (["help", "--db", "x", "animal", "add"], ["animal", "add"]),
    ])
  func helpRequests(arguments: [String], path: [String]) throws {
    let outcome = try parser.parse(arguments)
    #expect(outcome == .help(commandPath: path, text: parser.helpText(for: path)))
  }

  @Test("a group without a subcommand is a usage error that shows the group's help")
  func groupWithoutSubcommand() throws {
    let expected =
      "inspector: error: 'inspector animal' needs a subcommand (add or remove)\n\n"
      + parser.helpText(for: ["animal"])
    #expect(
      try parser.parse(["animal"]) == .missingSubcommand(commandPath: ["animal"], text: expected))
    #expect(
      try parser.parse(["--db", "x", "animal", "--json"])
        == .missingSubcommand(commandPath: ["animal"], text: expected))
    // The root alone is not an error: it shows its help.
    #expect(try parser.parse([]) == .help(commandPath: [], text: parser.helpText(for: [])))
  }

  @Test(
    "edit distance counts two swapped neighbours as one edit",
    arguments: [
      ("lsit", "list", 1), ("list", "list", 0), ("lst", "list", 1), ("ca", "abc", 3),
      ("kitten", "sitting", 3), ("", "add", 3), ("incidnet", "incident", 1), ("ab", "ba", 1),
    ])
  func editDistance(_ a: String, _ b: String, _ distance: Int) {
    #expect(ArgumentParser.editDistance(Array(a), Array(b)) == distance)
    #expect(ArgumentParser.editDistance(Array(b), Array(a)) == distance)
  }

  @Test("--version on the root prints the version")
  func version() throws {
    #expect(try parser.parse(["--version"]) == .version("inspector 0.1.0 (SQLite 3.45.1)"))
    #expect(
      try parser.parse(["--db", "x", "--version"]) == .version("inspector 0.1.0 (SQLite 3.45.1)"))
  }

  @Test(
    "negative numbers are values, other dash tokens are options",
    arguments: [
      ("-0.5", false), ("-122.009558", false), ("-.5", false), ("-3", false), ("-1e3", false),
      ("-", false), ("fish", false), ("-inf", true), ("-nan", true), ("-x", true), ("--x", true),
      ("-5abc", true),
    ])
  func optionDetection(token: String, isOption: Bool) {
    #expect(ArgumentParser.looksLikeOption(token) == isOption)
  }
}
