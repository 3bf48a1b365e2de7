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
