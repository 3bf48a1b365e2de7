import CaseStore
import CommandLineKit

/// `inspector optimize [--vacuum]`: fresh planner statistics and, with `--vacuum`, the free
/// pages given back (docs/operations.md "optimize").
struct OptimizeCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "optimize",
    abstract: "Refresh the query planner's statistics (ANALYZE, PRAGMA optimize).",
    discussion: """
      --vacuum also rebuilds the file without its free pages and says how much it freed; it
      waits for other writers as long as --busy-timeout says, then fails (exit 75) and leaves
      the file as it was. It also fails (exit 75) when a reader of an older snapshot keeps the
      file from shrinking past --busy-timeout.
      """)

  let vacuum = Flag("vacuum", help: "Also reclaim free pages (VACUUM).")

  var declarations: [any CommandDeclaration] { [vacuum] }

  func run(_ context: CommandContext) throws -> String {
    let report = try context.openDatabase(write: true, allowingDamagedSchema: true).optimize(
      vacuum: context[vacuum])
    let fields: [(String, JSONValue)] = [
      ("page_size", .integer(Int64(report.pageSize))),
      ("pages_before", .integer(Int64(report.pagesBefore))),
      ("free_pages_before", .integer(Int64(report.freePagesBefore))),
      ("pages_after", .integer(Int64(report.pagesAfter))),
      ("free_pages_after", .integer(Int64(report.freePagesAfter))),
      ("vacuumed", .bool(report.vacuumed)), ("bytes_freed", .integer(Int64(report.bytesFreed))),
    ]
    return Render.record(
      context, json: fields, csvHeader: fields.map(\.0),
      csv: [
        "\(report.pageSize)", "\(report.pagesBefore)", "\(report.freePagesBefore)",
        "\(report.pagesAfter)", "\(report.freePagesAfter)", "\(report.vacuumed)",
        "\(report.bytesFreed)",
      ]
    ) {
      var text = "Statistics refreshed (ANALYZE, PRAGMA optimize)."
      if report.vacuumed {
        text +=
          "\nVacuumed: \(report.pagesBefore) pages before, \(report.pagesAfter) after; freed "
          + "\(report.bytesFreed) bytes (\(report.bytesFreed / report.pageSize) pages of "
          + "\(report.pageSize) bytes)."
      } else if report.freePagesBefore > 0 {
        text +=
          "\n\(report.freePagesBefore) free pages (\(report.freePagesBefore * report.pageSize)"
          + " bytes); 'inspector optimize --vacuum' gives them back."
      }
      return text
    }
  }
}
