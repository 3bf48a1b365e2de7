#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Connection {
  /// Removes the temporary files that killed backups to `path` left beside it
  /// (`.NAME.tmp-PID-RANDOM` and its `-journal`): those whose process no longer exists and that
  /// have not changed for `olderThan` seconds. A running backup's file is never touched: its
  /// process exists, and its file keeps changing.
  ///
  /// - Parameters:
  ///   - path: A backup destination.
  ///   - olderThan: Seconds since the file last changed (default 10 minutes; the age also guards
  ///     against a process id seen from another PID namespace).
  /// - Returns: The paths removed.
  @discardableResult
  public static func removeStaleBackupFiles(besides path: String, olderThan: Int = 600)
    -> [String]
  {
    let directory = Connection.directory(of: path)
    let name = path.split(separator: "/").last.map(String.init) ?? path
    let prefix = ".\(name).tmp-"
    guard let stream = opendir(directory) else { return [] }
    defer { closedir(stream) }
    var removed: [String] = []
    let now = time(nil)
    while let entry = readdir(stream) {
      let file = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      guard file.hasPrefix(prefix) else { continue }
      let parts = file.dropFirst(prefix.count).split(separator: "-")
      guard parts.count >= 2, let pid = Int32(parts[0]), pid > 0 else { continue }
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
      if unlink(full) == 0 { removed.append(full) }
    }
    return removed
  }
}
