#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

#if canImport(Glibc)
  private let systemWrite = Glibc.write
#elseif canImport(Darwin)
  private let systemWrite = Darwin.write
#endif

/// Standard output as a command produces it: bytes buffered and written to a file descriptor
/// as the buffer fills, or collected in memory for an in-process run.
///
/// Listings write each row as they read it (docs/output-formats.md "Streaming"), so memory
/// stays flat in the number of rows and `inspector list | head -1` ends as soon as `head` has
/// its line: the write fails with `EPIPE`, surfaced as ``OutputError`` with
/// ``OutputError/isClosedPipe``, and the run ends quietly.
public final class OutputSink {
  // MARK: - Properties

  /// The descriptor written to, or `nil` when the text is collected in ``collected``.
  private let descriptor: Int32?
  /// Bytes not yet written to ``descriptor``.
  private var buffer: [UInt8] = []
  /// Bytes kept before a write to the descriptor: 64 KiB, as a pipe's capacity on Linux.
  static let bufferCapacity = 1 << 16
  /// Everything written so far, for an in-memory sink (empty for a descriptor's sink).
  public private(set) var collected = ""

  // MARK: - Init

  /// A sink that writes to `descriptor` (1 for stdout) through a 64 KiB buffer.
  public init(descriptor: Int32) {
    self.descriptor = descriptor
    buffer.reserveCapacity(Self.bufferCapacity)
  }

  /// A sink that keeps the text in ``collected`` (in-process runs and tests).
  public init() {
    descriptor = nil
  }

  // MARK: - Public API

  /// Appends `text`; for a descriptor, writes the buffer out once it holds 64 KiB.
  ///
  /// - Throws: ``OutputError`` when the descriptor refuses the bytes (`EPIPE` when the reader
  ///   has gone, `ENOSPC`, `EBADF`, ...).
  public func write(_ text: String) throws(OutputError) {
    guard !text.isEmpty else { return }
    guard descriptor != nil else {
      collected += text
      return
    }
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= Self.bufferCapacity { try flush() }
  }

  /// Appends the text in `text` as ``write(_:)-(String)`` does, without making a `String` of it
  /// for a descriptor's sink (listings build their pages as bytes).
  ///
  /// - Throws: ``OutputError`` as ``write(_:)-(String)`` does.
  func write(_ text: UTF8Buffer) throws(OutputError) {
    guard !text.isEmpty else { return }
    guard descriptor != nil else {
      collected += text.text
      return
    }
    buffer.append(contentsOf: text.bytes)
    if buffer.count >= Self.bufferCapacity { try flush() }
  }

  /// Writes out whatever is buffered.
  ///
  /// - Throws: ``OutputError`` as ``write(_:)`` does; the buffer is dropped either way.
  public func flush() throws(OutputError) {
    guard let descriptor, !buffer.isEmpty else { return }
    defer { buffer.removeAll(keepingCapacity: true) }
    var offset = 0
    while offset < buffer.count {
      let written = buffer.withUnsafeBytes { bytes in
        systemWrite(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      }
      if written < 0 {
        if errno == EINTR { continue }
        throw OutputError(code: errno)
      }
      offset += written
    }
  }
}

/// Standard output could not be written.
public struct OutputError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The `errno` of the failed `write(2)`.
  public let code: Int32

  /// `true` for `EPIPE`: the reader closed the pipe (`| head -1`), which ends a run quietly
  /// rather than as an I/O error.
  public var isClosedPipe: Bool { code == EPIPE }

  /// `cannot write the output: <strerror>`.
  public var description: String {
    "cannot write the output: \(String(cString: strerror(code)))"
  }
}
