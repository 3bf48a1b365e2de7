import SQLiteKit

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

    /// Bytes the file shrank by: pages given back to the file system times the page size.
    public var bytesFreed: Int { max(0, pagesBefore - pagesAfter) * pageSize }
  }

  /// Refreshes the query planner's statistics (`ANALYZE`, then `PRAGMA optimize`) and, with
  /// `vacuum`, rebuilds the file without its free pages (`VACUUM`), then truncates the WAL so
  /// that the file system gets the space back at once.
  ///
  /// `VACUUM` needs every other connection's write lock and, to finish, no reader of an older
  /// snapshot in the way of the checkpoint: it waits as long as the busy timeout says, then
  /// fails with `SQLiteError` `ResultCode.busy` and leaves the file as it was (it runs as
  /// one transaction). Reading and writing commands of other processes wait for it in turn.
  ///
  /// - Parameter vacuum: Also run `VACUUM`.
  /// - Returns: Page counts before and after.
  /// - Throws: `SQLiteError` (`ResultCode.busy` past the busy timeout, `ResultCode.full`
  ///   when the disk has no room for the rebuilt copy).
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
    try connection.execute("ANALYZE")
    try connection.execute("PRAGMA optimize")
    if vacuum {
      try connection.execute("VACUUM")
      try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
    report.pagesAfter = try pragma("page_count")
    report.freePagesAfter = try pragma("freelist_count")
    return report
  }
}
