import CaseStore
import Foundation
import HTTPKit

extension DeskAPI {
  /// `GET /api/events`: server-sent events (docs/web-desk.md "Live changes and conflicting
  /// edits"): `event: change` with `data: {"data_version":N}` whenever anyone has committed
  /// to the case file, and a `: heartbeat` comment every 15 s, until the client goes away.
  func events(_ call: DeskCall) throws -> HTTPResponse {
    let stream = try DeskEventStream(pool: pool)
    return HTTPResponse(
      status: 200,
      headers: [
        HTTPField("Content-Type", "text/event-stream; charset=utf-8"),
        HTTPField("Cache-Control", "no-store"),
      ],
      body: .stream(stream))
  }
}

/// The event stream of one `/api/events` client: polls the pool's `PRAGMA data_version`
/// (``CaseDatabasePool/dataVersion()``, one connection shared by every stream) about every
/// ``pollInterval`` and sends `event: change` when it moved since this stream last looked;
/// a `: heartbeat` comment when nothing was sent for ``heartbeatInterval`` keeps proxies from
/// closing the connection. ``next()`` blocks on the connection's own thread; ``close()``, from
/// any thread, ends it within one poll, and so does a condition given to ``end(when:)`` once it
/// holds.
final class DeskEventStream: HTTPBodyStream, @unchecked Sendable {
  // @unchecked: `closed`, `started` and `version` are used under `condition`.

  // MARK: - Properties

  /// How often the file's data version is read.
  let pollInterval: TimeInterval
  /// How long without an event before a heartbeat.
  let heartbeatInterval: TimeInterval
  private let pool: CaseDatabasePool
  private let condition = NSCondition()
  private var closed = false
  private var started = false
  private var version: Int64
  private var endCondition: (@Sendable () -> Bool)?

  // MARK: - Init

  /// A stream over `pool`'s file, starting from its data version now.
  ///
  /// - Throws: `SQLiteError` when the data version cannot be read.
  init(
    pool: CaseDatabasePool, pollInterval: TimeInterval = 0.2, heartbeatInterval: TimeInterval = 15
  )
    throws
  {
    self.pool = pool
    self.pollInterval = pollInterval
    self.heartbeatInterval = heartbeatInterval
    version = try pool.dataVersion()
  }

  // MARK: - HTTPBodyStream

  /// The next event: first a `retry` line (browsers reconnect after 1 s), then a change, or a
  /// heartbeat; `nil` once closed or when the file cannot be read any more.
  func next() -> [UInt8]? {
    condition.lock()
    defer { condition.unlock() }
    if !started {
      started = true
      return Array("retry: 1000\n: connected\n\n".utf8)
    }
    let heartbeat = Date(timeIntervalSinceNow: heartbeatInterval)
    while !closed {
      let ended = endCondition
      condition.unlock()
      if let ended, ended() {
        condition.lock()
        closed = true
        return nil
      }
      let current = try? pool.dataVersion()
      condition.lock()
      guard let current else { return nil }
      if current != version {
        version = current
        return Array("event: change\ndata: {\"data_version\":\(current)}\n\n".utf8)
      }
      if Date() >= heartbeat { return Array(": heartbeat\n\n".utf8) }
      _ = condition.wait(until: min(heartbeat, Date(timeIntervalSinceNow: pollInterval)))
    }
    return nil
  }

  /// Ends the stream at the first poll where `condition` says `true` (asked about every
  /// ``pollInterval``, on the connection's thread): how the stream of a session that ended (its
  /// investigator signed out, or their token was revoked) is closed
  /// (``DeskApplication/route(_:)``).
  func end(when condition: @escaping @Sendable () -> Bool) {
    self.condition.withLock { endCondition = condition }
  }

  /// Called by the server when it stops: ends the stream at once, as ``close()`` does, so that
  /// a stop never waits for the next heartbeat.
  func cancel() {
    close()
  }

  /// Ends the stream: a ``next()`` waiting returns `nil`.
  func close() {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
  }
}
