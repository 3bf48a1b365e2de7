import CaseStore
import CommandLineKit
import HTTPKit

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `inspector serve`: the desk (the suspects' table and its inspector) and its JSON API over
/// HTTP, on the case file, until Ctrl-C or SIGTERM (docs/web-desk.md "Serving").
///
/// Refused before anything is opened (usage error, 64): a listen address beyond loopback
/// without TLS (`--tls-cert` and `--tls-key`) or `--behind-proxy`; `--public-read` beyond
/// loopback; one of `--tls-cert` and `--tls-key` without the other. An address in use or
/// refused by the system exits 1, a TLS file that cannot be read 66, a certificate or key
/// libmicrohttpd refuses 65.
struct ServeCommand: InspectorCommand {
  /// Where it listens without `--listen`: loopback, port 7341 (docs/web-desk.md "Serving").
  static let defaultAddress = HTTPListenAddress(host: "127.0.0.1", port: 7341)

  static let configuration = CommandConfiguration(
    name: "serve",
    abstract: "Serve the desk (the suspects' table and its inspector) and its JSON API in a"
      + " browser.",
    discussion: """
      Listens on 127.0.0.1:7341 unless --listen says otherwise (port 0 picks a free port),
      prints "Serving the desk at URL (Ctrl-C stops)" on stderr, and serves until Ctrl-C or
      SIGTERM: then it accepts no new connection, lets the requests in flight finish, and
      exits 0. An address beyond loopback needs --tls-cert and --tls-key (HTTPS), or
      --behind-proxy when a TLS proxy is in front; --public-read is allowed on loopback only.
      """)

  let listen = Option<ListenAddress?>(
    "listen", valueName: "addr:port",
    help: "Where to listen: 127.0.0.1:7341 (the default), [::1]:PORT, or another address with"
      + " TLS or --behind-proxy.")
  let publicRead = Flag(
    "public-read", help: "Let anyone who can connect read without signing in (loopback only).")
  let readOnly = Flag("read-only", help: "Serve no write at all.")
  let tlsCert = Option<FilePath?>(
    "tls-cert", valueName: "file",
    help: "Serve HTTPS with this certificate chain (PEM); needs --tls-key.")
  let tlsKey = Option<FilePath?>(
    "tls-key", valueName: "file", help: "The private key of --tls-cert (PEM, unencrypted).")
  let behindProxy = Flag(
    "behind-proxy",
    help: "A TLS proxy is in front: allow a non-loopback address without TLS; cookies are"
      + " Secure.")

  var declarations: [any CommandDeclaration] {
    [listen, publicRead, readOnly, tlsCert, tlsKey, behindProxy]
  }

  func validate(_ context: CommandContext) throws(UsageError) {
    let address = try context[listen]?.address ?? Self.defaultAddress
    let certificate = try context[tlsCert]
    let key = try context[tlsKey]
    if certificate != nil && key == nil {
      throw context.usageError("--tls-cert needs --tls-key (the certificate's private key)")
    }
    if key != nil && certificate == nil {
      throw context.usageError("--tls-key needs --tls-cert (the certificate it belongs to)")
    }
    if !address.isLoopback && certificate == nil && !context[behindProxy] {
      throw context.usageError(
        "--listen \(address) is not a loopback address: give --tls-cert and --tls-key, or"
          + " --behind-proxy when a TLS proxy is in front")
    }
    if context[publicRead] && !address.isLoopback {
      throw context.usageError(
        "--public-read is allowed only on a loopback address (127.0.0.1, ::1), not \(address)")
    }
  }

  func run(_ context: CommandContext) throws -> String {
    let address = try context[listen]?.address ?? Self.defaultAddress
    var tls: HTTPServerTLS?
    if let certificate = try context[tlsCert], let key = try context[tlsKey] {
      do {
        tls = try HTTPServerTLS(certificateFile: certificate.path, keyFile: key.path)
      } catch {
        throw CommandFailure(error.description, exitCode: .noInput)
      }
    }
    try context.requireDatabaseFile()
    let readOnly = context[readOnly]
    let pool = try CaseDatabasePool(
      path: context.databasePath, readOnly: readOnly, busyTimeout: context.busyTimeout)
    let desk = DeskApplication(
      configuration: DeskConfiguration(
        publicRead: context[publicRead], readOnly: readOnly,
        secureCookies: tls != nil || context[behindProxy]),
      pool: pool)
    try Interruption.during {
      let server: HTTPServer
      do {
        server = try HTTPServer(
          configuration: HTTPServerConfiguration(address: address, tls: tls), handler: desk)
      } catch let error as HTTPServerError {
        throw Self.failure(error, tls: tls != nil)
      }
      context.writeToStandardError("Serving the desk at \(server.url) (Ctrl-C stops)\n")
      while !Interruption.requested.load(ordering: .relaxed) { usleep(50_000) }
      server.stop()
    }
    return ""
  }

  /// The failure to report when the server does not start (docs/exit-codes.md): 1 for an
  /// address in use or refused, 66 for an unreadable TLS file, 65 for a certificate or key
  /// the library refuses.
  static func failure(_ error: HTTPServerError, tls: Bool) -> CommandFailure {
    switch error {
    case .addressInUse(let address):
      return CommandFailure(
        "cannot serve on \(address): the port is in use by another program",
        hint: "stop it, or choose another port with --listen ADDR:PORT (port 0 picks a free one)",
        exitCode: .failure)
    case .cannotListen:
      return CommandFailure(
        error.description,
        hint: "ports below 1024 need privileges; the address must be one of this machine's",
        exitCode: .failure)
    case .unreadableTLSFile:
      return CommandFailure(error.description, exitCode: .noInput)
    case .cannotStart, .tlsUnsupported:
      return CommandFailure(error.description, exitCode: tls ? .dataError : .failure)
    case .notANumericAddress:
      return CommandFailure(error.description, exitCode: .usage)
    }
  }
}
