import CaseStore
import CommandLineKit

/// `inspector diff OTHER`: the records that differ between another case file (a backup, a
/// colleague's copy) and the database, as the changes that turn OTHER into the database
/// (docs/changes.md).
struct DiffCommand: ReadingCommand {
  static let configuration = CommandConfiguration(
    name: "diff",
    abstract: "List what changed since another case file (e.g. a backup), record by record.")

  let other = Argument<FilePath>(
    "other", help: "The other case file (read only), at the same schema version.")

  var declarations: [any CommandDeclaration] { [other] }

  func run(_ context: CommandContext, _ db: CaseReader) throws -> String {
    let path = try context[other].path
    let changes = try db.changes(since: path)
    try ChangePresenter.write(changes, none: "No differences from \(path).", context)
    return ""
  }
}
