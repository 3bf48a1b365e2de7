import Foundation
import Testing

/// The tags of HTTPKit's slow suites (README "Tests"; docs/design.md "Testing"). What is tagged
/// ``slow`` also carries ``Testing/Trait/skippedInFastSet``, which leaves it out of the fast set,
/// `INSPECTOR_FAST_TESTS=1 swift test`; CI (`swift test`) runs everything.
extension Tag {
  /// Left out of the fast set: takes seconds on 2 cores where most suites take milliseconds.
  @Tag static var slow: Self
  /// Runs child processes (curl, openssl) against a server on a loopback port.
  @Tag static var processes: Self
}

extension Trait where Self == ConditionTrait {
  /// Skips a ``Tag/slow`` suite or test when `INSPECTOR_FAST_TESTS` is `1` (the fast set).
  static var skippedInFastSet: Self {
    .disabled(
      if: ProcessInfo.processInfo.environment["INSPECTOR_FAST_TESTS"] == "1",
      "slow: INSPECTOR_FAST_TESTS=1 leaves it out")
  }
}
