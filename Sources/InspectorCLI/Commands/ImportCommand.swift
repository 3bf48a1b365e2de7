import CaseStore
import CommandLineKit

/// `inspector import FILE|- [--on-conflict fail|skip|update] [--dry-run]`: a JSON case
/// document, or CSV of suspects or fruits, in one transaction (docs/export-format.md).
struct ImportCommand: ImportingCommand {
  static let configuration = CommandConfiguration(
    name: "import",
    abstract: "Import a JSON case document, or CSV of suspects or of fruits, in one transaction.",
    discussion: """
      Suspects match stored ones by species, fruits by name (ignoring case). A record equal to
      the stored one is unchanged; one that differs is a conflict: --on-conflict fail (the
      default) refuses the whole import, skip keeps the stored record, update changes it. Any
      bad record refuses the whole import (exit 65), naming the line (CSV) or JSON path and
      the field. See docs/export-format.md.
      """)

  let file = Argument<FilePath>("file", help: "The file to read, or - for standard input.")
  let onConflict = Option<ConflictPolicy?>(
    "on-conflict", valueName: "policy",
    help: "What to do with a record that differs from the stored one (default fail).")
  let dryRun = Flag("dry-run", help: "Report what would change; store nothing.")

  var declarations: [any CommandDeclaration] { [file, onConflict, dryRun] }

  /// The records of the file, parsed and checked.
  func input(_ context: CommandContext) throws -> CaseDocument {
    try CaseTransfer.parse(try InputFile.read(try context[file].path))
  }

  func run(_ context: CommandContext, _ db: CaseWriter, _ document: CaseDocument) throws
    -> String
  {
    let report = try db.importCase(
      document, onConflict: try context[onConflict] ?? .fail, dryRun: context[dryRun])
    return ImportPresenter.render(report, context)
  }
}
