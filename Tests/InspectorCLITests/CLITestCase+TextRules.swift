import SQLiteKit

extension CLITestCase {
  /// The triggers of migration 0009 that refuse text breaking the text rules.
  static let textRuleTriggers = [
    "animals_names_before_insert", "animals_names_before_update", "fruits_name_before_insert",
    "fruits_name_before_update", "alibis_text_before_insert", "alibis_text_before_update",
    "incidents_text_before_insert", "incidents_text_before_update",
  ]

  /// A seeded session holding rows that another client wrote with `sql` before the schema
  /// refused such text (a file written before migration 0009): the triggers are dropped for
  /// the write and put back as they were, in one transaction, so the schema is intact.
  static func seeded(writtenBeforeTextRules sql: String) throws -> CLITestCase {
    let cli = try CLITestCase(seeded: true)
    let connection = try Connection(path: cli.databasePath)
    let names = textRuleTriggers.map { "'\($0)'" }.joined(separator: ", ")
    let statement = try connection.prepare(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND name IN (\(names))")
    var triggers: [(name: String, sql: String)] = []
    while let row = try statement.nextRow() {
      triggers.append((try row.text("name"), try row.text("sql")))
    }
    guard triggers.count == textRuleTriggers.count else {
      throw SetupFailure(description: "the text-rule triggers are not all there: \(triggers)")
    }
    try connection.execute("BEGIN")
    for trigger in triggers { try connection.execute("DROP TRIGGER \(trigger.name)") }
    try connection.execute(sql)
    for trigger in triggers { try connection.execute(trigger.sql) }
    try connection.execute("COMMIT")
    return cli
  }
}
