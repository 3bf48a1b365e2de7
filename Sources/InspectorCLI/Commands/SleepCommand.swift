import CaseStore

/// `inspector sleep <animal> [--sleep HH:MM --wake HH:MM | --clear]`: set or clear the sleep
/// schedule; with no option, add the standard 22:30-06:30 schedule when none exists.
struct SleepCommand: InspectorCommand {
  static let spec = CommandSpec(
    name: "sleep",
    abstract: "Set or clear a suspect's sleep schedule (no option: add 22:30-06:30 if none).",
    arguments: [ShowCommand.animalArgument],
    options: [
      .option("sleep", valueName: "HH:MM", help: "When the suspect falls asleep (24-hour clock)."),
      .option("wake", valueName: "HH:MM", help: "When the suspect wakes (24-hour clock)."),
      .flag("clear", help: "Remove the sleep schedule."),
    ])

  static func run(_ context: CommandContext) throws -> String {
    let arguments = context.arguments
    let sleepText = arguments.option("sleep")
    let wakeText = arguments.option("wake")
    let clear = arguments.flag("clear")
    if clear && (sleepText != nil || wakeText != nil) {
      throw context.usageError("Give either --sleep and --wake, or --clear")
    }
    if (sleepText == nil) != (wakeText == nil) {
      throw context.usageError("--sleep and --wake go together")
    }
    var schedule: SleepSchedule?
    if let sleepText, let wakeText {
      schedule = SleepSchedule(
        sleep: try ClockTime(parsing: sleepText, field: "sleep time"),
        wake: try ClockTime(parsing: wakeText, field: "wake time"))
    }
    let suspect = try context.changeSuspect { database, id in
      if clear {
        try database.suspects.setSleepSchedule(id: id, nil)
      } else if let schedule {
        try database.suspects.setSleepSchedule(id: id, schedule)
      } else {
        try database.suspects.addStandardSleepScheduleIfMissing(id: id)
      }
    }
    let message =
      suspect.sleepSchedule.map {
        "\(SuspectPresenter.title(suspect)) sleeps \($0.sleep), wakes \($0.wake)."
      } ?? "Cleared the sleep schedule of \(SuspectPresenter.title(suspect))."
    return SuspectOutput.render(suspect, context, message: message)
  }
}
