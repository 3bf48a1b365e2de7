import CaseStore

/// Investigator objects (docs/output-formats.md "Investigators"): `name`, `created_at`; the
/// record of `serve token add` also has `token`, shown that once. No output ever holds a
/// token's hash.
enum InvestigatorOutput {
  static let csvHeader = ["name", "created_at"]

  /// The one JSON writer of an investigator: `serve token list`'s array elements and NDJSON
  /// lines, the record of `serve token revoke`.
  static let json = JSONRecordWriter<Investigator> { investigator, object, output in
    object.member("name", investigator.name, to: &output)
    object.member("created_at", investigator.createdAt, to: &output)
  }

  /// `serve token add`'s record: the investigator and the new token.
  static let addedJSON = JSONRecordWriter<(investigator: Investigator, token: String)> {
    added, object, output in
    object.member("name", added.investigator.name, to: &output)
    object.member("created_at", added.investigator.createdAt, to: &output)
    object.member("token", added.token, to: &output)
  }

  static func csvFields(_ investigator: Investigator) -> [String?] {
    [investigator.name, investigator.createdAt]
  }

  /// `serve token add`'s output: the record in JSON and CSV; as a table, a sentence and the
  /// token alone on the last line (so that `tail -n 1` takes it).
  static func renderAdded(
    _ added: (investigator: Investigator, token: String), _ context: CommandContext
  ) -> String {
    Render.record(
      added, context, json: addedJSON, csvHeader: csvHeader + ["token"],
      csv: csvFields(added.investigator) + [added.token]
    ) {
      "Added investigator \(added.investigator.name). Their token, shown only this once"
        + " (only its hash is kept):\n\(added.token)"
    }
  }

  /// `serve token revoke`'s output: the investigator as it was.
  static func renderRevoked(_ investigator: Investigator, _ context: CommandContext) -> String {
    Render.record(
      investigator, context, json: json, csvHeader: csvHeader, csv: csvFields(investigator)
    ) {
      "Revoked the token of \(investigator.name); it signs nobody in any more."
    }
  }

  /// A writer that streams investigators as `serve token list` shows them: a table of name and
  /// creation time.
  static func listing(_ context: CommandContext) -> ListingWriter<Investigator> {
    ListingWriter(
      context, json: json, csvHeader: csvHeader, csv: csvFields,
      layout: { _ in
        TableLayout(
          columns: [.init("INVESTIGATOR"), .init("CREATED")],
          cells: { [$0.name, $0.createdAt] })
      })
  }
}
