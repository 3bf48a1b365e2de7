import CaseStore

/// Output of commands that print one suspect.
enum SuspectOutput {
  /// The suspect as a JSON object, a CSV row, or the inspector view.
  static func render(_ suspect: Suspect, _ context: CommandContext, message: String? = nil)
    -> String
  {
    Render.record(
      suspect, context, json: SuspectPresenter.json, csvHeader: SuspectPresenter.csvHeader,
      csv: SuspectPresenter.csvFields(suspect)
    ) {
      message.map(TextTable.singleLine) ?? SuspectPresenter(style: context.style).detail(suspect)
    }
  }

  /// The suspect after a change to its favourites (`favorite add`, `move`, `remove`): the
  /// record in JSON and CSV, `Name the Species now favours: A, B.` as a table.
  static func renderFavorites(_ suspect: Suspect, _ context: CommandContext) -> String {
    let favorites =
      suspect.favoriteFruits.isEmpty ? "(none)" : suspect.favoriteFruits.joined(separator: ", ")
    return render(
      suspect, context, message: "\(SuspectPresenter.title(suspect)) now favours: \(favorites).")
  }

  /// What `alibi` without text prints: the record `{"id", "alibi"}` in JSON and CSV, the alibi
  /// (or `Name the Species has no alibi.`) as a table.
  static func renderAlibi(_ suspect: Suspect, _ context: CommandContext) -> String {
    Render.record(
      suspect, context, json: alibiJSON, csvHeader: ["id", "alibi"],
      csv: ["\(suspect.id)", suspect.alibi]
    ) {
      suspect.hasNoAlibi
        ? "\(SuspectPresenter.title(suspect)) has no alibi."
        : TextRules.displayable(suspect.alibi)
    }
  }

  /// The alibi record of `alibi` without text: `id`, `alibi`.
  static let alibiJSON = JSONRecordWriter<Suspect> { suspect, object, output in
    object.member(JSONKeys.id, suspect.id, to: &output)
    object.member(JSONKeys.alibi, suspect.alibi, to: &output)
  }
}
