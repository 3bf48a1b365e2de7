import Foundation
import SQLiteKit
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A temporary directory holding one case file, and the built `inspector` run there as a child
/// process, for the reliability suites (concurrency, crash safety, hostile input; README
/// "Guarantees"). Unlike the in-process runs of ``CLITestCase``, a child process can be killed, can
/// hold locks against another, and reports a crash as a signal instead of taking the test runner
/// down with it.
///
/// The case file lives in `case/` so that a test can list exactly what a command left beside
/// it; captured output goes to files in the top directory. Everything is removed in `deinit`.
final class ProcessSandbox {
  // MARK: - Properties

  /// What one finished run produced.
  struct Run {
    /// The exit status, or the signal number when ``signaled``.
    var status: Int32
    /// `true` when the process died of a signal (a Swift runtime trap is SIGILL or SIGTRAP).
    var signaled: Bool
    var standardOutput: String
    var standardError: String
    /// Wall-clock seconds from start to exit.
    var seconds: Double
  }

  /// The top directory, removed in `deinit`.
  let directory: URL
  /// The directory of the case file, `case/`.
  let caseDirectory: String
  /// `case/cases.sqlite`, named by `INSPECTOR_DB` in ``environment``.
  let databasePath: String
  /// The environment of every run, built from scratch (C locale, private `HOME`).
  var environment: [String: String]

  // MARK: - Init

  /// Creates the directories; with `seeded`, the case file is a copy of the seeded template
  /// (``SeededCaseTemplate``: what `inspector init --seed` makes, made once per test process).
  init(seeded: Bool = true) throws {
    directory = try TestDirectory.create(prefix: "inspector-reliability")
    caseDirectory = directory.appendingPathComponent("case").path
    try FileManager.default.createDirectory(
      atPath: caseDirectory, withIntermediateDirectories: true)
    databasePath = caseDirectory + "/cases.sqlite"
    environment = TestDirectory.environment(
      in: directory, database: databasePath, childProcess: true)
    if seeded {
      try SeededCaseTemplate.copy(to: databasePath)
    }
  }

  deinit {
    try? FileManager.default.removeItem(at: directory)
  }

  // MARK: - Running the binary

  /// The built `inspector` executable.
  static func executable() throws -> URL {
    guard let url = EndToEndTests.inspectorURL else {
      throw SetupFailure(description: "the built inspector executable was not found")
    }
    return url
  }

  /// Runs `inspector arguments` to completion (stdin from /dev/null, stdout and stderr into
  /// files, so stdout is never a terminal). A run still going after `timeout` seconds is killed
  /// and recorded as an issue.
  func run(
    _ arguments: String..., environment extra: [String: String] = [:], timeout: Double = 120
  ) throws -> Run {
    try run(arguments, environment: extra, timeout: timeout)
  }

  /// Runs `inspector` with arguments from an array.
  func run(
    _ arguments: [String], environment extra: [String: String] = [:], timeout: Double = 120
  ) throws -> Run {
    let id = UUID().uuidString
    let outPath = directory.appendingPathComponent("stdout-\(id)").path
    let errPath = directory.appendingPathComponent("stderr-\(id)").path
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    defer {
      try? FileManager.default.removeItem(atPath: outPath)
      try? FileManager.default.removeItem(atPath: errPath)
    }
    let out = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    let err = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    let process = try makeProcess(arguments, environment: extra)
    process.standardOutput = out
    process.standardError = err
    let clock = ContinuousClock()
    let start = clock.now
    try process.run()
    while process.isRunning && (clock.now - start) < .seconds(timeout) { usleep(2_000) }
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      Issue.record("inspector \(arguments.prefix(3)) still running after \(timeout) s: killed")
    }
    process.waitUntilExit()
    let elapsed = clock.now - start
    try out.close()
    try err.close()
    return Run(
      status: process.terminationStatus,
      signaled: process.terminationReason == .uncaughtSignal,
      standardOutput: String(
        decoding: try Data(contentsOf: URL(fileURLWithPath: outPath)), as: UTF8.self),
      standardError: String(
        decoding: try Data(contentsOf: URL(fileURLWithPath: errPath)), as: UTF8.self),
      seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
  }

  /// Starts `inspector arguments` without waiting (output discarded), for runs a test kills or
  /// runs side by side.
  func start(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Process {
    let process = try makeProcess(arguments, environment: extra)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }

  /// A path inside the case directory.
  func path(_ name: String) -> String { caseDirectory + "/" + name }

  /// The entries of the case directory, sorted.
  func caseDirectoryContents() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: caseDirectory).sorted()
  }

  /// Opens the case file with SQLiteKit (read-write, so a WAL left by a killed writer is
  /// recovered).
  func connection(_ path: String? = nil, mode: Connection.OpenMode = .readWrite) throws
    -> Connection
  {
    try Connection(path: path ?? databasePath, mode: mode)
  }

  // MARK: - Private helpers

  func makeProcess(_ arguments: [String], environment extra: [String: String]) throws
    -> Process
  {
    let process = Process()
    process.executableURL = try Self.executable()
    process.arguments = arguments
    process.environment = environment.merging(extra) { $1 }
    process.currentDirectoryURL = directory
    process.standardInput = FileHandle.nullDevice
    return process
  }
}

// MARK: - Expectations

/// The run ended by itself with a status below 128: no signal, no Swift runtime trap.
func expectNoCrash(
  _ run: ProcessSandbox.Run, _ label: @autoclosure () -> String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(
    !run.signaled, "\(label()) died of signal \(run.status): \(run.standardError)",
    sourceLocation: sourceLocation)
  #expect(
    run.status < 128, "\(label()) exited \(run.status): \(run.standardError)",
    sourceLocation: sourceLocation)
}

/// The run succeeded: status 0, nothing on stderr.
func expectSuccess(
  _ run: ProcessSandbox.Run, _ label: @autoclosure () -> String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  expectNoCrash(run, label(), sourceLocation: sourceLocation)
  #expect(
    run.status == 0, "\(label()) failed: \(run.standardError)", sourceLocation: sourceLocation)
  #expect(run.standardError == "", "\(label())", sourceLocation: sourceLocation)
}

/// The run was refused the documented way (README "A short tour"): one of `statuses`, stdout
/// empty, and exactly one `inspector: error:` line, first on stderr (a `hint:` line may follow;
/// a usage error adds its usage and help lines).
func expectRefusal(
  _ run: ProcessSandbox.Run, _ statuses: Set<Int32>, _ label: @autoclosure () -> String,
  sourceLocation: SourceLocation = #_sourceLocation
) {
  expectNoCrash(run, label(), sourceLocation: sourceLocation)
  #expect(
    statuses.contains(run.status), "\(label()) exited \(run.status): \(run.standardError)",
    sourceLocation: sourceLocation)
  #expect(run.standardOutput == "", "\(label())", sourceLocation: sourceLocation)
  let errorLines = textErrorLines(run.standardError)
  #expect(
    errorLines.first?.hasPrefix("inspector: error: ") == true, "\(label()): \(errorLines)",
    sourceLocation: sourceLocation)
  #expect(
    errorLines.filter { $0.contains("error:") }.count == 1, "\(label()): \(errorLines)",
    sourceLocation: sourceLocation)
  if run.status != 64 {
    #expect(
      errorLines.dropFirst().allSatisfy { $0.hasPrefix("hint: ") } && errorLines.count <= 2,
      "\(label()): \(errorLines)", sourceLocation: sourceLocation)
  }
}
