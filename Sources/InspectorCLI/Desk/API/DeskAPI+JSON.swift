import CaseStore
import Foundation
import HTTPKit

extension DeskAPI {
  /// The `Content-Type` of every JSON response.
  static let jsonContentType = HTTPField("Content-Type", "application/json; charset=utf-8")

  /// A JSON response whose body `write` produces (through the presenters' record writers, so
  /// the shapes are the command line's, docs/output-formats.md), ending in a newline.
  static func json(status: Int = 200, _ write: (inout UTF8Buffer) -> Void) -> HTTPResponse {
    var body = UTF8Buffer()
    write(&body)
    body.append(byte: UInt8(ascii: "\n"))
    return HTTPResponse(status: status, headers: [jsonContentType], body: .bytes(body.bytes))
  }

  /// A compact JSON array of `records`, each written as `--format ndjson` writes its line.
  static func json<Record>(_ records: [Record], _ writer: JSONRecordWriter<Record>)
    -> HTTPResponse
  {
    json { writer.writeArray(records, to: &$0, pretty: false, indent: 0) }
  }

  /// One compact JSON record, as `--format ndjson` writes it.
  static func json<Record>(_ record: Record, _ writer: JSONRecordWriter<Record>) -> HTTPResponse {
    json { writer.write(record, to: &$0, pretty: false, indent: 0) }
  }

  /// Runs `body` in one read transaction of the pool, on the case now or, with `as_of=`, as
  /// it stood then (``CaseDatabasePool/read(asOf:_:)``, docs/history.md "As of"). With
  /// `suspect`, reads that look up only that suspect rebuild only its rows for `as_of`
  /// (``CaseDatabasePool/read(asOf:suspect:_:)``).
  ///
  /// - Throws: ``DeskRequestError/usage(_:)`` for an empty `as_of`; what the pool or `body`
  ///   throws.
  func reading<T>(_ call: DeskCall, suspect: Int64? = nil, _ body: (CaseReader) throws -> T)
    throws -> T
  {
    let point = call.request.queryValue("as_of")
    if let point, point.trimmingCharacters(in: .whitespaces).isEmpty {
      throw DeskRequestError.usage(
        "The value '\(point)' is invalid for 'as_of' (a time or a change set id)")
    }
    return try pool.read(asOf: point, suspect: suspect, body)
  }

  /// The response of a read route's handler `body`, with a refusal of the request
  /// (``DeskRequestError``, an unknown record, a bad value) made its JSON error here; other
  /// errors go on to ``errorResponse(for:)``.
  static func refusing(_ body: () throws -> HTTPResponse) throws -> HTTPResponse {
    do {
      return try body()
    } catch let error as DeskRequestError {
      return error.response
    } catch let error as CaseError {
      guard let refusal = DeskRequestError(error) else { throw error }
      return refusal.response
    }
  }
}

/// A read request refused for what it asked, before or while reading: a bad query value (400
/// `usage`) or a record or point of the history that does not exist (404 `not_found`).
enum DeskRequestError: Error {
  /// A query value out of its domain; the message names the value and what is expected.
  case usage(String)
  /// No such suspect, incident or change set.
  case notFound(String)

  /// The refusal a case-store error means for a read, or `nil` for any other error: unknown
  /// records and points of the history are 404, a value the case store refuses (a level, a
  /// time, a fruit of a filter) is 400.
  init?(_ error: CaseError) {
    switch error {
    case .unknownSuspect, .unknownIncident, .unknownChangeSet, .beforeHistory:
      self = .notFound(error.description)
    case .invalidValue, .unknownFruit:
      self = .usage(error.description)
    default:
      return nil
    }
  }

  /// The JSON error response.
  var response: HTTPResponse {
    switch self {
    case .usage(let message): DeskAPI.errorResponse(status: 400, kind: "usage", message: message)
    case .notFound(let message):
      DeskAPI.errorResponse(status: 404, kind: "not_found", message: message)
    }
  }
}

extension DeskCall {
  /// The query value `name` as a whole number from `range`, `fallback` when absent.
  ///
  /// - Throws: ``DeskRequestError/usage(_:)`` for anything else.
  func count(_ name: String, in range: ClosedRange<Int>, default fallback: Int) throws -> Int {
    guard let text = request.queryValue(name) else { return fallback }
    guard let value = Int(text), range.contains(value) else {
      throw DeskRequestError.usage(
        "The value '\(text)' is invalid for '\(name)' (a whole number from "
          + "\(range.lowerBound) to \(range.upperBound))")
    }
    return value
  }

  /// The path parameter `name` as a record id (a whole number, 1 or more).
  ///
  /// - Throws: ``DeskRequestError/notFound(_:)`` for anything else (no record has that id).
  func id(_ name: String = "id", of what: String) throws -> Int64 {
    let text = parameters[name] ?? ""
    guard let id = Int64(text), id > 0 else {
      throw DeskRequestError.notFound("no \(what) with id '\(text)'")
    }
    return id
  }

  /// The query value `name` as one of `values`' raw values, `nil` when absent.
  ///
  /// - Throws: ``DeskRequestError/usage(_:)`` for any other text.
  func choice<Value: RawRepresentable & CaseIterable>(_ name: String, _ type: Value.Type) throws
    -> Value? where Value.RawValue == String
  {
    guard let text = request.queryValue(name) else { return nil }
    guard let value = Value(rawValue: text) else {
      let allowed = Value.allCases.map(\.rawValue).joined(separator: ", ")
      throw DeskRequestError.usage(
        "The value '\(text)' is invalid for '\(name)' (one of \(allowed))")
    }
    return value
  }
}
