import Testing

extension CLITestCase {
  /// Runs `inspector check --format csv` on a case file known to hold a fault, expects it to
  /// fail with status 65, and returns its CSV records for the test to look for its finding.
  func failedCheckRows(sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
    let outcome = run("check", "--format", "csv")
    #expect(
      outcome.status == 65, "stderr: \(outcome.standardError)", sourceLocation: sourceLocation)
    return csvLines(outcome.standardOutput)
  }

  /// ``failedCheckRows(sourceLocation:)`` of a seeded case file that another client then
  /// damaged with `sql`.
  static func failedCheckRows(
    afterAnotherClientRan sql: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [String] {
    try seeded(writtenByAnotherClient: sql).failedCheckRows(sourceLocation: sourceLocation)
  }
}
