/// What text the case file accepts in names and free-text fields, beyond length and blankness.
///
/// Terminal control characters (C0 and C1 controls such as ESC, and the bidirectional
/// embedding, override and isolate characters U+202A-U+202E, U+2066-U+2069) would let a stored
/// value repaint or reorder an investigator's screen, so they are refused in every field typed
/// through inspector; free text (alibis, notes) may still hold tabs and line breaks. Rows written
/// by other tools are shown with such characters replaced.
public enum TextRules {
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
