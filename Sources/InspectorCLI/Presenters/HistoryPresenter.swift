import CaseStore
import CommandLineKit

/// How `inspector history` shows the case history (docs/output-formats.md "History"): a table
/// of changes said in words for people, change set objects with their changes in JSON and
/// NDJSON, one record per change in CSV.
enum HistoryPresenter {
  /// The CSV header: one record per change, its change set's fields repeated.
  static let csvHeader = [
    "change_set", "at", "actor", "note", "table", "key", "operation", "before", "after",
  ]

  /// A writer for the context's format.
  static func writer(_ context: CommandContext) -> HistoryWriter {
    switch context.format {
    case .json, .ndjson: HistoryWriter(json: context)
    case .csv, .table: HistoryWriter(listing: listing(context))
    }
  }

  /// The listing of changes as CSV records or table rows.
  static func listing(_ context: CommandContext) -> ListingWriter<CaseHistory.Change> {
    ListingWriter(
      context, json: changeJSON, csvHeader: csvHeader,
      csv: { change in
        [
          "\(change.changeSet.id)", change.changeSet.at, change.changeSet.actor,
          change.changeSet.note, change.table, object(change.key),
          change.operation.rawValue, change.before.map(object), change.after.map(object),
        ]
      },
      layout: { _ in
        TableLayout(
          columns: [
            TextTable.Column("SET", alignment: .right), TextTable.Column("AT"),
            TextTable.Column("ACTOR"), TextTable.Column("NOTE"), TextTable.Column("SUSPECT"),
            TextTable.Column("CHANGE"),
          ],
          cells: { change in
            let set = change.changeSet
            let first = change.startsChangeSet
            return [
              first ? "\(set.id)" : "", first ? set.at : "", first ? set.actor ?? "-" : "",
              first ? set.note ?? "" : "", subject(change), describe(change),
            ]
          })
      })
  }

  /// Recorded values, column name to value in the recorded order, as compact JSON text (a
  /// CSV field, a change in words that no sentence fits).
  static func object(_ values: [(column: String, value: AdHocValue)]) -> String {
    SQLPresenter.fieldsJSON.compactText(values)
  }

  /// The one JSON writer of a change set: `id`, `at`, `actor`, `note` and `changes`; the
  /// changes are written one page at a time by ``HistoryWriter``, which starts the array
  /// after these members.
  static let changeSetJSON = JSONRecordWriter<CaseHistory.ChangeSet> { set, object, output in
    object.member("id", set.id, to: &output)
    object.member("at", set.at, to: &output)
    object.member("actor", set.actor, to: &output)
    object.member("note", set.note, to: &output)
  }

  /// The one JSON writer of a change: `table`, `key`, `operation`, `before`, `after`.
  static let changeJSON = JSONRecordWriter<CaseHistory.Change> { change, object, output in
    object.member("table", change.table, to: &output)
    object.member("key", change.key, SQLPresenter.fieldsJSON, to: &output)
    object.member("operation", change.operation.rawValue, to: &output)
    object.member("before", change.before, SQLPresenter.fieldsJSON, to: &output)
    object.member("after", change.after, SQLPresenter.fieldsJSON, to: &output)
  }

  /// Whose row changed: the suspect's name, `id:N` for a suspect without a recorded name, the
  /// fruit or incident for rows of no suspect.
  static func subject(_ change: CaseHistory.Change) -> String {
    if let name = change.suspectName { return name }
    if let id = change.animalID { return "id:\(id)" }
    return ""
  }

  /// The change in words, e.g. `suspicion level 0.0 -> 0.9` or
  /// `favourite added: Pink Pearl Apple at position 4`.
  static func describe(_ change: CaseHistory.Change) -> String {
    let before = Dictionary(change.before ?? [], uniquingKeysWith: { first, _ in first })
    let after = Dictionary(change.after ?? [], uniquingKeysWith: { first, _ in first })
    let values = change.operation == .delete ? before : after
    func text(_ column: String, in values: [String: AdHocValue] = values) -> String {
      show(values[column] ?? .null)
    }
    /// `label a -> b` for each changed column, in the recorded order.
    func changes(_ labels: [String: String]) -> String {
      (change.after ?? []).map { column, value in
        "\(labels[column] ?? column) \(show(before[column] ?? .null)) -> \(show(value))"
      }.joined(separator: ", ")
    }
    let fruit = change.fruitName ?? "fruit \(text("fruit_id"))"
    switch (change.table, change.operation) {
    case ("animals", .insert):
      return "suspect added: \(text("name")) the \(text("species")), paw \(text("paw_size"))"
        + (values["emoji"].map { $0 == .null ? "" : ", emoji \(show($0))" } ?? "")
    case ("animals", .delete):
      return "suspect removed: \(text("name")) the \(text("species"))"
    case ("animals", .update):
      return changes(["paw_size": "paw size"])
    case ("fruits", .insert):
      return "fruit added: \(text("name")) (\(text("color")))"
    case ("fruits", .delete):
      return "fruit removed: \(text("name"))"
    case ("fruits", .update):
      return "fruit " + changes(["color": "colour"])
    case ("favorite_fruits", .insert):
      return "favourite added: \(fruit) at position \(position(values["position"]))"
    case ("favorite_fruits", .delete):
      return "favourite removed: \(fruit) (was at position \(position(values["position"])))"
    case ("favorite_fruits", .update):
      if change.after?.count == 1, let new = after["position"] {
        return "favourite \(fruit) moved: position \(position(before["position"]))"
          + " -> \(position(new))"
      }
      return "favourite " + changes([:])
    case ("alibis", .insert):
      return "alibi set: \(quoted(values["statement"]))"
    case ("alibis", .delete):
      return "alibi cleared (was \(quoted(values["statement"])))"
    case ("alibis", .update):
      return "alibi \(quoted(before["statement"])) -> \(quoted(after["statement"]))"
    case ("sleep_schedules", .insert):
      return "sleep schedule set: \(text("sleep_at"))-\(text("wake_at"))"
    case ("sleep_schedules", .delete):
      return "sleep schedule cleared (was \(text("sleep_at"))-\(text("wake_at")))"
    case ("sleep_schedules", .update):
      return changes(["sleep_at": "sleep time", "wake_at": "wake time"])
    case ("suspicion_levels", .insert):
      return "suspicion level 0.0 -> \(text("level"))"
    case ("suspicion_levels", .delete):
      return "suspicion level \(text("level")) -> 0.0"
    case ("suspicion_levels", .update):
      return changes(["level": "suspicion level"])
    case ("incidents", .insert):
      return "incident \(text("id")) recorded: \(fruit) nibbled at \(text("occurred_at"))"
    case ("incidents", .delete):
      return "incident \(text("id")) removed"
    case ("incidents", .update):
      return "incident \(change.incidentID.map(String.init) ?? "?"): "
        + changes(["occurred_at": "time", "paw_size": "paw size"])
    default:
      return "\(change.table) \(change.operation.rawValue): "
        + object(change.after ?? change.before ?? [])
    }
  }

  /// A value as the words show it: text as is, `none` for NULL, numbers as Swift prints them.
  static func show(_ value: AdHocValue) -> String {
    switch value {
    case .null: "none"
    case .text(let text): text
    default: SQLPresenter.text(value) ?? "none"
    }
  }

  /// A 0-based stored position as people count it (from 1).
  private static func position(_ value: AdHocValue?) -> String {
    if case .integer(let position) = value ?? .null { return "\(position + 1)" }
    return show(value ?? .null)
  }

  /// Free text in double quotes, on one line (a line break shows as `\n`), cut after 60
  /// characters.
  private static func quoted(_ value: AdHocValue?) -> String {
    guard case .text(let text) = value ?? .null else { return "none" }
    var line = text.replacingAll("\r\n", with: "\\n").replacingAll("\n", with: "\\n")
    if line.count > 60 { line = String(line.prefix(59)) + "…" }
    return "\"\(line)\""
  }
}

/// Writes the history as it is read: CSV records and table rows through a ``ListingWriter``,
/// JSON and NDJSON as change set objects (``HistoryPresenter/changeSetJSON``) whose `changes`
/// arrays are written change by change (``HistoryPresenter/changeJSON``), so not even one
/// change set is held whole. Pretty JSON is one array of change sets; NDJSON one compact
/// change set a line.
final class HistoryWriter {
  private let listing: ListingWriter<CaseHistory.Change>?
  private let context: CommandContext?
  /// Where NDJSON goes when there is no context (the desk's history, ``init(ndjson:)``).
  private let emit: ((UTF8Buffer) -> Void)?
  private var setsWritten = 0
  /// The change set being written, with the number of its changes written so far.
  private var openSet: (object: JSONObjectWriter, changes: Int)?
  private var text = UTF8Buffer()

  /// A writer of CSV or a table.
  init(listing: ListingWriter<CaseHistory.Change>) {
    self.listing = listing
    context = nil
    emit = nil
  }

  /// A writer of NDJSON (one compact change set a line, as `--format ndjson` prints them)
  /// handing its text to `emit` (the desk's `/api/history`).
  init(ndjson emit: @escaping (UTF8Buffer) -> Void) {
    listing = nil
    context = nil
    self.emit = emit
  }

  /// A writer of JSON (pretty, one array) or NDJSON (one compact change set a line).
  init(json context: CommandContext) {
    listing = nil
    self.context = context
    emit = nil
  }

  /// Writes one page of changes.
  ///
  /// - Throws: ``OutputError`` when stdout refuses the text.
  func write(_ page: [CaseHistory.Change]) throws(OutputError) {
    if let listing { return try listing.write(page) }
    guard context != nil || emit != nil else { return }
    let pretty = context?.format == .json
    text.removeAll()
    for change in page {
      if change.startsChangeSet || openSet == nil {
        closeSet(pretty: pretty)
        if pretty {
          text.append(setsWritten == 0 ? "[\n  " : ",\n  ")
        }
        var object = JSONObjectWriter(pretty: pretty, indent: pretty ? 1 : 0, to: &text)
        HistoryPresenter.changeSetJSON.writeMembers(change.changeSet, &object, &text)
        object.member("changes", to: &text)
        text.append(byte: UInt8(ascii: "["))
        openSet = (object, 0)
        setsWritten += 1
      }
      guard var set = openSet else { continue }
      if pretty {
        text.append(set.changes > 0 ? ",\n" : "\n")
        JSONValue.writeIndent(set.object.indent + 2, to: &text)
      } else if set.changes > 0 {
        text.append(byte: UInt8(ascii: ","))
      }
      HistoryPresenter.changeJSON.write(
        change, to: &text, pretty: pretty, indent: pretty ? set.object.indent + 2 : 0)
      set.changes += 1
      openSet = set
    }
    try output(text)
  }

  /// Ends the history: closes the last change set and the JSON array.
  ///
  /// - Throws: ``OutputError`` when stdout refuses the text.
  func finish() throws(OutputError) {
    if let listing { return try listing.finish() }
    guard context != nil || emit != nil else { return }
    let pretty = context?.format == .json
    text.removeAll()
    closeSet(pretty: pretty)
    if pretty { text.append(setsWritten == 0 ? "[]\n" : "\n]\n") }
    try output(text)
  }

  /// Closes the `changes` array and the object of the change set being written.
  /// Hands `text` to the context's output, or to ``emit``.
  private func output(_ text: UTF8Buffer) throws(OutputError) {
    if let emit { return emit(text) }
    try context?.output.write(text)
  }

  private func closeSet(pretty: Bool) {
    guard let set = openSet else { return }
    if pretty, set.changes > 0 {
      text.append(byte: UInt8(ascii: "\n"))
      JSONValue.writeIndent(set.object.indent + 1, to: &text)
    }
    text.append(byte: UInt8(ascii: "]"))
    set.object.finish(to: &text)
    if !pretty { text.append(byte: UInt8(ascii: "\n")) }
    openSet = nil
  }
}
