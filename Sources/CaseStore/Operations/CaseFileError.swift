/// Why an operation on a whole case file (restore, check) refused. Exit codes per SPEC.md
/// section 4: ``missing(_:)`` and ``notADatabase(_:)`` are 66, the others 65.
public enum CaseFileError: Error, Equatable, Sendable, CustomStringConvertible {
  /// No file at this path.
  case missing(String)
  /// The file is not an SQLite database (wrong header, or too short).
  case notADatabase(String)
  /// The file fails `integrity_check` or `foreign_key_check`; the first problems are listed.
  case damaged(String, problems: [String])
  /// The database to be replaced holds suspects and `--force` was not given.
  case holdsSuspects(String, count: Int)

  /// One line for `inspector: error: ...`.
  public var description: String {
    switch self {
    case .missing(let path): "no file at \(path)"
    case .notADatabase(let path): "\(path) is not an SQLite database"
    case .damaged(let path, let problems):
      "\(path) is damaged: " + problems.prefix(3).joined(separator: "; ")
    case .holdsSuspects(let path, let count):
      "\(path) holds \(count) suspect(s); refusing to replace it without --force"
    }
  }
}
