import CaseStore
import Foundation

/// A ``SplitMix64`` seeded from `INSPECTOR_TEST_SEED` when set, so a failing run can be
/// repeated (`INSPECTOR_TEST_SEED=<n> swift test --filter ...`).
struct SeededGenerator: RandomNumberGenerator {
  /// The seed this generator started from (printed in failure messages).
  let seed: UInt64
  private var generator: SplitMix64

  /// Seeds from `INSPECTOR_TEST_SEED` when set, otherwise from `fallback`.
  init(fallback: UInt64) {
    let fromEnvironment = ProcessInfo.processInfo.environment["INSPECTOR_TEST_SEED"]
      .flatMap { UInt64($0) }
    seed = fromEnvironment ?? fallback
    generator = SplitMix64(seed: seed)
  }

  mutating func next() -> UInt64 { generator.next() }
}
