import SQLiteKit

/// What to do with a change that conflicts with the database (`changes apply --on-conflict`).
public enum ChangesetConflictPolicy: String, Sendable, CaseIterable {
  /// List every conflict and apply nothing (the default).
  case fail
  /// Leave the conflicting changes out, apply the rest.
  case skip
  /// Let the changeset win: overwrite the row (a change to a row that is gone is still left
  /// out).
  case replace
}

extension CaseDatabase {
  /// The documented tables a diff and a changeset cover, parents first.
  public static let changeTables = [
    "fruits", "animals", "favorite_fruits", "alibis", "sleep_schedules", "suspicion_levels",
    "incidents",
  ]

  /// Columns the database derives itself (docs/schema.md), left out of the words and the
  /// before/after values.
  static let derivedColumns: Set<String> = [
    "animals.species_key", "animals.name_key", "animals.keys_pending", "animals.suspicion_level",
    "fruits.name_key", "fruits.key_pending",
  ]

  /// The changeset that turns the case file at `base` (e.g. a backup, or the copy an
  /// investigator took away) into this database, computed by SQLite's session extension.
  ///
  /// - Throws: ``ChangesError/sessionExtensionMissing``, ``CaseFileError`` when `base` is
  ///   missing or not a case database, ``ChangesError/schemaMismatch(_:found:expected:)`` when
  ///   it is at another schema version, `SQLiteError` when a file cannot be read.
  public func changeset(since base: String) throws -> CaseChangeset {
    try withBase(base) { reader, version in
      CaseChangeset(
        schemaVersion: version,
        changeset: try reader.changeset(from: "base", tables: Self.changeTables))
    }
  }

  /// The records that differ between the case file at `base` and this database, as the
  /// changes that turn `base` into this database, in words and values.
  ///
  /// - Throws: What ``changeset(since:)`` throws.
  public func changes(since base: String) throws -> [RecordChange] {
    try withBase(base) { reader, _ in
      let changeset = try reader.changeset(from: "base", tables: Self.changeTables)
      return try ChangeDescriber(connection: reader, schemas: ["main", "base"])
        .describe(changeset.changes())
    }
  }

  /// The changes a changeset file holds, in words (suspects and fruits named from the changes
  /// themselves and from this database).
  ///
  /// - Throws: ``ChangesError/schemaMismatch(_:found:expected:)`` for a changeset taken at
  ///   another schema version, `SQLiteError` when the database cannot be read.
  public func changes(in changeset: CaseChangeset, path: String) throws -> [RecordChange] {
    try requireSchema(of: changeset, path: path)
    return try ChangeDescriber(connection: connection, schemas: ["main"])
      .describe(changeset.changeset.changes())
  }

  /// Applies a changeset file in one transaction (docs/changes.md "Conflicts").
  ///
  /// - Parameters:
  ///   - changeset: The changes.
  ///   - path: The file's name, for errors.
  ///   - policy: What to do with conflicting changes.
  /// - Returns: The conflicts met (kind and the change in words): empty when everything
  ///   applied cleanly; with ``ChangesetConflictPolicy/skip`` or ``ChangesetConflictPolicy/replace``, those
  ///   left out or overwritten.
  /// - Throws: ``ChangesError/conflicts(_:)`` with ``ChangesetConflictPolicy/fail`` when any change
  ///   conflicts, and always when applying would break a foreign key (nothing is applied
  ///   then), ``ChangesError/schemaMismatch(_:found:expected:)``, `SQLiteError`.
  public func apply(
    _ changeset: CaseChangeset, path: String, onConflict policy: ChangesetConflictPolicy
  ) throws -> [(kind: String, change: String)] {
    try requireSchema(of: changeset, path: path)
    return try write {
      let describer = ChangeDescriber(connection: connection, schemas: ["main"])
      var conflicts: [(kind: String, change: String)] = []
      var refused = false
      do {
        try connection.apply(changeset.changeset) { conflict in
          guard let change = conflict.change else {
            conflicts.append(
              ("foreign-key", "\(conflict.foreignKeyViolations) reference(s) to missing rows"))
            refused = true
            return .abort
          }
          // A change of derived columns only (the mirrored level, folded keys) follows from
          // another change in the changeset; the triggers make it when that one applies.
          guard let words = try? describer.describe([change]).first?.description else {
            return .omit
          }
          // A derived column (the mirrored level, a folded key) that already holds the new
          // value is no conflict: the triggers set it when its source changed.
          if conflict.kind == .data, describer.differsOnlyInDerivedColumns(change, conflict.current)
          {
            return .replace
          }
          conflicts.append((conflict.kind.rawValue, words))
          switch policy {
          case .fail: return .omit
          case .skip: return .omit
          case .replace: return .replace
          }
        }
      } catch is SQLiteError where refused {
        throw ChangesError.conflicts(conflicts)
      }
      if policy == .fail, !conflicts.isEmpty { throw ChangesError.conflicts(conflicts) }
      return conflicts
    }
  }

  // MARK: - Helpers

  /// Runs `body` on a read-only connection to this database with `base` attached as `base`,
  /// after checking that `base` is a case database at this schema version.
  private func withBase<T>(_ base: String, _ body: (Connection, Int) throws -> T) throws -> T {
    guard Connection.hasSessionExtension else { throw ChangesError.sessionExtensionMissing }
    guard try CaseFile.applicationID(at: base) == Self.applicationID else {
      throw CaseFileError.notACaseDatabase(base, reason: "its application_id is not inspector's")
    }
    let reader = try Connection(path: connection.path, mode: .readOnly)
    try reader.execute("ATTACH ? AS base", [base])
    let version = try Self.migrator.currentVersion(of: reader)
    let baseVersion = Int(
      try reader.scalar("SELECT max(version) FROM base.schema_migrations")?.integerValue ?? 0)
    guard baseVersion == version else {
      throw ChangesError.schemaMismatch(base, found: baseVersion, expected: version)
    }
    return try reader.inTransaction(.deferred) { try body(reader, version) }
  }

  private func requireSchema(of changeset: CaseChangeset, path: String) throws {
    guard Connection.hasSessionExtension else { throw ChangesError.sessionExtensionMissing }
    let version = try Self.migrator.currentVersion(of: connection)
    guard changeset.schemaVersion == version else {
      throw ChangesError.schemaMismatch(
        path, found: changeset.schemaVersion, expected: version)
    }
  }
}
