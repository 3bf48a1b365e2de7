import CaseStore

/// Turns search hits into the output formats (docs/search.md): `rank`, `kind`, `id`,
/// `subject`, `snippet` (the matching text with its marks), `relevance`; a table of rank,
/// kind, who and the match, or `No matches.`.
enum SearchPresenter {
  static let csvHeader = ["rank", "kind", "id", "subject", "snippet", "relevance"]

  /// The one JSON writer of a search hit.
  static let json = JSONRecordWriter<SearchHit> { hit, object, output in
    object.member("rank", hit.rank, to: &output)
    object.member("kind", hit.kind.rawValue, to: &output)
    object.member("id", hit.id, to: &output)
    object.member("subject", hit.subject, to: &output)
    object.member("snippet", hit.text, to: &output)
    object.member("relevance", hit.relevance, to: &output)
  }

  /// Writes `hits` to the output in the context's format; a table with no hit says
  /// `No matches.` instead.
  ///
  /// - Throws: ``OutputError`` when stdout refuses the text.
  static func write(_ hits: [SearchHit], _ context: CommandContext) throws(OutputError) {
    if hits.isEmpty, context.format == .table {
      try context.output.write("No matches.\n")
      return
    }
    let listing = ListingWriter<SearchHit>(
      context, json: json, csvHeader: csvHeader,
      csv: { hit in
        ["\(hit.rank)", hit.kind.rawValue, "\(hit.id)", hit.subject, hit.text, "\(hit.relevance)"]
      },
      layout: { _ in
        TableLayout(
          columns: [
            .init("#", alignment: .right), .init("KIND"), .init("WHO"), .init("MATCH"),
          ],
          cells: { hit in ["\(hit.rank)", hit.kind.rawValue, hit.subject, hit.text] })
      })
    try listing.write(hits)
    try listing.finish()
  }
}
