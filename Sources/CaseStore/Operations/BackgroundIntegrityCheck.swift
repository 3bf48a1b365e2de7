import Dispatch
import SQLiteKit

/// `PRAGMA integrity_check` (or `quick_check`) running on its own connection and thread while
/// the caller runs the other checks, so that `check` and `restore` take about as long as the integrity check alone
/// on a machine with two cores (docs/operations.md "check").
///
/// The check owns its connection from start to end: the caller only waits for the result or,
/// when it gives up first (an error of its own), interrupts the check and waits for the thread
/// to let go of it.
final class BackgroundIntegrityCheck: @unchecked Sendable {
  // @unchecked: `result` is written once, on the background thread, before `done` is signalled,
  // and read only after `done` has been waited for, which orders the two. `connection` is used
  // by the background thread only; the caller's `interrupt()` is SQLite's thread-safe call.

  private let connection: Connection
  private var result: Result<[String], any Error>?
  private let done = DispatchSemaphore(value: 0)
  private var waited = false

  /// Starts `integrity_check` (`quick_check` when `quick`) on `connection`, which nothing else
  /// may use from now on; once it is done (and its result can be waited for), the thread helps
  /// with `jobs`, if any, on the same connection (``SharedCheckJobs/help(on:)``).
  init(on connection: Connection, quick: Bool = false, then jobs: SharedCheckJobs? = nil) {
    self.connection = connection
    DispatchQueue.global().async { [self] in
      result = Result {
        quick ? try self.connection.quickCheck() : try self.connection.integrityCheck()
      }
      done.signal()
      jobs?.help(on: self.connection)
    }
  }

  deinit {
    if !waited {
      connection.interrupt()
      done.wait()
    }
  }

  /// Waits for the check and returns its messages (`["ok"]` for a sound file).
  ///
  /// - Throws: What `integrityCheck()` threw (a file too damaged to check).
  func messages() throws -> [String] {
    if !waited {
      done.wait()
      waited = true
    }
    return try result!.get()
  }
}
