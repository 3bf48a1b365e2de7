import CSQLite
import CaseStore
import Foundation

/// Fresh case files for the write workloads (`insert`, `import`): each holds the schema and the
/// seed fruits, made outside the timing, in a private directory of its own that ``removeAll()``
/// deletes.
final class ScratchCaseFiles {
  /// The directory of the files: `$TMPDIR/inspector-bench-<workload>-<pid>`.
  let directory: String
  private var made = 0

  /// Creates the directory for `workload`.
  ///
  /// - Throws: When the directory cannot be created.
  init(workload: String) throws {
    directory = NSTemporaryDirectory() + "/inspector-bench-\(workload)-\(getpid())"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
  }

  /// A new case file (schema and seed fruits); without `history`, the history's triggers
  /// (`history_*`) are dropped from it, so its writes record nothing.
  ///
  /// - Returns: Its path.
  /// - Throws: When the file cannot be created.
  func fresh(history: Bool = true) throws -> String {
    made += 1
    let path = "\(directory)/run\(made).sqlite"
    let database = try CaseDatabase(path: path, access: .create)
    try database.write(nil) { db in
      for fruit in SeedCase.fruits {
        try db.fruits.add(name: fruit.name, color: fruit.color)
      }
    }
    if !history {
      let raw = RawSQLite(path: path)
      for name in raw.triggerNames(prefix: "history_") { raw.execute("DROP TRIGGER \(name)") }
    }
    return path
  }

  /// The write workloads' baseline: on a fresh file, `write` runs through hand-written C API
  /// inserts (``RawSuspectWriter``) in one transaction, timed from `BEGIN` to `COMMIT`; the file
  /// is deleted afterwards.
  ///
  /// - Throws: When the file cannot be created.
  func rawInsertTiming(_ write: (RawSuspectWriter) -> Void) throws -> Timing {
    let path = try fresh()
    defer { remove(path) }
    let raw = RawSQLite(path: path)
    return time {
      raw.execute("BEGIN IMMEDIATE")
      write(RawSuspectWriter(raw))
      raw.execute("COMMIT")
    }
  }

  /// A new file holding a copy of the case file at `base` (closed, its WAL checkpointed).
  ///
  /// - Returns: Its path.
  /// - Throws: When the file cannot be copied.
  func copy(of base: String) throws -> String {
    made += 1
    let path = "\(directory)/run\(made).sqlite"
    try FileManager.default.copyItem(atPath: base, toPath: path)
    return path
  }

  /// The case file's size in bytes: page count times page size (the WAL's pages included),
  /// first rebuilt without free pages when `vacuum`; then a checkpoint empties the WAL, so the
  /// main file alone holds the case for ``copy(of:)``.
  static func bytes(_ path: String, vacuum: Bool) -> Int {
    let raw = RawSQLite(path: path)
    if vacuum { raw.execute("VACUUM") }
    let statement = raw.prepare(
      "SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()")
    guard sqlite3_step(statement) == SQLITE_ROW else { raw.fail("page_count") }
    let bytes = Int(sqlite3_column_int64(statement, 0))
    sqlite3_finalize(statement)
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return bytes
  }

  /// ``bytes(_:vacuum:)`` after `VACUUM`.
  static func vacuumedBytes(_ path: String) -> Int { bytes(path, vacuum: true) }

  /// Deletes the file at `path` with its `-wal` and `-shm` files.
  func remove(_ path: String) {
    for suffix in ["", "-wal", "-shm"] {
      try? FileManager.default.removeItem(atPath: path + suffix)
    }
  }

  /// Deletes the directory and everything in it.
  func removeAll() {
    try? FileManager.default.removeItem(atPath: directory)
  }
}
