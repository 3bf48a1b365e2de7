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
}
