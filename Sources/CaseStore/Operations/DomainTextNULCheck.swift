import SQLiteKit

/// Stored values of the text columns with a domain rule (colours, times, paw sizes) that hold
/// a NUL byte: SQL's `GLOB`, `length()` and `quote()` stop at the first NUL, so `'red'`, NUL,
/// `'x'` passes migration 0005's and 0001's checks and the domain rules of ``InvariantCheck``
/// as `'red'` (docs/schema.md "What other clients can and cannot get wrong").
///
/// `inspector check` reports each such value, and `export` refuses to write a document that
/// `import` would refuse (``CaseDatabase/requireTextRules()``): the two read the same list.
enum DomainTextNULCheck {
  /// One stored value with a NUL.
  struct Violation {
    let table: String
    /// `id`, or `animal_id` for `sleep_schedules`.
    let idColumn: String
    let id: Int64
    let column: String
    /// The whole value, NUL and what follows included.
    let value: String
    /// What the column holds, for messages: `a colour name or #RRGGBB`.
    let expected: String
  }

  /// The text columns with a domain rule: table, id column, column, what it holds.
  static let columns: [(table: String, idColumn: String, column: String, expected: String)] = [
    ("animals", "id", "paw_size", "small, medium or large"),
    ("fruits", "id", "color", "a lower-case colour name or #RRGGBB"),
    ("sleep_schedules", "animal_id", "sleep_at", "a time HH:MM"),
    ("sleep_schedules", "animal_id", "wake_at", "a time HH:MM"),
    ("incidents", "id", "occurred_at", "a date and time YYYY-MM-DDTHH:MM"),
    ("incidents", "id", "paw_size", "small, medium or large"),
  ]

  /// The first `limit` values with a NUL in `table`, in column then id order.
  ///
  /// - Throws: `SQLiteError` when the table cannot be read.
  static func violations(_ connection: Connection, table: String, limit: Int) throws
    -> [Violation]
  {
    var result: [Violation] = []
    for (_, idColumn, column, expected) in columns.filter({ $0.table == table })
    where result.count < limit {
      // The bytes of the value: `instr` on a BLOB sees past the first NUL.
      try StoredTextScan.forEachValue(
        connection, table: table, idColumn: idColumn, column: column,
        where: "instr(CAST(\(column) AS BLOB), x'00') > 0"
      ) { id, value in
        result.append(
          Violation(
            table: table, idColumn: idColumn, id: id, column: column, value: value,
            expected: expected))
        return result.count < limit
      }
    }
    return result
  }

  /// Each value with a NUL in `table` as a `check` finding (a fault), with the command that
  /// fixes it.
  ///
  /// - Throws: `SQLiteError` when the table cannot be read.
  static func findings(_ connection: Connection, table: String, limit: Int) throws
    -> [CheckFinding]
  {
    try violations(connection, table: table, limit: limit).map {
      CheckFinding(
        .fault, .domain, table: $0.table, row: "\($0.idColumn) \($0.id)",
        "\($0.column) '\(TextRules.escaped($0.value))' holds a NUL character, so it is not "
          + $0.expected,
        hint: hint($0))
    }
  }

  /// The command that replaces the value.
  private static func hint(_ violation: Violation) -> String {
    let id = violation.id
    switch (violation.table, violation.column) {
    case ("fruits", _):
      return "inspector sql --write \"UPDATE fruits SET color = 'red' WHERE id = \(id)\""
    case ("sleep_schedules", _): return "inspector sleep id:\(id) --sleep HH:MM --wake HH:MM"
    case ("incidents", "occurred_at"):
      return "inspector sql --write \"UPDATE incidents SET occurred_at = "
        + "'YYYY-MM-DDTHH:MM' WHERE id = \(id)\""
    case ("incidents", _):
      return "inspector sql --write \"UPDATE incidents SET paw_size = NULL WHERE id = \(id)\""
    default:
      return "inspector sql --write \"UPDATE animals SET paw_size = 'small' WHERE id = \(id)\""
        + " (or 'medium', 'large')"
    }
  }
}
