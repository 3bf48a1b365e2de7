import CaseStore

/// `inspector changes export --base BASE`: the changes made since BASE (the copy an
/// investigator took away) as a changeset file, on stdout or in `--output` (docs/changes.md).
struct ChangesExportCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "export", abstract: "Write the changes made since BASE as a changeset file.")

  let base = Option<FilePath>(
    "base", valueName: "path", help: "The case file the changes are taken against.")
  let output = Option<FilePath?>(
    "output", valueName: "file", help: "Write the changeset to this file instead of stdout.")

  func run(_ context: CommandContext) throws -> String {
    let changeset = try context.openDatabase(write: false).changeset(since: context[base].path)
    guard let file = context[output]?.path else { return changeset.fileText }
    try ChangesetFile.save(changeset.fileText, to: file)
    return ""
  }
}
