import CaseStore
import Foundation
import HTTPKit
import Testing

@testable import InspectorCLI

/// `GET /api/suspects` streamed as it is read (docs/web-desk.md "API"): the same bytes as the
/// page read whole, in several chunks, all from one read transaction.
@Suite struct DeskSuspectStreamTests {
  typealias Desk = DeskReadAPITests.Desk

  /// The page `filter` selects after `position`, read whole, as the API's body.
  func wholePage(_ desk: Desk, _ filter: SuspectFilter, after position: SuspectPosition? = nil)
    throws -> [UInt8]
  {
    let page = try desk.pool.read { try $0.suspects.page(matching: filter, after: position) }
    return DeskAPI.suspectPage(page.suspects, next: page.next).body.drained()
  }

  /// A filter of `sort`, `reverse` and `limit`.
  func filter(_ sort: SuspectSort, reverse: Bool = false, limit: Int) -> SuspectFilter {
    var filter = SuspectFilter()
    filter.sort = sort
    filter.reverse = reverse
    filter.limit = limit
    return filter
  }

  @Test(arguments: [1, 3, 25])
  func aStreamedPageIsThePageReadWholeByteForByte(batchSize: Int) throws {
    let desk = try Desk()
    var noMatch = filter(.name, limit: 5)
    noMatch.species = "dragon"
    let firstByLevel = try desk.pool.read {
      try $0.suspects.page(matching: filter(.level, reverse: true, limit: 4), after: nil)
    }
    let cases: [(SuspectFilter, SuspectPosition?)] = [
      (filter(.id, limit: 10), nil),
      (filter(.name, limit: 3), nil),
      (filter(.species, reverse: true, limit: 50), nil),
      (filter(.level, reverse: true, limit: 4), firstByLevel.next),
      (noMatch, nil),
    ]
    #expect(firstByLevel.next != nil)
    for (filter, position) in cases {
      let stream = try DeskSuspectPageStream(
        pool: desk.pool, filter: filter, after: position, batchSize: batchSize)
      let streamed = HTTPBody.stream(stream).drained()
      #expect(
        String(decoding: streamed, as: UTF8.self)
          == String(decoding: try wholePage(desk, filter, after: position), as: UTF8.self))
    }
    // The seed's ten suspects by id, three a chunk: 3, 3, 3, then the last with the end.
    let chunks = HTTPBody.stream(
      try DeskSuspectPageStream(
        pool: desk.pool, filter: filter(.id, limit: 12), after: nil,
        batchSize: 3)
    ).chunks().map { String(decoding: $0, as: UTF8.self) }
    #expect(chunks.count == 4)
    #expect(chunks.first?.hasPrefix("{\"suspects\":[{\"id\":1,") == true)
    #expect(chunks.last?.hasPrefix(",{\"id\":10,") == true)
    #expect(chunks.last?.hasSuffix("}],\"next\":null}\n") == true)
  }

  @Test func theAPIStreamsTheLiveCaseAndReadsAPastOneWhole() throws {
    let desk = try Desk()
    let now = desk.api.respond(
      to: HTTPRequest(method: "GET", path: "/api/suspects"), investigator: nil)
    guard case .stream = now.body else {
      Issue.record("the live page is not streamed")
      return
    }
    #expect(now.status == 200)
    #expect(now.header("Content-Type") == "application/json; charset=utf-8")
    #expect(now.body.drained() == (try wholePage(desk, filter(.id, limit: 50))))
    let then = desk.api.respond(
      to: HTTPRequest(method: "GET", path: "/api/suspects", query: [HTTPField("as_of", "1")]),
      investigator: nil)
    guard case .bytes = then.body else {
      Issue.record("a past page is streamed")
      return
    }
  }

  @Test func aStreamedPageIsOneSnapshotWhateverIsCommittedMeanwhile() throws {
    let desk = try Desk()
    let stream = try DeskSuspectPageStream(
      pool: desk.pool, filter: filter(.id, limit: 10), after: nil, batchSize: 2)
    let first = try #require(stream.next())
    #expect(String(decoding: first, as: UTF8.self).hasPrefix("{\"suspects\":[{\"id\":1,"))
    // Another client changes the page's last suspect while the page is being sent.
    let last = try #require(try desk.pool.read { try $0.suspects.suspect(id: 10) })
    desk.cli.succeed("alibi", last.name, "Arrived after the page began.")
    var rest: [UInt8] = []
    while let chunk = stream.next() { rest += chunk }
    stream.close()
    let page = try jsonObject(String(decoding: first + rest, as: UTF8.self))
    let suspects = try #require(page["suspects"] as? [[String: Any]])
    #expect(suspects.count == 10)
    #expect(suspects.last?["id"] as? Int == 10)
    #expect(suspects.last?["alibi"] as? String == last.alibi)
    #expect(last.alibi != "Arrived after the page began.")
    // The next page read sees the change.
    let again = try jsonObject(desk.get("/api/suspects").body)
    let now = try #require((again["suspects"] as? [[String: Any]])?.last)
    #expect(now["alibi"] as? String == "Arrived after the page began.")
  }

  @Test func aStreamEndedEarlyGivesItsReadConnectionBack() throws {
    let cli = try CLITestCase(seeded: true)
    let pool = try CaseDatabasePool(path: cli.databasePath, readOnly: true, readers: 1)
    let stream = try DeskSuspectPageStream(
      pool: pool, filter: filter(.id, limit: 10), after: nil, batchSize: 2)
    _ = stream.next()
    // The client went away: the server closes the stream; the one connection is free again.
    stream.close()
    let read = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      if (try? pool.read { try $0.suspects.suspect(id: 1) }) != nil { read.signal() }
    }
    #expect(read.wait(timeout: .now() + 5) == .success)
    #expect(stream.next() == nil)
  }

  @Test func anUnknownFruitIsRefusedBeforeTheFirstByte() throws {
    let desk = try Desk()
    let response = desk.api.respond(
      to: HTTPRequest(method: "GET", path: "/api/suspects", query: [HTTPField("fruit", "Durian")]),
      investigator: nil)
    #expect(response.status == 400)
    guard case .bytes(let bytes) = response.body else {
      Issue.record("a refusal is streamed")
      return
    }
    let error = try jsonObject(String(decoding: bytes, as: UTF8.self))["error"] as? [String: Any]
    #expect(error?["kind"] as? String == "usage")
    #expect((error?["message"] as? String)?.contains("Durian") == true)
  }
}
