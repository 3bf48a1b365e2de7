import CommandLineKit
import HTTPKit

/// `serve --listen`'s value, `ADDR:PORT` (``HTTPListenAddress/init(parsing:)``): a numeric IPv4
/// address, an IPv6 address in brackets, or `localhost`, and a port 0...65535.
struct ListenAddress: ExpressibleByArgument, Equatable {
  /// The parsed address.
  let address: HTTPListenAddress

  init?(argument: String) {
    guard let address = HTTPListenAddress(parsing: argument) else { return nil }
    self.address = address
  }

  static let invalidValueReason: String? =
    "expected ADDR:PORT, such as 127.0.0.1:7341 or [::1]:7341 (a numeric address, a port"
    + " 0-65535)"
}
