/// A time of day on a 24-hour clock, with minute precision.
///
/// Stored in minutes after midnight (0...1439) and written as `HH:MM` text, as in the schema's
/// `sleep_schedules.sleep_at` and `wake_at` (README "The documented schema").
public struct ClockTime: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// Minutes after midnight, 0 (00:00) through 1439 (23:59).
  public let minutesAfterMidnight: Int

  /// Creates a time from hours (0...23) and minutes (0...59), or returns `nil` out of range.
  public init?(hour: Int, minute: Int) {
    guard (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
    minutesAfterMidnight = hour * 60 + minute
  }

  /// Parses `HH:MM` (or `H:MM`): one or two ASCII digits of hour 0-23, a colon, exactly two
  /// digits of minute 0-59. No seconds, no spaces, no AM/PM; never locale-dependent.
  ///
  /// - Throws: ``CaseError/invalidValue(field:value:expected:)`` for `25:00`, `9:5x`, `12:60`.
  public init(parsing text: String, field: String = "time") throws {
    let parts = text.split(separator: ":", omittingEmptySubsequences: false)
    let isDigits: (Substring) -> Bool = { $0.allSatisfy { $0.isASCII && $0.isNumber } }
    guard parts.count == 2, (1...2).contains(parts[0].count), parts[1].count == 2,
      isDigits(parts[0]), isDigits(parts[1]),
      let hour = Int(parts[0]), let minute = Int(parts[1]),
      let time = ClockTime(hour: hour, minute: minute)
    else {
      throw CaseError.invalidValue(field: field, value: text, expected: "HH:MM on a 24-hour clock")
    }
    self = time
  }

  /// The hour, 0...23.
  public var hour: Int { minutesAfterMidnight / 60 }
  /// The minute, 0...59.
  public var minute: Int { minutesAfterMidnight % 60 }

  /// `HH:MM` with leading zeros, e.g. `06:30`.
  public var description: String {
    let hours = hour < 10 ? "0\(hour)" : "\(hour)"
    let minutes = minute < 10 ? "0\(minute)" : "\(minute)"
    return "\(hours):\(minutes)"
  }

  /// Earlier in the day first.
  public static func < (lhs: ClockTime, rhs: ClockTime) -> Bool {
    lhs.minutesAfterMidnight < rhs.minutesAfterMidnight
  }
}
