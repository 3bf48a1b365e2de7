import Foundation
import Testing

@testable import CaseStore

/// A page's cursor (``SuspectPosition/cursor``), written by hand: URL-safe base64 of JSON that
/// `init(cursor:)` reads back as the same position, whatever the keys hold.
@Suite struct SuspectPositionTests {
  static let keys = [
    "", "catie", "rénard", "quote \" and back\\slash", "tab\tnew\nline\u{1}", "slash/🦊",
  ]

  @Test(arguments: SuspectSort.allCases, [false, true])
  func everyCursorReadsBackAsItsPosition(sort: SuspectSort, reverse: Bool) throws {
    for (index, key) in Self.keys.enumerated() {
      for level in [0, 0.5, 1, 0.1 + 0.2, 1e-7] {
        let position = SuspectPosition(
          sort: sort, reverse: reverse, level: level, nameKey: key,
          speciesKey: Self.keys[(index + 1) % Self.keys.count], id: Int64(index) * 999_983 + 1,
          fruitKey: sort == .fruits && index > 0 ? Self.keys[index - 1] : nil,
          fruitID: sort == .fruits && index > 0 ? Int64(index) * 7 : nil)
        let cursor = position.cursor
        #expect(cursor.allSatisfy { $0.isLetter && $0.isASCII || $0.isNumber || "-_".contains($0) })
        #expect(SuspectPosition(cursor: cursor) == position, "\(cursor)")
      }
    }
  }

  @Test func aCursorIsURLSafeBase64OfTheSortedJSON() throws {
    let position = SuspectPosition(
      sort: .name, reverse: true, level: 0.5, nameKey: "a\"b", speciesKey: "cat", id: 42)
    var base64 = position.cursor.replacingOccurrences(of: "-", with: "+")
      .replacingOccurrences(of: "_", with: "/")
    #expect(!base64.contains("="))
    while base64.count % 4 != 0 { base64 += "=" }
    let json = String(decoding: try #require(Data(base64Encoded: base64)), as: UTF8.self)
    #expect(
      json
        == #"{"id":42,"level":0.5,"nameKey":"a\"b","reverse":true,"sort":"name","speciesKey":"cat"}"#
    )
    // A cursor JSONEncoder wrote (before this encoder) still reads.
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let old = try encoder.encode(position).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
    #expect(SuspectPosition(cursor: old) == position)
  }

  @Test func aFruitsCursorHoldsTheFirstFruitAsJSONEncoderWouldWriteIt() throws {
    let position = SuspectPosition(
      sort: .fruits, reverse: false, level: 0.25, nameKey: "nell", speciesKey: "newt", id: 13,
      fruitKey: "golden \"gem\" apple", fruitID: 1)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let encoded = try encoder.encode(position).base64EncodedString()
      .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
      .replacingOccurrences(of: "=", with: "")
    #expect(position.cursor == encoded)
    #expect(SuspectPosition(cursor: position.cursor) == position)
    // Without a first fruit (a suspect without favourites) the two keys are left out.
    var none = position
    none.fruitKey = nil
    none.fruitID = nil
    var base64 = none.cursor.replacingOccurrences(of: "-", with: "+")
      .replacingOccurrences(of: "_", with: "/")
    while base64.count % 4 != 0 { base64 += "=" }
    let json = String(decoding: try #require(Data(base64Encoded: base64)), as: UTF8.self)
    #expect(
      json
        == #"{"id":13,"level":0.25,"nameKey":"nell","reverse":false,"sort":"fruits","speciesKey":"newt"}"#
    )
  }
}
