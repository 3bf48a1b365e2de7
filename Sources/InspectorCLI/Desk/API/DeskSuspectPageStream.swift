import CaseStore
import Foundation
import HTTPKit

/// The body of `GET /api/suspects` sent while the page is read (docs/web-desk.md "API"):
/// `{"suspects":[` and the first suspects, then ``batchSize`` suspects a chunk, then
/// `],"next":CURSOR or null}` and a newline; the same bytes as the page read whole
/// (``DeskAPI/suspectPage(_:next:)``).
///
/// The whole page is read in one read transaction of the pool (``CaseDatabasePool/openRead()``),
/// held from ``init(pool:filter:after:batchSize:)`` to the last chunk (or ``close()``), so
/// every suspect of a page comes from one snapshot whatever is committed meanwhile. The first
/// chunk is read in the initializer: a request refused by the case store (an unknown fruit, a
/// broken row) throws there and is answered with a JSON error and its status; a failure after
/// the first byte closes the connection without the last chunk (``failed``), so the client
/// sees a broken response rather than a cut page.
final class DeskSuspectPageStream: HTTPBodyStream, @unchecked Sendable {
  // @unchecked: `read`, `cursor`, `pending`, `written` and `failedNow` are used under `lock`;
  // the server calls `next()` from one thread at a time.

  // MARK: - Properties

  /// Suspects a chunk: a page of 50 leaves in two chunks and its end.
  static let defaultBatchSize = 25

  /// Suspects read for each chunk.
  let batchSize: Int
  private let lock = NSLock()
  private var read: CasePoolRead?
  private var cursor: SuspectPageCursor<Reading>?
  private var pending: [UInt8]?
  private var written = 0
  private var failedNow = false

  // MARK: - Init

  /// Opens a read of `pool` and reads the first `batchSize` suspects of the page `filter` and
  /// `position` select (``SuspectRepository/pageCursor(matching:after:)``).
  ///
  /// - Throws: What opening the read or reading the first suspects throws (the read is ended
  ///   then).
  init(
    pool: CaseDatabasePool, filter: SuspectFilter, after position: SuspectPosition?,
    batchSize: Int = defaultBatchSize
  ) throws {
    self.batchSize = max(batchSize, 1)
    let read = try pool.openRead()
    do {
      let cursor = try read.reader.suspects.pageCursor(matching: filter, after: position)
      var output = UTF8Buffer()
      output.append("{\"suspects\":[")
      try Self.append(cursor.next(upTo: self.batchSize), after: 0, to: &output)
      written = cursor.count
      self.cursor = cursor
      self.read = read
      pending = finishIfRead(output)
    } catch {
      read.end()
      throw error
    }
  }

  deinit {
    end()
  }

  // MARK: - HTTPBodyStream

  /// The next chunk: the one read in the initializer, then ``batchSize`` more suspects (with
  /// the page's end once it is read whole); `nil` after the end, or on a failure (``failed``).
  func next() -> [UInt8]? {
    lock.lock()
    defer { lock.unlock() }
    if let chunk = pending {
      pending = nil
      return chunk
    }
    guard let cursor else { return nil }
    do {
      var output = UTF8Buffer()
      try Self.append(cursor.next(upTo: batchSize), after: written, to: &output)
      written = cursor.count
      return finishIfRead(output)
    } catch {
      failedNow = true
      end()
      return nil
    }
  }

  /// Whether the page could not be read whole: the response is broken off.
  var failed: Bool { lock.withLock { failedNow } }

  /// Ends the read, when the response is sent or the client went away.
  func close() {
    lock.withLock { end() }
  }

  // MARK: - Private helpers

  /// `output`, with the page's end (and the read ended) when the cursor has read it whole.
  private func finishIfRead(_ output: UTF8Buffer) -> [UInt8] {
    guard let cursor, cursor.isFinished else { return output.bytes }
    var output = output
    output.append("],\"next\":")
    (cursor.next?.cursor).writeJSON(to: &output)
    output.append("}\n")
    end()
    return output.bytes
  }

  /// Releases the cursor's statements, then ends the read transaction.
  private func end() {
    cursor = nil
    read?.end()
    read = nil
  }

  /// Appends `suspects` as array elements, the first one after `count` written before.
  private static func append(_ suspects: [Suspect], after count: Int, to output: inout UTF8Buffer) {
    for (index, suspect) in suspects.enumerated() {
      if count + index > 0 { output.append(byte: UInt8(ascii: ",")) }
      SuspectPresenter.json.write(suspect, to: &output, pretty: false, indent: 0)
    }
  }
}
