#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a backup may be written: a new path or an existing regular file, reached through any
/// symbolic links, so that the link stays a link and its target receives the copy.
public struct BackupDestination: Equatable, Sendable {
  // MARK: - Properties

  /// The path as given (possibly a symbolic link).
  public let path: String
  /// The file actually replaced: `path` with every symbolic link followed (the link's target,
  /// which may not exist yet).
  public let target: String

  // MARK: - Init

  /// Resolves `path` and refuses anything but a new path or a regular file.
  ///
  /// Links are followed up to 40 levels, as the kernel does; a relative link target is read
  /// relative to the link's directory. Nothing is created or changed.
  ///
  /// - Throws: ``BackupDestinationError`` when the final target exists and is not a regular file
  ///   (a directory, character or block device such as `/dev/null`, FIFO or socket), or when
  ///   the links loop.
  public init(path: String) throws {
    self.path = path
    var current = path
    for _ in 0..<40 {
      var info = stat()
      guard lstat(current, &info) == 0 else {
        // A new path (or one whose directory is missing: creating the copy reports that).
        target = current
        return
      }
      switch info.st_mode & S_IFMT {
      case S_IFREG:
        target = current
        return
      case S_IFLNK:
        current = BackupDestination.readLink(current)
      default:
        throw BackupDestinationError(path: path, kind: BackupDestination.kind(of: info.st_mode))
      }
    }
    throw BackupDestinationError(path: path, kind: "a loop of symbolic links")
  }

  // MARK: - Private helpers

  /// The target of the link at `path`, made relative to the link's directory when relative.
  private static func readLink(_ path: String) -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count > 0 else { return path }
    let link = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    if link.hasPrefix("/") { return link }
    return Connection.directory(of: path) + "/" + link
  }

  private static func kind(of mode: mode_t) -> String {
    switch mode & S_IFMT {
    case S_IFDIR: "a directory"
    case S_IFCHR: "a character device"
    case S_IFBLK: "a block device"
    case S_IFIFO: "a FIFO"
    case S_IFSOCK: "a socket"
    default: "not a regular file"
    }
  }
}

/// A backup destination that is not a new path or a regular file; it is left untouched.
public struct BackupDestinationError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The destination as given.
  public let path: String
  /// What is there, e.g. `a character device`.
  public let kind: String

  /// `cannot write a backup to /dev/null: it is a character device, not a regular file`.
  public var description: String {
    "cannot write a backup to \(path): it is \(kind), not a regular file"
  }
}
