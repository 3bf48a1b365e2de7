import Testing

@testable import InspectorCLI

@Suite("CSV writer")
struct CSVWriterTests {
  @Test(
    "fields are quoted only when RFC 4180 requires it (or on edge spaces and empty text)",
    arguments: [
      ("Catie", "Catie"),
      ("Rénard", "Rénard"),
      ("🐦‍⬛", "🐦‍⬛"),
      ("Golden Gem Apple", "Golden Gem Apple"),
      ("37.334371,-122.009558", "\"37.334371,-122.009558\""),
      ("he said \"hi\", then left\n", "\"he said \"\"hi\"\", then left\n\""),
      ("\"", "\"\"\"\""),
      ("a\rb", "\"a\rb\""),
      ("a\r\nb", "\"a\r\nb\""),
      (" padded", "\" padded\""),
      ("padded ", "\"padded \""),
      ("", "\"\""),
    ])
  func fieldEscaping(value: String, expected: String) {
    #expect(CSVWriter.field(value) == expected)
  }

  @Test("nil (an absent value) is an empty unquoted field, unlike empty text")
  func nilField() {
    #expect(CSVWriter.field(nil) == "")
    #expect(CSVWriter.record([nil, "", "x"]) == ",\"\",x\r\n")
  }

  @Test("a document is the header record then one record per row, each ending in CRLF")
  func document() {
    var csv = CSVWriter(header: ["name", "species", "alibi"])
    csv.append(["Catie", "Crow", "he said \"hi\", then left\n"])
    csv.append(["Ding", "Dove", nil] as [String?])
    #expect(
      csv.text
        == "name,species,alibi\r\nCatie,Crow,\"he said \"\"hi\"\", then left\n\"\r\nDing,Dove,\r\n")
  }

  @Test("document(header:rows:) matches building it record by record")
  func documentHelper() {
    let text = CSVWriter.document(header: ["id", "name"], rows: [["1", "Golden Gem Apple"]])
    #expect(text == "id,name\r\n1,Golden Gem Apple\r\n")
    #expect(CSVWriter.document(header: ["id"], rows: []) == "id\r\n")
  }
}
