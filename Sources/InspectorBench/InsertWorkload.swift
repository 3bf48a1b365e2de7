import CSQLite
import CaseStore
import Foundation

/// `insert`: n suspects with 3 favourites each into a new case file holding the seed fruits,
/// through ``SuspectRepository/add(contentsOf:)`` against hand-written C API inserts of the
/// same rows in one transaction (``RawSuspectWriter``).
///
/// Both sides start from an identical fresh file (schema and fruits made outside the timing)
/// and time everything from the first statement to the commit. Both write through the whole
/// schema, the case history's triggers included.
///
/// It also reports what the history costs: the same repository writes, interleaved, on a fresh
/// file with the history's triggers (`history_*`) and on one with them dropped, per row
/// written, and the bytes each recorded row adds to the file (``HistoryCost``).
enum InsertWorkload {
  static func run(suspects count: Int, repetitions: Int, log: (String) -> Void) throws
    -> Measurement
  {
    let suspects = (1...count).map { SuspectGenerator.suspect($0).identity }
    let files = try ScratchCaseFiles(workload: "insert")
    defer { files.removeAll() }
    var checked = false
    let times = try interleaved(
      repetitions: repetitions,
      ours: {
        let path = try files.fresh()
        defer { files.remove(path) }
        let database = try CaseDatabase(path: path, access: .readWrite)
        let seconds = try time {
          _ = try database.write(nil) { try $0.suspects.add(contentsOf: suspects) }
        }
        if !checked {
          // Same rows as the baseline writes: spot-check one suspect end to end.
          let stored = try database.read { try $0.suspects.find("Species \(count)") }
          guard stored.favoriteFruits == suspects[count - 1].favoriteFruits else {
            throw BenchFailure(description: "insert: suspect \(count) stored wrongly")
          }
          checked = true
        }
        return seconds
      },
      baseline: {
        try files.rawInsertTiming { writer in for suspect in suspects { writer.write(suspect) } }
      })
    let writes = suspects.reduce(0) { $0 + 1 + $1.favoriteFruits.count }
    let history = try HistoryCost.measure(
      workload: "insert", writes: writes, repetitions: repetitions, files: files,
      start: { try files.fresh(history: $0) },
      body: { database in
        _ = try database.write(nil) { try $0.suspects.add(contentsOf: suspects) }
      })
    return Measurement(
      workload: "insert", suspects: count, ours: times.ours, baseline: times.baseline,
      target: 1.25,
      historyCost: history)
  }
}
