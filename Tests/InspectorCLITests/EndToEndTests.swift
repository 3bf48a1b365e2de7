import CommandLineKit
import Foundation
import Testing

@testable import InspectorCLI

/// Runs the built `inspector` executable through `Process` and checks exact stdout, stderr and
/// exit status , with an environment built from scratch.
@Suite struct EndToEndTests {
  /// What one process run produced.
  struct Result {
    var status: Int32
    var standardOutput: String
    var standardError: String
    var outputBytes: Data
    var errorBytes: Data
  }

  /// A temporary directory with its own environment, and a way to run the binary in it.
  final class Sandbox {
    let directory: URL
    let databasePath: String
    var environment: [String: String]

    init() throws {
      directory = try TestDirectory.create(prefix: "inspector-e2e")
      databasePath = directory.appendingPathComponent("cases.sqlite").path
      environment = TestDirectory.environment(in: directory, childProcess: true)
    }

    deinit {
      try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `inspector arguments` with stdin from /dev/null and stdout, stderr into files (so
    /// stdout is never a terminal).
    func run(_ arguments: String..., environment extra: [String: String] = [:]) throws -> Result {
      try run(arguments, environment: extra)
    }

    /// Runs `inspector` with arguments from an array.
    func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Result {
      let executable = try #require(EndToEndTests.inspectorURL, "built inspector not found")
      let process = Process()
      process.executableURL = executable
      process.arguments = arguments
      process.environment = environment.merging(extra) { $1 }
      process.currentDirectoryURL = directory
      let id = UUID().uuidString
      let outURL = directory.appendingPathComponent("stdout-\(id)")
      let errURL = directory.appendingPathComponent("stderr-\(id)")
      _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
      _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
      let out = try FileHandle(forWritingTo: outURL)
      let err = try FileHandle(forWritingTo: errURL)
      process.standardInput = FileHandle.nullDevice
      process.standardOutput = out
      process.standardError = err
      try process.run()
      process.waitUntilExit()
      try out.close()
      try err.close()
      let outputBytes = try Data(contentsOf: outURL)
      let errorBytes = try Data(contentsOf: errURL)
      try FileManager.default.removeItem(at: outURL)
      try FileManager.default.removeItem(at: errURL)
      #expect(process.terminationReason == .exit)
      return Result(
        status: process.terminationStatus,
        standardOutput: String(decoding: outputBytes, as: UTF8.self),
        standardError: String(decoding: errorBytes, as: UTF8.self),
        outputBytes: outputBytes, errorBytes: errorBytes)
    }

    /// The entries of the sandbox (to prove a command created nothing).
    func contents() throws -> [String] {
      try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }
  }

  /// The `inspector` executable in the same build products directory as this test bundle.
  static let inspectorURL: URL? = {
    var directories: [URL] = []
    if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    {
      directories.append(URL(fileURLWithPath: executable).deletingLastPathComponent())
    }
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
      directories.append(bundle.bundleURL.deletingLastPathComponent())
    }
    directories.append(Bundle.main.bundleURL)
    // Walk up a few levels from each (a bundle's Contents/MacOS, an .xctest directory).
    var candidates: [URL] = []
    for directory in directories {
      var current = directory
      for _ in 0..<4 {
        candidates.append(current.appendingPathComponent("inspector"))
        current = current.deletingLastPathComponent()
      }
    }
    return candidates.first { url in
      var isDirectory: ObjCBool = false
      return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory)
        && !isDirectory.boolValue && FileManager.default.isExecutableFile(atPath: url.path)
    }
  }()

  static let missingDatabaseHint =
    "hint: create it with 'inspector init' (or 'inspector demo' for the seed case)\n"

  // MARK: - Help and version

  @Test func version() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run("--version")
    #expect(result.status == 0)
    #expect(result.standardError == "")
    #expect(result.standardOutput.hasPrefix("inspector 0.1.0 (SQLite 3."))
    #expect(result.standardOutput.hasSuffix(")\n"))
    #expect(lines(result.standardOutput).count == 1)
    // The same text as the in-process run.
    #expect(
      result.standardOutput
        == Inspector.run(arguments: ["--version"], environment: [:]).standardOutput)
  }

  @Test func help() throws {
    let sandbox = try Sandbox()
    for arguments in [["--help"], ["-h"], ["help"]] {
      let result = try sandbox.run(arguments)
      #expect(result.status == 0, "\(arguments)")
      #expect(result.standardError == "")
      #expect(result.standardOutput.hasPrefix("OVERVIEW: "))
      #expect(result.standardOutput.contains("\nUSAGE: inspector"))
      #expect(result.standardOutput.contains("\nSUBCOMMANDS:\n"))
      #expect(result.standardOutput.hasSuffix("\n"))
    }
    let show = try sandbox.run("show", "--help")
    #expect(show.status == 0)
    #expect(show.standardOutput.hasPrefix("OVERVIEW: Show one suspect"))
    #expect(show.standardOutput.contains("\nARGUMENTS:\n"))
    #expect(show.standardOutput.contains("\nOPTIONS:\n"))
    #expect(try sandbox.contents() == [])
  }

  // MARK: - Errors

  @Test func usageErrorExactText() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run("show")
    #expect(result.status == 64)
    #expect(result.standardOutput == "")
    #expect(result.standardError == showUsageError)
  }

  @Test func missingDatabaseExits66AndCreatesNothing() throws {
    let sandbox = try Sandbox()
    for arguments in [["list"], ["show", "crow"], ["rank"], ["fruit", "list"]] {
      let result = try sandbox.run(arguments, environment: ["INSPECTOR_DB": sandbox.databasePath])
      #expect(result.status == 66, "\(arguments)")
      #expect(result.standardOutput == "")
      #expect(
        result.standardError
          == "inspector: error: no database at \(sandbox.databasePath)\n"
          + Self.missingDatabaseHint)
    }
    // The XDG default is not created either.
    let xdgPath = sandbox.directory.appendingPathComponent("xdg/fruit-inspectors/cases.sqlite").path
    let result = try sandbox.run("list")
    #expect(result.status == 66)
    #expect(
      result.standardError == "inspector: error: no database at \(xdgPath)\n"
        + Self.missingDatabaseHint)
    #expect(try sandbox.contents() == [])
  }

  @Test func dataErrorExactText() throws {
    let sandbox = try Sandbox()
    let env = ["INSPECTOR_DB": sandbox.databasePath]
    #expect(try sandbox.run("init", "--seed", environment: env).status == 0)
    let result = try sandbox.run("suspect", "crow", "1.5", environment: env)
    #expect(result.status == 65)
    #expect(result.standardOutput == "")
    #expect(
      result.standardError
        == "inspector: error: invalid suspicion level '1.5': expected a number from 0 to 1,"
        + " such as 0.5\n")
  }

  // MARK: - Creating and choosing the database

  @Test func demoCreatesAPrivateSeededFile() throws {
    let sandbox = try Sandbox()
    let result = try sandbox.run("demo", environment: ["INSPECTOR_DB": sandbox.databasePath])
    #expect(result.status == 0)
    #expect(result.standardError == "")
    #expect(
      result.standardOutput.hasPrefix("Created \(sandbox.databasePath) with the seed case.\n"))
    #expect(result.standardOutput.contains("🐦‍⬛ Catie"))
    #expect(!result.outputBytes.contains(0x1B))
    let attributes = try FileManager.default.attributesOfItem(atPath: sandbox.databasePath)
    #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    let list = try sandbox.run("list", "--json", "--db", sandbox.databasePath)
    #expect(list.status == 0)
    #expect(try jsonArray(list.standardOutput).count == 10)
  }

  @Test func dbOptionBeatsTheEnvironmentVariable() throws {
    let sandbox = try Sandbox()
    let envPath = sandbox.directory.appendingPathComponent("env.sqlite").path
    let optionPath = sandbox.directory.appendingPathComponent("option.sqlite").path
    let env = ["INSPECTOR_DB": envPath]
    #expect(try sandbox.run("init", "--seed", environment: env).status == 0)
    // --db names a missing file: it is refused even though $INSPECTOR_DB exists.
    let refused = try sandbox.run("list", "--db", optionPath, environment: env)
    #expect(refused.status == 66)
    #expect(
      refused.standardError
        == "inspector: error: no database at \(optionPath)\n" + Self.missingDatabaseHint)
    #expect(!FileManager.default.fileExists(atPath: optionPath))
    // init --db creates the option's file, empty, and leaves the variable's alone.
    #expect(try sandbox.run("--db", optionPath, "init", environment: env).status == 0)
    let fromOption = try sandbox.run("list", "--json", "--db", optionPath, environment: env)
    #expect(fromOption.standardOutput == "[]\n")
    let fromEnv = try sandbox.run("list", "--json", environment: env)
    #expect(try jsonArray(fromEnv.standardOutput).count == 10)
  }

  @Test
  func anEmptyDbOptionIsAUsageError() throws {
    let sandbox = try Sandbox()
    let env = ["INSPECTOR_DB": sandbox.databasePath]
    #expect(try sandbox.run("init", "--seed", environment: env).status == 0)
    // `inspector --db "$UNSET" ...` in a script must not reach the user's default case file.
    for arguments in [["list", "--db="], ["init", "--db", ""]] {
      let result = try sandbox.run(arguments, environment: env)
      #expect(result.status == 64, "\(arguments)")
      #expect(result.standardOutput == "")
      #expect(
        result.standardError.hasPrefix(
          "inspector: error: The value '' is invalid for '--db <path>'"))
    }
    #expect(
      !FileManager.default.fileExists(atPath: sandbox.directory.appendingPathComponent("xdg").path))
  }

  @Test func concurrentWritersAllSucceed() throws {
    let sandbox = try Sandbox()
    let env = ["INSPECTOR_DB": sandbox.databasePath]
    #expect(try sandbox.run("init", "--seed", environment: env).status == 0)
    let executable = try #require(Self.inspectorURL)
    var processes: [Process] = []
    for index in 0..<12 {
      let process = Process()
      process.executableURL = executable
      process.arguments =
        index.isMultiple(of: 2)
        ? ["fruit", "add", "Parallel \(index)", "--color", "red"]
        : ["suspect", "crow", "0.\(index)"]
      process.environment = sandbox.environment.merging(env) { $1 }
      process.standardInput = FileHandle.nullDevice
      process.standardOutput = FileHandle.nullDevice
      process.standardError = FileHandle.nullDevice
      processes.append(process)
    }
    for process in processes { try process.run() }
    for process in processes { process.waitUntilExit() }
    #expect(processes.map(\.terminationStatus) == Array(repeating: 0, count: 12))
    let fruits = try jsonArray(
      try sandbox.run("fruit", "list", "--json", environment: env).standardOutput)
    #expect(fruits.count == 19 + 6)
  }

  // MARK: - Colour and locale

  @Test func noEscapeBytesWhenNotATerminalOrNoColor() throws {
    let sandbox = try Sandbox()
    let env = ["INSPECTOR_DB": sandbox.databasePath]
    #expect(try sandbox.run("init", "--seed", environment: env).status == 0)
    #expect(try sandbox.run("suspect", "crow", "0.95", environment: env).status == 0)
    for arguments in [["list"], ["rank"], ["show", "crow"], ["demo"], ["--help"]] {
      for extra in [env, env.merging(["NO_COLOR": "1", "TERM": "xterm-256color"]) { $1 }] {
        let result = try sandbox.run(arguments, environment: extra)
        #expect(result.status == 0)
        #expect(!result.outputBytes.isEmpty)
        #expect(!result.outputBytes.contains(0x1B), "\(arguments)")
        #expect(!result.errorBytes.contains(0x1B))
      }
    }
  }

  @Test(arguments: [
    ["LC_ALL": "de_DE.UTF-8"], ["LANG": "de_DE.UTF-8"], ["LC_NUMERIC": "fr_FR.UTF-8"],
  ])
  func numbersIgnoreTheLocale(locale: [String: String]) throws {
    let sandbox = try Sandbox()
    sandbox.environment["LC_ALL"] = nil
    let env = locale.merging(["INSPECTOR_DB": sandbox.databasePath]) { $1 }
    #expect(try sandbox.run("init", "--seed", environment: env).status == 0)
    let set = try sandbox.run("suspect", "crow", "0.5", environment: env)
    #expect(set.status == 0)
    #expect(set.standardOutput == "Catie the Crow: suspicion 0.5 (Very suspicious)\n")
    let refused = try sandbox.run("suspect", "crow", "0,75", environment: env)
    #expect(refused.status == 65)
    #expect(refused.standardOutput == "")
    #expect(
      refused.standardError
        == "inspector: error: invalid suspicion level '0,75': expected a number from 0 to 1,"
        + " such as 0.5\n")
    let show = try sandbox.run("show", "crow", "--json", environment: env)
    let crow = try jsonObject(show.standardOutput)
    #expect(number(crow["suspicion_level"]) == 0.5)
    #expect(show.standardOutput.contains("\"suspicion_level\": 0.5,"))
    let csv = try sandbox.run("show", "crow", "--format", "csv", environment: env)
    #expect(csv.standardOutput.contains(",0.5,Very suspicious\r\n"))
  }

  // MARK: - Output streams

  @Test func stdoutIsEmptyOnEveryFailure() throws {
    let sandbox = try Sandbox()
    let env = ["INSPECTOR_DB": sandbox.databasePath]
    #expect(try sandbox.run("init", "--seed", environment: env).status == 0)
    for arguments in [
      ["show", "unicorn"], ["suspect", "crow", "NaN"], ["list", "--format", "xml"],
      ["sleep", "crow", "--sleep", "25:00", "--wake", "06:30"],
    ] {
      let result = try sandbox.run(arguments, environment: env)
      #expect(result.status != 0)
      #expect(result.outputBytes.isEmpty, "\(arguments)")
      #expect(result.standardError.hasPrefix("inspector: error: "))
    }
  }
}
