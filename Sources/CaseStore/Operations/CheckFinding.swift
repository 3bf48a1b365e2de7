/// One thing `inspector check` found: a fault (the command exits 65) or a note (information
/// only, such as a table that another tool added).
///
/// Every finding names what was checked, where (table, and row as `id N` or `rowid N` when it
/// concerns one row), what is wrong in one line, and, where one helps, what to do.
public struct CheckFinding: Equatable, Sendable {
  /// How serious a finding is.
  public enum Severity: String, Sendable {
    /// Something is wrong: the database breaks a rule that commands rely on.
    case fault
    /// Worth knowing, not wrong: tables of other tools, keys of other clients' rows not folded by inspector yet.
    case note
  }

  /// Which check found it.
  public enum Kind: String, Sendable {
    /// `PRAGMA integrity_check` (pages, indexes, NOT NULL, CHECK and STRICT types).
    case integrity = "integrity_check"
    /// `PRAGMA foreign_key_check`.
    case foreignKey = "foreign_key_check"
    /// Applied migrations against the ones this binary carries.
    case migration
    /// The live schema against what the migrations create.
    case schema
    /// The header's `application_id`.
    case applicationID = "application_id"
    /// Derived columns: folded keys and the mirrored suspicion level.
    case derivedColumn = "derived_column"
    /// Two suspects or fruits that are one ignoring case.
    case duplicate
    /// A stored value outside the domain's rules (paw size, level, times, blank names).
    case domain
    /// Files left beside the database (temporary files of killed backups).
    case file
    /// The case history against the live rows: replaying it must give them.
    case history
  }

  /// Fault or note.
  public var severity: Severity
  /// Which check found it.
  public var kind: Kind
  /// The table concerned, if any.
  public var table: String?
  /// The row concerned (`id 3`, `rowid 7`), if any.
  public var row: String?
  /// What is wrong, in one line.
  public var message: String
  /// What to do about it, if something helps.
  public var hint: String?

  /// The finding in one line, where then what: `animals id 11: the folded keys do not match
  /// ...`, or the message alone when it concerns no table.
  public var summary: String {
    let place = [table, row].compactMap { $0 }.joined(separator: " ")
    return place.isEmpty ? message : "\(place): \(message)"
  }

  /// Creates a finding.
  public init(
    _ severity: Severity, _ kind: Kind, table: String? = nil, row: String? = nil,
    _ message: String, hint: String? = nil
  ) {
    self.severity = severity
    self.kind = kind
    self.table = table
    self.row = row
    self.message = message
    self.hint = hint
  }
}
