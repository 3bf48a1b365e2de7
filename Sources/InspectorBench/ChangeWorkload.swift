import CSQLite
import CaseStore
import Foundation

/// `update` and `delete`: what the case history costs when stored suspects change, through the
/// repository as inspector's commands change them (README "Performance"), on a case file of n
/// generated suspects with the history's triggers and on the same file without them
/// (``HistoryCost/measure(workload:writes:repetitions:files:start:body:check:)``).
///
/// Both files start as a copy of one made outside the timing: the seed fruits, then the n
/// suspects with favourites and interviews imported in one change set (so the file with the
/// history holds their inserts), vacuumed.
///
/// - `update`: every suspect's suspicion level and alibi changed (`level` and `alibi`), one
///   change set: 2 n changes.
/// - `delete`: every suspect removed (`animal remove`), with the cascade to favourites and
///   interview rows, one change set: every row of those tables is one change.
enum ChangeWorkload {
  /// A stored suspect as the workloads start from it.
  struct Stored {
    var id: Int64
    /// The stored level, or `nil` when it has none.
    var level: Double?
  }

  static func update(suspects count: Int, repetitions: Int, log: (String) -> Void) throws
    -> HistoryCost
  {
    let files = try ScratchCaseFiles(workload: "update")
    defer { files.removeAll() }
    let bases = try self.bases(suspects: count, files: files, log: log)
    let stored = suspects(in: bases.with)
    // A level that differs from the stored one, so that every write is a change.
    let changes = stored.map { suspect -> (id: Int64, level: SuspicionLevel, alibi: String) in
      let old = suspect.level.map { Int(($0 * 100).rounded()) }
      let level = SuspicionLevel(Double(old.map { ($0 + 37) % 101 } ?? 37) / 100)!
      return (suspect.id, level, "Changed my story, version \(suspect.id)")
    }
    let last = changes[changes.count - 1]
    return try HistoryCost.measure(
      workload: "update", writes: 2 * changes.count, repetitions: repetitions, files: files,
      start: { try files.copy(of: $0 ? bases.with : bases.without) },
      body: { database in
        try database.write(nil) { db in
          for change in changes {
            try db.suspects.setSuspicionLevel(id: change.id, change.level)
            try db.suspects.setAlibi(id: change.id, change.alibi)
          }
        }
      },
      check: { database in
        let suspect = try database.read { try $0.suspects.suspect(id: last.id) }
        guard suspect?.suspicionLevel == last.level, suspect?.alibi == last.alibi else {
          throw BenchFailure(description: "update: suspect \(last.id) was not changed")
        }
      })
  }

  static func delete(suspects count: Int, repetitions: Int, log: (String) -> Void) throws
    -> HistoryCost
  {
    let files = try ScratchCaseFiles(workload: "delete")
    defer { files.removeAll() }
    let bases = try self.bases(suspects: count, files: files, log: log)
    let ids = suspects(in: bases.with).map(\.id)
    // Every row the removals delete, the cascaded ones included, is a recorded change.
    let rows = rowCount(
      in: bases.with,
      tables: ["animals", "favorite_fruits", "alibis", "sleep_schedules", "suspicion_levels"])
    return try HistoryCost.measure(
      workload: "delete", writes: rows, repetitions: repetitions, files: files,
      start: { try files.copy(of: $0 ? bases.with : bases.without) },
      body: { database in
        try database.write(nil) { db in for id in ids { try db.suspects.remove(id: id) } }
      },
      check: { database in
        guard try database.read({ try $0.suspects.all() }).isEmpty else {
          throw BenchFailure(description: "delete: suspects are left")
        }
      })
  }

  /// The two starting files: n generated suspects imported in one change set into a fresh
  /// file with the history's triggers and into one without them, both vacuumed.
  static func bases(suspects count: Int, files: ScratchCaseFiles, log: (String) -> Void) throws
    -> (with: String, without: String)
  {
    let csv = Array(ImportWorkload.csvText((1...count).map { SuspectGenerator.suspect($0) }).utf8)
    func base(history: Bool) throws -> String {
      let path = try files.fresh(history: history)
      let database = try CaseDatabase(path: path, access: .readWrite)
      let report = try database.write(nil) {
        try $0.importCase(CaseTransfer.parse(csv), onConflict: .fail, dryRun: false)
      }
      guard report.suspects.added == count else {
        throw BenchFailure(description: "the starting file holds the wrong suspects")
      }
      _ = ScratchCaseFiles.vacuumedBytes(path)
      return path
    }
    let start = ContinuousClock.now
    let bases = (try base(history: true), try base(history: false))
    log(
      "\(count) suspects imported into the starting files in \(formatted(seconds(since: start), digits: 1)) s"
    )
    return bases
  }

  /// The number of rows of `tables` in the file at `path`.
  static func rowCount(in path: String, tables: [String]) -> Int {
    let raw = RawSQLite(path: path, readOnly: true)
    var rows = 0
    for table in tables {
      let statement = raw.prepare("SELECT count(*) FROM \(table)")
      guard sqlite3_step(statement) == SQLITE_ROW else { raw.fail(table) }
      rows += Int(sqlite3_column_int64(statement, 0))
      sqlite3_finalize(statement)
    }
    return rows
  }

  /// The suspects of the file at `path`, in id order, with their levels.
  static func suspects(in path: String) -> [Stored] {
    let raw = RawSQLite(path: path, readOnly: true)
    let statement = raw.prepare(
      """
      SELECT a.id, l.level FROM animals a LEFT JOIN suspicion_levels l ON l.animal_id = a.id
      ORDER BY a.id
      """)
    defer { sqlite3_finalize(statement) }
    var suspects: [Stored] = []
    while sqlite3_step(statement) == SQLITE_ROW {
      suspects.append(
        Stored(
          id: sqlite3_column_int64(statement, 0),
          level: sqlite3_column_type(statement, 1) == SQLITE_NULL
            ? nil : sqlite3_column_double(statement, 1)))
    }
    return suspects
  }
}
