import CaseStore
import CommandLineKit

/// `inspector search <text> [--raw] [--limit N]`: full-text search over suspects' names and
/// species, alibis and incident notes (docs/search.md).
struct SearchCommand: InspectorCommand {
  static let configuration = CommandConfiguration(
    name: "search",
    abstract: "Find suspects, alibis and incident notes by their words, most relevant first.",
    discussion: """
      Every word must match, in any order, ignoring case and accents. Quotes, -, * and NEAR in
      the text are plain text unless --raw says it is an FTS5 query ("exact phrase", a OR b,
      snail*, NEAR(pond snail)).
      """)

  let text = Argument<String>("text", help: "The words to find.")
  let raw = Flag("raw", help: "Read the text as an FTS5 query.")
  let limit = Option<PositiveCount?>(
    "limit", valueName: "n", help: "How many matches at most (default 20).")

  var declarations: [any CommandDeclaration] { [text, raw, limit] }

  func run(_ context: CommandContext) throws -> String {
    // Reads only: records other clients changed since inspector's last write are searched by
    // their current text without indexing them here (docs/search.md).
    let database = try context.openDatabase(write: false)
    let marks =
      context.format == .table && context.style.usesColor
      ? (open: "\u{1B}[1m", close: "\u{1B}[22m") : (open: "[", close: "]")
    let hits = try database.search(
      try context[text], raw: context[raw], limit: try context[limit]?.value ?? 20, marks: marks)
    try SearchPresenter.write(hits, context)
    return ""
  }
}
