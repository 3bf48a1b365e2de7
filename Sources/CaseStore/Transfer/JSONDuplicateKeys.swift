/// Finds the first object member whose key an earlier member of the same object already has.
///
/// JSON parsers keep one of two duplicate keys silently (Foundation's keeps the first), so an
/// import would store one value while the file says two. The scan is one pass over the UTF-8
/// bytes with a stack of the open containers (each object's keys so far, each array's index),
/// so it needs memory for the nesting and the keys of the open objects only, never the whole
/// document. Keys are compared after their escapes are decoded (`"a"` and `"\u0061"` are one
/// key) and as Swift strings compare them (canonically equivalent keys are one key), as the
/// decoded document would hold them.
enum JSONDuplicateKeys {
  /// One open container.
  private enum Container {
    /// An object: the keys so far, the current member's key, and whether a key comes next.
    case object(keys: Set<String>, current: String?, expectingKey: Bool)
    /// An array: the index of the current element.
    case array(index: Int)
  }

  /// The first duplicate key in `text`, which must be valid JSON: the path of the object that
  /// holds it (`$.suspects[2]`) and the key, or `nil` when every object's keys differ.
  static func first(in text: String) -> (path: String, key: String)? {
    var stack: [Container] = []
    var bytes = text.utf8.makeIterator()
    while let byte = bytes.next() {
      switch byte {
      case UInt8(ascii: "{"):
        stack.append(.object(keys: [], current: nil, expectingKey: true))
      case UInt8(ascii: "["):
        stack.append(.array(index: 0))
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        stack.removeLast()
      case UInt8(ascii: ","):
        switch stack.last {
        case .object(let keys, let current, _)?:
          stack[stack.count - 1] = .object(keys: keys, current: current, expectingKey: true)
        case .array(let index)?:
          stack[stack.count - 1] = .array(index: index + 1)
        case nil: break
        }
      case UInt8(ascii: "\""):
        guard case .object(var keys, _, true)? = stack.last else {
          skipString(&bytes)
          continue
        }
        let key = readString(&bytes)
        if keys.contains(key) { return (path(of: stack.dropLast()), key) }
        keys.insert(key)
        stack[stack.count - 1] = .object(keys: keys, current: key, expectingKey: false)
      default:
        continue
      }
    }
    return nil
  }

  /// `$.suspects[2]` for the containers from the root.
  private static func path(of containers: ArraySlice<Container>) -> String {
    var path = "$"
    for container in containers {
      switch container {
      case .object(_, let current, _): path += "." + (current ?? "")
      case .array(let index): path += "[\(index)]"
      }
    }
    return path
  }

  /// Reads past the rest of a string whose opening quote was read.
  private static func skipString(_ bytes: inout String.UTF8View.Iterator) {
    while let byte = bytes.next() {
      if byte == UInt8(ascii: "\\") {
        _ = bytes.next()
      } else if byte == UInt8(ascii: "\"") {
        return
      }
    }
  }

  /// The decoded rest of a string whose opening quote was read.
  private static func readString(_ bytes: inout String.UTF8View.Iterator) -> String {
    var raw: [UInt8] = []
    var units: [UInt16] = []
    var result = ""
    /// Appends the pending UTF-16 units of `\u` escapes (surrogate pairs joined).
    func flushUnits() {
      guard !units.isEmpty else { return }
      result += String(decoding: units, as: UTF16.self)
      units.removeAll()
    }
    func flushRaw() {
      guard !raw.isEmpty else { return }
      result += String(decoding: raw, as: UTF8.self)
      raw.removeAll()
    }
    while let byte = bytes.next() {
      if byte == UInt8(ascii: "\"") { break }
      guard byte == UInt8(ascii: "\\"), let escape = bytes.next() else {
        flushUnits()
        raw.append(byte)
        continue
      }
      if escape == UInt8(ascii: "u") {
        flushRaw()
        var value: UInt16 = 0
        for _ in 0..<4 {
          guard let digit = bytes.next(), let nibble = hexValue(digit) else { break }
          value = value << 4 | UInt16(nibble)
        }
        units.append(value)
        continue
      }
      flushUnits()
      switch escape {
      case UInt8(ascii: "b"): raw.append(0x08)
      case UInt8(ascii: "f"): raw.append(0x0C)
      case UInt8(ascii: "n"): raw.append(0x0A)
      case UInt8(ascii: "r"): raw.append(0x0D)
      case UInt8(ascii: "t"): raw.append(0x09)
      default: raw.append(escape)  // \" \\ \/
      }
    }
    flushUnits()
    flushRaw()
    return result
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
