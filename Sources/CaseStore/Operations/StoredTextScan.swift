import SQLiteKit

/// The one scan behind the stored-text checks (``TextRuleCheck``, ``DomainTextNULCheck``): the
/// text values of one column that an SQL condition hands over, in id order.
enum StoredTextScan {
  /// Calls `body` with the id and text of each row of `table` whose `column` holds text and
  /// meets `condition`, in `idColumn` order, until `body` returns `false`.
  ///
  /// - Parameters:
  ///   - condition: An SQL expression over the row; `parameters` binds its named parameters.
  ///   - body: Returns whether to go on.
  /// - Throws: `SQLiteError` when the table cannot be read; what `body` throws.
  static func forEachValue(
    _ connection: Connection, table: String, idColumn: String, column: String,
    where condition: String, parameters: [String: SQLiteValue] = [:],
    _ body: (_ id: Int64, _ value: String) throws -> Bool
  ) throws {
    let statement = try connection.prepare(
      """
      SELECT \(idColumn) AS id, \(column) AS value FROM \(table)
      WHERE typeof(\(column)) = 'text' AND (\(condition))
      ORDER BY \(idColumn)
      """)
    for (name, value) in parameters { try statement.bind(value, forParameter: name) }
    while let row = try statement.nextRow() {
      guard try body(try row.int64("id"), try row.text("value")) else { return }
    }
  }
}
