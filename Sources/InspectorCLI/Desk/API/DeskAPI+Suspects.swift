import CaseStore
import HTTPKit

extension DeskAPI {
  /// The page size of `/api/suspects` without `limit=`, and its largest.
  static let suspectPageSizes = (default: 50, range: 1...500)

  /// `GET /api/suspects`: one page of the suspect listing, `{"suspects": [Suspect...],
  /// "next": CURSOR or null}` (docs/web-desk.md "API"), streamed as it is read
  /// (``DeskSuspectPageStream``; with `as_of`, read whole first). The filters are `list`'s
  /// (``SuspectFilter``): `name`, `species`, `paw_size`, `fruit`, `level_min`, `level_max`,
  /// `no_alibi=1`, `awake_at`; `sort=id|name|species|level|fruits`, `order=asc|desc`, `limit`
  /// (1 to 500, 50 by default), `after` (the `next` of the page before).
  func suspects(_ call: DeskCall) throws -> HTTPResponse {
    let filter = try Self.suspectFilter(call)
    let position = try call.request.queryValue("after").map { text in
      guard let position = SuspectPosition(cursor: text) else {
        throw DeskRequestError.usage("The value '\(text)' is invalid for 'after' (a cursor)")
      }
      guard position.sort == filter.sort, position.reverse == filter.reverse else {
        throw DeskRequestError.usage(
          "The cursor in 'after' belongs to another sort or order; start again without it")
      }
      return position
    }
    if call.request.queryValue("as_of") != nil {
      // A past case is read from its rebuilt copy, one reader at a time: read whole.
      let page = try reading(call) { try $0.suspects.page(matching: filter, after: position) }
      return Self.suspectPage(page.suspects, next: page.next)
    }
    let stream = try DeskSuspectPageStream(pool: pool, filter: filter, after: position)
    return HTTPResponse(status: 200, headers: [Self.jsonContentType], body: .stream(stream))
  }

  /// A page of suspects as one body: `{"suspects":[...],"next":CURSOR or null}` and a newline,
  /// the bytes ``DeskSuspectPageStream`` sends piece by piece.
  static func suspectPage(_ suspects: [Suspect], next: SuspectPosition?) -> HTTPResponse {
    json { output in
      var object = JSONObjectWriter(pretty: false, indent: 0, to: &output)
      object.member("suspects", suspects, SuspectPresenter.json, to: &output)
      object.member("next", next?.cursor, to: &output)
      object.finish(to: &output)
    }
  }

  /// `GET /api/suspects/{id}`: one suspect, as `show --json` gives it.
  func suspect(_ call: DeskCall) throws -> HTTPResponse {
    let id = try call.id(of: "suspect")
    let suspect = try reading(call, suspect: id) { try $0.suspects.suspect(id: id) }
    guard let suspect else { throw DeskRequestError.notFound("no suspect with id \(id)") }
    return Self.json(suspect, SuspectPresenter.json)
  }

  /// The filter, order and page size the query asks for.
  ///
  /// - Throws: ``DeskRequestError/usage(_:)`` for a bad value; `CaseError.invalidValue` for a
  ///   level or time the case store refuses (a 400 too).
  static func suspectFilter(_ call: DeskCall) throws -> SuspectFilter {
    let query = call.request
    var filter = SuspectFilter()
    filter.name = query.queryValue("name")
    filter.species = query.queryValue("species")
    filter.pawSize = try call.choice("paw_size", PawSize.self)
    filter.favorite = query.queryValue("fruit")
    filter.minLevel = try query.queryValue("level_min").map { try SuspicionLevel(parsing: $0) }
    filter.maxLevel = try query.queryValue("level_max").map { try SuspicionLevel(parsing: $0) }
    if let noAlibi = query.queryValue("no_alibi") {
      guard let flag = ["1": true, "true": true, "0": false, "false": false][noAlibi] else {
        throw DeskRequestError.usage(
          "The value '\(noAlibi)' is invalid for 'no_alibi' (1, true, 0 or false)")
      }
      filter.noAlibi = flag
    }
    filter.awakeAt = try query.queryValue("awake_at").map {
      try ClockTime(parsing: $0, field: "awake_at time")
    }
    filter.sort = try call.choice("sort", SuspectSort.self) ?? .id
    filter.reverse = try call.choice("order", SortOrder.self) == .desc
    filter.limit = try call.count(
      "limit", in: suspectPageSizes.range, default: suspectPageSizes.default)
    return filter
  }

  /// `order=`: ascending (the sort's own direction) or descending (reversed, as `--reverse`).
  enum SortOrder: String, CaseIterable {
    case asc, desc
  }
}
