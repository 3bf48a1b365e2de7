import CaseStore
import Foundation
import HTTPKit
import SQLiteKit
import Testing

@testable import InspectorCLI

/// The desk's write routes (docs/web-desk.md "API", "Errors"): `PATCH /api/suspects/{id}` and
/// `POST /api/undo` on a seeded case, called through ``DeskAPI/respond(to:investigator:)``, and
/// read back with the command line.
@Suite struct DeskWriteAPITests {
  /// A seeded case and the API over it.
  struct Desk {
    let session: CLITestCase
    let api: DeskAPI

    init(readOnly: Bool = false, busyTimeout: Int = 5000, writtenByAnotherClient sql: String? = nil)
      throws
    {
      session =
        try sql.map(CLITestCase.seeded(writtenByAnotherClient:)) ?? CLITestCase(seeded: true)
      api = DeskAPI(
        pool: try CaseDatabasePool(
          path: session.databasePath, readOnly: false, busyTimeout: busyTimeout),
        readOnly: readOnly)
    }

    /// The response to `method path` with `body`, on behalf of `investigator`.
    func send(
      _ method: String, _ path: String, _ body: String, investigator: String? = "ann"
    ) -> (status: Int, json: [String: Any], response: HTTPResponse) {
      let response = api.respond(
        to: HTTPRequest(method: method, path: path, body: Array(body.utf8)),
        investigator: investigator)
      guard case .bytes(let bytes) = response.body else { return (response.status, [:], response) }
      return (
        response.status, (try? jsonObject(String(decoding: bytes, as: UTF8.self))) ?? [:], response
      )
    }

    /// `PATCH /api/suspects/{id}` of one field.
    func patch(
      _ id: Int, _ field: String, expected: String, value: String, investigator: String? = "ann"
    ) -> (status: Int, json: [String: Any], response: HTTPResponse) {
      send(
        "PATCH", "/api/suspects/\(id)",
        #"{"field":"\#(field)","expected":\#(expected),"value":\#(value)}"#,
        investigator: investigator)
    }

    /// The change sets as `history --json` lists them.
    func history() throws -> [[String: Any]] {
      try jsonArray(session.succeed("history", "--json"))
    }
  }

  /// The `error` object of a JSON error.
  static func error(_ json: [String: Any]) -> [String: Any] {
    json["error"] as? [String: Any] ?? [:]
  }

  @Test func everyFieldIsStoredAsTheCommandLineShowsItWithTheInvestigatorAsActor() throws {
    let desk = try Desk()
    let edits: [(field: String, expected: String, value: String)] = [
      ("name", #""Rénard""#, #""Renardo""#),
      ("species", #""Raccoon""#, #""Procyon""#),
      ("emoji", #""🦝""#, #""🦊""#),
      ("paw_size", #""medium""#, #""large""#),
      (
        "favorite_fruits",
        #"["Belle De Boskoop Apple","Big Berry Manzanita","Christmas Berry","Kaki Fuyu Persimmon"]"#,
        #"["kaki fuyu persimmon","Pink Pearl Apple","Belle De Boskoop Apple"]"#
      ),
      ("alibi", #""""#, #""Washing grapes at the pond\nall night""#),
      ("sleep_schedule", "null", #"{"sleep":"23:00","wake":"07:15"}"#),
      ("suspicion_level", "0.0", "0.75"),
    ]
    for edit in edits {
      let answer = desk.patch(10, edit.field, expected: edit.expected, value: edit.value)
      #expect(answer.status == 200, "\(edit.field): \(answer.json)")
      // The answer is the record `show --json` prints afterwards.
      let shown = try desk.session.suspect("id:10")
      #expect(NSDictionary(dictionary: answer.json) == NSDictionary(dictionary: shown))
    }
    let suspect = try desk.session.suspect("id:10")
    #expect(suspect["name"] as? String == "Renardo")
    #expect(suspect["species"] as? String == "Procyon")
    #expect(suspect["emoji"] as? String == "🦊")
    #expect(suspect["paw_size"] as? String == "large")
    #expect(
      suspect["favorite_fruits"] as? [String]
        == ["Kaki Fuyu Persimmon", "Pink Pearl Apple", "Belle De Boskoop Apple"])
    #expect(suspect["alibi"] as? String == "Washing grapes at the pond\nall night")
    #expect(suspect["sleep_schedule"] as? [String: String] == ["sleep": "23:00", "wake": "07:15"])
    #expect(suspect["suspicion_level"] as? Double == 0.75)
    #expect(suspect["suspicion_label"] as? String == "Very suspicious")
    // One change set per edit, each by ann, after the seed's.
    let history = try desk.history()
    #expect(history.count == 1 + edits.count)
    let byAnn = history.filter { $0["actor"] as? String == "ann" }
    #expect(byAnn.count == edits.count)
    #expect(Set(byAnn.compactMap { $0["id"] as? Int }) == Set(2...9))
  }

  @Test func favouritesAreReorderedInOneChangeSet() throws {
    let desk = try Desk()
    // Fabrizio (id 1): Strawberry Tree, Big Berry Manzanita, Elstar Apple.
    let answer = desk.patch(
      1, "favorite_fruits",
      expected: #"["Strawberry Tree","Big Berry Manzanita","Elstar Apple"]"#,
      value: #"["Elstar Apple","Strawberry Tree","Big Berry Manzanita"]"#)
    #expect(answer.status == 200)
    #expect(
      answer.json["favorite_fruits"] as? [String]
        == ["Elstar Apple", "Strawberry Tree", "Big Berry Manzanita"])
    let history = try desk.history()
    #expect(history.count == 2)
    // Only positions changed: updates of favorite_fruits rows, none removed or added.
    let changes = history.first { $0["id"] as? Int == 2 }?["changes"] as? [[String: Any]] ?? []
    #expect(!changes.isEmpty)
    #expect(changes.allSatisfy { $0["table"] as? String == "favorite_fruits" })
    #expect(changes.allSatisfy { $0["operation"] as? String == "update" })
    #expect(
      try desk.session.suspect("fish")["favorite_fruits"] as? [String]
        == ["Elstar Apple", "Strawberry Tree", "Big Berry Manzanita"])
  }

  @Test func aStaleExpectedValueIsAConflictWithBothValuesAndStoresNothing() throws {
    let desk = try Desk()
    // Another investigator, on the command line, changed the level meanwhile.
    desk.session.succeed("suspect", "raccoon", "0.5")
    let before = try desk.history().count
    let answer = desk.patch(10, "suspicion_level", expected: "0.0", value: "0.9")
    #expect(answer.status == 409)
    let error = Self.error(answer.json)
    #expect(error["kind"] as? String == "conflict")
    #expect(error["field"] as? String == "suspicion_level")
    #expect(error["current"] as? Double == 0.5)
    #expect(error["yours"] as? Double == 0.9)
    #expect((error["message"] as? String)?.contains("Rénard the Raccoon") == true)
    #expect(try desk.session.suspect("raccoon")["suspicion_level"] as? Double == 0.5)
    #expect(try desk.history().count == before)
    // Objects and arrays compare member by member: a stale schedule too.
    desk.session.succeed("sleep", "raccoon", "--sleep", "21:00", "--wake", "05:00")
    let schedule = desk.patch(
      10, "sleep_schedule", expected: "null", value: #"{"sleep":"23:00","wake":"07:00"}"#)
    #expect(schedule.status == 409)
    #expect(
      Self.error(schedule.json)["current"] as? [String: String]
        == ["sleep": "21:00", "wake": "05:00"])
    #expect(
      Self.error(schedule.json)["yours"] as? [String: String]
        == ["sleep": "23:00", "wake": "07:00"])
    // The value that is stored, as expected, is accepted (members in any order, 0.5 as 0.50).
    #expect(
      desk.patch(
        10, "sleep_schedule", expected: #"{"wake":"05:00","sleep":"21:00"}"#, value: "null"
      ).status == 200)
    #expect(desk.patch(10, "suspicion_level", expected: "0.50", value: "0.25").status == 200)
  }

  @Test func invalidValuesAreRefusedWithTheCommandLinesMessages() throws {
    let desk = try Desk()
    let cli = try JSONErrorTests.error(desk.session.run("suspect", "raccoon", "1.5", "--json"))
    let answer = desk.patch(10, "suspicion_level", expected: "0.0", value: "1.5")
    #expect(answer.status == 422)
    let error = Self.error(answer.json)
    #expect(error["kind"] as? String == "invalid")
    #expect(error["field"] as? String == "suspicion_level")
    #expect(
      error["message"] as? String
        == "invalid suspicion level '1.5': expected a number from 0 to 1, such as 0.5")
    #expect(error["message"] as? String == cli["message"] as? String)
    // Another suspect's species, a blank name, a bad time, an unknown fruit, a fruit twice.
    let refusals: [(field: String, expected: String, value: String, status: Int, message: String)] =
      [
        ("species", #""Raccoon""#, #""fish""#, 422, "a suspect of species 'fish' already exists"),
        ("name", #""Rénard""#, #""   ""#, 422, "invalid name"),
        (
          "sleep_schedule", "null", #"{"sleep":"25:00","wake":"07:00"}"#, 422,
          "invalid sleep time '25:00'"
        ),
        ("paw_size", #""medium""#, #""huge""#, 422, "invalid paw size 'huge'"),
        (
          "favorite_fruits",
          #"["Belle De Boskoop Apple","Big Berry Manzanita","Christmas Berry","Kaki Fuyu Persimmon"]"#,
          #"["Durian"]"#, 404, "no fruit named 'Durian'"
        ),
        (
          "favorite_fruits",
          #"["Belle De Boskoop Apple","Big Berry Manzanita","Christmas Berry","Kaki Fuyu Persimmon"]"#,
          #"["Elstar Apple","elstar apple"]"#, 422, "is already one of"
        ),
      ]
    for refusal in refusals {
      let answer = desk.patch(10, refusal.field, expected: refusal.expected, value: refusal.value)
      #expect(answer.status == refusal.status, "\(refusal.field): \(answer.json)")
      let error = Self.error(answer.json)
      #expect(error["field"] as? String == refusal.field)
      #expect(
        (error["message"] as? String)?.contains(refusal.message) == true,
        "\(error["message"] ?? "")")
    }
    // Nothing was stored: the seed's change set only, Rénard as seeded.
    #expect(try desk.history().count == 1)
    let suspect = try desk.session.suspect("id:10")
    #expect(suspect["species"] as? String == "Raccoon")
    #expect(
      suspect["favorite_fruits"] as? [String]
        == [
          "Belle De Boskoop Apple", "Big Berry Manzanita", "Christmas Berry", "Kaki Fuyu Persimmon",
        ])
  }

  @Test func anAmbiguousFruitIsRefusedWithItsCandidates() throws {
    let desk = try Desk(
      writtenByAnotherClient: """
        INSERT INTO fruits (name, color) VALUES ('ΜΗΛΟ', 'red');
        INSERT INTO fruits (name, color) VALUES ('μηλο', 'green');
        """)
    let answer = desk.patch(
      2, "favorite_fruits", expected: #"["Elstar Apple","Flavor King Plum"]"#,
      value: #"["Elstar Apple","ΜΗΛΟ"]"#)
    #expect(answer.status == 409)
    let error = Self.error(answer.json)
    #expect(error["kind"] as? String == "ambiguous")
    #expect(error["field"] as? String == "favorite_fruits")
    let candidates = error["candidates"] as? [String] ?? []
    #expect(candidates.count == 2)
    #expect(
      candidates.contains { $0.contains("(id 20)") }
        && candidates.contains { $0.contains("(id 21)") })
    #expect(
      try desk.session.suspect("snail")["favorite_fruits"] as? [String]
        == ["Elstar Apple", "Flavor King Plum"])
  }

  @Test func undoRevertsAChangeSetAndRefusesAsTheCommandLineDoes() throws {
    let desk = try Desk()
    #expect(desk.patch(10, "suspicion_level", expected: "0.0", value: "0.5").status == 200)
    #expect(desk.patch(10, "suspicion_level", expected: "0.5", value: "0.7").status == 200)
    // Change set 2 set 0.5, 3 set 0.7: undoing 2 is refused while 3 stands.
    let refused = desk.send("POST", "/api/undo", #"{"change_set":2}"#)
    #expect(refused.status == 409)
    let error = Self.error(refused.json)
    #expect(error["kind"] as? String == "conflict")
    #expect(
      error["message"] as? String
        == "cannot undo change set 2: later change set(s) 3 changed the same rows")
    #expect(try desk.session.suspect("raccoon")["suspicion_level"] as? Double == 0.7)
    #expect(try desk.history().count == 3)
    // Undoing 3 works, as `undo 3 --json` reports it, and is ann's change set 4.
    let undo = desk.send("POST", "/api/undo", #"{"change_set":3}"#)
    #expect(undo.status == 200)
    #expect(undo.json["undone"] as? Int == 3)
    #expect(undo.json["change_set"] as? Int == 4)
    #expect(undo.json["changes"] as? Int == 1)
    #expect(try desk.session.suspect("raccoon")["suspicion_level"] as? Double == 0.5)
    let newest = try desk.history().first { $0["id"] as? Int == 4 }
    #expect(newest?["actor"] as? String == "ann")
    // An unknown change set is not found.
    let unknown = desk.send("POST", "/api/undo", #"{"change_set":99}"#)
    #expect(unknown.status == 404)
    #expect(Self.error(unknown.json)["message"] as? String == "no change set with id '99'")
  }

  @Test func aReadOnlyDeskAndNobodySignedInChangeNothing() throws {
    let readOnly = try Desk(readOnly: true)
    let forbidden = readOnly.patch(10, "alibi", expected: #""""#, value: #""Out""#)
    #expect(forbidden.status == 403)
    #expect(Self.error(forbidden.json)["kind"] as? String == "forbidden")
    #expect(readOnly.send("POST", "/api/undo", "{}").status == 403)
    #expect(try readOnly.history().count == 1)
    let desk = try Desk()
    let anonymous = desk.patch(10, "alibi", expected: #""""#, value: #""Out""#, investigator: nil)
    #expect(anonymous.status == 401)
    #expect(Self.error(anonymous.json)["kind"] as? String == "unauthorized")
    #expect(desk.send("POST", "/api/undo", "{}", investigator: nil).status == 401)
    #expect(try desk.session.suspect("raccoon")["alibi"] as? String == "")
    #expect(try desk.history().count == 1)
  }

  @Test func malformedRequestsAreUsageErrors() throws {
    let desk = try Desk()
    let bodies = [
      "", "{", "[1]", #"{"field":"alibi","expected":"","value":"a","value":"b"}"#,
      #"{"field":"motive","expected":"","value":"a"}"#, #"{"field":"alibi","value":"a"}"#,
      #"{"field":"alibi","expected":"","value":3}"#,
    ]
    for body in bodies {
      let answer = desk.send("PATCH", "/api/suspects/10", body)
      #expect(answer.status == 400, "\(body): \(answer.json)")
      #expect(Self.error(answer.json)["kind"] as? String == "usage")
    }
    #expect(desk.send("POST", "/api/undo", #"{"change_set":true}"#).status == 400)
    let missing = desk.patch(99, "alibi", expected: #""""#, value: #""a""#)
    #expect(missing.status == 404)
    #expect(Self.error(missing.json)["kind"] as? String == "not_found")
    #expect(desk.patch(0, "alibi", expected: #""""#, value: #""a""#).status == 404)
    #expect(try desk.history().count == 1)
  }

  @Test func aBusyDatabaseIsA503WithRetryAfter() throws {
    let desk = try Desk(busyTimeout: 0)
    // Another client holds the write lock.
    let other = try Connection(path: desk.session.databasePath)
    try other.execute("BEGIN IMMEDIATE")
    let answer = desk.patch(10, "alibi", expected: #""""#, value: #""Out""#)
    try other.execute("ROLLBACK")
    #expect(answer.status == 503)
    #expect(answer.response.header("Retry-After") == "1")
    #expect(Self.error(answer.json)["kind"] as? String == "busy")
    #expect(try desk.history().count == 1)
  }

  @Test func errorTextIsEscapedJSON() throws {
    let desk = try Desk()
    let answer = desk.patch(10, "favorite_fruits", expected: "[]", value: #"["x"]"#)
    #expect(answer.status == 409)
    // A hostile value comes back as a JSON string, not as markup or broken JSON.
    let hostile = desk.patch(
      10, "favorite_fruits",
      expected:
        #"["Belle De Boskoop Apple","Big Berry Manzanita","Christmas Berry","Kaki Fuyu Persimmon"]"#,
      value: #"["<script>\"\\</script>"]"#)
    #expect(hostile.status == 404)
    #expect(
      Self.error(hostile.json)["message"] as? String == #"no fruit named '<script>"\</script>'"#)
  }
}
