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
    /// `data`, `not-found`, `conflict`, `constraint`, `foreign-key`, `dependency` or `cascade`
    /// (docs/changes.md "Conflicts"); one kind whatever the policy.
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
  /// The documented tables a diff and a changeset cover, parents first: the history's recorded
  /// tables (docs/history.md "Recorded tables").
  public static let changeTables = RecordedTable.all.map(\.name)

  /// Columns the database derives itself (docs/schema.md), left out of the words and the
  /// before/after values: the columns the history does not record (`table.column`).
  static let derivedColumns: Set<String> = RecordedTable.unrecordedColumns

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
  /// A pre-pass finds what SQLite's per-row conflicts miss: a change that names (by
  /// its foreign keys) a suspect or fruit the changeset adds under an id another row holds here
  /// is a `dependency` conflict (skipped with that row under ``ChangesetConflictPolicy/skip``,
  /// left out of a filtered changeset re-encoded change by change); a suspect's removal whose
  /// cascade would remove rows here that the changeset does not remove itself is a `cascade`
  /// conflict, naming them; under ``ChangesetConflictPolicy/replace``, replacing a row that
  /// rows here name is refused whole (`referenced`).
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
  ///   a case table of this database's shape; ``ChangesError/conflicts(_:policy:)`` with
  ///   ``ChangesetConflictPolicy/fail`` when any change conflicts, always when applying
  ///   would break a foreign key, and under ``ChangesetConflictPolicy/replace`` when a row to
  ///   replace is named by rows here; ``ChangesError/schemaMismatch(_:found:expected:)``;
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
      let words = try describer.records(changes).map { $0?.description }
      let total = words.compactMap { $0 }.count
      // What SQLite's conflicts cannot show: changes that name a row the changeset adds
      // under a key taken here by another row, and deletes whose cascade takes rows here.
      let plan = try plan(changes, words: words, describer: describer, policy: policy)
      if !plan.refusals.isEmpty {
        throw ChangesError.conflicts(plan.refusals, policy: policy)
      }
      let applied = changes.indices.filter { !plan.dropped.contains($0) }
      // Each conflict by the index of its change (Int.max: the changeset as a whole).
      var conflicts: [Int: ChangesetApplication.Conflict] = plan.conflicts
      var refused = false
      do {
        // The file's own bytes unless the pre-pass left changes out.
        let toApply =
          plan.dropped.isEmpty
          ? changeset.changeset : Changeset(changes: applied.map { changes[$0] })
        try connection.apply(toApply) { conflict in
          guard let change = conflict.change else {
            conflicts[Int.max] = .init(
              kind: "foreign-key",
              change: "\(conflict.foreignKeyViolations) reference(s) to missing rows",
              replaced: false)
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
          guard let index = applied.first(where: { changes[$0] == change }),
            let words = words[index]
          else { return .omit }
          // A derived column (the mirrored level, a folded key) that already holds the new
          // value is no conflict: the triggers set it when its source changed.
          if conflict.kind == .data, describer.differsOnlyInDerivedColumns(change, conflict.current)
          {
            return .replace
          }
          // SQLite asks again about a change it could not replace (a constraint): the same
          // change is one conflict, of the kind first met, with its final fate.
          let kind = conflicts[index]?.kind ?? conflict.kind.rawValue
          let replaced =
            policy == .replace && (conflict.kind == .data || conflict.kind == .conflict)
          if conflicts[index] == nil || plan.conflicts[index] == nil {
            conflicts[index] = .init(kind: kind, change: words, replaced: replaced)
          }
          return replaced ? .replace : .omit
        }
      } catch is SQLiteError where refused {
        throw ChangesError.conflicts(
          conflicts.sorted { $0.key < $1.key }.map { ($0.value.kind, $0.value.change) },
          policy: policy)
      }
      let listed = conflicts.sorted { $0.key < $1.key }.map(\.value)
      if policy == .fail, !listed.isEmpty {
        throw ChangesError.conflicts(listed.map { ($0.kind, $0.change) }, policy: policy)
      }
      return ChangesetApplication(
        changes: total, written: total - listed.filter { !$0.replaced }.count,
        conflicts: listed)
    }
  }

  /// The references between case tables: the column of `table` that names a row of
  /// `parent` by its id, and whether removing the parent removes the row (`ON DELETE
  /// CASCADE`; otherwise the schema refuses it): the recorded tables' parents.
  static let references: [(table: String, column: String, parent: String, cascades: Bool)] =
    RecordedTable.references.map { ($0.child, $0.column, $0.parent, $0.cascades) }

  /// What the pre-pass of ``apply(_:path:onConflict:)`` found (docs/changes.md "Conflicts").
  private struct ApplyPlan {
    /// Changes left out of the changeset applied (`--on-conflict skip`).
    var dropped: Set<Int> = []
    /// Conflicts found before applying, by change index.
    var conflicts: [Int: ChangesetApplication.Conflict] = [:]
    /// Conflicts that refuse the whole changeset whatever the policy says.
    var refusals: [(kind: String, change: String)] = []
  }

  /// The pre-pass: inserts of suspects or fruits whose id another row holds here, with the
  /// changes that name them (which would name that other row), and removals of suspects
  /// whose cascade would remove rows here that the changeset does not remove itself.
  private func plan(
    _ changes: [ChangesetChange], words: [String?], describer: ChangeDescriber,
    policy: ChangesetConflictPolicy
  ) throws -> ApplyPlan {
    var plan = ApplyPlan()
    var columns: [String: [String]] = [:]
    func column(_ table: String, _ name: String) throws -> Int {
      if columns[table] == nil {
        let rows = try connection.prepare("SELECT name FROM pragma_table_info(?) ORDER BY cid")
        try rows.bind([table])
        var names: [String] = []
        while try rows.step() { names.append(rows.text(at: 0)) }
        columns[table] = names
      }
      return columns[table]?.firstIndex(of: name) ?? 0
    }
    func rows(_ table: String, where column: String, is value: SQLiteValue) throws
      -> [[SQLiteValue?]]
    {
      let statement = try connection.prepare("SELECT * FROM \(table) WHERE \(column) = ?")
      try statement.bind([value])
      var found: [[SQLiteValue?]] = []
      while try statement.step() { found.append(statement.row()) }
      return found
    }
    /// Whether two full rows of `table` hold the same values outside derived columns.
    func same(_ table: String, _ a: [SQLiteValue?], _ b: [SQLiteValue?]) throws -> Bool {
      _ = try column(table, "id")
      let names = columns[table] ?? []
      guard a.count == b.count else { return false }
      return zip(names, zip(a, b)).allSatisfy { name, pair in
        Self.derivedColumns.contains("\(table).\(name)") || pair.0 == pair.1
      }
    }
    func say(_ index: Int) -> String { words[index] ?? changes[index].table }

    // 1. Parents added under an id another row holds here.
    var taken: [String: [SQLiteValue: Int]] = [:]
    for (index, change) in changes.enumerated()
    where change.operation == .insert && (change.table == "fruits" || change.table == "animals") {
      guard let id = change.new[try column(change.table, "id")] ?? nil,
        let local = try rows(change.table, where: "id", is: id).first,
        try !same(change.table, change.new, local)
      else { continue }
      taken[change.table, default: [:]][id] = index
      guard policy == .replace else { continue }
      // Replacing it would make every row here that names it name the changeset's row.
      var naming: [String] = []
      for reference in Self.references where reference.parent == change.table {
        for row in try rows(reference.table, where: reference.column, is: id) {
          naming.append(try describer.row(reference.table, row))
        }
      }
      if !naming.isEmpty {
        plan.refusals.append(
          (
            "referenced",
            "\(say(index)) would replace the row of the same id here, which rows here name: "
              + naming.joined(separator: "; ")
          ))
      }
    }
    if policy != .replace {
      for (index, change) in changes.enumerated() where change.operation != .delete {
        for reference in Self.references where reference.table == change.table {
          let at = try column(reference.table, reference.column)
          guard
            let value = change.new[at] ?? (change.operation == .update ? change.old[at] : nil),
            let parent = taken[reference.parent]?[value]
          else { continue }
          let fate = policy == .skip ? "skipped" : "conflicting"
          plan.conflicts[index] = .init(
            kind: "dependency", change: "\(say(index)) (depends on the \(fate) \(say(parent)))",
            replaced: false)
          plan.dropped.insert(index)
          break
        }
      }
    }

    // 2. Suspects removed whose cascade would remove rows here the changeset keeps.
    for (index, change) in changes.enumerated()
    where change.operation == .delete && change.table == "animals" {
      guard let id = change.old[try column("animals", "id")] ?? nil else { continue }
      var lost: [String] = []
      var own: [Int] = []
      for reference in Self.references where reference.parent == "animals" && reference.cascades {
        let at = try column(reference.table, reference.column)
        let deletes = changes.indices.filter {
          changes[$0].table == reference.table && changes[$0].operation == .delete
            && changes[$0].old[at] == id
        }
        own += deletes
        for row in try rows(reference.table, where: reference.column, is: id) {
          let removed = try deletes.contains { try same(reference.table, changes[$0].old, row) }
          if !removed { lost.append(try describer.row(reference.table, row)) }
        }
      }
      guard !lost.isEmpty else { continue }
      plan.conflicts[index] = .init(
        kind: "cascade",
        change: "\(say(index)) (its cascade removes here: " + lost.joined(separator: "; ") + ")",
        replaced: policy == .replace)
      if policy == .skip {
        plan.dropped.insert(index)
        for child in own where words[child] != nil {
          plan.dropped.insert(child)
          plan.conflicts[child] = .init(
            kind: "dependency", change: "\(say(child)) (depends on the skipped \(say(index)))",
            replaced: false)
        }
      }
    }
    return plan
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
      Self.references.contains(where: {
        $0.table == change.table && $0.column == "animal_id" && $0.cascades
      }), let animal = change.old.first ?? nil, removedAnimals.contains(animal)
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
