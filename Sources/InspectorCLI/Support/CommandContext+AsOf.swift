import CaseStore
import CommandLineKit

extension CommandContext {
  /// Runs `body` on the case to read: the unit's own snapshot, or, with `--as-of`, the case as
  /// it stood then, rebuilt from its history (docs/history.md "As of") into a private
  /// in-memory case file and read in a unit of work of its own.
  ///
  /// - Parameters:
  ///   - db: The read handle of the command's unit of work.
  ///   - option: The `--as-of` option.
  ///   - body: The reads.
  /// - Returns: What `body` returns.
  /// - Throws: What ``CaseHistory/changeSet(asOf:)``, ``CaseHistory/rebuiltCase(asOf:)`` or
  ///   `body` throws.
  func reading<T>(
    _ db: CaseReader, asOf option: Option<String?>, _ body: (CaseReader) throws -> T
  ) throws -> T {
    guard let point = try self[option] else { return try body(db) }
    let history = db.history
    return try history.rebuiltCase(asOf: history.changeSet(asOf: point)).read(body)
  }
}
