@testable import SQLiteKit

extension Connection {
  /// The first row of a query (empty when the query returns no row).
  func firstRow(_ sql: String, _ arguments: [any SQLiteBindable] = []) throws -> [SQLiteValue] {
    let statement = try prepare(sql)
    try statement.bind(arguments)
    guard try statement.step() else { return [] }
    return statement.row()
  }

  /// Every row of a query, in order.
  func allRows(_ sql: String, _ arguments: [any SQLiteBindable] = []) throws -> [[SQLiteValue]] {
    let statement = try prepare(sql)
    try statement.bind(arguments)
    var rows: [[SQLiteValue]] = []
    while try statement.step() { rows.append(statement.row()) }
    return rows
  }

  /// `SELECT count(*) FROM table`.
  func count(_ table: String) throws -> Int64 {
    try scalar("SELECT count(*) FROM \(table)")?.integerValue ?? -1
  }

  /// Names of the tables in the main schema, sorted.
  func tableNames() throws -> [String] {
    try allRows("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      .compactMap { $0.first?.textValue }
  }
}
