import CaseStore
import Foundation
import HTTPKit
import SQLiteKit
import Synchronization
import Testing

@testable import InspectorCLI

/// The desk's read API (docs/web-desk.md "API"), called as the server calls it
/// (`DeskAPI.respond(to:investigator:)`) on a seeded case file: every answer is the command
/// line's `--json` records, byte for byte (`--format ndjson` lines, in one array).
@Suite struct DeskReadAPITests {
  // MARK: - Helpers

  /// A seeded case and a desk API over a pool on it.
  struct Desk {
    let cli: CLITestCase
    let pool: CaseDatabasePool
    let api: DeskAPI

    init() throws {
      cli = try CLITestCase(seeded: true)
      pool = try CaseDatabasePool(path: cli.databasePath, readOnly: false)
      api = DeskAPI(pool: pool, readOnly: false)
    }

    /// `GET path?query` as (status, body text).
    func get(_ path: String, _ query: [(String, String)] = []) -> (status: Int, body: String) {
      let response = api.respond(
        to: HTTPRequest(method: "GET", path: path, query: query.map { HTTPField($0.0, $0.1) }),
        investigator: nil)
      if path == "/api/events" { return (response.status, "<stream>") }
      return (response.status, String(decoding: response.body.drained(), as: UTF8.self))
    }

    /// A command's `--format ndjson` lines as the one compact array the API answers with.
    func ndjsonArray(_ arguments: String...) -> String {
      let output = cli.run(arguments + ["--format", "ndjson"]).standardOutput
      return "[" + lines(output).joined(separator: ",") + "]\n"
    }

    /// `/api/suspects`'s page: the records' names and the next cursor.
    func page(_ query: [(String, String)]) throws -> (names: [String], next: String?) {
      let answer = get("/api/suspects", query)
      #expect(answer.status == 200, "\(answer.body)")
      let object = try jsonObject(answer.body)
      let suspects = object["suspects"] as? [[String: Any]] ?? []
      return (suspects.compactMap { $0["name"] as? String }, object["next"] as? String)
    }

    /// The JSON error of an answer: status, kind and message.
    func error(_ path: String, _ query: [(String, String)] = []) throws -> (Int, String, String) {
      let answer = get(path, query)
      let error = try jsonObject(answer.body)["error"] as? [String: Any] ?? [:]
      return (answer.status, error["kind"] as? String ?? "", error["message"] as? String ?? "")
    }
  }

  // MARK: - Suspects

  @Test func theFirstPageByNameAndTheCursorsPagesAfterIt() throws {
    let desk = try Desk()
    let first = try desk.page([("sort", "name"), ("limit", "3")])
    #expect(first.names == ["Catie", "Cornelius", "Ding"])
    let cursor = try #require(first.next)
    let second = try desk.page([("sort", "name"), ("limit", "3"), ("after", cursor)])
    #expect(second.names == ["Fabrizio", "Haku", "Maria"])
    let rest = try desk.page([
      ("sort", "name"), ("limit", "5"), ("after", try #require(second.next)),
    ])
    #expect(rest.names == ["Miko", "Rénard", "Ricardo", "Soloman"])
    #expect(rest.next == nil)
  }

  @Test func aWholeListingIsTheRecordsListPrintsByteForByte() throws {
    let desk = try Desk()
    let answer = desk.get("/api/suspects", [("limit", "500")])
    let records = lines(desk.cli.succeed("list", "--format", "ndjson"))
    #expect(answer.status == 200)
    #expect(
      answer.body == "{\"suspects\":[" + records.joined(separator: ",") + "],\"next\":null}\n")
    // Without a limit: 50 a page, the seed's 10 on the first.
    #expect(try desk.page([]).names.count == 10)
  }

  /// Every order, both ways, paged 3 at a time with the cursor, lists what `list --sort`
  /// lists; the levels tie, so the level order's later keys decide.
  @Test(arguments: ["id", "name", "species", "level"], [false, true])
  func pagingThroughEveryOrderListsWhatListLists(sort: String, reverse: Bool) throws {
    let desk = try Desk()
    for (suspect, level) in [
      ("crow", "0.5"), ("dove", "0.5"), ("duck", "0.9"), ("fish", "0.5"), ("snail", "0.2"),
    ] {
      desk.cli.succeed("suspect", suspect, level)
    }
    var names: [String] = []
    var after: String?
    var pages = 0
    repeat {
      var query = [("sort", sort), ("order", reverse ? "desc" : "asc"), ("limit", "3")]
      if let after { query.append(("after", after)) }
      let page = try desk.page(query)
      names += page.names
      after = page.next
      pages += 1
    } while after != nil && pages < 10
    let listed = try jsonArray(
      desk.cli.run(["list", "--sort", sort, "--json"] + (reverse ? ["--reverse"] : []))
        .standardOutput)
    #expect(names == listed.compactMap { $0["name"] as? String })
    #expect(names.count == 10)
    if sort == "level" && !reverse {
      #expect(names.prefix(4) == ["Cornelius", "Catie", "Ding", "Fabrizio"])
    }
  }

  /// `sort=fruits`, both ways, 3 a page: the seed by first favourite fruit, then the badger
  /// without favourites (first when reversed), as `list --sort fruits` lists them.
  @Test(arguments: [false, true])
  func theFruitsOrderPagesAcrossSuspectsWithoutFavourites(reverse: Bool) throws {
    let desk = try Desk()
    desk.cli.succeed("animal", "add", "--name", "Pip", "--species", "Badger", "--paw", "medium")
    var names: [String] = []
    var after: String?
    var pages = 0
    repeat {
      var query = [("sort", "fruits"), ("order", reverse ? "desc" : "asc"), ("limit", "3")]
      if let after { query.append(("after", after)) }
      let page = try desk.page(query)
      names += page.names
      after = page.next
      pages += 1
    } while after != nil && pages < 10
    let ascending = [
      "Miko", "Rénard", "Ding", "Haku", "Soloman", "Cornelius", "Ricardo", "Catie", "Fabrizio",
      "Maria", "Pip",
    ]
    #expect(names == (reverse ? Array(ascending.reversed()) : ascending))
    let listed = try jsonArray(
      desk.cli.run(["list", "--sort", "fruits", "--json"] + (reverse ? ["--reverse"] : []))
        .standardOutput)
    #expect(names == listed.compactMap { $0["name"] as? String })
  }

  @Test func theFiltersAreListsFilters() throws {
    let desk = try Desk()
    #expect(
      desk.get("/api/suspects", [("paw_size", "small")]).body
        == "{\"suspects\":" + desk.ndjsonArray("list", "--paw", "small").dropLast()
        + ",\"next\":null}\n")
    #expect(try desk.page([("fruit", "elstar apple")]).names == ["Fabrizio", "Soloman"])
    #expect(try desk.page([("species", "CROW")]).names == ["Catie"])
    #expect(try desk.page([("name", "renard")]).names == ["Rénard"])
    desk.cli.succeed("suspect", "duck", "0.9")
    desk.cli.succeed("suspect", "crow", "0.4")
    #expect(try desk.page([("level_min", "0.4"), ("level_max", "0.8")]).names == ["Catie"])
    #expect(try desk.page([("level_min", "0.5"), ("sort", "level")]).names == ["Cornelius"])
  }

  @Test func oneSuspectIsWhatShowPrints() throws {
    let desk = try Desk()
    let answer = desk.get("/api/suspects/10")
    #expect(answer.status == 200)
    #expect(answer.body == desk.cli.succeed("show", "id:10", "--format", "ndjson"))
    #expect(answer.body.contains("\"name\":\"Rénard\""))
    let response = desk.api.respond(
      to: HTTPRequest(method: "GET", path: "/api/suspects/10"), investigator: nil)
    #expect(response.header("Content-Type") == "application/json; charset=utf-8")
  }

  // MARK: - Fruits, incidents, the ranking, search, history

  @Test func fruitsAreWhatFruitListPrints() throws {
    let desk = try Desk()
    let answer = desk.get("/api/fruits")
    #expect(answer.status == 200)
    #expect(answer.body == desk.ndjsonArray("fruit", "list"))
    #expect(try jsonArray(answer.body).first?["name"] as? String == "Golden Gem Apple")
  }

  @Test func incidentsComeNewestFirstAndOneByItsId() throws {
    let desk = try Desk()
    desk.cli.succeed("incident", "add", "--fruit", "Elstar Apple", "--at", "2099-01-01T08:00")
    let answer = desk.get("/api/incidents")
    #expect(answer.status == 200)
    #expect(try jsonArray(answer.body).compactMap { $0["id"] as? Int } == [2, 1])
    let listed = lines(desk.cli.succeed("incident", "list", "--format", "ndjson"))
    #expect(answer.body == "[" + listed.reversed().joined(separator: ",") + "]\n")
    let one = desk.get("/api/incidents/1")
    #expect(one.status == 200)
    #expect(one.body == listed[0] + "\n")
    #expect(try jsonObject(one.body)["fruit"] as? String == "Pink Pearl Apple")
  }

  @Test func theRankingIsWhatRankPrintsWithItsClues() throws {
    let desk = try Desk()
    let answer = desk.get("/api/incidents/1/ranking", [("limit", "5")])
    #expect(answer.status == 200)
    #expect(answer.body == desk.ndjsonArray("rank", "--incident", "1", "--limit", "5"))
    let rows = try jsonArray(answer.body)
    #expect(
      rows.compactMap { $0["name"] as? String } == [
        "Catie", "Ding", "Cornelius", "Fabrizio", "Haku",
      ])
    #expect((rows.first?["clues"] as? [String: Bool])?.isEmpty == false)
    // 10 rows without a limit.
    #expect(try jsonArray(desk.get("/api/incidents/1/ranking").body).count == 10)
  }

  @Test func searchGivesTheHitsWithTheirMarkedWords() throws {
    let desk = try Desk()
    let answer = desk.get("/api/search", [("q", "seeds")])
    #expect(answer.status == 200)
    #expect(answer.body == desk.ndjsonArray("search", "seeds"))
    #expect(
      try jsonArray(answer.body).first?["snippet"] as? String
        == "The nibbler left only a few [seeds] behind.")
  }

  @Test func historyIsWhatHistoryPrintsForTheSuspect() throws {
    let desk = try Desk()
    desk.cli.succeed("suspect", "raccoon", "0.6", "--as", "holmes")
    desk.cli.succeed("alibi", "raccoon", "Washing grapes.", "--as", "watson")
    let answer = desk.get("/api/history", [("suspect", "10"), ("limit", "2")])
    #expect(answer.status == 200)
    #expect(answer.body == desk.ndjsonArray("history", "id:10", "--limit", "2"))
    #expect(
      try jsonArray(answer.body).compactMap { $0["actor"] as? String } == ["watson", "holmes"])
    // The whole history, newest first, as history prints it.
    #expect(desk.get("/api/history", [("limit", "500")]).body == desk.ndjsonArray("history"))
  }

  // MARK: - As of

  @Test func asOfShowsTheCaseAsListAsOfDoes() throws {
    let desk = try Desk()
    desk.cli.succeed("suspect", "raccoon", "0.6")
    desk.cli.succeed("alibi", "crow", "Counting shiny things.")
    let now = desk.get("/api/suspects/10")
    #expect(try jsonObject(now.body)["suspicion_level"] as? Double == 0.6)
    let then = desk.get("/api/suspects", [("as_of", "1"), ("limit", "500")])
    #expect(then.status == 200)
    #expect(
      then.body == "{\"suspects\":" + desk.ndjsonArray("list", "--as-of", "1").dropLast()
        + ",\"next\":null}\n")
    #expect(
      try jsonObject(desk.get("/api/suspects/10", [("as_of", "1")]).body)["suspicion_level"]
        as? Double == 0.0)
    // The history as of change set 2 holds change sets 1 and 2 only.
    #expect(
      try jsonArray(desk.get("/api/history", [("as_of", "2")]).body).compactMap { $0["id"] as? Int }
        == [2, 1])
  }

  // MARK: - Refusals

  @Test(
    arguments: [
      ("/api/suspects/99", [(String, String)]()), ("/api/suspects/abc", []),
      ("/api/incidents/7", []),
      ("/api/incidents/7/ranking", []), ("/api/suspects", [("as_of", "999")]),
    ] as [(String, [(String, String)])])
  func anUnknownRecordIsNotFound(path: String, query: [(String, String)]) throws {
    let (status, kind, message) = try Desk().error(path, query)
    #expect(status == 404)
    #expect(kind == "not_found")
    #expect(!message.isEmpty && !message.contains("\n"))
  }

  @Test(
    arguments: [
      (
        "/api/suspects", [("limit", "0")],
        "The value '0' is invalid for 'limit' (a whole number from 1 to 500)"
      ),
      (
        "/api/suspects", [("limit", "501")],
        "The value '501' is invalid for 'limit' (a whole number from 1 to 500)"
      ),
      (
        "/api/suspects", [("sort", "paw")],
        "The value 'paw' is invalid for 'sort' (one of level, name, species, id, fruits)"
      ),
      (
        "/api/suspects", [("order", "up")],
        "The value 'up' is invalid for 'order' (one of asc, desc)"
      ),
      (
        "/api/suspects", [("paw_size", "huge")],
        "The value 'huge' is invalid for 'paw_size' (one of small, medium, large)"
      ),
      (
        "/api/suspects", [("after", "not-a-cursor")],
        "The value 'not-a-cursor' is invalid for 'after' (a cursor)"
      ),
      ("/api/suspects", [("level_min", "2")], "level"),
      ("/api/suspects", [("fruit", "Durian")], "Durian"),
      ("/api/suspects", [("as_of", "")], "as_of"),
      (
        "/api/incidents/1/ranking", [("limit", "x")],
        "The value 'x' is invalid for 'limit' (a whole number from 1 to 500)"
      ),
      ("/api/search", [], "Missing expected value for 'q' (the words to find)"),
      (
        "/api/history", [("suspect", "crow")],
        "The value 'crow' is invalid for 'suspect' (a suspect's id, 1 or more)"
      ),
    ] as [(String, [(String, String)], String)])
  func aBadQueryValueIsAUsageError(path: String, query: [(String, String)], message: String) throws
  {
    let (status, kind, text) = try Desk().error(path, query)
    #expect(status == 400)
    #expect(kind == "usage")
    #expect(text.contains(message), "\(text)")
  }

  @Test func aCursorOfAnotherOrderIsRefused() throws {
    let desk = try Desk()
    let cursor = try #require(try desk.page([("sort", "name"), ("limit", "2")]).next)
    let (status, kind, message) = try desk.error(
      "/api/suspects", [("sort", "id"), ("after", cursor)])
    #expect(status == 400)
    #expect(kind == "usage")
    #expect(message.contains("another sort or order"))
  }

  // MARK: - Live changes

  @Test func theEventStreamSendsAChangeAfterAnotherConnectionWrites() throws {
    let desk = try Desk()
    let stream = try DeskEventStream(pool: desk.pool, pollInterval: 0.02, heartbeatInterval: 60)
    #expect(
      stream.next().map { String(decoding: $0, as: UTF8.self) } == "retry: 1000\n: connected\n\n")
    let event = Mutex<String?>(nil)
    let received = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      let chunk = stream.next().map { String(decoding: $0, as: UTF8.self) }
      event.withLock { $0 = chunk }
      received.signal()
    }
    // Nothing changed yet: no event.
    #expect(received.wait(timeout: .now() + 0.2) == .timedOut)
    let other = try Connection(path: desk.cli.databasePath, mode: .readWrite)
    try other.execute("UPDATE animals SET paw_size = 'large' WHERE id = 4")
    #expect(received.wait(timeout: .now() + 5) == .success)
    let text = try #require(event.withLock { $0 })
    #expect(text.hasPrefix("event: change\ndata: {\"data_version\":"))
    #expect(text.hasSuffix("}\n\n"))
    stream.close()
    #expect(stream.next() == nil)
  }

  @Test func theEventStreamBeatsWhenNothingChangesAndEndsWhenClosed() throws {
    let desk = try Desk()
    let stream = try DeskEventStream(pool: desk.pool, pollInterval: 0.02, heartbeatInterval: 0.1)
    _ = stream.next()
    #expect(stream.next().map { String(decoding: $0, as: UTF8.self) } == ": heartbeat\n\n")
    let ended = DispatchSemaphore(value: 0)
    let slow = try DeskEventStream(pool: desk.pool, pollInterval: 0.02, heartbeatInterval: 60)
    _ = slow.next()
    Thread.detachNewThread {
      if slow.next() == nil { ended.signal() }
    }
    slow.close()
    #expect(ended.wait(timeout: .now() + 2) == .success)
    let response = desk.api.respond(
      to: HTTPRequest(method: "GET", path: "/api/events"), investigator: nil)
    #expect(response.status == 200)
    #expect(response.header("Content-Type") == "text/event-stream; charset=utf-8")
    if case .stream(let body) = response.body { body.close() } else { Issue.record("not a stream") }
  }
}

extension HTTPBody {
  /// The whole body: the bytes, or every chunk of the stream until its end (then closed).
  /// Never for an event stream, which does not end.
  func drained() -> [UInt8] {
    chunks().flatMap { $0 }
  }

  /// The body's chunks: one for bytes, the stream's until its end (then closed).
  func chunks() -> [[UInt8]] {
    switch self {
    case .bytes(let bytes): return [bytes]
    case .stream(let stream):
      defer { stream.close() }
      var chunks: [[UInt8]] = []
      while let chunk = stream.next() { chunks.append(chunk) }
      return chunks
    }
  }
}
