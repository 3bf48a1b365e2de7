import CaseStore

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

  func run(_ context: CommandContext) throws -> String {
    let path = context[file].path
    let changeset = try ChangesetFile.read(path)
    let database = try context.openDatabase(write: true)
    let count = try database.changes(in: changeset, path: path).count
    let policy = context[onConflict] ?? .fail
    do {
      let conflicts = try database.apply(changeset, path: path, onConflict: policy)
      let verb = policy == .skip ? "skipped" : "replaced"
      return Render.record(
        context,
        json: [
          ("path", .string(path)), ("changes", .integer(Int64(count))),
          ("conflicts", Self.json(conflicts)),
        ],
        csvHeader: ["path", "changes", "conflicts"],
        csv: [path, "\(count)", "\(conflicts.count)"]
      ) {
        ([
          "Applied \(path): \(count) change(s)"
            + (conflicts.isEmpty ? "." : ", \(conflicts.count) conflict(s) \(verb).")
        ]
          + conflicts.map { "\(verb) (\($0.kind)): \($0.change)" }).joined(separator: "\n")
      }
    } catch ChangesError.conflicts(let conflicts) {
      // Like check's findings: the list on stdout, then the one-line error and exit 65.
      try context.output.write(
        context.format == .table
          ? conflicts.map { "conflict (\($0.kind)): \($0.change)\n" }.joined()
          : Self.json(conflicts).serialized() + "\n")
      throw ChangesError.conflicts(conflicts)
    }
  }

  /// The conflicts as a JSON array of `{"kind", "change"}` objects.
  static func json(_ conflicts: [(kind: String, change: String)]) -> JSONValue {
    .array(conflicts.map { .object([("kind", .string($0.kind)), ("change", .string($0.change))]) })
  }
}
