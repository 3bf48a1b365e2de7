import CaseStore
import CommandLineKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
    let database = try context.openDatabase(write: false)
    // Bring the index up to date with other clients' writes first (inspector's own writes
    // leave it up to date). Busy waits the busy timeout and fails (exit 75) as every read does;
    // only a file this process cannot write is searched as it is, with a warning.
    var pending = try database.pendingSearchChanges()
    if pending > 0, context.canWriteDatabaseFile {
      try context.openDatabase(write: true).refreshSearchIndex()
      pending = try database.pendingSearchChanges()
    }
    if pending > 0 {
      context.writeToStandardError(
        "inspector: warning: \(pending) recent change(s) are not indexed yet (the file is"
          + " read-only here)\n")
    }
    let marks =
      context.format == .table && context.style.usesColor
      ? (open: "\u{1B}[1m", close: "\u{1B}[22m") : (open: "[", close: "]")
    let hits = try database.search(
      try context[text], raw: context[raw], limit: try context[limit]?.value ?? 20, marks: marks)
    try SearchPresenter.write(hits, context)
    return ""
  }
}

extension CommandContext {
  /// `true` when this process may write the case file and its directory (where SQLite keeps
  /// its `-wal`, `-shm` and `-journal` files).
  fileprivate var canWriteDatabaseFile: Bool {
    let slash = databasePath.lastIndex(of: "/")
    let directory =
      slash.map { $0 == databasePath.startIndex ? "/" : String(databasePath[..<$0]) } ?? "."
    return access(databasePath, W_OK) == 0 && access(directory, W_OK) == 0
  }
}
