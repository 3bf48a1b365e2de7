/// Why an operation on a whole case file (restore, check) refused. Exit codes per
/// docs/exit-codes.md "Which error gives which code": ``missing(_:)`` and ``notADatabase(_:)`` are
/// 66, the others 65.
public enum CaseFileError: Error, Equatable, Sendable, CustomStringConvertible {
  /// No file at this path.
  case missing(String)
  /// The file is not an SQLite database (wrong header, or too short).
  case notADatabase(String)
  /// The file fails `integrity_check` or `foreign_key_check`; the first problems are listed.
  case damaged(String, problems: [String])
  /// The file is SQLite but not a case database: its `PRAGMA application_id` is neither
  /// ``CaseDatabase/applicationID`` nor 0 with known migrations (an older case database).
  case notACaseDatabase(String, reason: String)
  /// The file is a sound case file whose faults (rows breaking the case's rules, a schema that
  /// differs from the migrations') a restore takes only when told to accept them; the faults,
  /// described as `check` describes them, in `check`'s order (see
  /// `CaseFile.restorability(at:structure:busyTimeout:)`).
  case faulted(String, faults: [String])
  /// The database to be replaced holds case data (table name to row count) and `--force` was
  /// not given.
  case holdsCaseData(String, rows: [String: Int])

  /// One line for `inspector: error: ...`.
  public var description: String {
    switch self {
    case .missing(let path): "no file at \(path)"
    case .notADatabase(let path): "\(path) is not an SQLite database"
    case .damaged(let path, let problems):
      "\(path) is damaged: " + problems.prefix(3).joined(separator: "; ")
    case .faulted(let path, let faults):
      "\(path) will not restore as it is: \(faults.count) fault(s): "
        + faults.prefix(3).joined(separator: "; ")
    case .notACaseDatabase(let path, let reason):
      "\(path) is not a Fruit Inspectors case database (\(reason))"
    case .holdsCaseData(let path, let rows):
      "\(path) holds case data ("
        + rows.sorted { $0.key < $1.key }.map { "\($0.value) row(s) in \($0.key)" }
        .joined(separator: ", ") + "); refusing to replace it without --force"
    }
  }
}
