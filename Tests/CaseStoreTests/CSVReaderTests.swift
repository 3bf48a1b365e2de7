import Testing

@testable import CaseStore

/// The RFC 4180 reader behind `inspector import` of CSV.
struct CSVReaderTests {
  @Test(arguments: [
    ("a,b\r\n1,2\r\n", [[1: ["a", "b"]], [2: ["1", "2"]]]),
    ("a,b\n1,2", [[1: ["a", "b"]], [2: ["1", "2"]]]),
    ("a\n\"x\ny\"\nz\n", [[1: ["a"]], [2: ["x\ny"]], [4: ["z"]]]),
    ("a,b\n\"he said \"\"hi\"\"\",\n", [[1: ["a", "b"]], [2: ["he said \"hi\"", ""]]]),
    ("a\n\n\nb\n", [[1: ["a"]], [4: ["b"]]]),
    ("a,b\r\n\"\",\"x,y\"\r\n", [[1: ["a", "b"]], [2: ["", "x,y"]]]),
    ("n\u{0}ul,é\n", [[1: ["n\u{0}ul", "é"]]]),
  ])
  func readsRecordsWithTheirLines(text: String, expected: [[Int: [String]]]) throws {
    let records = try CSVReader.records(text)
    #expect(records.map { [$0.line: $0.fields] } == expected)
  }

  @Test(arguments: [("a\n\"open\n", "line 2"), ("a\n\"x\"y\n", "line 2")])
  func refusesBrokenQuotes(text: String, record: String) {
    #expect {
      try CSVReader.records(text)
    } throws: { error in
      guard case CaseError.invalidRecord(let at, _, _) = error else { return false }
      return at == record
    }
  }

  @Test func refusesInputThatIsNotUTF8AndDropsTheByteOrderMark() throws {
    #expect(try CaseTransfer.text(from: [0xEF, 0xBB, 0xBF, 0x61]) == "a")
    #expect {
      try CaseTransfer.text(from: [0x61, 0xFF])
    } throws: { error in
      (error as? CaseError)?.description.contains("byte offset 1") == true
    }
  }
}
