import CaseStore
import HTTPKit

extension DeskAPI {
  /// The write routes (docs/web-desk.md "API"): `PATCH /api/suspects/{id}` edits one field of a
  /// suspect against the value the page showed, `POST /api/undo` undoes a change set. Each is
  /// one change set with the signed-in investigator as actor.
  static let writeRoutes: [DeskRoute] = [
    DeskRoute(method: "PATCH", pattern: "/api/suspects/{id}") { api, call in
      try api.editSuspect(call)
    },
    DeskRoute(method: "POST", pattern: "/api/undo") { api, call in
      try api.undo(call)
    },
  ]

  // MARK: - Handlers

  /// `PATCH /api/suspects/{id}` with `{"field": F, "expected": OLD, "value": NEW}`: the suspect
  /// after the edit (`show --json`'s record), 200.
  ///
  /// - Throws: ``DeskError`` forbidden (read-only), unauthorized (nobody signed in), usage (a
  ///   malformed body), conflict (the stored value is not `expected`; nothing is stored);
  ///   what the case store throws for the value (as the command line reports it, with the
  ///   `field`).
  func editSuspect(_ call: DeskCall) throws -> HTTPResponse {
    let attribution = try writeAttribution(call)
    guard let id = Int64(call.parameters["id"] ?? ""), id > 0 else {
      throw CaseError.unknownSuspect(call.parameters["id"] ?? "")
    }
    let body = try Self.requestBodyObject(call.request)
    guard case .string(let fieldName)? = body["field"] else {
      throw DeskError(.usage, "the body needs \"field\": the name of the field to change")
    }
    guard let field = DeskSuspectField(rawValue: fieldName) else {
      throw DeskError(
        .usage,
        "unknown field '\(fieldName)': expected one of "
          + DeskSuspectField.allCases.map(\.rawValue).joined(separator: ", "))
    }
    guard let expected = body["expected"], let value = body["value"] else {
      throw DeskError(
        .usage,
        "the body needs \"expected\" (the value shown before the edit) and \"value\" (the new"
          + " one)", members: [("field", .string(fieldName))])
    }
    let edit: DeskSuspectEdit
    do {
      edit = try DeskSuspectEdit(field: field, value: value)
    } catch {
      throw DeskError(error, field: fieldName)
    }
    let suspect = try pool.write(attribution) { db in
      guard let stored = try db.suspects.suspect(id: id) else {
        throw CaseError.unknownSuspect("\(id)")
      }
      let current = try field.value(of: stored)
      guard current == expected else {
        throw DeskError(
          .conflict,
          "\(SuspectPresenter.title(stored))'s \(field.words) changed since it was shown:"
            + " it is \(JSONValue(current).serialized()) now; nothing was changed",
          members: [
            ("field", .string(fieldName)), ("current", JSONValue(current)),
            ("yours", JSONValue(value)),
          ])
      }
      do {
        try edit.apply(to: id, stored: stored, db)
      } catch {
        throw DeskError(error, field: fieldName)
      }
      return try db.suspects.suspect(id: id) ?? stored
    }
    return Self.writtenRecord(SuspectPresenter.json.compactText(suspect) + "\n")
  }

  /// `POST /api/undo` with `{"change_set": N}` (or without it: the next change set not yet
  /// undone): `undo --json`'s record (`undone`, `change_set`, `changes`), 200.
  ///
  /// - Throws: ``DeskError`` forbidden, unauthorized or usage; the case store's refusals as the
  ///   command line reports them (an undo a later change set stands in the way of, nothing to
  ///   undo: conflict; an unknown change set: not_found).
  func undo(_ call: DeskCall) throws -> HTTPResponse {
    let attribution = try writeAttribution(call)
    let body = try Self.requestBodyObject(call.request)
    let changeSet: Int64?
    switch body["change_set"] {
    case nil, .null?:
      changeSet = nil
    case .number(let number)?:
      changeSet = try UndoCommand.changeSet(
        number.rounded() == number && abs(number) < 1e18 ? "\(Int64(number))" : "\(number)")
    case .string(let text)?:
      changeSet = try UndoCommand.changeSet(text)
    case let other?:
      throw DeskError(.usage, "\"change_set\" is \(other.typeName): expected a change set's id")
    }
    let undo = try pool.write(attribution) { db in try db.undo(changeSet) }
    return Self.writtenRecord(
      Render.flatJSON.compactText(HistoryEditPresenter.fields(undo)) + "\n")
  }

  // MARK: - Private helpers

  /// The attribution of a write by the signed-in investigator.
  ///
  /// - Throws: ``DeskError`` forbidden when the desk is read-only, unauthorized when nobody is
  ///   signed in.
  private func writeAttribution(_ call: DeskCall) throws -> ChangeAttribution {
    guard !readOnly else {
      throw DeskError(.forbidden, "this desk is read-only (serve --read-only): nothing is changed")
    }
    guard let investigator = call.investigator else {
      throw DeskError(.unauthorized, "sign in to change the case")
    }
    return try ChangeAttribution(actor: investigator)
  }

  /// The request's body as a JSON object's members.
  ///
  /// - Throws: ``DeskError`` usage for a body that is not UTF-8, not JSON, gives a member twice,
  ///   or is not an object.
  static func requestBodyObject(_ request: HTTPRequest) throws -> [String: JSONNode] {
    guard let text = String(validating: request.body, as: UTF8.self) else {
      throw DeskError(.usage, "the body is not UTF-8 text")
    }
    let node: JSONNode
    do {
      node = try JSONNode.document(text)
    } catch {
      throw DeskError(.usage, "malformed body: \(CommandFailure.from(error).message)")
    }
    guard case .object(let members) = node else {
      throw DeskError(.usage, "the body is \(node.typeName): expected a JSON object")
    }
    return members
  }

  /// A 200 response holding `json`, a write's record.
  static func writtenRecord(_ json: String) -> HTTPResponse {
    HTTPResponse(
      status: 200, headers: [HTTPField("Content-Type", "application/json; charset=utf-8")],
      body: .bytes(Array(json.utf8)))
  }
}
