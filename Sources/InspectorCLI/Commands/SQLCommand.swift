import CaseStore
import CommandLineKit

/// `inspector sql QUERY [--param NAME=VALUE]... [--write]`: ad-hoc SQL (docs/command-line.md
/// "sql").
struct SQLCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "sql",
    abstract: "Run ad-hoc SQL; read-only unless --write.",
    discussion: """
      One or more statements; the rows of the last one that returns rows are printed. Without
      --write the connection is read-only (no statement, PRAGMA or ATTACH can change the database
      or write a file; temporary tables and views work, as with sqlite3 -readonly);
      with --write the whole script is one transaction that may change rows and tables (a dropped
      trigger of inspector's is reported by check), never the file's own format: BEGIN, COMMIT,
      ROLLBACK, ATTACH and setting PRAGMA writable_schema, journal_mode, schema_version,
      ignore_check_constraints or trusted_schema are refused. The history is append-only: an
      UPDATE or DELETE of a history_* table, an INSERT into one at the top level (only
      triggers insert), or a DROP or ALTER of its tables, indexes or triggers is refused. SQL
      that starts with "-" (a comment) goes last, after "--" and the options: inspector sql
      --json -- "-- note ...".
      """)

  let query = Argument<String>("query", help: "The SQL script.")
  let parameters = Option<[AdHocQuery.Parameter]>(
    "param", valueName: "name=value",
    help: "Bind :name, @name or $name (whole numbers bind as integers, the rest as text);"
      + " each name once.")
  let write = Flag("write", help: "Allow changes; the script runs in one transaction.")

  var declarations: [any CommandDeclaration] { [query, parameters, write] }

  /// A parameter named twice would leave one of the two values unused without a word.
  func validate(_ context: CommandContext) throws(UsageError) {
    var seen = Set<String>()
    for parameter in try context[parameters] where !seen.insert(parameter.name).inserted {
      throw context.usageError("--param \(parameter.name) is given twice")
    }
  }

  func run(_ context: CommandContext) throws -> String {
    let query = AdHocQuery(sql: try context[self.query], parameters: try context[parameters])
    if context[write] {
      // Not streamed: rows are shown only once the transaction has committed, as one page, so
      // a table's widths come from every row.
      let result = try query.run(
        writingTo: context.openDatabase(write: true, allowingDamagedSchema: true),
        attribution: context.attribution())
      try SQLPresenter.write(result, context)
      return ""
    }
    try context.requireDatabaseFile()
    var listing: ListingWriter<[AdHocValue]>?
    try query.stream(
      readingAt: context.databasePath, busyTimeout: context.busyTimeout,
      columns: { listing = SQLPresenter.listing(columns: $0, context) },
      page: { try listing?.write($0) })
    try SQLPresenter.finish(listing, context)
    return ""
  }
}
