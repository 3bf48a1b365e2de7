#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where an ``HTTPServer`` listens: a numeric IP address and a TCP port, written `ADDR:PORT`
/// (`127.0.0.1:7341`, `[::1]:7341`; `localhost` means `127.0.0.1`).
public struct HTTPListenAddress: Sendable, Equatable, CustomStringConvertible {
  /// The numeric address without brackets: `127.0.0.1`, `::1`, `0.0.0.0`.
  public var host: String
  /// The TCP port, 0...65535 (0: the system picks a free one when the server starts).
  public var port: UInt16

  /// An address from its parts; `host` must be a numeric IPv4 or IPv6 address
  /// (``HTTPServer/init(configuration:handler:)`` refuses anything else).
  public init(host: String, port: UInt16) {
    self.host = host
    self.port = port
  }

  /// Parses `ADDR:PORT`: ADDR a numeric IPv4 address, an IPv6 address in brackets, or
  /// `localhost` (127.0.0.1); PORT a whole number 0...65535.
  ///
  /// - Returns: `nil` for anything else (no port, a host name, `[` without `]`, a port out of
  ///   range or with a sign).
  public init?(parsing text: String) {
    let host: Substring
    let portText: Substring
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]"), text[close...].hasPrefix("]:") else {
        return nil
      }
      host = text[text.index(after: text.startIndex)..<close]
      portText = text[text.index(close, offsetBy: 2)...]
      guard Self.isNumeric(host, family: AF_INET6) else { return nil }
    } else {
      guard let colon = text.lastIndex(of: ":") else { return nil }
      host = text[..<colon]
      portText = text[text.index(after: colon)...]
      guard host == "localhost" || Self.isNumeric(host, family: AF_INET) else { return nil }
    }
    guard !portText.isEmpty, portText.count <= 5, portText.allSatisfy(\.isASCII),
      portText.allSatisfy(\.isNumber), let port = UInt16(portText)
    else { return nil }
    self.host = host == "localhost" ? "127.0.0.1" : String(host)
    self.port = port
  }

  /// Whether the address is a loopback one (127.0.0.0/8 or ::1), reachable only from this
  /// machine.
  public var isLoopback: Bool {
    if host == "::1" { return true }
    var address = in6_addr()
    if inet_pton(AF_INET6, host, &address) == 1 {
      // ::ffff:127.x.y.z (an IPv4-mapped loopback address) is loopback too.
      let bytes = withUnsafeBytes(of: &address) { Array($0) }
      return bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xff && bytes[11] == 0xff
        && bytes[12] == 127
        || bytes[0..<15].allSatisfy { $0 == 0 } && bytes[15] == 1
    }
    return host.split(separator: ".").first == "127"
  }

  /// `ADDR:PORT` as it is written: brackets around an IPv6 address.
  public var description: String {
    host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
  }

  /// The URL of the server's root with `scheme` (`http` or `https`): `http://127.0.0.1:7341/`.
  public func url(scheme: String) -> String {
    "\(scheme)://\(description)/"
  }

  /// Whether `text` is a numeric address of `family` (AF_INET or AF_INET6).
  private static func isNumeric(_ text: Substring, family: Int32) -> Bool {
    var buffer = in6_addr()
    return String(text).withCString { inet_pton(family, $0, &buffer) } == 1
  }
}
