import CaseStore
import CommandLineKit

/// `inspector sleep <animal> [--sleep HH:MM --wake HH:MM | --clear]`: set or clear the sleep
/// schedule; with no option, add the standard 22:30-06:30 schedule when none exists.
struct SleepCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "sleep",
    abstract: "Set or clear a suspect's sleep schedule (no option: add 22:30-06:30 if none).")

  let animal = Argument<String>.animal
  // The times stay text: the case store checks them (exit 65, not 64).
  let sleep = Option<String?>(
    "sleep", valueName: "HH:MM", help: "When the suspect falls asleep (24-hour clock).")
  let wake = Option<String?>(
    "wake", valueName: "HH:MM", help: "When the suspect wakes (24-hour clock).")
  let clear = Flag("clear", help: "Remove the sleep schedule.")

  var declarations: [any CommandDeclaration] { [animal, sleep, wake, clear] }

  func validate(_ context: CommandContext) throws(UsageError) {
    let sleep = try context[sleep]
    let wake = try context[wake]
    if context[clear] && (sleep != nil || wake != nil) {
      throw context.usageError("Give either --sleep and --wake, or --clear")
    }
    if (sleep == nil) != (wake == nil) {
      throw context.usageError("--sleep and --wake go together")
    }
  }

  func run(_ context: CommandContext) throws -> String {
    let clear = context[self.clear]
    var schedule: SleepSchedule?
    if let sleepText = try context[sleep], let wakeText = try context[wake] {
      schedule = SleepSchedule(
        sleep: try ClockTime(parsing: sleepText, field: "sleep time"),
        wake: try ClockTime(parsing: wakeText, field: "wake time"))
    }
    let suspect = try context.changeSuspect(try context[animal]) { database, id in
      if clear {
        try database.suspects.setSleepSchedule(id: id, nil)
      } else if let schedule {
        try database.suspects.setSleepSchedule(id: id, schedule)
      } else {
        try database.suspects.addStandardSleepScheduleIfMissing(id: id)
      }
    }
    return SuspectOutput.render(suspect, context, after: .sleepSchedule)
  }
}
