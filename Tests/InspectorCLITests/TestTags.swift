import Foundation
import Testing

/// The tags of the slow suites and tests (README "Tests"; docs/design.md "Testing"). Whatever
/// is tagged ``slow`` also carries ``Testing/Trait/skippedInFastSet``, which leaves it out of the
/// fast set, `INSPECTOR_FAST_TESTS=1 swift test`; CI (`swift test`) runs everything.
extension Tag {
  /// Left out of the fast set: takes seconds on 2 cores where most suites take milliseconds.
  @Tag static var slow: Self
  /// Random sequences of commands checked against an in-memory model after every step.
  @Tag static var modelBased: Self
  /// Kills `inspector` processes at chosen instants and checks what the case file holds.
  @Tag static var crash: Self
  /// Several `inspector` processes at once, or a lock held against one.
  @Tag static var concurrency: Self
  /// Runs the built binary (or a shell, or the `sqlite3` shell) as child processes, many times.
  @Tag static var processes: Self
  /// Builds large cases (thousands of rows) or runs a large table of inputs.
  @Tag static var largeScale: Self
  /// Backs up, restores, verifies or checks whole case files: copies, syncs and child
  /// processes.
  @Tag static var fileOperations: Self
}

/// The fast test set: `INSPECTOR_FAST_TESTS=1` in the environment of `swift test`.
enum FastTestSet {
  /// Whether this run is the fast set (`INSPECTOR_FAST_TESTS` is `1`).
  static var isSelected: Bool {
    ProcessInfo.processInfo.environment["INSPECTOR_FAST_TESTS"] == "1"
  }
}

extension Trait where Self == ConditionTrait {
  /// Skips a ``Tag/slow`` suite or test in the fast set (`INSPECTOR_FAST_TESTS=1`).
  static var skippedInFastSet: Self {
    .disabled(if: FastTestSet.isSelected, "slow: INSPECTOR_FAST_TESTS=1 leaves it out")
  }
}
