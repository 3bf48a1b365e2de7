/// The case document that `inspector export` writes and `inspector import` reads
/// (docs/export-format.md), and the checks on import input that do not depend on its format.
public enum CaseTransfer {
  /// The value of the document's `format` member.
  public static let format = "fruit-inspectors-case"
  /// The document's `version`: 1. A reader refuses other versions.
  public static let version = 1
  /// The columns of a suspect CSV, in the order `export --format csv` writes them.
  /// `favorite_fruits` is a JSON array of names.
  public static let suspectColumns = [
    "name", "species", "paw_size", "emoji", "favorite_fruits", "alibi", "sleep", "wake",
    "suspicion_level",
  ]
  /// The columns of a fruit CSV (`fruit list --format csv` writes them, with `id`).
  public static let fruitColumns = ["name", "color"]
  /// Columns a CSV may hold that an import ignores: what listings add (`id`, the label).
  public static let ignoredColumns = ["id", "suspicion_label"]

  /// The text `inspector` shows, in tables only, for a favourite or an incident whose fruit row
  /// is gone: `(missing fruit id 9)`. Older exports wrote it as if it were a fruit's name.
  static func isMissingFruitPlaceholder(_ name: String) -> Bool {
    let prefix = "(missing fruit id "
    guard name.hasPrefix(prefix), name.hasSuffix(")") else { return false }
    let digits = name.utf8.dropFirst(prefix.utf8.count).dropLast()
    return !digits.isEmpty
      && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
  }

  /// One element of a `favorite_fruits` array: a fruit's name.
  ///
  /// - Throws: ``CaseError/invalidRecord(record:field:problem:)`` for `null` (what `export`
  ///   writes for a favourite whose fruit row is gone) or any other value that is not a string.
  static func favoriteName(_ node: JSONNode, record: String, field: String) throws -> String {
    switch node {
    case .string(let name):
      return name
    case .null:
      throw CaseError.invalidRecord(
        record: record, field: field,
        problem: "null: the favourite's fruit was missing when the file was written;"
          + " remove it from the list or name a fruit")
    default:
      throw CaseError.invalidRecord(
        record: record, field: field, problem: "expected a fruit name, found \(node.typeName)")
    }
  }

  /// Refuses a favourite or an incident that names its fruit `(missing fruit id N)`
  /// (``isMissingFruitPlaceholder(_:)``) unless the same input imports a fruit of that name:
  /// that is the placeholder an older export wrote for a fruit that was gone, never a fruit.
  ///
  /// - Throws: ``CaseError/invalidRecord(record:field:problem:)`` naming the first one.
  static func refusePlaceholders(in document: CaseDocument) throws {
    let imported = Set(document.fruits.map { NameKey.caseKey($0.name) })
    let problem: (String) -> String = {
      "'\($0)' is what an older export wrote for a fruit that was gone, not a fruit's name;"
        + " remove it or name a fruit"
    }
    for suspect in document.suspects {
      for (index, name) in (suspect.favoriteFruits ?? []).enumerated()
      where isMissingFruitPlaceholder(name) && !imported.contains(NameKey.caseKey(name)) {
        throw CaseError.invalidRecord(
          record: suspect.record, field: "favorite_fruits[\(index)]", problem: problem(name))
      }
    }
    for incident in document.incidents
    where isMissingFruitPlaceholder(incident.fruit)
      && !imported.contains(NameKey.caseKey(incident.fruit))
    {
      throw CaseError.invalidRecord(
        record: incident.record, field: "fruit", problem: problem(incident.fruit))
    }
  }

  /// Parses import input: a JSON case document when its first character (after a byte order
  /// mark and whitespace) is `{`, otherwise CSV of suspects (the header has `species`) or of
  /// fruits (the header has `color`).
  ///
  /// - Parameter bytes: The whole input.
  /// - Returns: The records, checked.
  /// - Throws: ``CaseError/unreadableInput(_:)`` for input that is not UTF-8, not JSON, or has
  ///   no header; ``CaseError/invalidRecord(record:field:problem:)`` for the first bad record.
  public static func parse(_ bytes: [UInt8]) throws -> CaseDocument {
    let text = try text(from: bytes)
    let start = text.unicodeScalars.first { !$0.properties.isWhitespace }
    let document = try start == "{" || start == "[" ? parseJSON(text) : parseCSV(text)
    try refusePlaceholders(in: document)
    return document
  }

  /// The input as text: valid UTF-8, without a leading byte order mark.
  ///
  /// - Throws: ``CaseError/unreadableInput(_:)`` naming the offset of the first byte that is
  ///   not UTF-8.
  static func text(from bytes: [UInt8]) throws -> String {
    var bytes = bytes[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    var offset = bytes.startIndex
    var iterator = bytes.makeIterator()
    var decoder = UTF8()
    var scalars = String.UnicodeScalarView()
    loop: while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar):
        scalars.append(scalar)
        offset += UTF8.width(scalar)
      case .emptyInput:
        break loop
      case .error:
        throw CaseError.unreadableInput(
          "the input is not UTF-8 text (byte offset \(offset)); convert it to UTF-8 first")
      }
    }
    return String(scalars)
  }

  /// Checks a name or species as the case file stores it: not blank, at most 10,000
  /// characters, no control characters other than NUL (which rows written by other clients
  /// may hold, and export carries); leading and trailing whitespace dropped.
  static func checkedName(_ text: String, record: String, field: String) throws -> String {
    try checked(record: record, field: field) {
      try SuspectRepository<Writing>.validate(text: text, field: field, allowingNul: true)
      return text.trimmingSpaces()
    }
  }

  /// Runs `body`, turning a ``CaseError`` it throws into
  /// ``CaseError/invalidRecord(record:field:problem:)`` for this record and field.
  static func checked<T>(record: String, field: String, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as CaseError {
      if case .invalidRecord = error { throw error }
      throw CaseError.invalidRecord(record: record, field: field, problem: error.description)
    }
  }

  /// Free text (alibi, notes): at most 100,000 characters, line breaks, tabs and NUL allowed.
  static func checkedFreeText(_ text: String, record: String, field: String) throws -> String {
    try checked(record: record, field: field) {
      guard text.unicodeScalars.count <= 100_000 else {
        throw CaseError.invalidValue(
          field: field, value: text, expected: "at most 100,000 characters")
      }
      try TextRules.requirePrintable(
        text, field: field, allowingLineBreaks: true, allowingNul: true)
      return text
    }
  }

  /// An emoji: empty means none; at most 64 characters, no control characters but NUL.
  static func checkedEmoji(_ text: String, record: String) throws -> String? {
    try checked(record: record, field: "emoji") {
      try SuspectRepository<Writing>.validated(emoji: text, allowingNul: true)
    }
  }

  /// A level written as a JSON number would be (`0.5`, `1e-07`): finite, in [0, 1].
  static func level(_ text: String) -> SuspicionLevel? {
    let allowed = Set("0123456789.eE+-".unicodeScalars)
    guard !text.isEmpty, text.unicodeScalars.allSatisfy(allowed.contains),
      let value = Double(text)
    else { return nil }
    return SuspicionLevel(value)
  }
}
