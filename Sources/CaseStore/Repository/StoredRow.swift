import SQLiteKit

/// Reading one stored record: a value of the wrong storage class, which another client can
/// store with the schema's checks off, becomes ``CaseError/invalidStoredValue(table:id:column:value:expected:)``
/// naming the table and row, as every other value outside the domain does.
enum StoredRow {
  /// Runs `read`, reporting a ``RowDecodingError`` for a stored value as
  /// ``CaseError/invalidStoredValue(table:id:column:value:expected:)``.
  ///
  /// - Parameters:
  ///   - table: The table the row's columns come from.
  ///   - tables: For a row joined from several tables, the table of each column that is not in
  ///     `table`, by column name.
  ///   - id: The row's id (or the id of the record the joined rows belong to).
  ///   - read: Reads the row.
  /// - Throws: What `read` throws; a `RowDecodingError` for an unknown column stays one (a
  ///   defect of the query, not of the data).
  static func read<T>(
    _ table: String, tables: [String: String] = [:], id: Int64, _ read: () throws -> T
  ) throws -> T {
    do {
      return try read()
    } catch let error as RowDecodingError {
      guard case .mismatch(let expected, let found) = error.reason else { throw error }
      throw CaseError.invalidStoredValue(
        table: tables[error.column] ?? table, id: id, column: error.column,
        value: literal(found), expected: description(of: expected))
    }
  }

  /// The value as SQL would quote it: `NULL`, `5`, `1.5`, `'text'` (as the domain's own
  /// messages show text), `X'CAFE'`.
  static func literal(_ value: SQLiteValue) -> String {
    switch value {
    case .null: "NULL"
    case .integer(let integer): "\(integer)"
    case .real(let double): "\(double)"
    case .text(let text): "'\(text)'"
    case .blob(let bytes):
      "X'" + bytes.map { String($0, radix: 16, uppercase: true).leftPadded(to: 2) }.joined() + "'"
    }
  }

  /// What a reader expected, for the end of the message (`... which is not text`).
  private static func description(of storageClass: StorageClass) -> String {
    switch storageClass {
    case .null: "NULL"
    case .integer: "an integer"
    case .real: "a number"
    case .text: "text"
    case .blob: "a blob"
    }
  }
}

extension String {
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
