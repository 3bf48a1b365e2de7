import Foundation

/// A child process whose stdout and stderr go to files (no pipe can fill up and block it).
final class ChildProcess {
  /// What it printed and how it ended.
  struct Result {
    var status: Int32
    var standardOutput: String
    var standardError: String
  }

  private let process = Process()
  private let outputURL: URL
  private let errorURL: URL

  /// Starts `executable` with `arguments` and exactly `environment`; output files go in
  /// `directory` and are removed by ``wait()``.
  init(
    _ executable: String, _ arguments: [String], environment: [String: String],
    directory: URL
  ) throws {
    let id = UUID().uuidString
    outputURL = directory.appendingPathComponent("child-out-\(id)")
    errorURL = directory.appendingPathComponent("child-err-\(id)")
    _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
    _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.environment = environment
    process.currentDirectoryURL = directory
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = try FileHandle(forWritingTo: outputURL)
    process.standardError = try FileHandle(forWritingTo: errorURL)
    try process.run()
  }

  /// Waits for the exit and collects the output.
  func wait() throws -> Result {
    process.waitUntilExit()
    let output = try Data(contentsOf: outputURL)
    let error = try Data(contentsOf: errorURL)
    try? FileManager.default.removeItem(at: outputURL)
    try? FileManager.default.removeItem(at: errorURL)
    return Result(
      status: process.terminationReason == .exit ? process.terminationStatus : -1,
      standardOutput: String(decoding: output, as: UTF8.self),
      standardError: String(decoding: error, as: UTF8.self))
  }
}
