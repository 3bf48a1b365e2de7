import CaseStore
import Testing

@testable import InspectorCLI

/// Required, optional and repeating follow from a declaration's type, and its values are read
/// typed.
@Suite struct TypedDeclarationTests {
  @Test func theTypeDecidesRequiredOptionalAndRepeating() {
    let required = Option<PawSize>("paw", help: "Paw size.")
    #expect(required.spec.isRequired && required.spec.kind == .value)
    #expect(required.spec.allowedValues == ["small", "medium", "large"])
    let optional = Option<PositiveCount?>("limit", valueName: "n", help: "How many.")
    #expect(!optional.spec.isRequired && optional.spec.synopsis == "--limit <n>")
    let repeating = Option<[String]>("fruit", help: "A fruit.")
    #expect(repeating.spec.kind == .repeatingValue)
    #expect(!Argument<String>("animal", help: "The suspect.").spec.isOptional)
    #expect(Argument<String?>("text", help: "Text.").spec.isOptional)
    #expect(Argument<[String]>("values", help: "Values.").spec.isRepeating)
  }

  @Test func valuesAreConvertedOnceAndReadTyped() throws {
    let limit = Option<PositiveCount?>("limit", valueName: "n", help: "How many.")
    let fruits = Option<[String]>("fruit", help: "A fruit.")
    let parsed = ParsedArguments(
      commandPath: ["rank"], optionValues: ["limit": ["7"], "fruit": ["fig", "kiwi"]])
    #expect(try limit.decode(parsed) as? PositiveCount? == PositiveCount(argument: "7"))
    #expect(try fruits.decode(parsed) as? [String] == ["fig", "kiwi"])
    #expect(try limit.decode(ParsedArguments(commandPath: [])) as? PositiveCount? == .some(nil))
  }

  @Test func aRejectedValueCarriesItsTypesReason() {
    let limit = Option<PositiveCount?>("limit", valueName: "n", help: "How many.")
    #expect(throws: RejectedValue(value: "0", reason: "expected a whole number, 1 or more")) {
      try limit.decode(ParsedArguments(commandPath: [], optionValues: ["limit": ["0"]]))
    }
  }

  @Test func aBadValueIsTheSameUsageErrorAsBefore() {
    let outcome = Inspector.run(
      arguments: ["rank", "--limit", "0", "--db", "/nonexistent/x.sqlite"], environment: [:])
    #expect(outcome.status == 64)
    #expect(
      outcome.standardError.hasPrefix(
        "inspector: error: The value '0' is invalid for '--limit <n>': expected a whole number,"
          + " 1 or more\n"))
  }
}
