import CaseStore
import HTTPKit

extension DeskAPI {
  /// How many hits or change sets without `limit=`, and the range.
  static let searchSizes = (default: 20, range: 1...500)

  /// `GET /api/search?q=TEXT&limit=N`: the hits `search TEXT --limit N --json` gives (20 by
  /// default, 1 to 500), their matched words marked `[` `]` as the command line marks them
  /// off a terminal.
  func search(_ call: DeskCall) throws -> HTTPResponse {
    guard let text = call.request.queryValue("q"), !text.allSatisfy(\.isWhitespace) else {
      throw DeskRequestError.usage("Missing expected value for 'q' (the words to find)")
    }
    let limit = try call.count(
      "limit", in: Self.searchSizes.range, default: Self.searchSizes.default)
    let hits = try reading(call) {
      try $0.search(text, raw: false, limit: limit, marks: (open: "[", close: "]"))
    }
    return Self.json(hits, SearchPresenter.json)
  }

  /// `GET /api/history?suspect=ID&limit=N`: change sets newest first with their changes, as
  /// `history [id:ID] --limit N --format ndjson` gives them, in one array (20 by default, 1 to
  /// 500). With `as_of`, the history up to that point.
  func history(_ call: DeskCall) throws -> HTTPResponse {
    var filter = CaseHistory.Filter(
      limit: try call.count("limit", in: Self.searchSizes.range, default: Self.searchSizes.default))
    if let suspect = call.request.queryValue("suspect") {
      guard let id = Int64(suspect), id > 0 else {
        throw DeskRequestError.usage(
          "The value '\(suspect)' is invalid for 'suspect' (a suspect's id, 1 or more)")
      }
      filter.animalID = id
    }
    // The history is read on the case now; as_of bounds it (a rebuilt case has none).
    let point = call.request.queryValue("as_of")
    // NDJSON: one compact change set a line (a line holds no raw newline: JSON escapes it).
    var lines: [UInt8] = []
    try pool.read { db in
      if let point { filter.through = try db.history.changeSet(asOf: point) }
      let writer = HistoryWriter(ndjson: { lines += $0.bytes })
      try db.history.forEachPage(filter) { try writer.write($0) }
      try writer.finish()
    }
    return Self.json { output in
      output.append(byte: UInt8(ascii: "["))
      for (index, line) in lines.split(separator: UInt8(ascii: "\n")).enumerated() {
        if index > 0 { output.append(byte: UInt8(ascii: ",")) }
        output.append(bytes: line)
      }
      output.append(byte: UInt8(ascii: "]"))
    }
  }
}
