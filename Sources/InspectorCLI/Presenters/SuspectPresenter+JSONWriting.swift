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
    object.member("id", to: &output)
    output.append(suspect.id)
    object.member("name", to: &output)
    JSONValue.writeString(suspect.name, to: &output)
    object.member("species", to: &output)
    JSONValue.writeString(suspect.species, to: &output)
    object.member("emoji", to: &output)
    if let emoji = suspect.emoji {
      JSONValue.writeString(emoji, to: &output)
    } else {
      output.append("null")
    }
    object.member("paw_size", to: &output)
    JSONValue.writeString(suspect.pawSize.rawValue, to: &output)
    object.member("favorite_fruits", to: &output)
    JSONValue.writeStrings(suspect.favoriteFruits, pretty: pretty, to: &output)
    object.member("alibi", to: &output)
    JSONValue.writeString(suspect.alibi, to: &output)
    object.member("sleep_schedule", to: &output)
    if let schedule = suspect.sleepSchedule {
      var times = JSONObjectWriter(pretty: pretty, indent: indent + 1, to: &output)
      times.member("sleep", to: &output)
      JSONValue.writeString(schedule.sleep.description, to: &output)
      times.member("wake", to: &output)
      JSONValue.writeString(schedule.wake.description, to: &output)
      times.finish(to: &output)
    } else {
      output.append("null")
    }
    object.member("suspicion_level", to: &output)
    JSONValue.writeNumber(suspect.suspicionLevel.value, to: &output)
    object.member("suspicion_label", to: &output)
    JSONValue.writeString(suspect.suspicionLevel.label.rawValue, to: &output)
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
