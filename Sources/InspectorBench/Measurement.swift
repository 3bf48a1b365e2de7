import Foundation

/// How long one timed run took: wall-clock seconds (what the figures report) and this
/// thread's CPU seconds (a diagnostic that other processes on a busy machine disturb less).
struct Timing {
  var wall: Double
  var cpu: Double
}

/// One workload's figures: medians over the repetitions, and the ratio ours / baseline.
struct Measurement {
  var workload: String
  var suspects: Int
  var ours: [Timing]
  var baseline: [Timing]
  /// The highest acceptable ratio (README "Performance"), or `nil` when only reported.
  var target: Double?
  /// What the case history costs in this workload, when it measured that (insert).
  var historyCost: HistoryCost?

  var oursMedian: Double { median(ours.map(\.wall)) }
  var baselineMedian: Double { median(baseline.map(\.wall)) }
  /// The ratio of the CPU-time medians.
  var cpuRatio: Double { median(ours.map(\.cpu)) / median(baseline.map(\.cpu)) }
  var ratio: Double { oursMedian / baselineMedian }
  var meetsTarget: Bool { target.map { ratio <= $0 } ?? true }

  /// `{"workload", "n", "ours_s", "baseline_s", "ratio"}` on one line.
  var json: String {
    "{\"workload\":\"\(workload)\",\"n\":\(suspects),\"ours_s\":\(oursMedian),"
      + "\"baseline_s\":\(baselineMedian),\"ratio\":\(ratio)}"
  }
}

/// What the case history's triggers cost per recorded change: our same writes timed on the same
/// schema with the history's triggers and with them dropped, and what they add to the file
/// (README "Performance"; targets from issue 23: at most 1.5 x the time, moonshot 1.2 x, and at
/// most 70 bytes a change, half of what the first history stored).
struct HistoryCost {
  /// The highest acceptable ratio with / without the history's triggers.
  static let target = 1.5
  /// The ratio hoped for (reported, never failed on).
  static let moonshot = 1.2
  /// The most bytes a recorded change may add to the file.
  static let bytesTarget = 70.0

  /// The workload (`insert`, `update`, `delete`).
  var workload: String
  /// Changes the history records per run: rows of the recorded tables inserted, updated or
  /// deleted (a suspect's favourites and interview rows count, cascaded deletes too).
  var writes: Int
  var withHistory: [Timing]
  var withoutHistory: [Timing]
  /// How much the workload grew the file with the history's triggers and without them (bytes,
  /// page counts after `VACUUM`, before and after the workload; negative when it shrank), or
  /// `nil` when not measured.
  var growth: (withHistory: Int, withoutHistory: Int)?

  var withMedian: Double { median(withHistory.map(\.wall)) }
  var withoutMedian: Double { median(withoutHistory.map(\.wall)) }
  /// Microseconds per recorded change that the history adds.
  var microsecondsPerWrite: Double { (withMedian - withoutMedian) / Double(writes) * 1e6 }
  /// with / without.
  var ratio: Double { withMedian / withoutMedian }
  /// Bytes the history adds to the file per recorded change, when measured.
  var bytesPerChange: Double? {
    growth.map { Double($0.withHistory - $0.withoutHistory) / Double(writes) }
  }
  /// Both the time and the size within their targets.
  var meetsTarget: Bool { ratio <= Self.target && (bytesPerChange ?? 0) <= Self.bytesTarget }

  /// The figures on one line: time ratio against its target and moonshot, µs and bytes a change.
  var line: String {
    let time =
      "ratio \(formatted(ratio, digits: 3)) (target <= \(formatted(Self.target, digits: 2))"
      + (ratio <= Self.target ? " ok" : " MISSED") + "; moonshot <= "
      + formatted(Self.moonshot, digits: 2) + (ratio <= Self.moonshot ? " met" : " not met") + ")"
    let size =
      bytesPerChange.map {
        "; \(formatted($0, digits: 1)) bytes a change (target <= "
          + "\(formatted(Self.bytesTarget, digits: 0))"
          + ($0 <= Self.bytesTarget ? " ok)" : " MISSED)")
      } ?? ""
    return "history: \(formatted(microsecondsPerWrite, digits: 3)) µs a change (\(writes) changes: "
      + "\(formatted(withMedian, digits: 4)) s with its triggers, "
      + "\(formatted(withoutMedian, digits: 4)) s without); " + time + size
  }

  /// `{"workload": "<workload>-history", "n", "with_history_s", "without_history_s", "ratio",
  /// "us_per_write", "target", "moonshot", "bytes_per_change", "bytes_target"}` on one line
  /// (`bytes_per_change` is `null` when not measured).
  var json: String {
    "{\"workload\":\"\(workload)-history\",\"n\":\(writes),\"with_history_s\":\(withMedian),"
      + "\"without_history_s\":\(withoutMedian),\"ratio\":\(ratio),"
      + "\"us_per_write\":\(microsecondsPerWrite),\"target\":\(Self.target),"
      + "\"moonshot\":\(Self.moonshot),\"bytes_per_change\":"
      + (bytesPerChange.map { "\($0)" } ?? "null") + ",\"bytes_target\":\(Self.bytesTarget)}"
  }
}

/// The middle value (the mean of the two middle values for an even count).
func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  guard !sorted.isEmpty else { return .nan }
  let middle = sorted.count / 2
  return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}

/// Runs `ours` and `baseline` alternately `repetitions` times, swapping which goes first each
/// time so that neither always gets the warmer cache; each closure returns the seconds it
/// timed (set-up outside the timed part is its own business).
func interleaved(
  repetitions: Int, ours: () throws -> Timing, baseline: () throws -> Timing
) rethrows -> (ours: [Timing], baseline: [Timing]) {
  var (oursTimes, baselineTimes) = ([Timing](), [Timing]())
  for repetition in 0..<repetitions {
    if repetition % 2 == 0 {
      oursTimes.append(try ours())
      baselineTimes.append(try baseline())
    } else {
      baselineTimes.append(try baseline())
      oursTimes.append(try ours())
    }
  }
  return (oursTimes, baselineTimes)
}

/// How long `body` takes.
func time(_ body: () throws -> Void) rethrows -> Timing {
  let cpuStart = threadCPUSeconds()
  let start = ContinuousClock.now
  try body()
  let wall = seconds(since: start)
  return Timing(wall: wall, cpu: threadCPUSeconds() - cpuStart)
}

/// CPU seconds this thread has used.
func threadCPUSeconds() -> Double {
  var now = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
  return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
}

/// A number with `digits` decimals, for the table.
func formatted(_ value: Double, digits: Int) -> String {
  String(format: "%.\(digits)f", value)
}
