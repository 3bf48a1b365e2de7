import CaseStore

/// One read workload timed on both sides: our code in one read unit of work on a read-only
/// `CaseDatabase` (what a reading command runs) and the
/// baseline on a read-only ``RawSQLite``, each connection opened outside the timed part, run
/// ``interleaved(repetitions:ours:baseline:)``; with what each side read last, for the workload
/// to compare before it reports any figure.
struct ReadComparison<Result> {
  var ours: [Timing]
  var baseline: [Timing]
  /// What our code read in its last repetition (`nil` only when `repetitions` is 0).
  var oursResult: Result?
  /// What the baseline read in its last repetition.
  var baselineResult: Result?

  /// Times `ours` and `baseline` reading the database at `path`.
  init(
    path: String, repetitions: Int, ours: (CaseReader) throws -> Result,
    baseline: (RawSQLite) throws -> Result
  ) throws {
    var oursResult: Result?
    var baselineResult: Result?
    let times = try interleaved(
      repetitions: repetitions,
      ours: {
        let database = try CaseDatabase(path: path, access: .readOnly)
        return try time { oursResult = try database.read { try ours($0) } }
      },
      baseline: {
        let raw = RawSQLite(path: path, readOnly: true)
        return try time { baselineResult = try baseline(raw) }
      })
    (self.ours, self.baseline) = times
    (self.oursResult, self.baselineResult) = (oursResult, baselineResult)
  }

  /// The figures of this workload.
  func measurement(workload: String, suspects: Int, target: Double?) -> Measurement {
    Measurement(
      workload: workload, suspects: suspects, ours: ours, baseline: baseline, target: target)
  }
}
