import CaseStore

/// `inspector migrate up [--to V] [--dry-run]`: apply pending migrations, each in its own
/// transaction (README "Operations"). Drift or a newer database refuses (exit 65).
struct MigrateUpCommand: InspectorCommand {
  static let spec = CommandSpec(
    name: "up",
    abstract: "Apply pending migrations (all, or up to --to).",
    options: [
      .option("to", valueName: "version", help: "Stop after this version."),
      .flag("dry-run", help: "Show what would be applied; change nothing."),
    ])

  static func run(_ context: CommandContext) throws -> String {
    var target: Int?
    if let text = context.arguments.option("to") {
      guard let version = Int(text), version > 0 else {
        throw context.invalidValue(text, for: "to", reason: "expected a migration version")
      }
      target = version
    }
    try context.requireDatabaseFile()
    let dryRun = context.arguments.flag("dry-run")
    let (applied, version) = try CaseFile.migrate(
      at: context.databasePath, upTo: target, dryRun: dryRun, busyTimeout: context.busyTimeout)
    return Render.list(
      context,
      json: applied.map {
        [
          ("version", .integer(Int64($0.version))), ("name", .string($0.name)),
          ("state", .string(dryRun ? "pending" : "applied")),
        ]
      },
      csvHeader: ["version", "name", "state"],
      csv: applied.map { ["\($0.version)", $0.name, dryRun ? "pending" : "applied"] }
    ) {
      if applied.isEmpty { return "Up to date (schema version \(version))." }
      let verb = dryRun ? "Would apply" : "Applied"
      return applied.map { "\(verb) \($0.version) \($0.name)" }.joined(separator: "\n")
        + (dryRun ? "" : "\nSchema version \(version).")
    }
  }
}
