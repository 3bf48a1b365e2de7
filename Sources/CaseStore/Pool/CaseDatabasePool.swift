import Foundation

/// Connections to one case file shared by concurrent requests (docs/web-desk.md "The server"):
/// reads run on any free read connection, in their own read transaction, and never wait for a
/// writer (WAL); writes run one at a time on the one write connection.
///
/// SKELETON: one connection behind a lock; the api-read helper replaces it with a real pool.
public final class CaseDatabasePool: @unchecked Sendable {
  // @unchecked: every use of `database` holds `lock`.
  private let lock = NSLock()
  private let database: CaseDatabase

  /// Opens the case file at `path` for reading and writing (or only reading when `readOnly`).
  ///
  /// - Throws: What ``CaseDatabase/init(checkingFileAt:access:busyTimeout:)`` throws.
  public init(path: String, readOnly: Bool, busyTimeout: Int = 5000) throws {
    database = try CaseDatabase(
      checkingFileAt: path, access: readOnly ? .readOnly : .readWrite, busyTimeout: busyTimeout)
  }

  /// Runs `body` in one read transaction (``CaseDatabase/read(_:)``).
  public func read<T>(_ body: (CaseReader) throws -> T) throws -> T {
    lock.lock()
    defer { lock.unlock() }
    return try database.read(body)
  }

  /// Runs `body` as one change set (``CaseDatabase/write(_:_:)``).
  public func write<T>(_ attribution: ChangeAttribution?, _ body: (CaseWriter) throws -> T)
    throws -> T
  {
    lock.lock()
    defer { lock.unlock() }
    return try database.write(attribution, body)
  }
}
