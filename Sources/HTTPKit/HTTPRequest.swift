/// One HTTP request as the server hands it to an ``HTTPHandler``: the method, the path and its
/// query, the headers and the whole body (already bounded by the server's body limit).
public struct HTTPRequest: Sendable {
  /// The method as sent, e.g. `GET`, `POST`, `PATCH`, `DELETE`.
  public var method: String
  /// The path, percent-decoded, without the query: `/api/suspects/3`.
  public var path: String
  /// The query's name-value pairs in order, percent-decoded (`+` is a space).
  public var query: [HTTPField]
  /// The headers in order as sent; names compare case-insensitively (``header(_:)``).
  public var headers: [HTTPField]
  /// The body's bytes (empty for none).
  public var body: [UInt8]

  /// A request from its parts.
  public init(
    method: String, path: String, query: [HTTPField] = [], headers: [HTTPField] = [],
    body: [UInt8] = []
  ) {
    self.method = method
    self.path = path
    self.query = query
    self.headers = headers
    self.body = body
  }

  /// The first header named `name` (case-insensitive), or `nil`.
  public func header(_ name: String) -> String? {
    let wanted = name.lowercased()
    return headers.first { $0.name.lowercased() == wanted }?.value
  }

  /// The first query value named `name` (exact), or `nil`.
  public func queryValue(_ name: String) -> String? {
    query.first { $0.name == name }?.value
  }

  /// Every query value named `name` (exact), in order.
  public func queryValues(_ name: String) -> [String] {
    query.filter { $0.name == name }.map(\.value)
  }

  /// The value of the cookie `name` from the `Cookie` headers, or `nil`.
  public func cookie(_ name: String) -> String? {
    for header in headers where header.name.lowercased() == "cookie" {
      for pair in header.value.split(separator: ";") {
        let parts = pair.split(separator: "=", maxSplits: 1)
        if parts.count == 2, parts[0].trimmingSpaces == name {
          return String(parts[1].trimmingSpaces)
        }
      }
    }
    return nil
  }
}

/// A name and a value: a header, or a query parameter.
public struct HTTPField: Sendable, Equatable {
  /// The name as sent.
  public var name: String
  /// The value.
  public var value: String

  /// A field from its name and value.
  public init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }
}

extension Substring {
  /// The text without leading and trailing spaces.
  fileprivate var trimmingSpaces: Substring {
    var text = self
    while text.first == " " { text.removeFirst() }
    while text.last == " " { text.removeLast() }
    return text
  }
}
