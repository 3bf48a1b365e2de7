/// Why a case-store operation refused its input. Every case is "bad data" (exit 65 in the CLI,
/// docs/exit-codes.md "Which error gives which code") unless noted; nothing was stored when one is
/// thrown.
public enum CaseError: Error, Equatable, CustomStringConvertible, Sendable {
  /// A value failed validation: which field, what was given, and what is accepted.
  case invalidValue(field: String, value: String, expected: String)
  /// No suspect matched the reference (species, name or id).
  case unknownSuspect(String)
  /// Several suspects matched a name; the candidates as `Name the Species (id N)`.
  case ambiguousSuspect(String, candidates: [String])
  /// No fruit has this name.
  case unknownFruit(String)
  /// Several fruits are this name ignoring case (stored by another client); the candidates as
  /// `Name (id N)`.
  case ambiguousFruit(String, candidates: [String])
  /// No incident has this id.
  case unknownIncident(String)
  /// Another suspect already has this species (ignoring case).
  case duplicateSpecies(String)
  /// A fruit with this name (ignoring case) already exists.
  case duplicateFruit(String)
  /// The fruit is already one of the suspect's favourites.
  case alreadyFavorite(suspect: String, fruit: String)
  /// The fruit is not among the suspect's favourites.
  case notFavorite(suspect: String, fruit: String)
  /// The fruit cannot be removed: favoured or nibbled by these (names or `incident N`).
  case fruitInUse(String, by: [String])
  /// `init --seed` on a database that already holds suspects.
  case alreadySeeded(suspects: Int)
  /// The database schema is older than this binary; `inspector migrate up` brings it up.
  case schemaOutOfDate(current: Int, latest: Int)
  /// A stored value breaks the domain's rules (written by another client with the schema's
  /// checks off): the table, the row's id, the column, the value as SQL would quote it, and
  /// what is allowed. Never read as a default.
  case invalidStoredValue(table: String, id: Int64, column: String, value: String, expected: String)
  /// A record of an import is bad: where it is (`line 4` in CSV, `$.suspects[2]` in JSON),
  /// the field, and what is wrong. Nothing of the import was stored.
  case invalidRecord(record: String, field: String, problem: String)
  /// Import input that cannot be read at all (not UTF-8, not JSON, no CSV header).
  case unreadableInput(String)
  /// No change set of the history has this id (`latest` when the history is empty).
  case unknownChangeSet(String)
  /// A change set cannot be undone: later change sets (their ids, ascending) changed some of
  /// the same rows.
  case undoConflict(changeSet: Int64, later: [Int64])
  /// The history does not agree with the live rows or with the tables it records (a history
  /// or a table changed with its triggers dropped): what disagrees.
  case historyDisagrees(String)
  /// An undo would write over a row that is not as the history says it is now (a write that
  /// went around the history's triggers): the change set, the row (table, key and whose it
  /// is) and what differs, with both values. Nothing was changed.
  case undoUnexpectedRow(changeSet: Int64, row: String, problem: String)
  /// An undo would leave a row naming a row it removes, or restore a row naming one that is
  /// gone (`incident 3 names fruit 'Durian' (id 16), which this undo would remove`), or break
  /// another rule of the schema (`animals id 9 (Hugo the Hare) cannot be put back: UNIQUE
  /// constraint failed: animals.species_key`, another suspect having taken the species since).
  /// Nothing was changed.
  case undoBreaksReference(changeSet: Int64, problem: String)
  /// `undo` without an id found no change set left to undo: every one that holds changes is
  /// undone (docs/history.md "Undo").
  case nothingToUndo
  /// `redo` found no undo to redo: the newest change set in effect that is neither an undo nor
  /// a redo (its id; no undo after it is in effect), or `nil` when no undo is in effect at all
  /// (docs/history.md "Redo").
  case nothingToRedo(after: Int64?)
  /// A `--as-of` point before the first change set the history holds: that change set's id
  /// and time (UTC, as the history prints it).
  case beforeHistory(point: String, firstChangeSet: Int64, at: String)
  /// `revert` cannot bring the suspect back to how it stood after a change set: the suspect
  /// (`Catie the Crow (id 4)`), the change set, and why (it did not exist then, a favourite
  /// fruit of then is gone, its species of then is another suspect's now, or a value of then
  /// breaks today's rules). Nothing was changed.
  case revertRefused(suspect: String, changeSet: Int64, problem: String)
  /// `serve token add`: an investigator of this name (ignoring the case of ASCII letters)
  /// already has a token (docs/web-desk.md "Signing in, and who may do what").
  case duplicateInvestigator(String)
  /// `serve token revoke`: no investigator has this name.
  case unknownInvestigator(String)

  /// One line for `inspector: error: ...`.
  public var description: String {
    switch self {
    case .invalidValue(let field, let value, let expected):
      return "invalid \(field) '\(CaseError.shown(value))': expected \(expected)"
    case .unknownSuspect(let reference):
      return "no suspect matches '\(CaseError.shown(reference))' (species, name or id)"
    case .ambiguousSuspect(let reference, let candidates):
      return "'\(CaseError.shown(reference))' matches several suspects: "
        + candidates.joined(separator: ", ")
    case .unknownFruit(let name):
      return "no fruit named '\(CaseError.shown(name))'"
    case .ambiguousFruit(let name, let candidates):
      return "'\(CaseError.shown(name))' matches several fruits: "
        + candidates.joined(separator: ", ")
    case .unknownIncident(let reference):
      return "no incident with id '\(CaseError.shown(reference))'"
    case .duplicateSpecies(let species):
      return "a suspect of species '\(CaseError.shown(species))' already exists"
    case .duplicateFruit(let name):
      return "a fruit named '\(CaseError.shown(name))' already exists"
    case .alreadyFavorite(let suspect, let fruit):
      return "\(fruit) is already one of \(suspect)'s favourite fruits"
    case .notFavorite(let suspect, let fruit):
      return "\(fruit) is not one of \(suspect)'s favourite fruits"
    case .fruitInUse(let fruit, let holders):
      return "cannot remove \(fruit): still held by " + holders.joined(separator: ", ")
    case .alreadySeeded(let count):
      return "the database already holds \(count) suspect(s); refusing to seed over them"
    case .invalidStoredValue(let table, let id, let column, let value, let expected):
      return "\(table) id \(id) holds \(column) \(CaseError.shown(value)), which is not "
        + expected
    case .invalidRecord(let record, let field, let problem):
      if field.isEmpty { return "bad record at \(record): \(problem)" }
      if record.hasPrefix("$") {
        return "bad record at \(record).\(CaseError.shown(field)): \(problem)"
      }
      return "bad record at \(record), column \(CaseError.shown(field)): \(problem)"
    case .unreadableInput(let problem):
      return problem
    case .schemaOutOfDate(let current, let latest):
      return "the database schema is at version \(current), this inspector needs \(latest)"
    case .unknownChangeSet(let reference):
      return reference == "latest"
        ? "the history holds no change set"
        : "no change set with id '\(CaseError.shown(reference))'"
    case .undoConflict(let changeSet, let later):
      return "cannot undo change set \(changeSet): later change set(s) "
        + later.map(String.init).joined(separator: ", ") + " changed the same rows"
    case .historyDisagrees(let what):
      return "the history disagrees with the case: \(what)"
    case .undoUnexpectedRow(let changeSet, let row, let problem):
      return "cannot undo change set \(changeSet): \(row) is not as the history says: \(problem)"
    case .undoBreaksReference(let changeSet, let problem):
      return "cannot undo change set \(changeSet): \(problem)"
    case .nothingToUndo:
      return "nothing to undo: every change set of the history is undone"
    case .nothingToRedo(let newer):
      return "nothing to redo: no undo is in effect"
        + (newer.map { " after change set \($0)" } ?? "")
    case .beforeHistory(let point, let first, let at):
      return "'\(CaseError.shown(point))' is before the history: it starts at \(at)"
        + " (change set \(first))"
    case .revertRefused(let suspect, let changeSet, let problem):
      return "cannot revert \(suspect) to change set \(changeSet): \(problem)"
    case .duplicateInvestigator(let name):
      return "investigator '\(CaseError.shown(name))' already has a token;"
        + " revoke it first to make a new one"
    case .unknownInvestigator(let name):
      return "no investigator named '\(CaseError.shown(name))' has a token"
    }
  }

  /// A value fit for a one-line message: newlines and NULs made visible, long text cut.
  static func shown(_ value: String) -> String {
    var text = ""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\u{0}": text += "\\0"
      default: text.unicodeScalars.append(scalar)
      }
    }
    return text.count > 80 ? String(text.prefix(77)) + "..." : text
  }
}
