import Testing

@testable import CaseStore

@Suite("ClockTime")
struct ClockTimeTests {
  @Test(
    "accepts HH:MM and H:MM, and writes it zero-padded",
    arguments: [
      ("00:00", 0, 0, "00:00"),
      ("23:59", 23, 59, "23:59"),
      ("9:05", 9, 5, "09:05"),
      ("06:30", 6, 30, "06:30"),
      ("0:00", 0, 0, "00:00"),
      ("12:00", 12, 0, "12:00"),
      ("22:30", 22, 30, "22:30"),
    ])
  func accepts(text: String, hour: Int, minute: Int, description: String) throws {
    let time = try ClockTime(parsing: text)
    #expect(time.hour == hour)
    #expect(time.minute == minute)
    #expect(time.minutesAfterMidnight == hour * 60 + minute)
    #expect(time.description == description)
  }

  @Test(
    "rejects anything but HH:MM on a 24-hour clock",
    arguments: [
      "24:00", "25:00", "12:60", "9:5x", "9:5", "12:005", " 9:05", "9:05 ", "-1:00",
      "\u{0661}\u{0662}:\u{0663}\u{0660}", "\u{FF19}:05", "", ":", "12", "12:", ":30",
      "123:00", "12:30:00", "12.30", "12:-1", "+9:05", "9:05pm", "12\u{0}:30",
    ])
  func rejects(text: String) {
    expectInvalidValue(field: "time", value: text, expected: "HH:MM on a 24-hour clock") {
      try ClockTime(parsing: text)
    }
  }

  @Test func namesTheFieldInItsError() {
    expectInvalidValue(field: "sleep time", value: "25:00", expected: "HH:MM on a 24-hour clock") {
      try ClockTime(parsing: "25:00", field: "sleep time")
    }
  }

  @Test(
    "init(hour:minute:) refuses out-of-range parts",
    arguments: [(24, 0), (-1, 0), (0, 60), (0, -1), (99, 99)])
  func refusesOutOfRange(hour: Int, minute: Int) {
    #expect(ClockTime(hour: hour, minute: minute) == nil)
  }

  @Test func ordersByTimeOfDay() throws {
    let times = try ["23:59", "00:00", "9:05", "06:30"].map { try ClockTime(parsing: $0) }
    #expect(times.sorted().map(\.description) == ["00:00", "06:30", "09:05", "23:59"])
    #expect(try ClockTime(parsing: "9:05") == ClockTime(hour: 9, minute: 5))
  }
}
