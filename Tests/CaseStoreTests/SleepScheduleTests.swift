import Testing

@testable import CaseStore

@Suite("SleepSchedule")
struct SleepScheduleTests {
  private static func schedule(_ sleep: String, _ wake: String) throws -> SleepSchedule {
    SleepSchedule(sleep: try ClockTime(parsing: sleep), wake: try ClockTime(parsing: wake))
  }

  @Test(
    "22:30-06:30 wraps past midnight",
    arguments: [
      ("22:29", false), ("22:30", true), ("23:59", true), ("00:00", true), ("06:29", true),
      ("06:30", false), ("12:00", false),
    ])
  func overnight(time: String, asleep: Bool) throws {
    let schedule = try Self.schedule("22:30", "06:30")
    #expect(schedule.isAsleep(at: try ClockTime(parsing: time)) == asleep)
  }

  @Test(
    "13:00-15:00 stays within the day",
    arguments: [
      ("12:59", false), ("13:00", true), ("14:59", true), ("15:00", false), ("00:00", false),
      ("23:59", false),
    ])
  func sameDay(time: String, asleep: Bool) throws {
    let schedule = try Self.schedule("13:00", "15:00")
    #expect(schedule.isAsleep(at: try ClockTime(parsing: time)) == asleep)
  }

  @Test(
    "equal sleep and wake times mean never asleep",
    arguments: ["08:00", "07:59", "08:01", "00:00", "23:59"])
  func equalTimes(time: String) throws {
    let schedule = try Self.schedule("08:00", "08:00")
    #expect(!schedule.isAsleep(at: try ClockTime(parsing: time)))
  }

  @Test(
    "23:59-00:00 is asleep for one minute only",
    arguments: [("23:58", false), ("23:59", true), ("00:00", false)])
  func oneMinute(time: String, asleep: Bool) throws {
    let schedule = try Self.schedule("23:59", "00:00")
    #expect(schedule.isAsleep(at: try ClockTime(parsing: time)) == asleep)
  }

  @Test func standardIsHalfPastTenToHalfPastSix() {
    #expect(SleepSchedule.standard.sleep.description == "22:30")
    #expect(SleepSchedule.standard.wake.description == "06:30")
  }
}
