import CaseStore

/// Output of commands that print one suspect.
enum SuspectOutput {
  /// The suspect as a JSON object, a CSV row, or the inspector view (`show`).
  static func render(_ suspect: Suspect, _ context: CommandContext) -> String {
    render(suspect, context, message: nil)
  }

  /// The suspect as a JSON object, a CSV row, or `message` (the inspector view without one).
  private static func render(_ suspect: Suspect, _ context: CommandContext, message: String?)
    -> String
  {
    Render.record(
      suspect, context, json: SuspectPresenter.json, csvHeader: SuspectPresenter.csvHeader,
      csv: SuspectPresenter.csvFields(suspect)
    ) {
      message.map(TextTable.singleLine) ?? SuspectPresenter(style: context.style).detail(suspect)
    }
  }

  /// What a command did to a suspect, for the sentence a table shows.
  enum Change {
    /// `animal add`: `Added 🦝 Rénard the Raccoon (id 10).`
    case added
    /// `animal edit`: `Updated ... (id 10).`
    case updated
    /// `animal remove` (the suspect as it was): `Removed ... (id 10).`
    case removed
    /// `alibi` with text or `--clear`: `Recorded the alibi of Rénard the Raccoon.` or
    /// `Cleared the alibi of ...`.
    case alibi
    /// `sleep`: `Rénard the Raccoon sleeps 22:00, wakes 06:00.` or
    /// `Cleared the sleep schedule of ...`.
    case sleepSchedule
    /// `suspect`: `Rénard the Raccoon: suspicion 0.9 (Extremely suspicious!)`.
    case suspicionLevel
    /// `favorite add`, `move`, `remove`: `Rénard the Raccoon now favours: A, B.`
    case favorites
  }

  /// The suspect after `change`: the record in JSON and CSV, the change's sentence as a table.
  static func render(_ suspect: Suspect, _ context: CommandContext, after change: Change)
    -> String
  {
    render(suspect, context, message: sentence(change, suspect))
  }

  /// The sentence of ``render(_:_:after:)``.
  static func sentence(_ change: Change, _ suspect: Suspect) -> String {
    let title = SuspectPresenter.title(suspect)
    let named =
      "\(SuspectPresenter.displayName(suspect)) the \(suspect.species) (id \(suspect.id))."
    switch change {
    case .added: return "Added \(named)"
    case .updated: return "Updated \(named)"
    case .removed: return "Removed \(named)"
    case .alibi:
      return suspect.alibi.isEmpty
        ? "Cleared the alibi of \(title)." : "Recorded the alibi of \(title)."
    case .sleepSchedule:
      return suspect.sleepSchedule.map { "\(title) sleeps \($0.sleep), wakes \($0.wake)." }
        ?? "Cleared the sleep schedule of \(title)."
    case .suspicionLevel:
      let level = suspect.suspicionLevel
      return "\(title): suspicion \(level.value) (\(level.label.rawValue))"
    case .favorites:
      let favorites =
        suspect.favoriteFruits.isEmpty ? "(none)" : suspect.favoriteFruits.joined(separator: ", ")
      return "\(title) now favours: \(favorites)."
    }
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
    object.member("id", suspect.id, to: &output)
    object.member("alibi", suspect.alibi, to: &output)
  }
}
