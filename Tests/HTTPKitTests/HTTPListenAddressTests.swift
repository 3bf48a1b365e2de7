import HTTPKit
import Testing

/// `ADDR:PORT` as `inspector serve --listen` takes it (docs/web-desk.md "Serving").
@Suite struct HTTPListenAddressTests {
  @Test(arguments: [
    ("127.0.0.1:7341", "127.0.0.1", 7341, true),
    ("localhost:8080", "127.0.0.1", 8080, true),
    ("127.1.2.3:0", "127.1.2.3", 0, true),
    ("0.0.0.0:443", "0.0.0.0", 443, false),
    ("192.168.1.20:65535", "192.168.1.20", 65535, false),
    ("[::1]:7341", "::1", 7341, true),
    ("[::ffff:127.0.0.1]:80", "::ffff:127.0.0.1", 80, true),
    ("[::]:7341", "::", 7341, false),
    ("[2001:db8::1]:1", "2001:db8::1", 1, false),
  ])
  func parses(text: String, host: String, port: Int, loopback: Bool) throws {
    let address = try #require(HTTPListenAddress(parsing: text))
    #expect(address.host == host)
    #expect(Int(address.port) == port)
    #expect(address.isLoopback == loopback)
  }

  @Test(arguments: [
    "", "127.0.0.1", "127.0.0.1:", ":7341", "127.0.0.1:65536", "127.0.0.1:-1", "127.0.0.1:+80",
    "127.0.0.1:80x", "example.org:80", "::1:7341", "[::1]7341", "[::1:7341", "[127.0.0.1]:80",
    "256.0.0.1:80", "127.0.0.1:٣٣", "127.0.0.1:000080",
  ])
  func refuses(text: String) {
    #expect(HTTPListenAddress(parsing: text) == nil)
  }

  @Test func writesIPv6InBrackets() {
    #expect(HTTPListenAddress(host: "::1", port: 7341).description == "[::1]:7341")
    #expect(
      HTTPListenAddress(host: "127.0.0.1", port: 7341).url(scheme: "https")
        == "https://127.0.0.1:7341/")
  }
}
