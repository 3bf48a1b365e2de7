import CaseStore
import CommandLineKit

/// `inspector changes apply FILE`: applies a changeset file in one transaction, recorded in the
/// case history as one change set; conflicts are listed and nothing is applied unless
/// `--on-conflict` says what to do (docs/changes.md "Conflicts").
struct ChangesApplyCommand: ImportingCommand {
  static let configuration = CommandConfiguration(
    name: "apply", abstract: "Apply a changeset file to the database in one transaction.")

  let file = Argument<FilePath>("file", help: "A file written by 'inspector changes export'.")
  let onConflict = Option<ChangesetConflictPolicy?>(
    "on-conflict", valueName: "policy",
    help: "What to do with changes that conflict: fail (the default: apply nothing), skip"
      + " them, or replace the rows with them.")

  var declarations: [any CommandDeclaration] { [file, onConflict] }

  /// The changeset file's path and contents.
  func input(_ context: CommandContext) throws -> (path: String, changeset: CaseChangeset) {
    let path = try context[file].path
    return (path, try ChangesetFile.read(path))
  }

  func run(
    _ context: CommandContext, _ db: CaseWriter,
    _ input: (path: String, changeset: CaseChangeset)
  ) throws -> String {
    let (path, changeset) = input
    let policy = try context[onConflict] ?? .fail
    do {
      let applied = try db.apply(changeset, path: path, onConflict: policy)
      let replaced = applied.conflicts.filter(\.replaced).count
      let skipped = applied.conflicts.count - replaced
      return Render.record(
        context,
        json: [
          ("path", .string(path)), ("changes", .integer(Int64(applied.changes))),
          ("written", .integer(Int64(applied.written))),
          ("replaced", .integer(Int64(replaced))), ("skipped", .integer(Int64(skipped))),
          ("conflicts", Self.json(applied.conflicts)),
        ],
        csvHeader: ["path", "changes", "conflicts", "written", "replaced", "skipped"],
        csv: [
          path, "\(applied.changes)", "\(applied.conflicts.count)", "\(applied.written)",
          "\(replaced)", "\(skipped)",
        ]
      ) {
        let summary =
          applied.conflicts.isEmpty
          ? "Applied \(path): \(applied.changes) change(s)."
          : "Applied \(path): \(applied.written) of \(applied.changes) change(s) written"
            + " (\(replaced) replaced), \(skipped) skipped."
        return
          ([summary]
          + applied.conflicts.map {
            "\($0.replaced ? "replaced" : "skipped") (\($0.kind)): \($0.change)"
          }).joined(separator: "\n")
      }
    } catch ChangesError.conflicts(let conflicts, let policy) {
      // Like check's findings: the list on stdout, then the one-line error and exit 65.
      try context.output.write(
        context.format == .table
          ? conflicts.map { "conflict (\($0.kind)): \($0.change)\n" }.joined()
          : Self.json(conflicts).serialized() + "\n")
      throw ChangesError.conflicts(conflicts, policy: policy)
    }
  }

  /// The conflicts as a JSON array of `{"kind", "change"}` objects.
  static func json(_ conflicts: [(kind: String, change: String)]) -> JSONValue {
    .array(conflicts.map { .object([("kind", .string($0.kind)), ("change", .string($0.change))]) })
  }

  /// The conflicts met by an apply as a JSON array of `{"kind", "change", "outcome"}` objects
  /// (`outcome`: `replaced` or `skipped`).
  static func json(_ conflicts: [ChangesetApplication.Conflict]) -> JSONValue {
    .array(
      conflicts.map {
        .object([
          ("kind", .string($0.kind)), ("change", .string($0.change)),
          ("outcome", .string($0.replaced ? "replaced" : "skipped")),
        ])
      })
  }
}
