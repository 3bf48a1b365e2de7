import CaseStore
import CommandLineKit

/// `inspector changes show FILE`: a changeset file's changes in words, without applying them.
struct ChangesShowCommand: ReadingCommand {
  static let configuration = CommandConfiguration(
    name: "show", abstract: "List the changes a changeset file holds, without applying them.")

  let file = Argument<FilePath>("file", help: "A file written by 'inspector changes export'.")

  var declarations: [any CommandDeclaration] { [file] }

  func run(_ context: CommandContext, _ db: CaseReader) throws -> String {
    let path = try context[file].path
    let changeset = try ChangesetFile.read(path)
    let changes = try db.changes(in: changeset, path: path)
    try ChangePresenter.write(changes, none: "\(path) holds no changes.", context)
    return ""
  }
}
