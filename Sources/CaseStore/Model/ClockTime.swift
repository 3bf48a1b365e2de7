/// A time of day on a 24-hour clock, with minute precision.
///
/// Stored in minutes after midnight (0...1439) and written as `HH:MM` text, as in the schema's
/// `sleep_schedules.sleep_at` and `wake_at` (docs/schema.md "The interview").
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
    if let time = Self.parsedASCII(text) {
      self = time
      return
    }
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
    // Five ASCII bytes written into the new string's own storage (a trivial type, so writing
    // into the uninitialised buffer is safe); no intermediate strings.
    String(unsafeUninitializedCapacity: 5) { buffer in
      let zero = UInt8(ascii: "0")
      buffer[0] = zero + UInt8(hour / 10)
      buffer[1] = zero + UInt8(hour % 10)
      buffer[2] = UInt8(ascii: ":")
      buffer[3] = zero + UInt8(minute / 10)
      buffer[4] = zero + UInt8(minute % 10)
      return 5
    }
  }

  /// The time in `text` when it is `H:MM` or `HH:MM` in ASCII digits and a valid time, read
  /// byte by byte (the case store reads one per suspect with a schedule); `nil` for anything
  /// else, which ``init(parsing:field:)`` then reads, or rejects, the general way.
  private static func parsedASCII(_ text: String) -> ClockTime? {
    var hour = 0
    var minute = 0
    var count = 0
    var colon: Int?
    for byte in text.utf8 {
      count += 1
      guard count <= 5 else { return nil }
      if byte == UInt8(ascii: ":") && colon == nil {
        colon = count - 1
        continue
      }
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
      let digit = Int(byte - UInt8(ascii: "0"))
      if colon == nil { hour = hour * 10 + digit } else { minute = minute * 10 + digit }
    }
    // One or two hour digits, then the colon, then exactly two minute digits.
    guard count >= 4, colon == count - 3 else { return nil }
    return ClockTime(hour: hour, minute: minute)
  }

  /// Earlier in the day first.
  public static func < (lhs: ClockTime, rhs: ClockTime) -> Bool {
    lhs.minutesAfterMidnight < rhs.minutesAfterMidnight
  }
}
