import SQLiteKit

/// A table whose rows carry folded keys and the mark that says they wait to be re-folded
/// (`migrations/0005_guarded_derived_columns.sql`).
enum KeyedTable {
  /// Suspects: `species_key` and `name_key`, marked by `keys_pending`.
  case animals
  /// Fruits: `name_key`, marked by `key_pending`.
  case fruits

  /// Clears the mark of row `?1`.
  var clearMarkSQL: String {
    switch self {
    case .animals: "UPDATE animals SET keys_pending = 0 WHERE id = ?"
    case .fruits: "UPDATE fruits SET key_pending = 0 WHERE id = ?"
    }
  }
}

extension CaseDatabase {
  /// Writes a row with the keys inspector folded (full Unicode folding, `NameKey`), so that
  /// the schema's triggers, which fold in SQL only what SQL can, leave them alone.
  ///
  /// Text that is all printable ASCII is written unmarked: the triggers compute the same keys.
  /// Any other text is written marked (`keys_pending = 1`), which the triggers do not touch,
  /// then the mark is cleared, which does not fire the folding either. Run it inside
  /// a write unit of work (``write(_:_:)``), so that the row is never left marked.
  ///
  /// - Parameters:
  ///   - table: Where the row is written.
  ///   - plainASCII: Whether every keyed text of the row is printable ASCII
  ///     (`NameKey.isPlainASCII(_:)`).
  ///   - write: Runs the `INSERT` or `UPDATE` storing the mark it is given (0 or 1) with the
  ///     folded keys, and returns the row's id.
  /// - Returns: The row's id.
  /// - Throws: What `write` throws, or `SQLiteError` from clearing the mark.
  @discardableResult
  func writeWithFoldedKeys(
    _ table: KeyedTable, plainASCII: Bool, _ write: (_ mark: Int) throws -> Int64
  ) throws -> Int64 {
    let id = try write(plainASCII ? 0 : 1)
    if !plainASCII { try statement(table.clearMarkSQL).run([id]) }
    return id
  }
}
