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
    return CaseFileReportPresenter.render(report, context)
  }
}
