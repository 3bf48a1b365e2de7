import Foundation

/// The private directory of one test's case files, shared by the in-process ``CLITestCase``
/// and the child-process sandboxes: a new, uniquely named directory under the system's
/// temporary directory, and an environment that keeps `inspector` inside it.
enum TestDirectory {
  /// Creates `prefix-<UUID>` under the system's temporary directory.
  static func create(prefix: String) throws -> URL {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    return directory
  }

  /// `HOME` and `XDG_DATA_HOME` below `directory`, so nothing touches the real home;
  /// `INSPECTOR_DB` naming `database` when given; and, for a child process, a minimal `PATH` and
  /// the C locale, built from scratch rather than inherited.
  static func environment(
    in directory: URL, database: String? = nil, childProcess: Bool = false
  ) -> [String: String] {
    var environment = [
      "HOME": directory.appendingPathComponent("home").path,
      "XDG_DATA_HOME": directory.appendingPathComponent("xdg").path,
    ]
    environment["INSPECTOR_DB"] = database
    if childProcess {
      environment["PATH"] = "/usr/bin:/bin"
      environment["LC_ALL"] = "C"
    }
    return environment
  }
}
