import Testing

@testable import CommandLineKit

/// A command's values are checked in the order it lists its declarations, then read typed; a
/// declaration the command did not list never crashes.
@Suite struct ParsedValuesTests {
  let limit = Option<Positive?>("limit", valueName: "n", help: "How many.")
  let paw = Option<Paw>("paw", help: "Paw size.")
  let all = Flag("all", help: "Everything.")
  let animal = Argument<String>("animal", help: "The suspect.")
  let fruits = Option<[String]>("fruit", help: "A fruit.")

  /// A one-command tree of the declarations above.
  var parser: ArgumentParser {
    let declarations: [any CommandDeclaration] = [animal, paw, limit, all, fruits]
    return ArgumentParser(
      root: CommandSpec(
        name: "tool", abstract: "Tool.",
        subcommands: [
          CommandSpec(
            name: "rank", abstract: "Rank.",
            arguments: declarations.compactMap(\.argumentSpec),
            options: declarations.compactMap(\.optionSpec))
        ]))
  }

  func values(_ arguments: [String], listing declarations: [any CommandDeclaration])
    throws -> ParsedValues
  {
    guard case .run(let parsed) = try parser.parse(arguments) else {
      Issue.record("\(arguments) did not parse to a command")
      throw UsageError(message: "", programName: "", commandPath: [], usage: "")
    }
    return try ParsedValues(parsed, declarations: declarations, parser: parser)
  }

  @Test func valuesAreReadTyped() throws {
    let values = try values(
      [
        "rank", "crow", "--paw", "LARGE", "--limit", "3", "--all", "--fruit", "fig", "--fruit",
        "kiwi",
      ],
      listing: [animal, paw, limit, all, fruits])
    #expect(try values[animal] == "crow")
    #expect(try values[paw] == .large)
    #expect(try values[limit] == Positive(argument: "3"))
    #expect(values[all])
    #expect(try values[fruits] == ["fig", "kiwi"])
  }

  @Test func theFirstBadValueInTheListedOrderIsTheUsageError() throws {
    let failure = #expect(throws: UsageError.self) {
      try values(
        ["rank", "crow", "--paw", "small", "--limit", "0"], listing: [animal, paw, limit])
    }
    #expect(failure?.kind == .invalidValue)
    #expect(
      failure?.message == "The value '0' is invalid for '--limit <n>': expected a whole number,"
        + " 1 or more")
    #expect(failure?.commandPath == ["rank"])
  }

  /// Before ParsedValues, reading a declaration the command did not declare was a
  /// `preconditionFailure`: the process crashed.
  @Test func aDeclarationTheCommandDidNotListReadsAsAbsentNotACrash() throws {
    let values = try values(["rank", "crow", "--paw", "small"], listing: [animal, paw])
    let other = Option<Positive?>("other", help: "Not the command's.")
    #expect(try values[other] == nil)
    #expect(!values[Flag("quiet", help: "Not the command's.")])
    #expect(try values[Option<[String]>("many", help: "Not the command's.")] == [])
    let required = #expect(throws: UsageError.self) {
      try values[Option<String>("name", help: "Not the command's.")]
    }
    #expect(required?.kind == .missingArgument)
    #expect(required?.message == "Missing expected argument '--name <name>'")
    let argument = #expect(throws: UsageError.self) {
      try values[Argument<String>("dest", help: "Not the command's.")]
    }
    #expect(argument?.message == "Missing expected argument '<dest>'")
  }

  @Test func aCommandsOwnUsageErrorCarriesItsUsageLine() throws {
    let values = try values(["rank", "crow", "--paw", "small"], listing: [animal, paw])
    let error = values.usageError("Give either --limit or --all, not both")
    #expect(error.kind == .conflict)
    #expect(error.commandPath == ["rank"])
    #expect(
      error.rendered.hasPrefix(
        "tool: error: Give either --limit or --all, not both\nUsage: tool rank <animal> --paw <paw>"
      ))
  }
}
