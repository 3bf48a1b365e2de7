#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Connection {
  /// Lists the temporary files that killed backups left in the directory of `path`, whatever
  /// destination they were for: `.NAME.tmp-PID-RANDOM` (and its `-journal`), regular files
  /// whose process `PID` no longer exists and that have not changed for `olderThan` seconds.
  /// A running backup's file is never listed: its process exists, and its file keeps changing.
  ///
  /// Meant for reports such as `inspector check`: each path is a full-size leftover copy that
  /// the next backup into that directory removes (see
  /// ``removeStaleBackupFiles(besides:olderThan:)``). Nothing is changed.
  ///
  /// - Parameters:
  ///   - path: A database or backup path; its directory is searched (`.` for a bare name).
  ///   - olderThan: Seconds since the file last changed (default 10 minutes; the age also guards
  ///     against a process id seen from another PID namespace).
  /// - Returns: Full paths (directory + `/` + name), in directory order; empty when the
  ///   directory cannot be read.
  public static func staleBackupFiles(besides path: String, olderThan: Int = 600) -> [String] {
    let directory = Connection.directory(of: path)
    guard let stream = opendir(directory) else { return [] }
    defer { closedir(stream) }
    var stale: [String] = []
    let now = time(nil)
    while let entry = readdir(stream) {
      let file = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      guard let pid = backupProcessID(ofTemporaryFile: file) else { continue }
      if kill(pid, 0) == 0 || errno != ESRCH { continue }
      let full = "\(directory)/\(file)"
      var info = stat()
      guard lstat(full, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
      #if os(Linux)
        let changed = info.st_mtim.tv_sec
      #else
        let changed = info.st_mtimespec.tv_sec
      #endif
      guard Int(now - changed) >= olderThan else { continue }
      stale.append(full)
    }
    return stale
  }

  /// Removes the files ``staleBackupFiles(besides:olderThan:)`` lists: the leftovers of killed
  /// backups to any destination in the directory of `path`.
  ///
  /// - Parameters:
  ///   - path: A backup destination; its directory is swept.
  ///   - olderThan: Seconds since the file last changed (default 10 minutes).
  /// - Returns: The paths removed.
  @discardableResult
  public static func removeStaleBackupFiles(besides path: String, olderThan: Int = 600)
    -> [String]
  {
    staleBackupFiles(besides: path, olderThan: olderThan).filter { unlink($0) == 0 }
  }

  /// The process id in a backup's temporary file name `.NAME.tmp-PID-RANDOM` or
  /// `.NAME.tmp-PID-RANDOM-journal` (NAME not empty, PID and RANDOM decimal); `nil` for any
  /// other name.
  static func backupProcessID(ofTemporaryFile file: String) -> Int32? {
    guard file.hasPrefix(".") else { return nil }
    // The last `.tmp-`, after a NAME of at least one character.
    var marker = file.endIndex
    while marker > file.startIndex, !file[marker...].hasPrefix(".tmp-") {
      marker = file.index(before: marker)
    }
    guard file[marker...].hasPrefix(".tmp-"), marker > file.index(after: file.startIndex) else {
      return nil
    }
    var rest = file[marker...].dropFirst(".tmp-".count)
    if rest.hasSuffix("-journal") { rest = rest.dropLast("-journal".count) }
    let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 2, let pid = Int32(parts[0]), pid > 0, UInt32(parts[1]) != nil
    else { return nil }
    return pid
  }
}
