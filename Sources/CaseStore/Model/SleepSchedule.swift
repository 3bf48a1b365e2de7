/// When a suspect sleeps: from `sleep` until `wake`, possibly past midnight.
///
/// docs/ranking.md "With an incident": asleep means the clock time lies in `[sleep, wake)`,
/// wrapping past midnight when `sleep` is later than `wake`; equal times mean never asleep. Added
/// without times, a schedule is 22:30-06:30.
public struct SleepSchedule: Hashable, Sendable {
  /// When the suspect falls asleep.
  public var sleep: ClockTime
  /// When the suspect wakes (not asleep from this minute on).
  public var wake: ClockTime

  /// Creates a schedule.
  public init(sleep: ClockTime, wake: ClockTime) {
    self.sleep = sleep
    self.wake = wake
  }

  /// The schedule a suspect gets when one is added without times: sleep 22:30, wake 06:30.
  public static let standard = SleepSchedule(
    sleep: ClockTime(hour: 22, minute: 30)!, wake: ClockTime(hour: 6, minute: 30)!)

  /// `true` when the suspect is asleep at `time`.
  ///
  /// - Parameter time: A clock time (the date does not matter).
  /// - Returns: `sleep <= time < wake` when `sleep < wake`; `time >= sleep || time < wake`
  ///   when `sleep > wake` (past midnight); `false` when they are equal.
  public func isAsleep(at time: ClockTime) -> Bool {
    if sleep < wake { return sleep <= time && time < wake }
    if sleep > wake { return time >= sleep || time < wake }
    return false
  }
}
