import SQLiteKit

/// A table whose rows carry folded keys, and the rows whose keys nobody vouches for
/// (`migrations/0012_folded_from.sql`, docs/schema.md "Folded keys").
///
/// A key is vouched for when SQL's `lower()` gives it exactly (the text is ASCII) or when
/// inspector folded it from exactly the text now stored (its `*_folded_from` column holds that
/// text). Every other row (text beyond ASCII that another client wrote) holds SQL's key,
/// `lower(text)`, which folds ASCII letters only: look-ups and inspector's uniqueness checks
/// compare those rows in Swift, and writes re-fold them.
enum KeyedTable: CaseIterable {
  /// Suspects: `species_key` (unique) and `name_key`, folded from `species` and `name`.
  case animals
  /// Fruits: `name_key` (unique), folded from `name`.
  case fruits

  /// The condition of the partial index that lists the rows whose keys are not vouched for
  /// (`animals_unvouched_keys`, `fruits_unvouched_keys`), written exactly as the index says so
  /// that SQLite reads the index instead of the table.
  var unvouchedCondition: String {
    switch self {
    case .animals:
      """
      (length(CAST(species AS BLOB)) > length(species) AND species_folded_from IS NOT species)
        OR (length(CAST(name AS BLOB)) > length(name) AND name_folded_from IS NOT name)
      """
    case .fruits: "length(CAST(name AS BLOB)) > length(name) AND name_folded_from IS NOT name"
    }
  }
}

extension CaseDatabase {
  /// `1` when any suspect or fruit holds a key nobody vouches for (two probes of partial
  /// indexes, nothing read when there is none).
  static let unvouchedProbe = """
    SELECT EXISTS (SELECT 1 FROM animals WHERE \(KeyedTable.animals.unvouchedCondition))
      OR EXISTS (SELECT 1 FROM fruits WHERE \(KeyedTable.fruits.unvouchedCondition))
    """

  /// Gives the rows other clients wrote inspector's Unicode keys, inside the caller's write,
  /// so that orders by `name_key` (the ranking's ties, `list --sort`) and the unique indexes see
  /// them as inspector would. One probe when there is none.
  ///
  /// A row whose Unicode key repeats another row's (a duplicate stored by another client)
  /// keeps SQL's key; the look-ups compare it in Swift and `check` reports it.
  ///
  /// - Throws: `SQLiteError` when the tables cannot be read or written.
  func refoldUnvouchedKeys() throws {
    guard try scalar(Self.unvouchedProbe)?.integerValue == 1 else { return }
    try unit.suspects.refoldUnvouchedKeys()
    try unit.fruits.refoldUnvouchedKeys()
  }
}
