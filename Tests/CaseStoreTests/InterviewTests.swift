import SQLiteKit
import Testing

@testable import CaseStore

@Suite("Interview: alibi, sleep schedule, suspicion level")
struct InterviewTests {
  // MARK: - Alibi

  @Test func alibiIsStoredExactlyAndCleared() throws {
    let database = try seededDatabase()
    let fox = try database.id(ofSpecies: "Raccoon")
    let statement =
      "I was at the \"Acorn\" caf\u{E9};\nthen home by 22:00.\r\n\tAsk Miko. \u{1F99D}\n"
    try database.write(nil) { try $0.suspects.setAlibi(id: fox, statement) }
    #expect(try database.read { try $0.suspects.find("Raccoon").alibi } == statement)
    #expect(try !database.read { try $0.suspects.find("Raccoon").hasNoAlibi })
    #expect(
      try database.rows("SELECT statement FROM alibis WHERE animal_id = ?", [fox]) == [
        [.text(statement)]
      ])

    try database.write(nil) { try $0.suspects.setAlibi(id: fox, "Changed my mind.") }
    #expect(try database.read { try $0.suspects.find("Raccoon").alibi } == "Changed my mind.")
    #expect(try database.rowCount("alibis") == 1)

    try database.write(nil) { try $0.suspects.setAlibi(id: fox, "") }
    #expect(try database.read { try $0.suspects.find("Raccoon").alibi } == "")
    #expect(try database.rowCount("alibis") == 0)
  }

  @Test func whitespaceAlibiCountsAsNone() throws {
    let database = try seededDatabase()
    try database.write(nil) { try $0.suspects.setAlibi(id: 1, " \n\t ") }
    let fish = try database.read { try $0.suspects.find("Fish") }
    #expect(fish.alibi == " \n\t ")
    #expect(fish.hasNoAlibi)
  }

  @Test func alibiLengthLimit() throws {
    let database = try seededDatabase()
    let longest = String(repeating: "\u{E9}", count: 100_000)
    try database.write(nil) { try $0.suspects.setAlibi(id: 2, longest) }
    #expect(try database.read { try $0.suspects.suspect(id: 2)?.alibi } == longest)
    let tooLong = longest + "x"
    expectInvalidValue(field: "alibi", value: tooLong, expected: "at most 100,000 characters") {
      try database.write(nil) { try $0.suspects.setAlibi(id: 2, tooLong) }
    }
    #expect(try database.read { try $0.suspects.suspect(id: 2)?.alibi } == longest)
  }

  @Test func alibiForAnUnknownSuspect() throws {
    let database = try seededDatabase()
    #expect(throws: CaseError.unknownSuspect("42")) {
      try database.write(nil) { try $0.suspects.setAlibi(id: 42, "Nowhere") }
    }
    #expect(try database.rowCount("alibis") == 0)
  }

  // MARK: - Sleep schedule

  @Test func sleepScheduleIsSetReplacedAndCleared() throws {
    let database = try seededDatabase()
    let owl = try database.id(ofSpecies: "Hedgehog")
    let day = SleepSchedule(
      sleep: try ClockTime(parsing: "9:05"), wake: try ClockTime(parsing: "17:45"))
    try database.write(nil) { try $0.suspects.setSleepSchedule(id: owl, day) }
    #expect(try database.read { try $0.suspects.find("Hedgehog").sleepSchedule } == day)
    #expect(
      try database.rows("SELECT sleep_at, wake_at FROM sleep_schedules WHERE animal_id = ?", [owl])
        == [["09:05", "17:45"]])

    try database.write(nil) { try $0.suspects.setSleepSchedule(id: owl, .standard) }
    #expect(try database.read { try $0.suspects.find("Hedgehog").sleepSchedule } == .standard)
    #expect(try database.rowCount("sleep_schedules") == 1)

    try database.write(nil) { try $0.suspects.setSleepSchedule(id: owl, nil) }
    #expect(try database.read { try $0.suspects.find("Hedgehog").sleepSchedule } == nil)
    #expect(try database.rowCount("sleep_schedules") == 0)
  }

  @Test func standardScheduleIsAddedOnlyWhenMissing() throws {
    let database = try seededDatabase()
    let cat = try database.id(ofSpecies: "Cat")
    #expect(
      try database.write(nil) { try $0.suspects.addStandardSleepScheduleIfMissing(id: cat) }
        == .standard)
    #expect(try database.read { try $0.suspects.find("Cat").sleepSchedule } == .standard)
    #expect(
      try database.rows("SELECT sleep_at, wake_at FROM sleep_schedules WHERE animal_id = ?", [cat])
        == [["22:30", "06:30"]])

    let nap = SleepSchedule(
      sleep: try ClockTime(parsing: "13:00"), wake: try ClockTime(parsing: "15:00"))
    try database.write(nil) { try $0.suspects.setSleepSchedule(id: cat, nap) }
    #expect(
      try database.write(nil) { try $0.suspects.addStandardSleepScheduleIfMissing(id: cat) } == nap)
    #expect(try database.read { try $0.suspects.find("Cat").sleepSchedule } == nap)

    #expect(throws: CaseError.unknownSuspect("77")) {
      try database.write(nil) { try $0.suspects.addStandardSleepScheduleIfMissing(id: 77) }
    }
  }

  @Test func sleepForAnUnknownSuspect() throws {
    let database = try seededDatabase()
    #expect(throws: CaseError.unknownSuspect("0")) {
      try database.write(nil) { try $0.suspects.setSleepSchedule(id: 0, .standard) }
    }
    #expect(try database.rowCount("sleep_schedules") == 0)
  }

  // MARK: - Suspicion level

  @Test(
    "level is stored and read back as the same Double",
    arguments: ["0.95", "0.5", "1", "0", ".1", "0.30000000000000004", "0.000000001"])
  func levelRoundTrips(text: String) throws {
    let database = try seededDatabase()
    let level = try SuspicionLevel(parsing: text)
    try database.write(nil) { try $0.suspects.setSuspicionLevel(id: 4, level) }
    let stored = try #require(try database.read { try $0.suspects.suspect(id: 4) })
    #expect(stored.suspicionLevel == level)
    #expect(stored.suspicionLevel.value.bitPattern == level.value.bitPattern)
    #expect(
      try database.connection.scalar("SELECT level FROM suspicion_levels WHERE animal_id = 4")
        == .real(level.value))
  }

  @Test func levelIsReplacedNotDuplicated() throws {
    let database = try seededDatabase()
    try database.write(nil) {
      try $0.suspects.setSuspicionLevel(id: 1, try SuspicionLevel(parsing: "0.2"))
    }
    try database.write(nil) {
      try $0.suspects.setSuspicionLevel(id: 1, try SuspicionLevel(parsing: "0.9"))
    }
    #expect(try database.rowCount("suspicion_levels") == 1)
    let fish = try database.read { try $0.suspects.find("Fish") }
    #expect(fish.suspicionLevel.value == 0.9)
    #expect(fish.suspicionLevel.label == .extremelySuspicious)
    #expect(throws: CaseError.unknownSuspect("11")) {
      try database.write(nil) { try $0.suspects.setSuspicionLevel(id: 11, .zero) }
    }
  }
}
