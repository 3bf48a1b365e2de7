import HTTPKit

extension DeskAPI {
  /// The read routes (docs/web-desk.md "API"): every one a `GET`, every one but `/api/events`
  /// taking `as_of=`; a refused request answers 400 `usage` or 404 `not_found`
  /// (``refusing(_:)``).
  static let readRoutes: [DeskRoute] = [
    read("/api/suspects") { try $0.suspects($1) },
    read("/api/suspects/{id}") { try $0.suspect($1) },
    read("/api/fruits") { try $0.fruits($1) },
    read("/api/incidents") { try $0.incidents($1) },
    read("/api/incidents/{id}") { try $0.incident($1) },
    read("/api/incidents/{id}/ranking") { try $0.ranking($1) },
    read("/api/search") { try $0.search($1) },
    read("/api/history") { try $0.history($1) },
    read("/api/events") { try $0.events($1) },
  ]

  /// A `GET` route whose refusals become their JSON errors.
  private static func read(
    _ pattern: String, _ handler: @escaping @Sendable (DeskAPI, DeskCall) throws -> HTTPResponse
  ) -> DeskRoute {
    DeskRoute(method: "GET", pattern: pattern) { api, call in
      try refusing { try handler(api, call) }
    }
  }
}
