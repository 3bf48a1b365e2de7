import CaseStore
import HTTPKit

/// How `inspector serve` serves the desk (docs/web-desk.md "Who may do what").
public struct DeskConfiguration: Sendable {
  /// Reading without signing in (allowed only on a loopback address; the serve command checks).
  public var publicRead: Bool
  /// No write of any kind is served.
  public var readOnly: Bool
  /// The session cookie carries `Secure` (TLS is configured, or a TLS proxy is in front).
  public var secureCookies: Bool

  /// A configuration from its parts.
  public init(publicRead: Bool = false, readOnly: Bool = false, secureCookies: Bool = false) {
    self.publicRead = publicRead
    self.readOnly = readOnly
    self.secureCookies = secureCookies
  }
}

/// The desk as one ``HTTPHandler``: the page's files, the session endpoint, and the JSON API,
/// with who may do what decided before the API is reached (docs/web-desk.md).
///
/// SKELETON: the auth helper replaces this composition (sessions, CSRF, security headers).
public final class DeskApplication: HTTPHandler {
  /// The configuration it serves with.
  public let configuration: DeskConfiguration
  /// The JSON API.
  let api: DeskAPI

  /// A desk over the case file the pool opens.
  public init(configuration: DeskConfiguration, pool: CaseDatabasePool) {
    self.configuration = configuration
    self.api = DeskAPI(pool: pool, readOnly: configuration.readOnly)
  }

  /// The response to `request`.
  public func respond(to request: HTTPRequest) -> HTTPResponse {
    if let asset = DeskAssets.response(to: request) { return asset }
    if request.path.hasPrefix("/api/") {
      return api.respond(to: request, investigator: nil)
    }
    return DeskAPI.errorResponse(status: 404, kind: "not_found", message: "no such page")
  }
}
