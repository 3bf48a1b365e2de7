import CaseStore
import CommandLineKit

/// Turns suspects into the output formats (docs/output-formats.md "Suspects").
///
/// JSON keys: `id`, `name`, `species`, `emoji` (null when none), `paw_size`, `favorite_fruits`
/// (names in order), `alibi`, `sleep_schedule` (`{"sleep", "wake"}` or null),
/// `suspicion_level`, `suspicion_label`. CSV has the same columns, favourites as one JSON array
/// (as `export --format csv` writes them, so `import` reads them back) and the schedule as
/// `sleep` and `wake` columns. A favourite whose fruit row is gone is `null` in JSON and CSV,
/// `(missing fruit id N)` only in a table.
struct SuspectPresenter {
  let style: OutputStyle

  /// CSV header for suspects.
  static let csvHeader = [
    "id", "name", "species", "emoji", "paw_size", "favorite_fruits", "alibi", "sleep", "wake",
    "suspicion_level", "suspicion_label",
  ]

  /// The one JSON writer of a suspect (``JSONRecordWriter``): `show`'s document, `list`'s
  /// array elements and NDJSON lines, `demo`'s suspects. Its members also open and close
  /// nothing, so a ranking row writes them between its own (``RankingPresenter/json``).
  static let json = JSONRecordWriter<Suspect> { suspect, object, output in
    object.member("id", suspect.id, to: &output)
    object.member("name", suspect.name, to: &output)
    object.member("species", suspect.species, to: &output)
    object.member("emoji", suspect.emoji, to: &output)
    object.member("paw_size", suspect.pawSize.rawValue, to: &output)
    object.member("favorite_fruits", strings: suspect.favoriteFruitNames, to: &output)
    object.member("alibi", suspect.alibi, to: &output)
    object.member("sleep_schedule", suspect.sleepSchedule, sleepScheduleJSON, to: &output)
    object.member("suspicion_level", suspect.suspicionLevel.value, to: &output)
    object.member("suspicion_label", suspect.suspicionLevel.label.rawValue, to: &output)
  }

  /// A sleep schedule as `{"sleep": "HH:MM", "wake": "HH:MM"}` (a suspect's `sleep_schedule`,
  /// also in the export document).
  static let sleepScheduleJSON = JSONRecordWriter<SleepSchedule> { schedule, object, output in
    object.member("sleep", schedule.sleep.description, to: &output)
    object.member("wake", schedule.wake.description, to: &output)
  }

  /// The suspects as CSV with a header (`demo --format csv`).
  static func csv(_ suspects: [Suspect]) -> String {
    CSVWriter.document(header: csvHeader, rows: suspects.map(csvFields))
  }

  /// The CSV fields of one suspect, in ``csvHeader`` order.
  static func csvFields(_ suspect: Suspect) -> [String?] {
    [
      "\(suspect.id)", suspect.name, suspect.species, suspect.emoji, suspect.pawSize.rawValue,
      favoritesField(suspect), suspect.alibi,
      suspect.sleepSchedule?.sleep.description, suspect.sleepSchedule?.wake.description,
      "\(suspect.suspicionLevel.value)", suspect.suspicionLevel.label.rawValue,
    ]
  }

  /// The `favorite_fruits` CSV field: a compact JSON array of names, `null` for a favourite
  /// whose fruit row is gone (`["Elstar Apple",null]`).
  static func favoritesField(_ suspect: Suspect) -> String {
    var favorites = UTF8Buffer()
    JSONValue.writeStrings(suspect.favoriteFruitNames, pretty: false, to: &favorites)
    return favorites.text
  }

  /// Warns on stderr about each favourite whose fruit row is gone: a document or CSV carries
  /// it as `null`, which `import` refuses until it is fixed.
  static func warnAboutBrokenReferences(_ suspects: [Suspect], _ context: CommandContext) {
    for suspect in suspects {
      for (_, fruitID) in suspect.missingFavoriteFruits.sorted(by: { $0.key < $1.key }) {
        context.writeToStandardError(
          "warning: suspect \(suspect.id) favours fruit id \(fruitID), which does not exist;"
            + " written as null; see 'inspector check'\n")
      }
    }
  }

  /// A level for tables, to at most three decimals (`0.333` for 1/3, `0.0` for 1e-7); JSON and
  /// CSV keep the exact value.
  static func levelText(_ level: SuspicionLevel) -> String {
    "\((level.value * 1000).rounded() / 1000)"
  }

  /// `🦝 Rénard`: emoji (if any) and name.
  static func displayName(_ suspect: Suspect) -> String {
    if let emoji = suspect.emoji { return "\(emoji) \(suspect.name)" }
    return suspect.name
  }

  /// `Rénard the Raccoon`.
  static func title(_ suspect: Suspect) -> String {
    "\(suspect.name) the \(suspect.species)"
  }

  /// A 10-cell bar for a level in [0, 1]: `███░░░░░░░` for 0.3 (rounded to the nearest tenth).
  static func bar(_ level: SuspicionLevel) -> String {
    let filled = Int((level.value * 10).rounded())
    return String(repeating: "█", count: filled) + String(repeating: "░", count: 10 - filled)
  }

  /// The bar and label, e.g. `█████░░░░░ Very suspicious`, without colour.
  static func suspicionText(_ level: SuspicionLevel) -> String {
    let filled = Int((level.value * 10).rounded())
    guard let texts = suspicionTexts[level.label], texts.indices.contains(filled) else {
      return "\(bar(level)) \(level.label.rawValue)"
    }
    return texts[filled]
  }

  /// ``suspicionText(_:)`` for every label and number of filled cells, made once: every row of
  /// a listing shows one.
  private static let suspicionTexts = Dictionary(
    uniqueKeysWithValues: SuspicionLabel.allCases.map { label in
      (
        label,
        (0...10).map { filled in
          String(repeating: "█", count: filled) + String(repeating: "░", count: 10 - filled) + " "
            + label.rawValue
        }
      )
    })

  /// `text` in the label's colour (when colour is on).
  func colored(_ text: String, _ label: SuspicionLabel) -> String {
    switch label.color {
    case .green: style.green(text)
    case .mint: style.mint(text)
    case .orange: style.orange(text)
    case .red: style.red(text)
    case .blue: style.blue(text)
    }
  }

  /// The first `count` favourites joined by `, `, with `, …` when there are more.
  static func favoritesSummary(_ fruits: [String], count: Int = 3) -> String {
    var shown = ""
    for (index, fruit) in fruits.prefix(count).enumerated() {
      if index > 0 { shown += ", " }
      shown += fruit
    }
    return fruits.count > count ? shown + ", …" : shown
  }

  /// The suspect table of `list` (docs/command-line.md "list"): id, emoji + name, species, the
  /// first three favourite fruits, and the suspicion bar with its label (coloured on a terminal).
  func table(_ suspects: [Suspect]) -> String {
    tableLayout.render(suspects, headerStyle: style.bold)
  }

  /// The layout of ``table(_:)``, also used to stream `list`.
  var tableLayout: TableLayout<Suspect> {
    TableLayout(
      columns: [
        .init("ID", alignment: .right), .init("SUSPECT"), .init("SPECIES"),
        .init("FAVOURITE FRUITS"), .init("SUSPICION"),
      ],
      cells: { suspect in
        [
          "\(suspect.id)", Self.displayName(suspect), suspect.species,
          Self.favoritesSummary(suspect.favoriteFruits),
          Self.suspicionText(suspect.suspicionLevel),
        ]
      },
      cellStyle: { suspect, column, text in
        column == 4 ? colored(text, suspect.suspicionLevel.label) : text
      })
  }

  /// A writer that streams suspects as `list` shows them, in the context's format.
  static func listing(_ context: CommandContext) -> ListingWriter<Suspect> {
    let presenter = SuspectPresenter(style: context.style)
    return ListingWriter(
      context, json: json, csvHeader: csvHeader,
      writeCSV: { CSVWriter.appendRecord(csvFields($0), to: &$1) },
      layout: { _ in presenter.tableLayout })
  }

  /// The inspector view of `show`: identity, then interview.
  func detail(_ suspect: Suspect) -> String {
    let favorites =
      suspect.favoriteFruits.isEmpty
      ? "(none)"
      : suspect.favoriteFruits.enumerated().map { "\($0.offset + 1). \($0.element)" }
        .joined(separator: "\n")
    let alibi = suspect.hasNoAlibi ? "(none)" : suspect.alibi
    let schedule =
      suspect.sleepSchedule.map { "sleeps \($0.sleep), wakes \($0.wake)" } ?? "(none)"
    let level = suspect.suspicionLevel
    let suspicion =
      "\(Self.levelText(level))  " + colored(Self.suspicionText(level), level.label)
    var lines = [
      style.bold(TextTable.singleLine(Self.displayName(suspect) + " the \(suspect.species)"))
        + "  (id \(suspect.id))",
      "",
    ]
    let identity = [
      ("Name", suspect.name), ("Species", suspect.species), ("Paw size", suspect.pawSize.rawValue),
      ("Emoji", suspect.emoji ?? "(none)"), ("Favourites", favorites),
    ]
    let interview = [("Alibi", alibi), ("Sleep", schedule), ("Suspicion", suspicion)]
    let width = (identity + interview).map { displayWidth(of: $0.0) }.max() ?? 0
    lines.append(style.bold("Identity"))
    lines += Self.fields(identity, labelWidth: width)
    lines.append("")
    lines.append(style.bold("Interview"))
    lines += Self.fields(interview, labelWidth: width)
    return lines.joined(separator: "\n")
  }

  /// Label-value lines, labels padded to one width, continuation lines indented under values;
  /// control characters in values (rows written by other tools) are shown as U+FFFD.
  static func fields(_ pairs: [(String, String)], labelWidth: Int? = nil) -> [String] {
    let width = labelWidth ?? pairs.map { displayWidth(of: $0.0) }.max() ?? 0
    var lines: [String] = []
    for (label, value) in pairs {
      let pad = String(repeating: " ", count: width - displayWidth(of: label))
      let indent = String(repeating: " ", count: width + 4)
      let shown = TextRules.displayable(value)
      for (index, part) in shown.split(separator: "\n", omittingEmptySubsequences: false)
        .enumerated()
      {
        lines.append(index == 0 ? "  \(label)\(pad)  \(part)" : indent + part)
      }
    }
    return lines
  }
}
