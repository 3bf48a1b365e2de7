import CaseStore
import CommandLineKit

/// `inspector list [filters] [--sort KEY [--reverse]] [--limit N] [--offset N] [--as-of TIME]`: the
/// suspect table (docs/command-line.md "list"), all of it or the suspects the filters select, now
/// or as it stood at a time of the case history.
struct ListCommand: ReadingCommand {
  static let configuration = CommandConfiguration(
    name: "list",
    abstract: "List the suspects: name, species, favourite fruits and suspicion.",
    discussion: """
      Filters combine (every one must hold). Without --sort the order is by id; --sort level is
      the ranking's order without an incident (most suspicious first); --sort fruits orders by
      the first favourite fruit's name, then id, suspects without favourites last. With
      --as-of, the suspects as they stood then, rebuilt from the case history.
      """)

  let asOf = Option<String?>.asOf

  /// Compared with the stored species ignoring case, so kept as text.
  let species = Option<String?>("species", help: "Only the suspect of this species.")
  let paw = Option<PawSize?>("paw", help: "Only suspects with this paw size.")
  /// Checked by the case store (``SuspicionLevel/init(parsing:)``, exit 65), as `suspect` does.
  let minLevel = Option<String?>(
    "min-level", valueName: "x", help: "Only suspects whose suspicion level is at least X.")
  let maxLevel = Option<String?>(
    "max-level", valueName: "x", help: "Only suspects whose suspicion level is at most X.")
  /// Resolved by the case store (exit 65 for an unknown fruit), so kept as text.
  let favorite = Option<String?>(
    "favorite", valueName: "fruit", help: "Only suspects who favour this fruit.")
  let noAlibi = Flag("no-alibi", help: "Only suspects without an alibi.")
  /// Checked by the case store (``ClockTime/init(parsing:field:)``, exit 65).
  let awakeAt = Option<String?>(
    "awake-at", valueName: "HH:MM", help: "Only suspects awake at this time (no schedule: awake).")
  let sort = Option<SuspectSort?>("sort", valueName: "key", help: "The order (default id).")
  let reverse = Flag("reverse", help: "Reverse the order.")
  let limit = Option<PositiveCount?>(
    "limit", valueName: "n", help: "Show at most N suspects.")
  let offset = Option<Count?>(
    "offset", valueName: "n", help: "Leave out the first N suspects of the order.")

  var declarations: [any CommandDeclaration] {
    [
      asOf, species, paw, minLevel, maxLevel, favorite, noAlibi, awakeAt, sort, reverse, limit,
      offset,
    ]
  }

  func run(_ context: CommandContext, _ db: CaseReader) throws -> String {
    let filter = try self.filter(context)
    let listing = SuspectPresenter.listing(context)
    try context.reading(db, asOf: asOf, inIDOrderOnly: filter.isEverything) { db in
      if filter.isEverything {
        try db.suspects.forEachPage { try listing.write($0) }
      } else {
        try db.suspects.forEachPage(matching: filter) { try listing.write($0) }
      }
    }
    try listing.finish()
    return ""
  }

  /// The filter, order and page the options ask for.
  ///
  /// - Throws: ``UsageError`` for a bad value, `CaseError.invalidValue` (exit 65) for a level
  ///   or time the case store refuses.
  private func filter(_ context: CommandContext) throws -> SuspectFilter {
    var filter = SuspectFilter()
    filter.species = try context[species]
    filter.pawSize = try context[paw]
    filter.minLevel = try context[minLevel].map { try SuspicionLevel(parsing: $0) }
    filter.maxLevel = try context[maxLevel].map { try SuspicionLevel(parsing: $0) }
    filter.favorite = try context[favorite]
    filter.noAlibi = context[noAlibi]
    filter.awakeAt = try context[awakeAt].map { try ClockTime(parsing: $0, field: "awake-at time") }
    filter.sort = try context[sort] ?? .id
    filter.reverse = context[reverse]
    filter.limit = try context[limit]?.value
    filter.offset = try context[offset]?.value ?? 0
    return filter
  }
}
