import Dispatch
import Foundation
import SQLiteKit
import Synchronization
import Testing

@testable import CaseStore

/// `SharedCheckJobs`, the queue `check`'s two connections share the case rules' checks through
/// (docs/operations.md "check"), and `check` itself with and without the sharing.
@Suite struct SharedCheckJobsTests {
  /// How often each job ran, shared with the threads that run them.
  private final class Runs: Sendable {
    private let counts: Mutex<[Int]>
    init(_ count: Int) { counts = Mutex([Int](repeating: 0, count: count)) }
    func ran(_ index: Int) { counts.withLock { $0[index] += 1 } }
    var all: [Int] { counts.withLock { $0 } }
  }

  /// Jobs that each report their own index and count how often they ran.
  private func countedJobs(_ count: Int, runs: Runs) -> [SharedCheckJobs.Job] {
    (0..<count).map { index in
      { _ in
        runs.ran(index)
        return [CheckFinding(.note, .history, "job \(index)")]
      }
    }
  }

  @Test func twoConnectionsRunEachJobOnceAndTheFindingsKeepTheJobsOrder() throws {
    let runs = Runs(40)
    let jobs = SharedCheckJobs()
    jobs.open(countedJobs(40, runs: runs))
    let other = DispatchGroup()
    DispatchQueue.global().async(group: other) {
      // The second connection is its thread's own, as `check`'s is; should it fail to open,
      // the first runs every job and the expectations below still hold.
      if let second = try? Connection(path: ":memory:") { jobs.help(on: second) }
    }
    let findings = jobs.findings(helping: try Connection(path: ":memory:"))
    other.wait()
    #expect(findings.map { $0.message } == (0..<40).map { "job \($0)" })
    #expect(runs.all == [Int](repeating: 1, count: 40))
  }

  @Test func aClosedQueueGivesNothingToHelpWithAndACancelledOneRunsNothing() throws {
    let runs = Runs(3)
    let jobs = SharedCheckJobs()
    let connection = try Connection(path: ":memory:")
    // Before open(_:): the other connection finds nothing to take.
    jobs.help(on: connection)
    #expect(runs.all == [0, 0, 0])
    jobs.cancel()
    jobs.open(countedJobs(3, runs: runs))
    #expect(jobs.findings(helping: connection).isEmpty)
    #expect(runs.all == [0, 0, 0])
  }

  /// The case rules' findings are the same, in the same place, whether `check` runs them on its
  /// one connection or shares them with the second one that ran `integrity_check`.
  @Test func checkAtAPathListsTheSameFindingsAsOneConnectionDoes() throws {
    try withTemporaryFile { path in
      let database = try CaseDatabase(path: path, access: .create)
      try database.write(nil) { try SeedCase.load(into: $0) }
      let writer = try Connection(path: path)
      try writer.execute(
        """
        DROP TRIGGER animals_keys_after_update;
        DROP TRIGGER animals_level_before_update;
        UPDATE animals SET species_key = 'wolf' WHERE id = 4;
        UPDATE animals SET suspicion_level = 0.9 WHERE id = 1;
        DROP TRIGGER history_animals_after_update;
        UPDATE animals SET name = 'Renamed' WHERE id = 2;
        """)
      let shared = try CaseFile.check(at: path)
      let alone = try CaseFile.check(Connection(path: path, mode: .readOnly))
      #expect(shared.findings == alone.findings)
      let rules = shared.findings.filter { $0.kind == .derivedColumn }.map { $0.row }
      #expect(rules == ["id 2", "id 4", "id 1"])
      let kinds = shared.findings.map { $0.kind.rawValue }
      // After the schema's findings (the dropped triggers) and before the history's (the
      // rename it did not record), as ``CaseFile/check(_:)`` lists them.
      #expect(kinds.lastIndex(of: "schema")! < kinds.firstIndex(of: "derived_column")!)
      #expect(kinds.lastIndex(of: "derived_column")! < kinds.firstIndex(of: "history")!)
    }
  }
}
