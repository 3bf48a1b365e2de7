import CaseStore
import Foundation

@testable import InspectorCLI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The seeded case file every seeded ``CLITestCase`` and ``ProcessSandbox`` starts from, made
/// once per test process (docs/design.md "Testing"): the first request runs `inspector init
/// --seed` in-process on a file in a private directory, keeps the file's bytes and removes the
/// directory; every request then writes those bytes to a new file of its own, created as the
/// tool creates a case file (`open(2)` with `O_CREAT | O_EXCL`, mode 0600). Migrating and
/// seeding a new file per test cost a migration run and a seed transaction each (and, for a
/// sandbox, a child process); a copy costs one write.
///
/// The seed bulletin is dated the day of seeding, so a template made on an earlier day (a run
/// across midnight) is made again. Tests about creating, migrating or seeding a file run
/// `init`, `demo` or `migrate` themselves and do not use the template.
enum SeededCaseTemplate {
  /// The template's bytes and the day they were seeded on.
  private struct Made {
    var day: [Int]
    var bytes: [UInt8]
  }

  /// The template of this process, guarded by ``lock``.
  nonisolated(unsafe) private static var made: Made?
  private static let lock = NSLock()

  /// Writes a copy of the seeded template to `path`, a file that must not exist yet, with
  /// mode 0600.
  ///
  /// - Throws: ``SetupFailure`` when the template cannot be made (`init --seed` failed) or
  ///   `path` cannot be created or written (it exists, or its directory is missing).
  static func copy(to path: String) throws {
    let bytes = try templateBytes()
    let descriptor = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw SetupFailure(description: "cannot create \(path): errno \(errno)")
    }
    defer { close(descriptor) }
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeBytes { buffer in
        write(descriptor, buffer.baseAddress! + written, buffer.count - written)
      }
      guard count > 0 else {
        throw SetupFailure(description: "cannot write \(path): errno \(errno)")
      }
      written += count
    }
  }

  /// The bytes of the seeded template, made on first use and again on a new day.
  static func templateBytes() throws -> [UInt8] {
    lock.lock()
    defer { lock.unlock() }
    let today = Self.today()
    if let made, made.day == today { return made.bytes }
    let bytes = try make()
    made = Made(day: today, bytes: bytes)
    return bytes
  }

  /// Year, month and day of `LocalDateTime.now()`, the day `init --seed` dates the bulletin.
  private static func today() -> [Int] {
    let now = LocalDateTime.now()
    return [now.year, now.month, now.day]
  }

  /// Runs `init --seed` on a file in a new private directory and returns the file's bytes; the
  /// directory is removed. The file must stand alone: a `-wal` left beside it would hold part of
  /// the seed that a copy of the main file lacks.
  private static func make() throws -> [UInt8] {
    let directory = try TestDirectory.create(prefix: "inspector-seed-template")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = directory.appendingPathComponent("cases.sqlite").path
    let outcome = Inspector.run(
      arguments: ["init", "--seed"],
      environment: TestDirectory.environment(in: directory, database: path),
      stdoutIsTerminal: false)
    guard outcome.status == 0 else {
      throw SetupFailure(description: "init --seed failed: \(outcome.standardError)")
    }
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasPrefix("cases.sqlite-") }
    guard leftovers.isEmpty else {
      throw SetupFailure(description: "init --seed left \(leftovers) beside the template")
    }
    return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
  }
}
