/// Reads CSV text as RFC 4180 describes it, record by record, each with the line it starts on.
///
/// Fields are separated by commas; a field may be quoted with `"`, and then holds commas,
/// line breaks and doubled quotes (`""` is one `"`). Records end with CRLF, LF or a lone CR;
/// the last may end without one. Lines that hold nothing at all are skipped, so a trailing
/// blank line is no record. A UTF-8 byte order mark must be removed before (see
/// ``CaseTransfer/text(from:)``).
///
/// ```swift
/// let records = try CSVReader.records("name,color\r\n\"Big, red\",red\r\n")
/// // [(line: 1, fields: ["name", "color"]), (line: 2, fields: ["Big, red", "red"])]
/// ```
enum CSVReader {
  /// One record: the line it starts on (1-based) and its fields.
  struct Record: Equatable {
    /// The line the record starts on, counting every line break, those inside quoted fields too.
    let line: Int
    /// The fields, unquoted.
    let fields: [String]
  }

  /// Splits `text` into records.
  ///
  /// - Throws: ``CaseError/invalidRecord(record:field:problem:)`` for a quote that is never
  ///   closed, or text right after a closing quote.
  static func records(_ text: String) throws -> [Record] {
    let bytes = Array(text.utf8)
    var records: [Record] = []
    var fields: [String] = []
    var field: [UInt8] = []
    var line = 1
    var recordLine = 1
    var index = 0
    var recordHasContent = false
    let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), cr: UInt8 = 0x0D, lf: UInt8 = 0x0A

    func endField() {
      fields.append(String(decoding: field, as: UTF8.self))
      field.removeAll(keepingCapacity: true)
    }
    func endRecord() {
      if recordHasContent {
        endField()
        records.append(Record(line: recordLine, fields: fields))
      }
      fields.removeAll(keepingCapacity: true)
      field.removeAll(keepingCapacity: true)
      recordHasContent = false
    }

    while index < bytes.count {
      let byte = bytes[index]
      if !recordHasContent { recordLine = line }
      if byte == quote && field.isEmpty
        && (index == 0 || !recordHasContent || bytes[index - 1] == comma)
      {
        // A quoted field: up to the closing quote.
        recordHasContent = true
        let fieldLine = line
        index += 1
        var closed = false
        while index < bytes.count {
          let inner = bytes[index]
          if inner == quote {
            if index + 1 < bytes.count && bytes[index + 1] == quote {
              field.append(quote)
              index += 2
              continue
            }
            closed = true
            index += 1
            break
          }
          if inner == lf || (inner == cr && (index + 1 == bytes.count || bytes[index + 1] != lf)) {
            line += 1
          }
          field.append(inner)
          index += 1
        }
        guard closed else {
          throw CaseError.invalidRecord(
            record: "line \(fieldLine)", field: "(field \(fields.count + 1))",
            problem: "a quoted field is never closed")
        }
        if index < bytes.count && bytes[index] != comma && bytes[index] != cr
          && bytes[index] != lf
        {
          throw CaseError.invalidRecord(
            record: "line \(line)", field: "(field \(fields.count + 1))",
            problem: "text after the closing quote of a quoted field")
        }
        continue
      }
      switch byte {
      case comma:
        recordHasContent = true
        endField()
      case cr, lf:
        if byte == cr && index + 1 < bytes.count && bytes[index + 1] == lf { index += 1 }
        endRecord()
        line += 1
      default:
        recordHasContent = true
        field.append(byte)
      }
      index += 1
    }
    endRecord()
    return records
  }
}
