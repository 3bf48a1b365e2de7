import CaseStore

/// Output of commands that print one suspect.
enum SuspectOutput {
  /// The suspect as a JSON object, a CSV row, or the inspector view.
  static func render(_ suspect: Suspect, _ context: CommandContext, message: String? = nil)
    -> String
  {
    Render.record(
      context, json: SuspectPresenter.json(suspect), csvHeader: SuspectPresenter.csvHeader,
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
}
