import Foundation

/// curl run as a child process against a test server: what a real client sends and receives
/// over a loopback socket.
enum Curl {
  /// One exchange: curl's exit status, the response's status line code, headers and body.
  struct Exchange {
    /// curl's exit status (0 when it got a whole response; 7: could not connect).
    var exitStatus: Int32
    /// The status code, or 0 without a response.
    var status: Int
    /// The response headers, names lowercased, in order.
    var headers: [(name: String, value: String)]
    /// The body's bytes.
    var body: [UInt8]
    /// The body as UTF-8 text.
    var text: String { String(decoding: body, as: UTF8.self) }

    /// The first header named `name` (lowercase).
    func header(_ name: String) -> String? {
      headers.first { $0.name == name }?.value
    }
  }

  /// Whether an executable `name` is on the PATH.
  static func available(_ name: String) -> Bool {
    let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(
      separator: ":")
    return paths.contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(name)") }
  }

  /// Runs `curl -sS -D HEADERS -o BODY arguments...` and reads what it wrote.
  static func run(_ arguments: [String], input: [UInt8]? = nil) throws -> Exchange {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "httpkit-curl-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let headersPath = directory.appendingPathComponent("headers").path
    let bodyPath = directory.appendingPathComponent("body").path
    var extra: [String] = []
    if let input {
      let inputPath = directory.appendingPathComponent("input").path
      _ = FileManager.default.createFile(atPath: inputPath, contents: Data(input))
      extra = ["--data-binary", "@" + inputPath]
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
      ["curl", "-sS", "--max-time", "30", "-D", headersPath, "-o", bodyPath] + extra + arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    let headerText = (try? String(contentsOfFile: headersPath, encoding: .utf8)) ?? ""
    let body = (try? Data(contentsOf: URL(fileURLWithPath: bodyPath))).map { [UInt8]($0) } ?? []
    var status = 0
    var headers: [(name: String, value: String)] = []
    // With a 100 Continue before it, the last status line is the answer's.
    for line in headerText.split(separator: "\r\n") {
      if line.hasPrefix("HTTP/") {
        status = Int(line.split(separator: " ")[1]) ?? 0
        headers = []
      } else if let colon = line.firstIndex(of: ":") {
        headers.append(
          (
            line[..<colon].lowercased(),
            line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
          ))
      }
    }
    return Exchange(
      exitStatus: process.terminationStatus, status: status, headers: headers, body: body)
  }
}
