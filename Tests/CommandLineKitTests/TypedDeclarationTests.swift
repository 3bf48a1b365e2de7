import Testing

@testable import CommandLineKit

/// A paw size, as a program's enumeration with a fixed list of values.
enum Paw: String, CaseIterable, Sendable, ExpressibleByArgument {
  case small, medium, large
}

/// A whole number, 1 or more, as a program's value type with its own rule.
struct Positive: ExpressibleByArgument, Equatable {
  let value: Int

  init?(argument: String) {
    guard let value = Int(argument), value >= 1 else { return nil }
    self.value = value
  }

  static let invalidValueReason: String? = "expected a whole number, 1 or more"
}

/// Required, optional and repeating follow from a declaration's type, and its values are read
/// typed.
@Suite struct TypedDeclarationTests {
  @Test func theTypeDecidesRequiredOptionalAndRepeating() {
    let required = Option<Paw>("paw", help: "Paw size.")
    #expect(required.spec.isRequired && required.spec.kind == .value)
    #expect(required.spec.allowedValues == ["small", "medium", "large"])
    let optional = Option<Positive?>("limit", valueName: "n", help: "How many.")
    #expect(!optional.spec.isRequired && optional.spec.synopsis == "--limit <n>")
    let repeating = Option<[String]>("fruit", help: "A fruit.")
    #expect(repeating.spec.kind == .repeatingValue)
    #expect(!Argument<String>("animal", help: "The suspect.").spec.isOptional)
    #expect(Argument<String?>("text", help: "Text.").spec.isOptional)
    #expect(Argument<[String]>("values", help: "Values.").spec.isRepeating)
  }

  @Test func valuesAreConvertedOnceAndReadTyped() throws {
    let limit = Option<Positive?>("limit", valueName: "n", help: "How many.")
    let fruits = Option<[String]>("fruit", help: "A fruit.")
    let parsed = ParsedArguments(
      commandPath: ["rank"], optionValues: ["limit": ["7"], "fruit": ["fig", "kiwi"]])
    #expect(try limit.value(in: parsed) == Positive(argument: "7"))
    #expect(try fruits.value(in: parsed) == ["fig", "kiwi"])
    #expect(try limit.value(in: ParsedArguments(commandPath: [])) == nil)
  }

  @Test func aRejectedValueCarriesItsTypesReason() {
    let limit = Option<Positive?>("limit", valueName: "n", help: "How many.")
    #expect(throws: RejectedValue(value: "0", reason: "expected a whole number, 1 or more")) {
      try limit.value(in: ParsedArguments(commandPath: [], optionValues: ["limit": ["0"]]))
    }
  }
}
