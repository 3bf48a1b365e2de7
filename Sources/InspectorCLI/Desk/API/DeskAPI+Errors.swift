import HTTPKit

extension DeskAPI {
  /// A JSON error: `{"error": {"kind": KIND, "message": MESSAGE}}` with `status`.
  /// SKELETON: the api-write helper owns this file (kinds, candidates, status per exit code).
  static func errorResponse(status: Int, kind: String, message: String) -> HTTPResponse {
    let body = "{\"error\":{\"kind\":\"\(kind)\",\"message\":\"\(message)\"}}\n"
    return HTTPResponse(
      status: status, headers: [HTTPField("Content-Type", "application/json; charset=utf-8")],
      body: .bytes(Array(body.utf8)))
  }

  /// The JSON error for anything a handler threw.
  static func errorResponse(for error: any Error) -> HTTPResponse {
    let failure = CommandFailure.from(error)
    return errorResponse(status: 422, kind: "invalid", message: failure.message)
  }
}
