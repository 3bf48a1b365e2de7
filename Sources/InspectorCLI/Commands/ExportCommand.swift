import CaseStore
import CommandLineKit

/// `inspector export [--format csv]`: the whole case as one versioned JSON document
/// (docs/export-format.md), or the suspects as CSV.
struct ExportCommand: ReadingCommand {
  static let configuration = CommandConfiguration(
    name: "export",
    abstract: "Write the whole case as one JSON document (--format csv: the suspects as CSV).",
    discussion: """
      The document holds the fruits, the suspects with their favourites in order and their
      interviews, and the incidents; 'inspector import' reads it back. See
      docs/export-format.md.
      """)

  var declarations: [any CommandDeclaration] { [] }

  func validate(_ context: CommandContext) throws(UsageError) {
    if context.format == .ndjson {
      throw context.usageError("export writes one JSON document or CSV; --format ndjson has none")
    }
  }

  func run(_ context: CommandContext, _ db: CaseReader) throws -> String {
    if context.format == .csv {
      try CaseExportWriter.writeSuspectsCSV(db, context)
    } else {
      try CaseExportWriter.writeDocument(db, context)
    }
    return ""
  }
}
