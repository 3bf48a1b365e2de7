#if canImport(Glibc)
  import Glibc
  private let currentTime = Glibc.time
#elseif canImport(Darwin)
  import Darwin
  private let currentTime = Darwin.time
#endif

/// A local calendar date and clock time with minute precision, as `YYYY-MM-DDTHH:MM`
/// (`incidents.occurred_at`, docs/schema.md "incidents"). No time zone: it is the investigator's
/// local time, as on the bulletin.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The year, 1...9999.
  public let year: Int
  /// The month, 1...12.
  public let month: Int
  /// The day of the month, valid for the month and year.
  public let day: Int
  /// The clock time.
  public let time: ClockTime

  /// Creates a value, or returns `nil` for an impossible date (e.g. 2026-02-30).
  public init?(year: Int, month: Int, day: Int, time: ClockTime) {
    guard (1...9999).contains(year), (1...12).contains(month),
      (1...LocalDateTime.daysIn(month: month, year: year)).contains(day)
    else { return nil }
    self.year = year
    self.month = month
    self.day = day
    self.time = time
  }

  /// Parses `YYYY-MM-DDTHH:MM`, or `HH:MM` meaning that time today (in `today`'s date).
  ///
  /// - Parameters:
  ///   - text: What was typed (ASCII digits only; never locale-dependent).
  ///   - today: The date used for a bare `HH:MM`; the current local date by default.
  /// - Throws: ``CaseError/invalidValue(field:value:expected:)`` for anything else, including
  ///   impossible dates and times such as `25:00`.
  public init(parsing text: String, today: @autoclosure () -> LocalDateTime = .now()) throws {
    let invalid = CaseError.invalidValue(
      field: "time", value: text, expected: "HH:MM (today) or YYYY-MM-DDTHH:MM")
    if !text.contains("T") {
      guard let time = try? ClockTime(parsing: text) else { throw invalid }
      let date = today()
      self.init(year: date.year, month: date.month, day: date.day, time: time)!
      return
    }
    let parts = text.split(separator: "T", omittingEmptySubsequences: false)
    guard parts.count == 2 else { throw invalid }
    let dateParts = parts[0].split(separator: "-", omittingEmptySubsequences: false)
    let isDigits: (Substring) -> Bool = { $0.allSatisfy { $0.isASCII && $0.isNumber } }
    guard dateParts.count == 3, dateParts[0].count == 4, dateParts[1].count == 2,
      dateParts[2].count == 2, dateParts.allSatisfy(isDigits), parts[1].count == 5,
      let time = try? ClockTime(parsing: String(parts[1])),
      let value = LocalDateTime(
        year: Int(dateParts[0])!, month: Int(dateParts[1])!, day: Int(dateParts[2])!, time: time)
    else { throw invalid }
    self = value
  }

  /// The current local date and time, to the minute (`localtime_r`, the process's time zone).
  public static func now() -> LocalDateTime {
    var seconds = currentTime(nil)
    var parts = tm()
    localtime_r(&seconds, &parts)
    return LocalDateTime(
      year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
      time: ClockTime(hour: Int(parts.tm_hour), minute: Int(parts.tm_min))!)!
  }

  /// `YYYY-MM-DDTHH:MM`, zero-padded, e.g. `2026-11-29T09:41`.
  public var description: String {
    func pad(_ value: Int, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(time)"
  }

  /// The date part, `YYYY-MM-DD`.
  public var dateText: String { String(description.prefix(10)) }

  /// Earlier first.
  public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
    lhs.description < rhs.description
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }
}
