import CaseStore
import SQLiteKit

/// `inspector check`: `integrity_check`, `foreign_key_check` and migration drift; exit 65 when
/// any finds a fault (SPEC.md section 4).
struct CheckCommand: InspectorCommand {
  static let spec = CommandSpec(
    name: "check",
    abstract: "Check integrity, foreign keys and migrations; fail on any fault.")

  static func run(_ context: CommandContext) throws -> String {
    try context.requireDatabaseFile()
    let connection = try Connection(
      path: context.databasePath, mode: .readOnly, busyTimeout: context.busyTimeout)
    let report = try CaseFile.check(connection)
    let faults = report.migrations.filter { $0.state != .applied }
    let output = Render.record(
      context,
      json: [
        ("ok", .bool(report.isHealthy)),
        ("integrity_check", .array(report.integrity.map(JSONValue.string))),
        ("foreign_key_check", .array(report.foreignKeys.map { .string($0.description) })),
        ("migrations", .array(report.migrations.map { .object(MigrateStatusCommand.json($0)) })),
      ],
      csvHeader: ["check", "result"],
      csv: ["summary", report.isHealthy ? "ok" : "fault"]
    ) {
      let migrations =
        faults.isEmpty
        ? "ok (version \(report.migrations.last?.version ?? 0))"
        : faults.map { "\($0.version) \($0.name): \($0.state.rawValue)" }.joined(separator: "; ")
      return SuspectPresenter.fields([
        ("integrity_check", report.integrity.joined(separator: "\n")),
        (
          "foreign_key_check",
          report.foreignKeys.isEmpty
            ? "ok" : report.foreignKeys.map(\.description).joined(separator: "\n")
        ),
        ("migrations", migrations),
      ]).joined(separator: "\n")
    }
    guard report.isHealthy else {
      var problems: [String] = []
      if report.integrity != ["ok"] { problems.append("integrity_check failed") }
      if !report.foreignKeys.isEmpty {
        problems.append("\(report.foreignKeys.count) foreign key violation(s)")
      }
      if !faults.isEmpty {
        problems.append(
          faults.map { "migration \($0.version) \($0.state.rawValue)" }.joined(separator: ", "))
      }
      let damaged = report.integrity != ["ok"] || !report.foreignKeys.isEmpty
      throw CommandFailure(
        "check failed: " + problems.joined(separator: "; "),
        hint: damaged
          ? "restore a good backup with 'inspector restore BACKUP --force'"
          : "see 'inspector migrate status'",
        exitCode: .dataError)
    }
    return output
  }
}
