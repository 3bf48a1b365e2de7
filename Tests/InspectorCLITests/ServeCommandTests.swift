import Foundation
import HTTPKit
import Testing

@testable import InspectorCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `inspector serve`'s refusals (docs/web-desk.md "Serving"): each is one error line and its
/// exit code, before anything listens.
@Suite struct ServeCommandTests {
  @Test func aListenAddressBeyondLoopbackNeedsTLSOrAProxy() throws {
    let cli = try CLITestCase(seeded: true)
    expectFailure(
      cli.run("serve", "--listen", "0.0.0.0:7341"), status: 64,
      messageContains:
        "--listen 0.0.0.0:7341 is not a loopback address: give --tls-cert and --tls-key, or"
        + " --behind-proxy")
    expectFailure(
      cli.run("serve", "--listen", "[::]:0"), status: 64,
      messageContains: "--listen [::]:0 is not a loopback address")
  }

  @Test func publicReadIsRefusedOffLoopback() throws {
    let cli = try CLITestCase(seeded: true)
    expectFailure(
      cli.run("serve", "--listen", "192.168.1.5:80", "--behind-proxy", "--public-read"),
      status: 64,
      messageContains:
        "--public-read is allowed only on a loopback address (127.0.0.1, ::1), not 192.168.1.5:80"
    )
  }

  @Test func aCertificateAndAKeyGoTogether() throws {
    let cli = try CLITestCase(seeded: true)
    expectFailure(
      cli.run("serve", "--tls-cert", "cert.pem"), status: 64,
      messageContains: "--tls-cert needs --tls-key")
    expectFailure(
      cli.run("serve", "--tls-key", "key.pem"), status: 64,
      messageContains: "--tls-key needs --tls-cert")
  }

  @Test(arguments: ["nonsense", "127.0.0.1", "127.0.0.1:65536", "example.org:80", "::1:80", ""])
  func aBadListenAddressIsAUsageError(value: String) throws {
    let cli = try CLITestCase(seeded: true)
    expectFailure(
      cli.run("serve", "--listen", value), status: 64,
      messageContains:
        "The value '\(value)' is invalid for '--listen <addr:port>': expected ADDR:PORT")
  }

  @Test func aPortInUseIsNamedAndExits1() throws {
    let cli = try CLITestCase(seeded: true)
    let other = try HTTPServer(
      configuration: HTTPServerConfiguration(
        address: HTTPListenAddress(host: "127.0.0.1", port: 0)),
      handler: NotFound())
    defer { other.stop() }
    let outcome = cli.run("serve", "--listen", "127.0.0.1:\(other.address.port)")
    expectFailure(
      outcome, status: 1,
      messageContains:
        "cannot serve on 127.0.0.1:\(other.address.port): the port is in use by another program")
    #expect(outcome.standardError.contains("hint: stop it, or choose another port with --listen"))
  }

  @Test func aMissingCaseFileOrTLSFileIs66() throws {
    let cli = try CLITestCase(seeded: false)
    expectFailure(cli.run("serve", "--listen", "127.0.0.1:0"), status: 66)
    // Beyond loopback behind a TLS proxy passes the checks (and then finds no case file).
    expectFailure(cli.run("serve", "--listen", "0.0.0.0:0", "--behind-proxy"), status: 66)
    let seeded = try CLITestCase(seeded: true)
    let missing = seeded.directory.appendingPathComponent("missing.pem").path
    expectFailure(
      seeded.run("serve", "--tls-cert", missing, "--tls-key", missing), status: 66,
      messageContains: "cannot read \(missing): No such file or directory")
  }

  @Test func aCertificateTheLibraryRefusesIs65() throws {
    let cli = try CLITestCase(seeded: true)
    let bogus = cli.directory.appendingPathComponent("bogus.pem").path
    try "not a certificate\n".write(toFile: bogus, atomically: true, encoding: .utf8)
    // Beyond loopback with TLS passes the checks; the library then refuses the PEM text.
    expectFailure(
      cli.run("serve", "--listen", "0.0.0.0:0", "--tls-cert", bogus, "--tls-key", bogus),
      status: 65, messageContains: "the TLS certificate or key was refused")
  }
}

/// A handler that answers 404, to hold a port.
private struct NotFound: HTTPHandler {
  func respond(to request: HTTPRequest) -> HTTPResponse { HTTPResponse(status: 404) }
}

/// The built `inspector serve` as users run it: it prints where it serves, answers over HTTP,
/// and exits 0 on SIGTERM or SIGINT.
@Suite(.tags(.slow, .processes), .skippedInFastSet) struct ServeProcessTests {
  @Test(arguments: [SIGTERM, SIGINT])
  func servesTheDeskAndStopsCleanlyOnASignal(signal: Int32) throws {
    let sandbox = try ProcessSandbox()
    let errorPath = sandbox.directory.appendingPathComponent("serve-stderr").path
    _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
    let process = Process()
    process.executableURL = try ProcessSandbox.executable()
    process.arguments = ["serve", "--listen", "127.0.0.1:0", "--public-read"]
    process.environment = sandbox.environment
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle.nullDevice
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
    try process.run()
    defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
    // The one line it prints names the port the system picked.
    var line = ""
    let deadline = Date().addingTimeInterval(30)
    while Date() < deadline && process.isRunning {
      line = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
      if line.hasSuffix("\n") { break }
      usleep(20_000)
    }
    let match = try #require(
      line.firstMatch(of: /^Serving the desk at http:\/\/127\.0\.0\.1:(\d+)\/ \(Ctrl-C stops\)\n$/),
      "stderr: \(line)")
    let port = String(match.1)
    #expect(port != "0")
    // The API answers with JSON, as curl sees it.
    let curl = Process()
    curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    curl.arguments = [
      "curl", "-sS", "--max-time", "20", "-w", "\n%{http_code} %{content_type}",
      "http://127.0.0.1:\(port)/api/no-such-endpoint",
    ]
    let output = Pipe()
    curl.standardOutput = output
    try curl.run()
    let answer = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    curl.waitUntilExit()
    let parts = answer.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(parts.last?.hasPrefix("404 application/json") == true, "\(answer)")
    let error = try jsonObject(String(parts.dropLast().joined(separator: "\n")))
    #expect((error["error"] as? [String: Any])?["kind"] as? String == "not_found")
    // SIGTERM or Ctrl-C's SIGINT: a clean stop, exit 0, nothing more printed.
    kill(process.processIdentifier, signal)
    let stopDeadline = Date().addingTimeInterval(20)
    while process.isRunning && Date() < stopDeadline { usleep(20_000) }
    #expect(!process.isRunning)
    process.waitUntilExit()
    #expect(process.terminationReason == .exit)
    #expect(process.terminationStatus == 0)
    #expect((try? String(contentsOfFile: errorPath, encoding: .utf8)) == line)
  }
}
