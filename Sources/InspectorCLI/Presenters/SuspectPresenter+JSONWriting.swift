import CaseStore

extension SuspectPresenter {
  /// Appends the members of ``json(_:)`` for `suspect` to an object being written, without
  /// building the ``JSONValue`` (listings write a million of them); the text is the same as
  /// ``json(_:)`` serialised.
  ///
  /// - Parameters:
  ///   - suspect: The suspect.
  ///   - object: The object being written, `indent` levels deep.
  ///   - output: Where the text goes.
  ///   - pretty: Pretty or compact text, as the object was started.
  ///   - indent: The object's nesting level in pretty text.
  static func writeJSONMembers(
    of suspect: Suspect, to object: inout JSONObjectWriter, _ output: inout UTF8Buffer,
    pretty: Bool, indent: Int
  ) {
    object.member(JSONKeys.id, to: &output)
    output.append(suspect.id)
    object.member(JSONKeys.name, to: &output)
    JSONValue.writeString(suspect.name, to: &output)
    object.member(JSONKeys.species, to: &output)
    JSONValue.writeString(suspect.species, to: &output)
    object.member(JSONKeys.emoji, to: &output)
    if let emoji = suspect.emoji {
      JSONValue.writeString(emoji, to: &output)
    } else {
      output.append("null")
    }
    object.member(JSONKeys.pawSize, to: &output)
    JSONValue.writeString(suspect.pawSize.rawValue, to: &output)
    object.member(JSONKeys.favoriteFruits, to: &output)
    JSONValue.writeStrings(suspect.favoriteFruitNames, pretty: pretty, to: &output)
    object.member(JSONKeys.alibi, to: &output)
    JSONValue.writeString(suspect.alibi, to: &output)
    object.member(JSONKeys.sleepSchedule, to: &output)
    writeJSON(suspect.sleepSchedule, to: &output, pretty: pretty, indent: indent + 1)
    object.member(JSONKeys.suspicionLevel, to: &output)
    JSONValue.writeNumber(suspect.suspicionLevel.value, to: &output)
    object.member(JSONKeys.suspicionLabel, to: &output)
    JSONValue.writeString(suspect.suspicionLevel.label.rawValue, to: &output)
  }

  /// Writes a sleep schedule as `{"sleep": "HH:MM", "wake": "HH:MM"}`, or `null` without one,
  /// as the value of a member `indent` levels deep in pretty text.
  static func writeJSON(
    _ schedule: SleepSchedule?, to output: inout UTF8Buffer, pretty: Bool, indent: Int
  ) {
    guard let schedule else {
      output.append("null")
      return
    }
    var times = JSONObjectWriter(pretty: pretty, indent: indent, to: &output)
    times.member(JSONKeys.sleep, to: &output)
    JSONValue.writeString(schedule.sleep.description, to: &output)
    times.member(JSONKeys.wake, to: &output)
    JSONValue.writeString(schedule.wake.description, to: &output)
    times.finish(to: &output)
  }

  /// Appends ``json(_:)`` of `suspect` as one object (see
  /// ``writeJSONMembers(of:to:_:pretty:indent:)``).
  static func writeJSON(
    _ suspect: Suspect, to output: inout UTF8Buffer, pretty: Bool, indent: Int
  ) {
    var object = JSONObjectWriter(pretty: pretty, indent: indent, to: &output)
    writeJSONMembers(of: suspect, to: &object, &output, pretty: pretty, indent: indent)
    object.finish(to: &output)
  }
}

/// The keys of the suspect and ranking objects, quoted once rather than on every row.
enum JSONKeys {
  static let id: JSONObjectWriter.Key = "id"
  static let name: JSONObjectWriter.Key = "name"
  static let species: JSONObjectWriter.Key = "species"
  static let emoji: JSONObjectWriter.Key = "emoji"
  static let pawSize: JSONObjectWriter.Key = "paw_size"
  static let favoriteFruits: JSONObjectWriter.Key = "favorite_fruits"
  static let alibi: JSONObjectWriter.Key = "alibi"
  static let sleepSchedule: JSONObjectWriter.Key = "sleep_schedule"
  static let sleep: JSONObjectWriter.Key = "sleep"
  static let wake: JSONObjectWriter.Key = "wake"
  static let suspicionLevel: JSONObjectWriter.Key = "suspicion_level"
  static let suspicionLabel: JSONObjectWriter.Key = "suspicion_label"
  static let rank: JSONObjectWriter.Key = "rank"
  static let cluesMatched: JSONObjectWriter.Key = "clues_matched"
  static let cluesChecked: JSONObjectWriter.Key = "clues_checked"
  static let clues: JSONObjectWriter.Key = "clues"
}
