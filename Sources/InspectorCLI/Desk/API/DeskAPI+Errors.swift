import CaseStore
import HTTPKit

extension DeskAPI {
  /// A JSON error (docs/web-desk.md "Errors"):
  /// `{"error": {"kind": KIND, "message": MESSAGE}}` with `status`; a `busy` error also gets
  /// `Retry-After: 1`.
  ///
  /// - Parameters:
  ///   - status: The HTTP status.
  ///   - kind: A ``CommandFailure/Kind`` raw value (`not_found`, `forbidden`...).
  ///   - message: One line for people; escaped as JSON.
  static func errorResponse(status: Int, kind: String, message: String) -> HTTPResponse {
    var failure = CommandFailure(message, exitCode: .failure)
    failure.kind = CommandFailure.Kind(rawValue: kind) ?? .internal
    return errorResponse(failure, status: status)
  }

  /// The JSON error for anything a handler threw: a ``DeskError`` with its members, else what
  /// ``CommandFailure/from(_:)`` makes of it (its kind, message, hint and candidates), with the
  /// kind's status (``CommandFailure/Kind/httpStatus``).
  static func errorResponse(for error: any Error) -> HTTPResponse {
    if let error = error as? DeskError {
      return errorResponse(error.failure, members: error.members)
    }
    return errorResponse(CommandFailure.from(error))
  }

  /// The JSON error of `failure`, with `members` after its own (``ErrorPresenter``).
  static func errorResponse(
    _ failure: CommandFailure, status: Int? = nil, members: [(String, JSONValue)] = []
  ) -> HTTPResponse {
    var headers = [HTTPField("Content-Type", "application/json; charset=utf-8")]
    if failure.kind == .busy { headers.append(HTTPField("Retry-After", "1")) }
    return HTTPResponse(
      status: status ?? failure.kind.httpStatus, headers: headers,
      body: .bytes(Array(ErrorPresenter.jsonLine(failure, members: members).utf8)))
  }
}

/// An error of the desk's API with members beyond the command line's (docs/web-desk.md
/// "Errors"): the `field` a refused edit names, the `current` and `yours` values of a conflict.
struct DeskError: Error, Sendable {
  /// The kind, message and hint.
  var failure: CommandFailure
  /// More members of the `error` object, in order.
  var members: [(String, JSONValue)]

  /// An error of `kind` whose message is `message`.
  init(_ kind: CommandFailure.Kind, _ message: String, members: [(String, JSONValue)] = []) {
    failure = CommandFailure(message, exitCode: .failure, kind: kind)
    self.members = members
  }

  /// `error` as the command line reports it, with `field` naming the request's field (a
  /// ``DeskError`` stays as it is).
  init(_ error: any Error, field: String) {
    if let error = error as? DeskError {
      self = error
      return
    }
    failure = CommandFailure.from(error)
    members = [("field", .string(field))]
  }
}
