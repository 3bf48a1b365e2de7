import Dispatch
import SQLiteKit
import Synchronization

/// Independent read-only checks that two connections share, each job taken once by whichever
/// connection is free first, so that `check` keeps both cores busy to the end: its second
/// connection joins in once its `integrity_check` is done, the first once the history's pass
/// is (docs/operations.md "check").
///
/// The queue is empty until ``open(_:)`` hands it the jobs: the caller decides first which
/// apply (by the file's schema version). Findings come back in the jobs' order, whoever ran
/// each.
final class SharedCheckJobs: Sendable {
  /// One check: its findings on the connection it is handed, which it reads and never
  /// changes. It does not throw: a check that cannot run reports that as its finding.
  typealias Job = @Sendable (Connection) -> [CheckFinding]

  private struct State {
    /// The jobs ``open(_:)`` handed over; none before.
    var jobs: [Job] = []
    /// The index of the next job to take; the queue is empty at `jobs.count`.
    var next = 0
    /// Each job's findings, once run.
    var results: [[CheckFinding]?] = []
    /// Set by ``cancel()``: no job is taken any more.
    var cancelled = false
  }

  private let state = Mutex(State())
  /// Entered when a job is taken and left when it is done, so that the caller can wait for the
  /// jobs the other connection took.
  private let running = DispatchGroup()

  /// An empty queue, until ``open(_:)``.
  init() {}

  /// Hands the queue `jobs`, once: from now on either connection may take them.
  func open(_ jobs: [Job]) {
    state.withLock { state in
      state.jobs = jobs
      state.results = Array(repeating: nil, count: jobs.count)
    }
  }

  /// Ends the queue: jobs not taken yet are never run (the caller gave up, or none apply). A
  /// job already running finishes.
  func cancel() {
    state.withLock { $0.cancelled = true }
  }

  /// Runs jobs on `connection` until none is left to take; returns at once while the queue has
  /// not been opened. Call it on the thread that owns `connection`.
  func help(on connection: Connection) {
    while let (index, job) = take() {
      let found = job(connection)
      state.withLock { $0.results[index] = found }
      running.leave()
    }
  }

  /// Runs what is left on `connection`, waits for the jobs the other connection took, and
  /// returns every job's findings in the jobs' order (the findings of jobs cancelled before
  /// they ran are missing).
  func findings(helping connection: Connection) -> [CheckFinding] {
    help(on: connection)
    running.wait()
    return state.withLock { $0.results.compactMap { $0 }.flatMap { $0 } }
  }

  /// The next job and its index, marked taken (and counted as running), or `nil`.
  private func take() -> (Int, Job)? {
    state.withLock { state in
      guard !state.cancelled, state.next < state.jobs.count else { return nil }
      defer { state.next += 1 }
      running.enter()
      return (state.next, state.jobs[state.next])
    }
  }
}
