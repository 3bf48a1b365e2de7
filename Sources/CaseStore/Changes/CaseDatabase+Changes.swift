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

/// What ``CaseDatabase/apply(_:path:onConflict:)`` did.
public struct ChangesetApplication: Sendable, Equatable {
  /// A change that met a conflict.
  public struct Conflict: Sendable, Equatable {
    /// `data`, `not-found`, `conflict`, `constraint` or `foreign-key` (docs/changes.md).
    public let kind: String
    /// The change in words.
    public let change: String
    /// Whether the change was written over the row (`--on-conflict replace`); otherwise it
    /// was skipped.
    public let replaced: Bool
  }

  /// The changes the changeset holds (as `changes show` lists them).
  public let changes: Int
  /// The changes written: those that met no conflict and those replaced.
  public let written: Int
  /// The conflicts met, in order, each with what became of it.
  public let conflicts: [Conflict]
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
  /// Before anything is written, every change must be of a documented case table
  /// (``changeTables``) of the database's shape: a changeset that carries the history's,
  /// the search index's or any other table (the sqlite3 shell's `.session` without a filter
  /// and `sqldiff --changeset` take every table) is refused whole.
  ///
  /// A delete that finds its row already gone because a suspect's removal earlier in the same
  /// changeset removed it by the schema's cascade is no conflict: the row is gone, as the
  /// change wants.
  ///
  /// - Parameters:
  ///   - changeset: The changes.
  ///   - path: The file's name, for errors.
  ///   - policy: What to do with conflicting changes.
  /// - Returns: How many changes were written and each conflict met, with what became of it
  ///   (replaced, or skipped: with ``ChangesetConflictPolicy/replace`` a change to a row that
  ///   is gone, or one that breaks a constraint, is still skipped).
  /// - Throws: ``ChangesError/foreignTables(_:tables:)`` or
  ///   ``ChangesError/tableShape(_:table:found:expected:)`` for a change of a table that is not
  ///   a case table of this database's shape; ``ChangesError/conflicts(_:)`` with
  ///   ``ChangesetConflictPolicy/fail`` when any change conflicts, and always when applying
  ///   would break a foreign key; ``ChangesError/schemaMismatch(_:found:expected:)``;
  ///   `SQLiteError`. Nothing is applied then.
  public func apply(
    _ changeset: CaseChangeset, path: String, onConflict policy: ChangesetConflictPolicy
  ) throws -> ChangesetApplication {
    try requireSchema(of: changeset, path: path)
    let changes = try changeset.changeset.changes()
    try requireCaseTables(changes, path: path)
    // The suspects the changeset removes: their favourites and interview go by the cascade.
    let removedAnimals = Set(
      changes.filter { $0.table == "animals" && $0.operation == .delete }.compactMap {
        $0.old.first ?? nil
      })
    return try write {
      let describer = ChangeDescriber(connection: connection, schemas: ["main"])
      let total = try describer.describe(changes).count
      var conflicts: [ChangesetApplication.Conflict] = []
      var lastConflicting: ChangesetChange?
      var refused = false
      do {
        try connection.apply(changeset.changeset) { conflict in
          guard let change = conflict.change else {
            conflicts.append(
              .init(
                kind: "foreign-key",
                change: "\(conflict.foreignKeyViolations) reference(s) to missing rows",
                replaced: false))
            refused = true
            return .abort
          }
          if conflict.kind == .notFound, change.operation == .delete,
            removedByCascade(change, removedAnimals: removedAnimals)
          {
            return .omit
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
          // SQLite asks again about a change it could not replace (a constraint): the same
          // change is one conflict, with its final fate.
          if lastConflicting == change, !conflicts.isEmpty { conflicts.removeLast() }
          lastConflicting = change
          let replaced =
            policy == .replace && (conflict.kind == .data || conflict.kind == .conflict)
          conflicts.append(
            .init(kind: conflict.kind.rawValue, change: words, replaced: replaced))
          return replaced ? .replace : .omit
        }
      } catch is SQLiteError where refused {
        throw ChangesError.conflicts(conflicts.map { ($0.kind, $0.change) })
      }
      if policy == .fail, !conflicts.isEmpty {
        throw ChangesError.conflicts(conflicts.map { ($0.kind, $0.change) })
      }
      return ChangesetApplication(
        changes: total, written: total - conflicts.filter { !$0.replaced }.count,
        conflicts: conflicts)
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

  /// Throws unless every change is of a case table (``changeTables``) with this database's
  /// columns and primary key: SQLite would skip a table of another shape without a word.
  private func requireCaseTables(_ changes: [ChangesetChange], path: String) throws {
    var foreign: [String] = []
    for change in changes where !Self.changeTables.contains(change.table) {
      if !foreign.contains(change.table) { foreign.append(change.table) }
    }
    guard foreign.isEmpty else { throw ChangesError.foreignTables(path, tables: foreign) }
    var shapes: [String: [Bool]] = [:]
    for change in changes {
      if shapes[change.table] == nil {
        let columns = try connection.prepare(
          "SELECT pk FROM pragma_table_info(?) ORDER BY cid")
        try columns.bind([change.table])
        var keys: [Bool] = []
        while let row = try columns.nextRow() { keys.append(try row.int64("pk") != 0) }
        shapes[change.table] = keys
      }
      guard let expected = shapes[change.table], expected == change.primaryKey else {
        throw ChangesError.tableShape(
          path, table: change.table, found: change.primaryKey.count,
          expected: shapes[change.table]?.count ?? 0)
      }
    }
  }

  /// Whether `change`, a delete that found no row, is of a suspect's favourite or interview
  /// that the cascade of a suspect's removal in the same changeset (one of `removedAnimals`)
  /// has removed: the suspect is gone now.
  private func removedByCascade(
    _ change: ChangesetChange, removedAnimals: Set<SQLiteValue>
  ) -> Bool {
    guard
      ["favorite_fruits", "alibis", "sleep_schedules", "suspicion_levels"].contains(
        change.table), let animal = change.old.first ?? nil, removedAnimals.contains(animal)
    else { return false }
    do {
      return try connection.scalar("SELECT 1 FROM animals WHERE id = ?", [animal]) == nil
    } catch {
      return false
    }
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
