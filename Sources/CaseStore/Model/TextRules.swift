/// What text the case file accepts in names and free-text fields (docs/schema.md "Text rules").
///
/// Terminal control characters (C0 and C1 controls such as ESC, and the bidirectional
/// embedding, override and isolate characters U+202A-U+202E, U+2066-U+2069) would let a stored
/// value repaint or reorder an investigator's screen, so they are refused in every field typed
/// through inspector; free text (alibis, notes) may still hold tabs and line breaks. A name,
/// species or fruit name must also show something: not only white space, and not only
/// invisible characters (``isInvisible(_:)``). NUL is the one control character an import
/// takes, as rows other clients wrote may hold it.
///
/// The same rules hold for every client: typed values and imports are refused
/// (``problem(_:in:)``), the schema's triggers (migration 0009) refuse what SQL can see, and
/// `inspector check` reports every stored value that breaks them, as `export` does before it
/// writes anything. Rows written by other tools are shown with control characters replaced.
public enum TextRules {
  /// The kinds of text field, each with its own rules.
  public enum Field: Sendable {
    /// A suspect's name or species, or a fruit's name: not blank, not only invisible
    /// characters, at most 10,000 characters, no control characters but NUL.
    case name
    /// An alibi or an incident's notes: at most 100,000 characters, no control characters but
    /// tab, line feed, carriage return and NUL.
    case freeText
    /// An emoji: at most 64 characters, no control characters but NUL (not first).
    case emoji
  }

  /// What is wrong with a stored or imported value.
  public enum Problem: Equatable, Sendable {
    /// Empty or only white space (before any NUL, where SQL's `trim()` and `length()` stop).
    case blank
    /// Only invisible characters (``isInvisible(_:)``) before any NUL.
    case invisible
    /// Longer than the field allows, in Unicode scalars as SQLite's `length()` counts them.
    case tooLong(limit: Int)
    /// A control character the field does not take (the first one).
    case controlCharacter(Unicode.Scalar)

    /// What the value should have been, for ``CaseError/invalidValue(field:value:expected:)``.
    func expected(field: String, kind: Field) -> String {
      switch self {
      case .blank: "a non-blank \(field)"
      case .invisible:
        "a \(field) with a visible character (not only zero-width, filler, blank or combining"
          + " characters)"
      case .tooLong(let limit): "at most \(grouped(limit)) characters"
      case .controlCharacter:
        kind == .freeText
          ? "text without terminal control characters (tabs and line breaks are fine)"
          : "text without control characters or line breaks"
      }
    }

    /// The problem in a few words, for `check` and `export`: `holds control character U+001B`.
    public var summary: String {
      switch self {
      case .blank: "is blank"
      case .invisible: "holds only invisible characters"
      case .tooLong(let limit): "is longer than \(grouped(limit)) characters"
      case .controlCharacter(let scalar): "holds control character \(codePoint(scalar))"
      }
    }
  }

  /// The first problem of `text` as a value of `field`, or `nil` when it keeps the rules:
  /// blank, then too long, then only invisible characters, then a control character.
  ///
  /// Linear in the length of `text`; printable ASCII (most text) needs no scalar decoding.
  public static func problem(_ text: String, in field: Field) -> Problem? {
    let limit = field == .name ? 10_000 : field == .freeText ? 100_000 : 64
    let printableASCII = text.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    if field == .name {
      let blank =
        printableASCII
        ? text.utf8.allSatisfy { $0 == 0x20 }
        : beforeNul(text).allSatisfy(\.properties.isWhitespace)
      if blank { return .blank }
    }
    // At most one scalar per UTF-8 byte: short text needs no count.
    if text.utf8.count > limit, text.unicodeScalars.count > limit { return .tooLong(limit: limit) }
    if printableASCII { return nil }
    if field == .name, beforeNul(text).allSatisfy(isInvisible) { return .invisible }
    if field == .emoji, text.unicodeScalars.first == "\0" { return .controlCharacter("\0") }
    for scalar in text.unicodeScalars where isControl(scalar) && scalar != "\0" {
      if field == .freeText && (scalar == "\t" || scalar == "\n" || scalar == "\r") { continue }
      return .controlCharacter(scalar)
    }
    return nil
  }

  /// `true` for a scalar that shows nothing on its own: Unicode white space, default-ignorable
  /// code points (zero-width space and joiners, word joiner, invisible operators, BOM, soft
  /// hyphen, the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, Mongolian vowel separator,
  /// variation selectors, tags), non-spacing and enclosing marks (combining characters without
  /// a base), the braille blank U+2800, and control characters.
  public static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
    let properties = scalar.properties
    if properties.isWhitespace || properties.isDefaultIgnorableCodePoint { return true }
    switch properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .control: return true
    default: return scalar == "\u{2800}"
    }
  }

  /// `10,000`.
  static func grouped(_ number: Int) -> String {
    number < 1000
      ? "\(number)" : grouped(number / 1000) + "," + String("\(number % 1000 + 1000)".dropFirst())
  }

  /// `U+001B`.
  public static func codePoint(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }

  /// `text` for a one-line report: control and invisible characters written as `\u{200B}`,
  /// cut to `limit` scalars with `…`.
  public static func escaped(_ text: String, limit: Int = 60) -> String {
    var result = ""
    for (index, scalar) in text.unicodeScalars.enumerated() {
      if index == limit {
        result += "…"
        break
      }
      if scalar == " " || !(isInvisible(scalar) || isControl(scalar)) {
        result.unicodeScalars.append(scalar)
      } else {
        result += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      }
    }
    return result
  }

  /// The scalars before the first NUL.
  private static func beforeNul(_ text: String) -> Substring.UnicodeScalarView {
    let scalars = Substring(text).unicodeScalars
    return scalars[..<(scalars.firstIndex(of: "\0") ?? scalars.endIndex)]
  }

  /// Throws unless `text` is free of terminal control characters.
  ///
  /// - Parameters:
  ///   - text: The value as typed.
  ///   - field: Its name, for the error.
  ///   - allowingLineBreaks: Free text: tab, line feed and carriage return are allowed.
  ///   - allowingNul: NUL is allowed (imports carry what other clients stored; it moves no
  ///     cursor and is shown as U+FFFD).
  /// - Throws: ``CaseError/invalidValue(field:value:expected:)``.
  static func requirePrintable(
    _ text: String, field: String, allowingLineBreaks: Bool, allowingNul: Bool = false
  ) throws {
    // Printable ASCII, the common case, needs no scalar decoding.
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return }
    for scalar in text.unicodeScalars where isControl(scalar) {
      if allowingLineBreaks && (scalar == "\t" || scalar == "\n" || scalar == "\r") { continue }
      if allowingNul && scalar == "\0" { continue }
      throw CaseError.invalidValue(
        field: field, value: text,
        expected: allowingLineBreaks
          ? "text without terminal control characters (tabs and line breaks are fine)"
          : "text without control characters or line breaks")
    }
  }

  /// `true` for C0 and C1 controls, DEL, and the bidirectional formatting controls.
  static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  /// `text` with control characters shown as U+FFFD, for display of rows written by other
  /// tools (line breaks kept when `keepingLineBreaks`).
  public static func displayable(_ text: String, keepingLineBreaks: Bool = true) -> String {
    if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text }
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      let keep = keepingLineBreaks && (scalar == "\n" || scalar == "\t")
      result.append(isControl(scalar) && !keep ? "\u{FFFD}" : scalar)
    }
    return String(result)
  }
}
