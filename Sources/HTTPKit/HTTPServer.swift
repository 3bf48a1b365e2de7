import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How an ``HTTPServer`` listens and what it accepts.
public struct HTTPServerConfiguration: Sendable {
  /// Where it listens (port 0: a free port the system picks; ``HTTPServer/address`` tells it).
  public var address: HTTPListenAddress
  /// The largest request body accepted, in bytes; a larger one is answered with
  /// ``tooLargeResponse`` (status 413) and never reaches the handler. Default 1 MiB.
  public var bodyLimit: Int
  /// TLS (HTTPS), or `nil` for plain HTTP.
  public var tls: HTTPServerTLS?
  /// The most connections open at once; more are refused until one closes. Default 256.
  public var connectionLimit: Int
  /// Seconds a connection may stay idle (nothing received or sent) before it is closed;
  /// 0 never closes it. Default 120.
  public var idleTimeout: Int
  /// How long ``HTTPServer/stop()`` waits for requests in flight before it closes their
  /// connections anyway. Default 10 seconds.
  public var stopGracePeriod: Duration
  /// The answer to a body over ``bodyLimit``; `nil` gives
  /// `{"error":{"kind":"too_large","message":"..."}}` (``HTTPResponse/tooLarge(limit:)``).
  public var tooLargeResponse: HTTPResponse?

  /// A configuration from its parts.
  public init(
    address: HTTPListenAddress, bodyLimit: Int = 1 << 20, tls: HTTPServerTLS? = nil,
    connectionLimit: Int = 256, idleTimeout: Int = 120, stopGracePeriod: Duration = .seconds(10),
    tooLargeResponse: HTTPResponse? = nil
  ) {
    self.address = address
    self.bodyLimit = bodyLimit
    self.tls = tls
    self.connectionLimit = connectionLimit
    self.idleTimeout = idleTimeout
    self.stopGracePeriod = stopGracePeriod
    self.tooLargeResponse = tooLargeResponse
  }
}

/// The certificate and key an ``HTTPServer`` serves HTTPS with, as PEM text.
public struct HTTPServerTLS: Sendable {
  /// The certificate chain, PEM (`-----BEGIN CERTIFICATE-----`...).
  public var certificatePEM: String
  /// The private key, PEM, unencrypted.
  public var keyPEM: String

  /// TLS from PEM text.
  public init(certificatePEM: String, keyPEM: String) {
    self.certificatePEM = certificatePEM
    self.keyPEM = keyPEM
  }

  /// TLS from PEM files.
  ///
  /// - Throws: ``HTTPServerError/unreadableTLSFile(path:reason:)`` when a file cannot be read.
  public init(certificateFile: String, keyFile: String) throws(HTTPServerError) {
    certificatePEM = try Self.read(certificateFile)
    keyPEM = try Self.read(keyFile)
  }

  /// Whether the linked libmicrohttpd was built with TLS (Debian's is, over GnuTLS).
  public static var isSupported: Bool {
    MHD_is_feature_supported(.FEATURE_TLS) == .YES
  }

  /// The text of the file at `path`.
  private static func read(_ path: String) throws(HTTPServerError) -> String {
    guard let file = fopen(path, "rb") else {
      throw .unreadableTLSFile(path: path, reason: String(cString: strerror(errno)))
    }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = fread(&buffer, 1, buffer.count, file)
      if count == 0 { break }
      bytes += buffer[0..<count]
      if bytes.count > 1 << 20 {
        throw .unreadableTLSFile(path: path, reason: "larger than 1 MiB, not a PEM file")
      }
    }
    if ferror(file) != 0 {
      throw .unreadableTLSFile(path: path, reason: String(cString: strerror(errno)))
    }
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// Why an ``HTTPServer`` did not start.
public enum HTTPServerError: Error, Equatable, CustomStringConvertible {
  /// The host is not a numeric IPv4 or IPv6 address.
  case notANumericAddress(String)
  /// Another program listens on the address and port already.
  case addressInUse(HTTPListenAddress)
  /// The system refused to listen there (a port below 1024 without privilege, an address not
  /// on this machine); `reason` is the system's.
  case cannotListen(HTTPListenAddress, reason: String)
  /// TLS was asked for and the linked libmicrohttpd has none.
  case tlsUnsupported
  /// A TLS certificate or key file could not be read.
  case unreadableTLSFile(path: String, reason: String)
  /// libmicrohttpd refused to start (with TLS: most often a certificate or key it cannot load).
  case cannotStart(reason: String)

  /// One line, for an error message.
  public var description: String {
    switch self {
    case .notANumericAddress(let host):
      return "'\(host)' is not a numeric IPv4 or IPv6 address"
    case .addressInUse(let address):
      return "\(address) is in use by another program"
    case .cannotListen(let address, let reason):
      return "cannot listen on \(address): \(reason)"
    case .tlsUnsupported:
      return "the linked libmicrohttpd has no TLS support"
    case .unreadableTLSFile(let path, let reason):
      return "cannot read \(path): \(reason)"
    case .cannotStart(let reason):
      return "the HTTP server did not start: \(reason)"
    }
  }
}

extension HTTPResponse {
  /// The default answer to a body over the limit: status 413 and
  /// `{"error":{"kind":"too_large","message":"the request body is larger than LIMIT bytes"}}`.
  public static func tooLarge(limit: Int) -> HTTPResponse {
    let json =
      "{\"error\":{\"kind\":\"too_large\",\"message\":"
      + "\"the request body is larger than \(limit) bytes\"}}"
    return HTTPResponse(
      status: 413, headers: [HTTPField("Content-Type", "application/json; charset=utf-8")],
      body: .bytes(Array(json.utf8)))
  }
}

/// An HTTP/1.1 server over libmicrohttpd (docs/web-desk.md "Serving"): one thread per
/// connection, each request read whole (up to the body limit) and handed to an
/// ``HTTPHandler`` on that thread; `.bytes` bodies are sent with `Content-Length`, `.stream`
/// bodies chunked. It starts listening in ``init(configuration:handler:)`` and stops
/// gracefully in ``stop()``.
public final class HTTPServer: Sendable {
  /// Where it listens, with the port it was given (the system's pick for port 0).
  public let address: HTTPListenAddress
  /// Whether it serves HTTPS.
  public let isTLS: Bool
  /// The URL of its root: `http://127.0.0.1:7341/`.
  public var url: String { address.url(scheme: isTLS ? "https" : "http") }

  private let context: ServerContext
  private let gracePeriod: Duration
  private let daemon: Mutex<OpaquePointer?>

  /// Starts listening and serving `handler`.
  ///
  /// - Throws: ``HTTPServerError``: the address is not numeric, in use or refused, TLS is
  ///   asked for without library support, or the library refuses to start (a bad TLS key or
  ///   certificate).
  public init(configuration: HTTPServerConfiguration, handler: any HTTPHandler)
    throws(HTTPServerError)
  {
    if configuration.tls != nil && !HTTPServerTLS.isSupported { throw .tlsUnsupported }
    var isIPv6: Int32 = 0
    var error: Int32 = 0
    let socket = cmhd_listen(
      configuration.address.host, configuration.address.port, 128, &isIPv6, &error)
    guard socket >= 0 else {
      switch error {
      case EINVAL: throw .notANumericAddress(configuration.address.host)
      case EADDRINUSE: throw .addressInUse(configuration.address)
      default:
        throw .cannotListen(configuration.address, reason: String(cString: strerror(error)))
      }
    }
    address = HTTPListenAddress(host: configuration.address.host, port: cmhd_bound_port(socket))
    isTLS = configuration.tls != nil
    gracePeriod = configuration.stopGracePeriod
    context = ServerContext(
      handler: handler, bodyLimit: configuration.bodyLimit,
      tooLarge: configuration.tooLargeResponse ?? .tooLarge(limit: configuration.bodyLimit))
    var flags =
      MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_THREAD_PER_CONNECTION.rawValue
      | MHD_USE_POLL.rawValue | MHD_USE_ITC.rawValue
    if isIPv6 != 0 { flags |= MHD_USE_IPv6.rawValue }
    if isTLS { flags |= MHD_USE_TLS.rawValue }
    let started = cmhd_start(
      flags, socket,
      { cls, connection, url, method, _, uploadData, uploadSize, slot in
        HTTPServer.access(cls, connection, url, method, uploadData, uploadSize, slot)
      }, Unmanaged.passUnretained(context).toOpaque(),
      { cls, _, slot, _ in HTTPServer.completed(cls, slot) },
      Unmanaged.passUnretained(context).toOpaque(), configuration.tls?.keyPEM,
      configuration.tls?.certificatePEM, UInt32(clamping: configuration.connectionLimit),
      UInt32(clamping: configuration.idleTimeout))
    guard let started else {
      close(socket)
      throw .cannotStart(
        reason: isTLS
          ? "the TLS certificate or key was refused (PEM files that belong together?)"
          : "libmicrohttpd refused its options")
    }
    daemon = Mutex(started)
  }

  deinit {
    stop()
  }

  /// Stops gracefully: no new connection is accepted, open streams are cancelled
  /// (``HTTPBodyStream/cancel()``), requests in flight finish (up to the configuration's
  /// `stopGracePeriod`; their responses say `Connection: close`), then every connection is
  /// closed and the threads are joined. Calling it again does nothing.
  public func stop() {
    let taken = daemon.withLock { current -> UnsafeMutableRawPointer? in
      defer { current = nil }
      return current.map { UnsafeMutableRawPointer($0) }
    }
    guard let taken else { return }
    let running = OpaquePointer(taken)
    context.stopping.store(true, ordering: .sequentiallyConsistent)
    let listening = MHD_quiesce_daemon(running)
    if listening >= 0 { close(listening) }
    for stream in context.openStreams.withLock({ Array($0.values) }) { stream.cancel() }
    let deadline = ContinuousClock.now + gracePeriod
    while context.inFlight.load(ordering: .sequentiallyConsistent) > 0
      && ContinuousClock.now < deadline
    {
      usleep(5_000)
    }
    MHD_stop_daemon(running)
  }

  /// The number of requests received and not yet answered completely (streams included).
  public var requestsInFlight: Int { context.inFlight.load(ordering: .relaxed) }

  // MARK: - libmicrohttpd's callbacks

  /// MHD_AccessHandlerCallback: called once when a request's headers are in (the state is
  /// made), once per piece of body, and once at the end (the response is queued).
  private static func access(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ url: UnsafePointer<CChar>?, _ method: UnsafePointer<CChar>?,
    _ uploadData: UnsafePointer<CChar>?, _ uploadSize: UnsafeMutablePointer<Int>?,
    _ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
  ) -> MHD_Result {
    guard let cls, let connection, let uploadSize, let slot else { return .NO }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    guard let pointer = slot.pointee else {
      let state = RequestState()
      slot.pointee = Unmanaged.passRetained(state).toOpaque()
      context.inFlight.add(1, ordering: .sequentiallyConsistent)
      let declared = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length")
        .flatMap { Int(String(cString: $0)) }
      if let declared, declared > context.bodyLimit {
        // Refused before the body is read: the library then skips it and closes the connection.
        state.answered = true
        return queue(context.tooLarge, on: connection, context)
      }
      return .YES
    }
    let state = Unmanaged<RequestState>.fromOpaque(pointer).takeUnretainedValue()
    if uploadSize.pointee > 0 {
      let count = uploadSize.pointee
      uploadSize.pointee = 0
      guard !state.tooLarge, !state.answered else { return .YES }
      if state.body.count + count > context.bodyLimit {
        state.tooLarge = true
        state.body = []
      } else if let uploadData {
        uploadData.withMemoryRebound(to: UInt8.self, capacity: count) {
          state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
        }
      }
      return .YES
    }
    if state.answered { return .YES }
    state.answered = true
    if state.tooLarge { return queue(context.tooLarge, on: connection, context) }
    let request = HTTPRequest(
      method: method.map { String(cString: $0) } ?? "GET",
      path: url.map { String(cString: $0) } ?? "/",
      query: fields(of: connection, .GET_ARGUMENT_KIND),
      headers: fields(of: connection, .HEADER_KIND), body: state.body)
    state.body = []
    return queue(context.handler.respond(to: request), on: connection, context)
  }

  /// MHD_RequestCompletedCallback: the request is over (answered, or the client went away).
  private static func completed(
    _ cls: UnsafeMutableRawPointer?, _ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
  ) {
    guard let cls, let slot, let pointer = slot.pointee else { return }
    let context = Unmanaged<ServerContext>.fromOpaque(cls).takeUnretainedValue()
    Unmanaged<RequestState>.fromOpaque(pointer).release()
    slot.pointee = nil
    context.inFlight.subtract(1, ordering: .sequentiallyConsistent)
  }

  /// The request's values of `kind` (headers, or the query's arguments) in order.
  private static func fields(of connection: OpaquePointer, _ kind: MHD_ValueKind) -> [HTTPField] {
    let collected = FieldList()
    let cls = Unmanaged.passUnretained(collected).toOpaque()
    _ = MHD_get_connection_values(
      connection, kind,
      { cls, _, key, value in
        guard let cls, let key else { return .YES }
        let list = Unmanaged<FieldList>.fromOpaque(cls).takeUnretainedValue()
        list.fields.append(
          HTTPField(String(cString: key), value.map { String(cString: $0) } ?? ""))
        return .YES
      }, cls)
    return withExtendedLifetime(collected) { collected.fields }
  }

  /// Hands `response` to the library for `connection`.
  private static func queue(
    _ response: HTTPResponse, on connection: OpaquePointer, _ context: ServerContext
  ) -> MHD_Result {
    let made: OpaquePointer?
    switch response.body {
    case .bytes(let bytes):
      made = bytes.withUnsafeBytes { buffer in
        MHD_create_response_from_buffer(
          buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress),
          .RESPMEM_MUST_COPY)
      }
    case .stream(let stream):
      let state = StreamState(stream: stream, context: context)
      context.openStreams.withLock { $0[ObjectIdentifier(state)] = stream }
      made = MHD_create_response_from_callback(
        cmhd_size_unknown(), 16 * 1024,
        { cls, _, buffer, capacity in HTTPServer.read(cls, buffer, capacity) },
        Unmanaged.passRetained(state).toOpaque(),
        { cls in HTTPServer.finish(cls) })
      if made == nil {
        // The library did not take the state: finish it here.
        HTTPServer.finish(Unmanaged.passUnretained(state).toOpaque())
      }
    }
    guard let made else { return .NO }
    defer { MHD_destroy_response(made) }
    for header in response.headers {
      let name = header.name.lowercased()
      // The framing is the library's (Content-Length, or chunked for a stream).
      if name == "content-length" || name == "transfer-encoding" { continue }
      _ = MHD_add_response_header(made, header.name, header.value)
    }
    if context.stopping.load(ordering: .sequentiallyConsistent) {
      _ = MHD_add_response_header(made, "Connection", "close")
    }
    return MHD_queue_response(connection, UInt32(clamping: response.status), made)
  }

  /// MHD_ContentReaderCallback: copies the stream's next bytes into `buffer`.
  private static func read(
    _ cls: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<CChar>?, _ capacity: Int
  ) -> Int {
    guard let cls, let buffer, capacity > 0 else { return cmhd_end_of_stream() }
    let state = Unmanaged<StreamState>.fromOpaque(cls).takeUnretainedValue()
    while state.offset == state.pending.count {
      if state.context.stopping.load(ordering: .sequentiallyConsistent) {
        return cmhd_end_of_stream()
      }
      guard let chunk = state.stream.next() else {
        return state.stream.failed ? cmhd_end_with_error() : cmhd_end_of_stream()
      }
      state.pending = chunk
      state.offset = 0
    }
    let count = min(capacity, state.pending.count - state.offset)
    state.pending.withUnsafeBytes { bytes in
      UnsafeMutableRawPointer(buffer).copyMemory(
        from: bytes.baseAddress! + state.offset, byteCount: count)
    }
    state.offset += count
    return count
  }

  /// MHD_ContentReaderFreeCallback: the response is done with its stream.
  private static func finish(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    let state = Unmanaged<StreamState>.fromOpaque(cls).takeRetainedValue()
    _ = state.context.openStreams.withLock { $0.removeValue(forKey: ObjectIdentifier(state)) }
    state.stream.close()
  }
}

/// What the callbacks share: the handler, the limit, and the counts `stop()` waits on.
private final class ServerContext: Sendable {
  let handler: any HTTPHandler
  let bodyLimit: Int
  let tooLarge: HTTPResponse
  /// Requests whose headers are in and whose response is not completely sent.
  let inFlight = Atomic<Int>(0)
  /// Set by `stop()`: streams end, responses close their connections.
  let stopping = Atomic<Bool>(false)
  /// The streams being sent, for `stop()` to cancel.
  let openStreams = Mutex<[ObjectIdentifier: any HTTPBodyStream]>([:])

  init(handler: any HTTPHandler, bodyLimit: Int, tooLarge: HTTPResponse) {
    self.handler = handler
    self.bodyLimit = bodyLimit
    self.tooLarge = tooLarge
  }
}

/// One request's state between the library's calls, on its connection's thread only.
private final class RequestState {
  var body: [UInt8] = []
  var tooLarge = false
  var answered = false
}

/// One streamed body's state, on its connection's thread only.
private final class StreamState {
  let stream: any HTTPBodyStream
  let context: ServerContext
  var pending: [UInt8] = []
  var offset = 0

  init(stream: any HTTPBodyStream, context: ServerContext) {
    self.stream = stream
    self.context = context
  }
}

/// The fields one `MHD_get_connection_values` call collects.
private final class FieldList {
  var fields: [HTTPField] = []
}
