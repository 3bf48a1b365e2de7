import Dispatch
import SQLiteKit
import Synchronization

/// Independent read-only checks that two connections share, each job taken once by whichever
/// connection is free first, so that `check` keeps both cores busy to the end: its second
/// connection joins in once its `integrity_check` is done, the first once the history's pass
/// is (docs/operations.md "check").
///
/// The jobs wait until ``open()``: the caller decides first whether they apply (a case file
/// older than the rules they check gets none of them). Findings come back in the jobs' order,
/// whoever ran each.
final class SharedCheckJobs: Sendable {
  /// One check: its findings on the connection it is handed, which it reads and never
  /// changes. It does not throw: a check that cannot run reports that as its finding.
  typealias Job = @Sendable (Connection) -> [CheckFinding]

  private struct State {
    /// Whether jobs may be taken: set by ``open()``; ``cancel()`` ends the queue instead.
    var open = false
    /// The index of the next job to take; the queue is empty at `jobs.count`.
    var next = 0
    /// Each job's findings, once run.
    var results: [[CheckFinding]?]
  }

  private let jobs: [Job]
  private let state: Mutex<State>
  /// Entered when a job is taken and left when it is done, so that the caller can wait for the
  /// jobs the other connection took.
  private let running = DispatchGroup()

  /// A queue of `jobs`, closed until ``open()``.
  init(_ jobs: [Job]) {
    self.jobs = jobs
    state = Mutex(State(results: Array(repeating: nil, count: jobs.count)))
  }

  /// Lets the jobs be taken.
  func open() {
    state.withLock { $0.open = true }
  }

  /// Empties the queue: jobs not taken yet are never run (the caller gave up, or they do not
  /// apply). A job already running finishes.
  func cancel() {
    state.withLock { $0.next = jobs.count }
  }

  /// Runs jobs on `connection` until none is left to take; returns at once while the queue is
  /// not open. Call it on the thread that owns `connection`.
  func help(on connection: Connection) {
    while let index = take() {
      let found = jobs[index](connection)
      state.withLock { $0.results[index] = found }
      running.leave()
    }
  }

  /// Opens the queue, runs what is left on `connection`, waits for the jobs the other
  /// connection took, and returns every job's findings in the jobs' order (the findings of jobs
  /// cancelled before they ran are missing).
  func findings(helping connection: Connection) -> [CheckFinding] {
    open()
    help(on: connection)
    running.wait()
    return state.withLock { $0.results.compactMap { $0 }.flatMap { $0 } }
  }

  /// The next job's index, marked taken (and counted as running), or `nil`.
  private func take() -> Int? {
    state.withLock { state in
      guard state.open, state.next < jobs.count else { return nil }
      defer { state.next += 1 }
      running.enter()
      return state.next
    }
  }
}
