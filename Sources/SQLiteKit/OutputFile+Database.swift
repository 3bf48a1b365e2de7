#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension OutputFile {
  /// The files that make up the database at `path`, as SQLite names them: the database, its
  /// write-ahead log, its shared-memory index and its rollback journal.
  ///
  /// SQLite: <https://sqlite.org/tempfiles.html>
  public static let databaseFileSuffixes = ["", "-wal", "-shm", "-journal"]

  /// Which file of the database at `database` this destination would overwrite, if any: `""`
  /// for the database itself, or `-wal`, `-shm`, `-journal` for the files SQLite keeps beside
  /// it (writing over the `-wal` destroys committed transactions).
  ///
  /// Compared by name after following symbolic links and resolving the directories (so
  /// `./x/../db.sqlite-wal` and a link to it match even when the file does not exist yet, and
  /// a database reached through a symbolic link is protected under its real name), and by
  /// device and inode for existing files and for the database itself (so hard links match).
  ///
  /// - Returns: The suffix of the file it names, or `nil` when it names none of them.
  public func clash(withDatabaseAt database: String) -> String? {
    let ours = OutputFile.canonical(target)
    // SQLite names the -wal, -shm and -journal after the database file it opens, that is after
    // every symbolic link is followed: compare with those names and with the names as given.
    var bases = [OutputFile.canonical(database)]
    if let resolved = realpath(database, nil) {
      bases.append(String(cString: resolved))
      free(resolved)
    }
    for suffix in OutputFile.databaseFileSuffixes {
      if bases.contains(where: { ours == $0 + suffix })
        || OutputFile.isSameFile(target, database + suffix)
      {
        return suffix
      }
      // `other-wal` where `other` is the database under another name (a hard link).
      if !suffix.isEmpty, target.hasSuffix(suffix),
        OutputFile.isSameFile(String(target.dropLast(suffix.count)), database)
      {
        return suffix
      }
    }
    return nil
  }

  /// `path` with its directory resolved by `realpath` (the last component kept as written, as
  /// it may not exist); `path` itself when the directory cannot be resolved.
  static func canonical(_ path: String) -> String {
    let directory = Connection.directory(of: path)
    let name = path.split(separator: "/").last.map(String.init) ?? path
    guard let resolved = realpath(directory, nil) else { return path }
    defer { free(resolved) }
    let prefix = String(cString: resolved)
    return (prefix == "/" ? "" : prefix) + "/" + name
  }

  /// `true` when both paths name one existing file (same device and inode).
  static func isSameFile(_ first: String, _ second: String) -> Bool {
    var a = stat()
    var b = stat()
    return stat(first, &a) == 0 && stat(second, &b) == 0 && a.st_dev == b.st_dev
      && a.st_ino == b.st_ino
  }
}
