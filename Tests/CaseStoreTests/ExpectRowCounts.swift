import Testing

@testable import CaseStore

/// Expects each table of `expected` to hold exactly its number of rows, read straight from SQL
/// (``CaseDatabase/rowCount(_:)``), with one expectation a table, named after it.
func expectRowCounts(
  _ expected: KeyValuePairs<String, Int>, in database: CaseDatabase,
  sourceLocation: SourceLocation = #_sourceLocation
) throws {
  for (table, count) in expected {
    #expect(
      try database.rowCount(table) == count, "rows of \(table)", sourceLocation: sourceLocation)
  }
}
