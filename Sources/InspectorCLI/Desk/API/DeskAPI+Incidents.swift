import CaseStore
import HTTPKit

extension DeskAPI {
  /// The ranking's length without `limit=`, and its range.
  static let rankingSizes = (default: 10, range: 1...500)

  /// `GET /api/fruits`: every fruit, as `fruit list --json` gives them.
  func fruits(_ call: DeskCall) throws -> HTTPResponse {
    let fruits = try reading(call) { try $0.fruits.all() }
    return Self.json(fruits, FruitOutput.json)
  }

  /// `GET /api/incidents`: every incident, newest first (latest time, then highest id), each
  /// as `incident list --json` gives it.
  func incidents(_ call: DeskCall) throws -> HTTPResponse {
    let incidents = try reading(call) { try $0.incidents.all() }
    return Self.json(Array(incidents.reversed()), IncidentPresenter.json)
  }

  /// `GET /api/incidents/{id}`: one incident.
  func incident(_ call: DeskCall) throws -> HTTPResponse {
    let id = try call.id(of: "incident")
    let incident = try reading(call) { try $0.incidents.find(id: id) }
    return Self.json(incident, IncidentPresenter.json)
  }

  /// `GET /api/incidents/{id}/ranking?limit=N`: the top N suspects (10 by default, 1 to 500)
  /// for the incident's clues, as `rank --incident ID --limit N --json` gives them, each with
  /// its clues' verdicts.
  func ranking(_ call: DeskCall) throws -> HTTPResponse {
    let id = try call.id(of: "incident")
    let limit = try call.count(
      "limit", in: Self.rankingSizes.range, default: Self.rankingSizes.default)
    let rows = try reading(call) { db in
      let incident = try db.incidents.find(id: id)
      var rows: [RankedSuspect] = []
      try db.ranking.forEachPage(for: incident, limit: limit) { rows += $0 }
      return rows
    }
    return Self.json(rows, RankingPresenter.json)
  }
}
