import CaseStore

extension HistoryCost {
  /// Times the same writes on a case file with the history's triggers and on one without them,
  /// interleaved, and measures once on each side how much they grow the file.
  ///
  /// - Parameters:
  ///   - workload: The workload's name (`insert`, `update`, `delete`).
  ///   - writes: The changes the history records per run (rows of the recorded tables written).
  ///   - repetitions: Runs on each side.
  ///   - files: Where the files are made.
  ///   - start: A new case file for one run, with the history's triggers or without them, made
  ///     outside the timing.
  ///   - body: The writes, timed; given the file's database.
  ///   - check: Run once on each side after the first run, outside the timing: throws
  ///     ``BenchFailure`` when the writes did not store what they should.
  /// - Throws: What `start`, `body` or `check` throws.
  static func measure(
    workload: String, writes: Int, repetitions: Int, files: ScratchCaseFiles,
    start: (_ history: Bool) throws -> String, body: (CaseDatabase) throws -> Void,
    check: (CaseDatabase) throws -> Void = { _ in }
  ) throws -> HistoryCost {
    var growth: [Bool: Int] = [:]
    func run(history: Bool) throws -> Timing {
      let path = try start(history)
      defer { files.remove(path) }
      let measuresSize = growth[history] == nil
      let before = measuresSize ? ScratchCaseFiles.vacuumedBytes(path) : 0
      let timing = try {
        let database = try CaseDatabase(path: path, access: .readWrite)
        let timing = try time { try body(database) }
        if measuresSize { try check(database) }
        return timing
      }()
      if measuresSize { growth[history] = ScratchCaseFiles.vacuumedBytes(path) - before }
      return timing
    }
    let times = try interleaved(
      repetitions: repetitions, ours: { try run(history: true) },
      baseline: { try run(history: false) })
    return HistoryCost(
      workload: workload, writes: writes, withHistory: times.ours, withoutHistory: times.baseline,
      growth: growth[true].flatMap { with in growth[false].map { (with, $0) } })
  }
}
