import CaseStore
import Foundation

/// `load`: what the case history costs another client loading a case through plain SQL: n
/// generated suspects with favourites, alibis, schedules and levels inserted through the C API
/// (``RawSuspectWriter``, one transaction, as a script in the sqlite3 shell would) into a fresh
/// migrated case file with the history's triggers (`history_*`, recording each statement as
/// another client's change set) and into one with them dropped; every other trigger of the
/// schema runs on both. Reported: the time ratio and the ratio of the files' sizes after the
/// load (targets from issue 23: at most 2 x each).
enum LoadWorkload {
  static func run(suspects count: Int, repetitions: Int, log: (String) -> Void) throws
    -> LoadCost
  {
    let generated = (1...count).map { SuspectGenerator.suspect($0) }
    let files = try ScratchCaseFiles(workload: "load")
    defer { files.removeAll() }
    var sizes: [Bool: Int] = [:]
    func run(history: Bool) throws -> Timing {
      let path = try files.fresh(history: history)
      defer { files.remove(path) }
      let timing = {
        let raw = RawSQLite(path: path)
        return time {
          raw.execute("BEGIN IMMEDIATE")
          let writer = RawSuspectWriter(raw)
          for suspect in generated { writer.write(suspect) }
          raw.execute("COMMIT")
        }
      }()
      if sizes[history] == nil {
        guard ChangeWorkload.rowCount(in: path, tables: ["animals"]) == count else {
          throw BenchFailure(description: "load: the suspects were not all stored")
        }
        sizes[history] = ScratchCaseFiles.bytes(path, vacuum: false)
      }
      return timing
    }
    let times = try interleaved(
      repetitions: repetitions, ours: { try run(history: true) },
      baseline: { try run(history: false) })
    return LoadCost(
      suspects: count, withHistory: times.ours, withoutHistory: times.baseline,
      bytesWithHistory: sizes[true] ?? 0, bytesWithoutHistory: sizes[false] ?? 0)
  }
}

/// The `load` workload's figures: medians of the plain-SQL load with and without the history's
/// triggers, and the files' sizes after it.
struct LoadCost {
  /// The highest acceptable ratio, for the time and for the size.
  static let target = 2.0

  var suspects: Int
  var withHistory: [Timing]
  var withoutHistory: [Timing]
  /// The file's size after the load (page count times page size), in bytes.
  var bytesWithHistory: Int
  var bytesWithoutHistory: Int

  var withMedian: Double { median(withHistory.map(\.wall)) }
  var withoutMedian: Double { median(withoutHistory.map(\.wall)) }
  /// Time with / without.
  var ratio: Double { withMedian / withoutMedian }
  /// Size with / without.
  var sizeRatio: Double { Double(bytesWithHistory) / Double(bytesWithoutHistory) }
  var meetsTarget: Bool { ratio <= Self.target && sizeRatio <= Self.target }

  /// The figures on one line, each ratio with its target.
  var line: String {
    func verdict(_ value: Double) -> String {
      "ratio \(formatted(value, digits: 3)) (target <= \(formatted(Self.target, digits: 2))"
        + (value <= Self.target ? " ok)" : " MISSED)")
    }
    return "history, plain SQL: \(formatted(withMedian, digits: 4)) s with its triggers, "
      + "\(formatted(withoutMedian, digits: 4)) s without; " + verdict(ratio) + "; file "
      + "\(bytesWithHistory) bytes with, \(bytesWithoutHistory) without; " + verdict(sizeRatio)
  }

  /// `{"workload": "load-history", "n", "with_history_s", "without_history_s", "ratio",
  /// "with_history_bytes", "without_history_bytes", "size_ratio", "target"}` on one line.
  var json: String {
    "{\"workload\":\"load-history\",\"n\":\(suspects),\"with_history_s\":\(withMedian),"
      + "\"without_history_s\":\(withoutMedian),\"ratio\":\(ratio),"
      + "\"with_history_bytes\":\(bytesWithHistory),"
      + "\"without_history_bytes\":\(bytesWithoutHistory),\"size_ratio\":\(sizeRatio),"
      + "\"target\":\(Self.target)}"
  }
}
