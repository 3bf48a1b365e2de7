import Testing

@testable import CaseStore

/// Expects `body` to throw ``CaseError/invalidValue(field:value:expected:)`` with exactly this
/// field, value and expectation: the one refusal every parser and repository shares.
func expectInvalidValue<R>(
  field: String, value: String, expected: String,
  sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> R
) {
  #expect(
    throws: CaseError.invalidValue(field: field, value: value, expected: expected),
    sourceLocation: sourceLocation
  ) {
    try body()
  }
}
