/// A result column of one statement, found by name with ``Statement/column(_:)``: resolve the
/// columns once, before the first row, and read each row through them, so that a loop over
/// many rows looks no name up twice.
///
/// A column belongs to the statement that resolved it; reading another statement's row with it
/// reads whatever that statement has at the same position.
public struct Column: Hashable, Sendable {
  /// The column's name, as asked for (and as SQLite names it: its `AS` name, if any).
  public let name: String
  /// The column's position (0-based).
  public let index: Int

  init(name: String, index: Int) {
    self.name = name
    self.index = index
  }
}

extension Statement {
  /// The result column named `name` (its `AS` name, or for a plain column reference the
  /// column's own name), for the readers of ``Row``. Names are compared exactly, case
  /// included; the name-to-position map is built once per statement, on first use.
  ///
  /// Give every expression in a `SELECT` an `AS` name: SQLite does not promise the name of a
  /// column without one.
  ///
  /// - Throws: ``RowDecodingError`` with ``RowDecodingError/Reason/unknownColumn`` when no
  ///   result column has this name, or ``RowDecodingError/Reason/ambiguousColumn`` when
  ///   several do.
  /// - SQLite: <https://sqlite.org/c3ref/column_name.html>
  public func column(_ name: String) throws -> Column {
    let indexes: [String: Int]
    if let built = columnIndexes {
      indexes = built
    } else {
      var built: [String: Int] = [:]
      for (index, columnName) in columnNames.enumerated() {
        // -1 marks a name that several columns share.
        built[columnName] = built[columnName] == nil ? index : -1
      }
      columnIndexes = built
      indexes = built
    }
    switch indexes[name] {
    case nil: throw RowDecodingError(column: name, reason: .unknownColumn, sql: sql)
    case -1: throw RowDecodingError(column: name, reason: .ambiguousColumn, sql: sql)
    case let index?: return Column(name: name, index: index)
    }
  }

  /// Advances to the next row and returns it, or `nil` when the statement has finished: the
  /// same as ``step()``, handing out the row to read by column name.
  ///
  /// ```swift
  /// while let row = try statement.nextRow() {
  ///   names.append(try row.text("name"))
  /// }
  /// ```
  ///
  /// - Throws: What ``step()`` throws.
  /// - SQLite: <https://sqlite.org/c3ref/step.html>
  public func nextRow() throws -> Row? {
    try step() ? Row(statement: self) : nil
  }

  /// The row ``step()`` last stepped to, to read by column name. Valid until the next step or
  /// reset.
  public var currentRow: Row { Row(statement: self) }
}
