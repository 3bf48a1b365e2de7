/// The answer to one ``HTTPRequest``: a status, headers and a body.
public struct HTTPResponse: Sendable {
  /// The status code, e.g. 200, 404, 503.
  public var status: Int
  /// The headers, in order (`Content-Type` among them; the server adds `Content-Length` or
  /// chunked framing itself).
  public var headers: [HTTPField]
  /// The body.
  public var body: HTTPBody

  /// A response from its parts.
  public init(status: Int, headers: [HTTPField] = [], body: HTTPBody = .bytes([])) {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// The first header named `name` (case-insensitive), or `nil`.
  public func header(_ name: String) -> String? {
    let wanted = name.lowercased()
    return headers.first { $0.name.lowercased() == wanted }?.value
  }
}

/// A response body: bytes known up front, or a stream the server pulls chunk by chunk (a long
/// listing written as it is read, or server-sent events).
public enum HTTPBody: Sendable {
  /// The whole body.
  case bytes([UInt8])
  /// A body of unknown length, sent chunked: the server calls the stream's ``HTTPBodyStream/next()``
  /// on the connection's thread until it returns `nil`, and ``HTTPBodyStream/close()`` once at
  /// the end or when the client goes away.
  case stream(any HTTPBodyStream)
}

/// A body produced piece by piece (see ``HTTPBody/stream(_:)``).
public protocol HTTPBodyStream: AnyObject, Sendable {
  /// The next chunk (never empty), or `nil` at the end. May block (server-sent events wait for
  /// the next event); it runs on the connection's own thread.
  func next() -> [UInt8]?
  /// Called once when the response ends or the client goes away: release what the stream holds.
  func close()
  /// Called from another thread when the server stops while the stream is open (``HTTPServer/stop()``):
  /// a ``next()`` that waits for an event should return `nil` soon, since the server waits for
  /// open streams before it stops. Optional: by default nothing, and the stream ends at its next
  /// chunk.
  func cancel()
  /// Whether the `nil` ``next()`` returned means a failure rather than the end: the server then
  /// closes the connection without the last chunk, so the client sees a broken response
  /// instead of a complete but cut one. Optional: by default `false`.
  var failed: Bool { get }
}

extension HTTPBodyStream {
  /// Does nothing: the stream ends at its next chunk once the server stops.
  public func cancel() {}
  /// `false`: a `nil` from ``next()`` is always the end.
  public var failed: Bool { false }
}

/// What answers requests: called once per request, on the connection's thread, concurrently
/// for concurrent connections.
public protocol HTTPHandler: Sendable {
  /// The response to `request`.
  func respond(to request: HTTPRequest) -> HTTPResponse
}
