import Foundation
import HTTPKit
import Synchronization
import Testing

/// Answers with what it received, one `name=value` per line: the method, the path, each query
/// field, the `X-Test` header, and the body's length; the body itself comes back as the
/// response's when the path is `/echo-body`.
final class EchoHandler: HTTPHandler {
  /// How many requests reached it.
  let calls = Atomic<Int>(0)

  func respond(to request: HTTPRequest) -> HTTPResponse {
    calls.add(1, ordering: .relaxed)
    if request.path == "/echo-body" {
      return HTTPResponse(
        status: 201, headers: [HTTPField("Content-Type", "application/octet-stream")],
        body: .bytes(request.body))
    }
    var lines = ["method=\(request.method)", "path=\(request.path)"]
    lines += request.query.map { "query \($0.name)=\($0.value)" }
    lines.append("x-test=\(request.header("x-test") ?? "-")")
    lines.append("cookie=\(request.cookie("session") ?? "-")")
    lines.append("body=\(request.body.count)")
    return HTTPResponse(
      status: 200,
      headers: [HTTPField("Content-Type", "text/plain"), HTTPField("X-Answer", "42")],
      body: .bytes(Array((lines.joined(separator: "\n") + "\n").utf8)))
  }
}

/// A count shared between a handler and its streams.
final class Counter: Sendable {
  let value = Atomic<Int>(0)
  func increment() { value.add(1, ordering: .sequentiallyConsistent) }
  var count: Int { value.load(ordering: .sequentiallyConsistent) }
}

/// A body of fixed chunks; counts its `close()` calls.
final class ChunkStream: HTTPBodyStream {
  let chunks: Mutex<[[UInt8]]>
  let closed: Counter

  init(_ chunks: [String], closed: Counter) {
    self.chunks = Mutex(chunks.map { Array($0.utf8) })
    self.closed = closed
  }

  func next() -> [UInt8]? {
    // A little pause between chunks, so that they leave as separate pieces.
    usleep(20_000)
    return chunks.withLock { $0.isEmpty ? nil : $0.removeFirst() }
  }

  func close() { closed.increment() }
}

/// Streams `chunks`, then (when `blocking`) waits for `cancel()` as an event stream waits for
/// its next event.
final class StreamHandler: HTTPHandler {
  let closed = Counter()
  let chunks: [String]

  init(chunks: [String]) { self.chunks = chunks }

  func respond(to request: HTTPRequest) -> HTTPResponse {
    let stream: any HTTPBodyStream =
      switch request.path {
      case "/events": WaitingStream(first: chunks, closed: closed)
      case "/failing": FailingStream(chunks, closed: closed)
      default: ChunkStream(chunks, closed: closed)
      }
    return HTTPResponse(
      status: 200, headers: [HTTPField("Content-Type", "text/plain")], body: .stream(stream))
  }
}

/// Sends its chunks, then fails (``HTTPBodyStream/failed``) instead of ending.
final class FailingStream: HTTPBodyStream {
  let chunks: ChunkStream

  init(_ chunks: [String], closed: Counter) {
    self.chunks = ChunkStream(chunks, closed: closed)
  }

  func next() -> [UInt8]? { chunks.next() }
  var failed: Bool { chunks.chunks.withLock { $0.isEmpty } }
  func close() { chunks.close() }
}

/// Sends its first chunks, then blocks in `next()` until `cancel()`.
final class WaitingStream: HTTPBodyStream {
  let pending: Mutex<[[UInt8]]>
  let cancelled = Atomic<Bool>(false)
  let closed: Counter

  init(first: [String], closed: Counter) {
    pending = Mutex(first.map { Array($0.utf8) })
    self.closed = closed
  }

  func next() -> [UInt8]? {
    if let chunk = pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { return chunk }
    while !cancelled.load(ordering: .relaxed) { usleep(5_000) }
    return nil
  }

  func cancel() { cancelled.store(true, ordering: .relaxed) }
  func close() { closed.increment() }
}

/// Holds each request until `expected` requests are inside at once (or 20 s pass), then
/// answers `together` (or `alone`): proves that many connections are served side by side.
final class BarrierHandler: HTTPHandler {
  let expected: Int
  let inside = Atomic<Int>(0)
  /// How many answered `together`.
  let together = Atomic<Int>(0)

  init(expected: Int) { self.expected = expected }

  func respond(to request: HTTPRequest) -> HTTPResponse {
    inside.add(1, ordering: .sequentiallyConsistent)
    let deadline = Date().addingTimeInterval(20)
    while inside.load(ordering: .sequentiallyConsistent) < expected && Date() < deadline {
      usleep(2_000)
    }
    let together = inside.load(ordering: .sequentiallyConsistent) >= expected
    if together { self.together.add(1, ordering: .sequentiallyConsistent) }
    return HTTPResponse(status: 200, body: .bytes(Array((together ? "together" : "alone").utf8)))
  }
}

/// Answers after `delay` seconds, having said that it started.
final class SlowHandler: HTTPHandler {
  let started = Atomic<Int>(0)
  let delay: UInt32

  init(delayMicroseconds: UInt32) { delay = delayMicroseconds }

  func respond(to request: HTTPRequest) -> HTTPResponse {
    started.add(1, ordering: .sequentiallyConsistent)
    usleep(delay)
    return HTTPResponse(status: 200, body: .bytes(Array("finished after the stop\n".utf8)))
  }
}

/// HTTPServer over real loopback sockets, with curl as the client (docs/web-desk.md "Serving").
@Suite(.tags(.slow, .processes), .skippedInFastSet, .serialized)
struct HTTPServerTests {
  /// A server on a free loopback port.
  func start(
    _ handler: any HTTPHandler, host: String = "127.0.0.1", bodyLimit: Int = 1 << 20,
    tls: HTTPServerTLS? = nil
  ) throws -> HTTPServer {
    try HTTPServer(
      configuration: HTTPServerConfiguration(
        address: HTTPListenAddress(host: host, port: 0), bodyLimit: bodyLimit, tls: tls,
        stopGracePeriod: .seconds(15)),
      handler: handler)
  }

  @Test func getWithQueryHeadersAndCookieRoundTrips() throws {
    let server = try start(EchoHandler())
    defer { server.stop() }
    #expect(server.address.port != 0)
    #expect(server.url == "http://127.0.0.1:\(server.address.port)/")
    let exchange = try Curl.run([
      "-H", "X-Test: hello there", "-H", "Cookie: theme=dark; session=abc123",
      server.url + "suspects/caf%C3%A9%20au%20lait?name=Ch%C3%A9rie&q=two+words&name=%26%3D&empty=",
    ])
    #expect(exchange.exitStatus == 0)
    #expect(exchange.status == 200)
    #expect(
      exchange.text == """
        method=GET
        path=/suspects/café au lait
        query name=Chérie
        query q=two words
        query name=&=
        query empty=
        x-test=hello there
        cookie=abc123
        body=0

        """)
    #expect(exchange.header("x-answer") == "42")
    #expect(exchange.header("content-type") == "text/plain")
    #expect(exchange.header("content-length") == String(exchange.body.count))
    #expect(exchange.header("transfer-encoding") == nil)
  }

  @Test func ipv6LoopbackServesToo() throws {
    let server = try start(EchoHandler(), host: "::1")
    defer { server.stop() }
    #expect(server.url == "http://[::1]:\(server.address.port)/")
    let exchange = try Curl.run(["-g", server.url + "v6?x=1"])
    #expect(exchange.status == 200)
    #expect(exchange.text.hasPrefix("method=GET\npath=/v6\nquery x=1\n"))
  }

  @Test func postBodyArrivesWholeAndComesBack() throws {
    let server = try start(EchoHandler())
    defer { server.stop() }
    // 300 KiB of every byte value: arrives in many pieces, binary-safe.
    let body = (0..<300 * 1024).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 256) }
    let exchange = try Curl.run(
      ["-X", "POST", "-H", "Content-Type: application/octet-stream", server.url + "echo-body"],
      input: body)
    #expect(exchange.status == 201)
    #expect(exchange.body.count == body.count)
    #expect(exchange.body == body)
    #expect(exchange.header("content-length") == "307200")
  }

  @Test func bodyOverTheLimitIs413AndNeverReachesTheHandler() throws {
    let handler = EchoHandler()
    let server = try start(handler, bodyLimit: 1000)
    defer { server.stop() }
    let expected =
      #"{"error":{"kind":"too_large","message":"the request body is larger than 1000 bytes"}}"#
    // Declared by Content-Length: refused before the body is read (for 2 MB curl first asks
    // with Expect: 100-continue, and gets the 413 instead of the go-ahead).
    let declared = try Curl.run(
      ["-X", "PATCH", server.url + "api/suspects/1"], input: Array(repeating: 65, count: 2_000_000))
    #expect(declared.status == 413)
    #expect(declared.text == expected)
    #expect(declared.header("content-type") == "application/json; charset=utf-8")
    let small = try Curl.run(
      ["-X", "PATCH", server.url + "api/suspects/1"], input: Array(repeating: 65, count: 1001))
    #expect(small.status == 413)
    #expect(small.text == expected)
    // Chunked (no length given): refused once the pieces pass the limit.
    let chunked = try Curl.run(
      ["-X", "POST", "-H", "Transfer-Encoding: chunked", server.url + "api/suspects"],
      input: Array(repeating: 66, count: 5000))
    #expect(chunked.status == 413)
    #expect(chunked.text == expected)
    #expect(handler.calls.load(ordering: .relaxed) == 0)
    // Exactly at the limit is accepted.
    let atLimit = try Curl.run(
      ["-X", "POST", server.url + "echo-body"], input: Array(repeating: 67, count: 1000))
    #expect(atLimit.status == 201)
    #expect(atLimit.body == Array(repeating: 67, count: 1000))
  }

  @Test func streamedBodyIsSentChunkedAndClosedOnce() throws {
    let handler = StreamHandler(chunks: [
      "one\n", "two two\n", String(repeating: "3", count: 40_000),
    ])
    let server = try start(handler)
    defer { server.stop() }
    let exchange = try Curl.run([server.url + "stream"])
    #expect(exchange.status == 200)
    #expect(exchange.text == "one\ntwo two\n" + String(repeating: "3", count: 40_000))
    #expect(exchange.header("transfer-encoding") == "chunked")
    #expect(exchange.header("content-length") == nil)
    // close() runs when the response is done, once.
    let deadline = Date().addingTimeInterval(5)
    while handler.closed.count == 0 && Date() < deadline { usleep(5_000) }
    usleep(50_000)
    #expect(handler.closed.count == 1)
  }

  @Test func failedStreamClosesTheConnectionWithoutTheLastChunk() throws {
    let handler = StreamHandler(chunks: ["{\"suspects\":[", "{\"id\":1}"])
    let server = try start(handler)
    defer { server.stop() }
    let broken = try Curl.run([server.url + "failing"])
    #expect(broken.status == 200)
    #expect(broken.text == "{\"suspects\":[{\"id\":1}")
    // curl 18: the transfer closed with outstanding read data (no terminating chunk).
    #expect(broken.exitStatus == 18)
    let whole = try Curl.run([server.url + "stream"])
    #expect(whole.exitStatus == 0)
    #expect(whole.text == "{\"suspects\":[{\"id\":1}")
  }

  @Test func thirtyTwoConnectionsAreServedAtOnce() throws {
    let handler = BarrierHandler(expected: 32)
    let server = try start(handler)
    defer { server.stop() }
    // One curl, 32 transfers in parallel, each on its own connection.
    let urls = (0..<32).flatMap { ["-o", "/dev/null", server.url + "n\($0)"] }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "httpkit-parallel-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
      [
        "curl", "-sS", "--max-time", "30", "--parallel", "--parallel-immediate", "--parallel-max",
        "40", "-w", "%{http_code} ",
      ]
      + urls
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let codes = String(decoding: data, as: UTF8.self).split(separator: " ")
    #expect(codes.count == 32)
    #expect(codes.allSatisfy { $0 == "200" })
    // Each answered "together": the 32 requests were inside the handler at the same time.
    #expect(handler.together.load(ordering: .sequentiallyConsistent) == 32)
  }

  @Test func stopLetsTheRequestInFlightFinishAndRefusesNewConnections() throws {
    let handler = SlowHandler(delayMicroseconds: 800_000)
    let server = try start(handler)
    let url = server.url + "slow"
    let result = Mutex<Curl.Exchange?>(nil)
    let client = Thread { result.withLock { $0 = try? Curl.run([url]) } }
    client.start()
    let deadline = Date().addingTimeInterval(10)
    while handler.started.load(ordering: .sequentiallyConsistent) == 0 && Date() < deadline {
      usleep(2_000)
    }
    #expect(handler.started.load(ordering: .sequentiallyConsistent) == 1)
    server.stop()
    #expect(server.requestsInFlight == 0)
    while result.withLock({ $0 == nil }) && Date() < deadline { usleep(5_000) }
    let exchange = try #require(result.withLock { $0 })
    #expect(exchange.status == 200)
    #expect(exchange.text == "finished after the stop\n")
    #expect(exchange.header("connection") == "close")
    // Nothing listens any more: curl cannot connect (exit 7).
    let after = try Curl.run([url])
    #expect(after.exitStatus == 7)
    #expect(after.status == 0)
  }

  @Test func stopCancelsAWaitingStreamAndKeepsWhatWasSent() throws {
    let handler = StreamHandler(chunks: ["event: change\ndata: 1\n\n"])
    let server = try start(handler)
    let url = server.url + "events"
    let result = Mutex<Curl.Exchange?>(nil)
    let client = Thread { result.withLock { $0 = try? Curl.run([url]) } }
    client.start()
    // Wait until the first event is out, then stop: the blocked next() is cancelled.
    usleep(500_000)
    let clock = ContinuousClock()
    let stopping = clock.now
    server.stop()
    #expect(clock.now - stopping < .seconds(3))
    let deadline = Date().addingTimeInterval(10)
    while result.withLock({ $0 == nil }) && Date() < deadline { usleep(5_000) }
    let exchange = try #require(result.withLock { $0 })
    #expect(exchange.status == 200)
    #expect(exchange.text == "event: change\ndata: 1\n\n")
    #expect(handler.closed.count == 1)
  }

  @Test func aPortInUseIsRefusedByName() throws {
    let first = try start(EchoHandler())
    defer { first.stop() }
    #expect(throws: HTTPServerError.addressInUse(first.address)) {
      try HTTPServer(
        configuration: HTTPServerConfiguration(address: first.address), handler: EchoHandler())
    }
    #expect(
      HTTPServerError.addressInUse(first.address).description
        == "127.0.0.1:\(first.address.port) is in use by another program")
    #expect(throws: HTTPServerError.notANumericAddress("example.org")) {
      try HTTPServer(
        configuration: HTTPServerConfiguration(
          address: HTTPListenAddress(host: "example.org", port: 0)), handler: EchoHandler())
    }
  }

  @Test(.enabled(if: Curl.available("openssl"), "needs openssl to make a certificate"))
  func tlsServesHTTPSWithACertificateFromFiles() throws {
    #expect(HTTPServerTLS.isSupported)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "httpkit-tls-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let key = directory.appendingPathComponent("key.pem").path
    let certificate = directory.appendingPathComponent("cert.pem").path
    let openssl = Process()
    openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    openssl.arguments = [
      "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out",
      certificate, "-days", "2", "-subj", "/CN=localhost", "-addext",
      "subjectAltName=IP:127.0.0.1",
    ]
    openssl.standardOutput = FileHandle.nullDevice
    openssl.standardError = FileHandle.nullDevice
    try openssl.run()
    openssl.waitUntilExit()
    try #require(openssl.terminationStatus == 0)
    let tls = try HTTPServerTLS(certificateFile: certificate, keyFile: key)
    let server = try start(EchoHandler(), tls: tls)
    defer { server.stop() }
    #expect(server.url == "https://127.0.0.1:\(server.address.port)/")
    let exchange = try Curl.run(["--cacert", certificate, server.url + "secure?x=1"])
    #expect(exchange.exitStatus == 0)
    #expect(exchange.status == 200)
    #expect(exchange.text.hasPrefix("method=GET\npath=/secure\nquery x=1\n"))
    // Plain HTTP on the TLS port gets no answer.
    let plain = try Curl.run(["http://127.0.0.1:\(server.address.port)/secure"])
    #expect(plain.status == 0)
    // A key that does not belong to the certificate is refused at start.
    #expect(throws: HTTPServerError.self) {
      try HTTPServer(
        configuration: HTTPServerConfiguration(
          address: HTTPListenAddress(host: "127.0.0.1", port: 0),
          tls: HTTPServerTLS(certificatePEM: tls.certificatePEM, keyPEM: "not a key")),
        handler: EchoHandler())
    }
    #expect(
      throws: HTTPServerError.unreadableTLSFile(
        path: key + ".missing", reason: "No such file or directory")
    ) {
      try HTTPServerTLS(certificateFile: certificate, keyFile: key + ".missing")
    }
  }
}
