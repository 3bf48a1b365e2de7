import SQLiteKit

extension Statement {
  /// Steps the statement to its end, turns each row into a record, and hands the records to
  /// `body` a page at a time, so a listing holds one page however many rows there are.
  ///
  /// - Parameters:
  ///   - size: Records per page (1 or more).
  ///   - limit: How many rows to read at most; `nil` for all of them.
  ///   - record: Reads one row; what it throws (a stored value outside the domain) stops the
  ///     walk.
  ///   - body: Receives each page, never an empty one.
  /// - Throws: `SQLiteError` from stepping, or what `record` or `body` throws.
  func forEachPage<Record>(
    size: Int, limit: Int? = nil, record: (Row) throws -> Record,
    _ body: ([Record]) throws -> Void
  ) throws {
    var page: [Record] = []
    page.reserveCapacity(max(size, 1))
    var remaining = limit ?? .max
    while remaining > 0, let row = try nextRow() {
      remaining -= 1
      page.append(try record(row))
      if page.count >= size {
        try body(page)
        page.removeAll(keepingCapacity: true)
      }
    }
    if !page.isEmpty { try body(page) }
  }
}
