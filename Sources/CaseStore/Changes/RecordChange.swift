/// One record that differs between two versions of a case: a row of a documented table added,
/// changed or removed (docs/changes.md). What `diff` lists and a changeset file holds.
public struct RecordChange: Sendable, Equatable {
  /// What happened to the record.
  public enum Operation: String, Sendable {
    /// The record is new.
    case insert
    /// Some of its columns changed.
    case update
    /// The record is gone.
    case delete
  }

  /// A column and its value.
  public struct Field: Sendable, Equatable {
    /// The column's name.
    public let column: String
    /// Its value.
    public let value: AdHocValue
  }

  /// The table (`animals`, `fruits`, `favorite_fruits`, `alibis`, `sleep_schedules`,
  /// `suspicion_levels` or `incidents`).
  public let table: String
  /// Added, changed or removed.
  public let operation: Operation
  /// The primary key's columns and values.
  public let key: [Field]
  /// The values before: every column for a removal, the changed ones for a change, none for an
  /// addition. Columns the database derives (folded keys, the mirrored level) are left out.
  public let before: [Field]
  /// The values after: every column for an addition, the changed ones for a change, none for a
  /// removal; derived columns left out.
  public let after: [Field]
  /// The change in words for people, such as `Catie the Crow: suspicion level 0.2 -> 0.9` or
  /// `incident #4 added: Durian, 2024-05-17T09:41`.
  public let description: String
}

/// A value as the words of a ``RecordChange`` show it: text in single quotes, numbers as they
/// are, `none` for NULL, blobs as their size.
func spoken(_ value: AdHocValue?) -> String {
  switch value {
  case .none, .null?: "none"
  case .integer(let number)?: "\(number)"
  case .real(let number)?: "\(number)"
  case .text(let text)?: "'\(text)'"
  case .blob(let bytes)?: "\(bytes.count) bytes"
  }
}
