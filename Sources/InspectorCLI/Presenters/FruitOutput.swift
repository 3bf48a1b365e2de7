import CaseStore

/// Fruit objects (docs/output-formats.md "Fruits"): `id`, `name`, `color`.
enum FruitOutput {
  static let csvHeader = ["id", "name", "color"]

  /// The one JSON writer of a fruit: `fruit list`'s array elements and NDJSON lines, the
  /// record of `fruit add`, `edit` and `remove`.
  static let json = JSONRecordWriter<Fruit> { fruit, object, output in
    object.member("id", fruit.id, to: &output)
    object.member("name", fruit.name, to: &output)
    object.member("color", fruit.color, to: &output)
  }

  static func csvFields(_ fruit: Fruit) -> [String?] {
    ["\(fruit.id)", fruit.name, fruit.color]
  }

  /// What a command did to a fruit, for the sentence a table shows.
  enum Change {
    /// `fruit add`: `Added Quince (yellow, id 20).`
    case added
    /// `fruit edit`: `Updated Quince (green, id 20).`
    case updated
    /// `fruit remove` (the fruit as it was): `Removed Quince.`
    case removed
  }

  /// A fruit after `change`: the record in JSON and CSV, the change's sentence as a table.
  static func render(_ fruit: Fruit, _ context: CommandContext, after change: Change) -> String {
    Render.record(fruit, context, json: json, csvHeader: csvHeader, csv: csvFields(fruit)) {
      switch change {
      case .added: "Added \(fruit.name) (\(fruit.color), id \(fruit.id))."
      case .updated: "Updated \(fruit.name) (\(fruit.color), id \(fruit.id))."
      case .removed: "Removed \(fruit.name)."
      }
    }
  }

  /// A writer that streams fruits as `fruit list` shows them, in the context's format: a table
  /// of id, fruit and colour.
  static func listing(_ context: CommandContext) -> ListingWriter<Fruit> {
    ListingWriter(
      context, json: json, csvHeader: csvHeader, csv: csvFields,
      layout: { _ in
        TableLayout(
          columns: [.init("ID", alignment: .right), .init("FRUIT"), .init("COLOUR")],
          cells: { ["\($0.id)", $0.name, $0.color] })
      })
  }
}
