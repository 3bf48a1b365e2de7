import SQLiteKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension CaseDatabase {
  /// What ``optimize(vacuum:)`` did to the file.
  public struct OptimizeReport: Equatable, Sendable {
    /// Bytes per page (`PRAGMA page_size`).
    public var pageSize: Int
    /// Pages in the file before (`PRAGMA page_count`).
    public var pagesBefore: Int
    /// Free pages before (`PRAGMA freelist_count`).
    public var freePagesBefore: Int
    /// Pages in the file after.
    public var pagesAfter: Int
    /// Free pages after.
    public var freePagesAfter: Int
    /// Whether `VACUUM` ran.
    public var vacuumed: Bool
    /// Bytes the database file and its `-wal` took on disk before (`nil` for an in-memory
    /// database).
    public var bytesOnDiskBefore: Int?
    /// Bytes the database file and its `-wal` take on disk after (`nil` for an in-memory
    /// database).
    public var bytesOnDiskAfter: Int?

    /// Bytes given back to the file system: how much the database file and its `-wal` shrank
    /// together, never negative (`ANALYZE` may add a page). The page counts are what SQLite
    /// sees, which a WAL not yet copied back can make smaller than the file; without files,
    /// the page counts' difference.
    public var bytesFreed: Int {
      guard let bytesOnDiskBefore, let bytesOnDiskAfter else {
        return max(0, pagesBefore - pagesAfter) * pageSize
      }
      return max(0, bytesOnDiskBefore - bytesOnDiskAfter)
    }
  }

  /// Refreshes the query planner's statistics (`ANALYZE`, then `PRAGMA optimize`) and, with
  /// `vacuum`, rebuilds the file without its free pages (`VACUUM`), then truncates the WAL so
  /// that the file system gets the space back at once.
  ///
  /// `VACUUM` needs every other connection's write lock: it waits as long as the busy timeout
  /// says, then fails with `SQLiteError` `ResultCode.busy` and leaves the file as it was (it
  /// runs as one transaction). Reading and writing commands of other processes wait for it in
  /// turn. The checkpoint that gives the space back also waits, as long as the busy timeout
  /// says, for readers of an older snapshot; when one is still reading, the rebuilt database
  /// stays in the `-wal` file, the file has not shrunk, and this throws (docs/operations.md
  /// "optimize"). It is the one `TRUNCATE` checkpoint `inspector` runs, because giving the
  /// space back is what `vacuum` is for; a replicating Litestream is such a reader, so run it
  /// with replication stopped (docs/operations.md "Checkpoints").
  ///
  /// - Parameter vacuum: Also run `VACUUM`.
  /// - Returns: Page counts before and after.
  /// - Throws: `SQLiteError` (`ResultCode.busy` past the busy timeout, for `VACUUM` or for
  ///   its checkpoint, which `PRAGMA wal_checkpoint` reports as busy or as frames left
  ///   uncopied; `ResultCode.full` when the disk has no room for the rebuilt copy).
  /// - SQLite: <https://sqlite.org/lang_analyze.html>,
  ///   <https://sqlite.org/pragma.html#pragma_optimize>, <https://sqlite.org/lang_vacuum.html>
  public func optimize(vacuum: Bool) throws -> OptimizeReport {
    func pragma(_ name: String) throws -> Int {
      Int(try connection.scalar("PRAGMA \(name)")?.integerValue ?? 0)
    }
    var report = OptimizeReport(
      pageSize: try pragma("page_size"), pagesBefore: try pragma("page_count"),
      freePagesBefore: try pragma("freelist_count"), pagesAfter: 0, freePagesAfter: 0,
      vacuumed: vacuum)
    report.bytesOnDiskBefore = bytesOnDisk()
    // An empty write re-folds the keys other clients wrote and indexes their records for search.
    try write {}
    try connection.execute("ANALYZE")
    try connection.execute("PRAGMA optimize")
    if vacuum {
      try connection.execute("VACUUM")
      try checkpointAfterVacuum()
    }
    report.pagesAfter = try pragma("page_count")
    report.freePagesAfter = try pragma("freelist_count")
    report.bytesOnDiskAfter = bytesOnDisk()
    return report
  }

  /// The sizes of the database file and its `-wal` together; `nil` when there is no file.
  private func bytesOnDisk() -> Int? {
    let path = connection.path
    guard path != ":memory:", !path.isEmpty else { return nil }
    var total = 0
    for file in [path, path + "-wal"] {
      var info = stat()
      if stat(file, &info) == 0 { total += Int(info.st_size) } else if file == path { return nil }
    }
    return total
  }

  /// Copies the WAL back into the database file and truncates it, so the file shrinks.
  ///
  /// `PRAGMA wal_checkpoint(TRUNCATE)` does not fail when a reader blocks it: it returns one
  /// row (busy, frames in the log, frames copied), with busy 1 or fewer frames copied than
  /// logged (both -1 when the file is not in WAL mode).
  ///
  /// - Throws: `SQLiteError` `ResultCode.busy` naming the frames still in the `-wal` file.
  /// - SQLite: <https://sqlite.org/pragma.html#pragma_wal_checkpoint>
  private func checkpointAfterVacuum() throws {
    let checkpoint = try connection.prepare("PRAGMA wal_checkpoint(TRUNCATE)")
    guard try checkpoint.step() else { return }
    let busy = checkpoint.int64(at: 0)
    let logged = checkpoint.int64(at: 1)
    let copied = checkpoint.int64(at: 2)
    guard busy != 0 || copied < logged else { return }
    throw SQLiteError(
      extendedCode: .busy,
      message: "VACUUM rebuilt the database, but another connection reading an older snapshot"
        + " kept the checkpoint from copying it back (\(max(0, logged - copied)) of \(logged)"
        + " WAL frames left): the file has not shrunk yet and its space is not given back;"
        + " run 'inspector optimize --vacuum' again once that reader has finished (Litestream"
        + " reads the file as long as it replicates it: stop it first)")
  }
}
