import CaseStore
import CommandLineKit

/// `inspector changes apply FILE`: applies a changeset file in one transaction, recorded in the
/// case history as one change set; conflicts are listed and nothing is applied unless
/// `--on-conflict` says what to do (docs/changes.md "Conflicts").
struct ChangesApplyCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "apply", abstract: "Apply a changeset file to the database in one transaction.")

  let file = Argument<FilePath>("file", help: "A file written by 'inspector changes export'.")
  let onConflict = Option<ChangesetConflictPolicy?>(
    "on-conflict", valueName: "policy",
    help: "What to do with changes that conflict: fail (the default: apply nothing), skip"
      + " them, or replace the rows with them.")

  var declarations: [any CommandDeclaration] { [file, onConflict] }

  func run(_ context: CommandContext) throws -> String {
    let path = try context[file].path
    let changeset = try ChangesetFile.read(path)
    let database = try context.openDatabase(write: true)
    let policy = try context[onConflict] ?? .fail
    do {
      let applied = try database.apply(changeset, path: path, onConflict: policy)
      return ChangePresenter.render(applied, path: path, context)
    } catch ChangesError.conflicts(let conflicts, let policy) {
      // Like check's findings: the list on stdout, then the one-line error and exit 65.
      var failure = CommandFailure.from(ChangesError.conflicts(conflicts, policy: policy))
      failure.standardOutput = ChangePresenter.conflicts(conflicts, context)
      throw failure
    }
  }
}
