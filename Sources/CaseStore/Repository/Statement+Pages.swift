import SQLiteKit

extension Statement {
  /// Steps the statement to its end, turns each row into a record, and hands the records to
  /// `body` a page at a time, so a listing holds one page however many rows there are.
  ///
  /// - Parameters:
  ///   - size: Records per page (1 or more).
  ///   - record: Reads one row; what it throws (a stored value outside the domain) stops the
  ///     walk.
  ///   - body: Receives each page, never an empty one.
  /// - Throws: `SQLiteError` from stepping, or what `record` or `body` throws.
  func forEachPage<Record>(
    size: Int, record: (Row) throws -> Record, _ body: ([Record]) throws -> Void
  ) throws {
    var page: [Record] = []
    page.reserveCapacity(max(size, 1))
    while let row = try nextRow() {
      page.append(try record(row))
      if page.count >= size {
        try body(page)
        page.removeAll(keepingCapacity: true)
      }
    }
    if !page.isEmpty { try body(page) }
  }
}
