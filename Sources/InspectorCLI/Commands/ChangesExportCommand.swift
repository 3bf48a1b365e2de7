import CaseStore
import CommandLineKit

/// `inspector changes export --base BASE`: the changes made since BASE (the copy an
/// investigator took away) as a changeset file, on stdout or in `--output` (docs/changes.md),
/// which follows the output-file rule (docs/operations.md "Files the tool writes").
struct ChangesExportCommand: ReadingCommand {
  static let configuration = CommandConfiguration(
    name: "export", abstract: "Write the changes made since BASE as a changeset file.")

  let base = Option<FilePath>(
    "base", valueName: "path", help: "The case file the changes are taken against.")
  let output = Option<FilePath?>(
    "output", valueName: "file", help: "Write the changeset to this file instead of stdout.")

  var declarations: [any CommandDeclaration] { [base, output] }

  func run(_ context: CommandContext, _ db: CaseReader) throws -> String {
    let basePath = try context[base].path
    // Checked before any work: the file may not be the case file, the base, or their files.
    let file = try context[output].map {
      try context.outputFile(
        $0.path, writing: "a changeset", alsoProtecting: [(basePath, "the base")])
    }
    let changeset = try db.changeset(since: basePath)
    guard let file else { return changeset.fileText }
    try file.write(Array(changeset.fileText.utf8))
    return ""
  }
}
