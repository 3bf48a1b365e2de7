/// How a backup's copy is checked before it is renamed into place.
///
/// SQLite: <https://sqlite.org/pragma.html#pragma_quick_check>,
/// <https://sqlite.org/pragma.html#pragma_integrity_check>
public enum BackupVerification: String, CaseIterable, Sendable {
  /// `PRAGMA quick_check`: every page readable and every b-tree well formed, without matching
  /// index entries to their rows; catches a damaged page in the copy. The default.
  case quick
  /// `PRAGMA integrity_check`: also that every index matches its table and that every CHECK
  /// and NOT NULL constraint holds. Several times slower.
  case full
  /// No check: the copy is synced and renamed as SQLite's backup API wrote it.
  case none
}
