import CaseStore
import CommandLineKit

extension CommandContext {
  /// The case to read: the open case file, or, with `--as-of`, the case as it stood then,
  /// rebuilt from its history (docs/history.md "As of").
  ///
  /// - Throws: What opening the file or ``CaseHistory/changeSet(asOf:)`` throws.
  func caseToRead(asOf option: Option<String?>) throws -> CaseDatabase {
    let database = try openDatabase(write: false)
    guard let point = try self[option] else { return database }
    let history = database.history
    return try history.rebuiltCase(asOf: history.changeSet(asOf: point))
  }
}
