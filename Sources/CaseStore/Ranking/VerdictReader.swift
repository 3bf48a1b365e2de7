import SQLiteKit

/// Reads a suspect's id and clue verdicts from a row of ``SuspicionRanking/scoringSQL``, with
/// the columns looked up once per statement.
struct VerdictReader {
  /// The clues the incident checks (the paw clue only with a paw print), with their columns.
  let checked: [(clue: Clue, column: Column)]
  private let id: Column

  /// Looks up the columns of `statement` for the clues `incident` checks.
  ///
  /// - Throws: `RowDecodingError` when the statement lacks a column.
  init(_ statement: Statement, incident: Incident) throws {
    id = try statement.column("id")
    checked = try Clue.allCases
      .filter { $0 != .pawSize || incident.pawSize != nil }
      .map { clue in
        let name =
          switch clue {
          case .pawSize: "paw_match"
          case .favoriteFruit: "favorite_fruit"
          case .noAlibi: "no_alibi"
          case .awake: "awake"
          }
        return (clue, try statement.column(name))
      }
  }

  /// The suspect's id and its verdict on each checked clue, in ``Clue`` order.
  ///
  /// - Throws: `RowDecodingError` for a column that is not an integer.
  func scored(_ row: Row) throws -> ScoredSuspect {
    var verdicts: [ClueVerdict] = []
    verdicts.reserveCapacity(checked.count)
    for (clue, column) in checked {
      verdicts.append(ClueVerdict(clue: clue, matched: try row.int64(column) != 0))
    }
    return ScoredSuspect(id: try row.int64(id), verdicts: verdicts)
  }
}
