/// Output text being built as UTF-8 bytes, appended without making a `String` per piece.
///
/// Listings write every row into one of these (docs/output-formats.md "Streaming") and hand
/// the bytes to ``OutputSink``: appending bytes to an array is much cheaper than growing a
/// `String` one small piece at a time, and numbers are written digit by digit.
struct UTF8Buffer: TextOutputStream {
  // MARK: - Properties

  /// The text so far.
  private(set) var bytes: [UInt8] = []

  /// Whether nothing has been appended (or everything was taken).
  var isEmpty: Bool { bytes.isEmpty }

  /// The number of bytes held.
  var count: Int { bytes.count }

  // MARK: - Init

  /// An empty buffer with room for `capacity` bytes.
  init(capacity: Int = 0) {
    bytes.reserveCapacity(capacity)
  }

  // MARK: - Appending

  /// Appends `text`'s UTF-8 bytes.
  mutating func append(_ text: String) {
    text.withUTF8Bytes { bytes.append(contentsOf: $0) }
  }

  /// Appends `text`'s UTF-8 bytes (a literal, never copied into a `String`).
  mutating func append(_ text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  /// Appends bytes as they are (UTF-8 text copied from elsewhere).
  mutating func append(bytes more: some Collection<UInt8>) {
    bytes.append(contentsOf: more)
  }

  /// Appends an array of bytes (a key quoted beforehand) without retaining it per call.
  mutating func append(bytes more: [UInt8]) {
    more.withUnsafeBufferPointer { bytes.append(contentsOf: $0) }
  }

  /// Appends one byte (an ASCII character).
  mutating func append(byte: UInt8) {
    bytes.append(byte)
  }

  /// Appends `count` copies of `byte` (padding); nothing for zero or less.
  mutating func append(byte: UInt8, count: Int) {
    guard count > 0 else { return }
    if byte == UInt8(ascii: " ") && count <= Self.spaces.utf8CodeUnitCount {
      // A static string's bytes live in the binary: no array to retain on every call.
      Self.spaces.withUTF8Buffer {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<count]))
      }
    } else {
      bytes.append(contentsOf: repeatElement(byte, count: count))
    }
  }

  /// 64 spaces to copy from for padding and indentation (a copy is cheaper than a repetition).
  private static let spaces: StaticString =
    "                                                                "

  /// Appends `value` in decimal, as `String(value)` writes it.
  mutating func append(_ value: Int64) {
    // The magnitude as UInt64, so that Int64.min needs no special case.
    var magnitude = value.magnitude
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    var digits = 1
    var rest = magnitude / 10
    while rest > 0 {
      digits += 1
      rest /= 10
    }
    // Room for the digits, filled from the last one back.
    bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
    var index = bytes.count - 1
    repeat {
      bytes[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
      magnitude /= 10
      index -= 1
    } while magnitude > 0
  }

  /// Appends `value` in decimal, as `String(value)` writes it.
  mutating func append(_ value: Int) {
    append(Int64(value))
  }

  /// Appends `value` as `"\(value)"` writes it: the shortest text that reads back the same,
  /// as `description` (which differs only for a negative NaN, `nan` there and `-nan` here).
  mutating func append(_ value: Double) {
    value.write(to: &self)
  }

  /// Appends `string` (``TextOutputStream``, through which `Double` writes itself).
  mutating func write(_ string: String) {
    append(string)
  }

  /// Removes the spaces that end the text written since `start` (one line), as
  /// `TextTable.trimmingTrailingSpaces` removes trailing " " characters.
  ///
  /// Byte by byte unless the last byte kept is part of a non-ASCII character: a space can form
  /// one grapheme cluster only with a non-ASCII scalar before it (a prepended mark), and then
  /// the line is trimmed as a `String`, character by character.
  mutating func trimTrailingSpaces(from start: Int) {
    var end = bytes.count
    while end > start, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
    guard end < bytes.count else { return }
    if end > start && bytes[end - 1] >= 0x80 {
      let line = String(decoding: bytes[start...], as: UTF8.self)
      bytes.removeSubrange(start...)
      append(TextTable.trimmingTrailingSpaces(line))
    } else {
      bytes.removeSubrange(end...)
    }
  }

  /// Empties the buffer, keeping its capacity.
  mutating func removeAll() {
    bytes.removeAll(keepingCapacity: true)
  }

  /// The text as a `String`.
  var text: String { String(decoding: bytes, as: UTF8.self) }
}

extension String {
  /// Calls `body` with the string's UTF-8 bytes: its own contiguous storage when it has it
  /// (native strings always do), without the copy that `withUTF8` on a `var` would make.
  func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
    if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
    var copy = self
    return copy.withUTF8(body)
  }
}
