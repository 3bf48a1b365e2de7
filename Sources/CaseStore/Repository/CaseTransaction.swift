import SQLiteKit

/// The kind of a unit of work, as the type of its handle: ``Reading`` or ``Writing``.
///
/// The kind is a type parameter of ``CaseTransaction`` and of the repositories, so that the
/// compiler refuses a write operation on a read handle: write operations live in extensions
/// `where Kind == Writing`.
public protocol UnitOfWorkKind: Sendable {}

/// A unit of work that only reads: ``CaseDatabase/read(_:)``.
public enum Reading: UnitOfWorkKind {}

/// A unit of work that writes: ``CaseDatabase/write(_:_:)``.
public enum Writing: UnitOfWorkKind {}

/// The handle of a read unit of work: one snapshot, read operations only.
public typealias CaseReader = CaseTransaction<Reading>

/// The handle of a write unit of work: one `IMMEDIATE` transaction, one change set of the
/// history; read and write operations.
public typealias CaseWriter = CaseTransaction<Writing>

/// The handle of one unit of work on a ``CaseDatabase``: what ``CaseDatabase/read(_:)`` and
/// ``CaseDatabase/write(_:_:)`` hand their body (docs/design.md "The unit of work").
///
/// It carries the operations on the case: the repositories (``suspects``, ``fruits``,
/// ``incidents``), the ``history``, the search and the ranking, and on a ``CaseWriter`` the
/// import, the changeset application, undo and prune. None of them opens a transaction: they
/// run inside the one the handle belongs to, so a command that makes several changes makes
/// one transaction and one change set. An operation that throws may have made part of its
/// change; the unit rolls all of it back when the error leaves the body (a body that catches
/// the error and goes on keeps that part).
///
/// The handle is valid only inside the body it was given to; it is not `Sendable`.
public struct CaseTransaction<Kind: UnitOfWorkKind> {
  // MARK: - Properties

  /// The database whose unit of work this is.
  let database: CaseDatabase

  // MARK: - Public API

  /// The suspects and their interviews.
  public var suspects: SuspectRepository<Kind> { SuspectRepository(database: database) }
  /// The fruits.
  public var fruits: FruitRepository<Kind> { FruitRepository(database: database) }
  /// The nibble incidents.
  public var incidents: IncidentRepository<Kind> { IncidentRepository(database: database) }
  /// The case history: who changed what, when and why (docs/history.md).
  public var history: CaseHistory { CaseHistory(database: database) }
  /// The suspects ranked for an incident, or by suspicion level (docs/ranking.md).
  public var ranking: SuspicionRanking { SuspicionRanking(database: database) }

  // MARK: - Internal helpers

  /// The connection of the database, inside this unit's transaction.
  var connection: Connection { database.connection }

  /// A prepared statement from the connection's cache (``CaseDatabase``'s `statement`).
  func statement(_ sql: String) throws -> Statement {
    try database.statement(sql)
  }
}

/// Why a unit of work was refused.
public enum UnitOfWorkError: Error, Equatable, Sendable, CustomStringConvertible {
  /// ``CaseDatabase/read(_:)`` or ``CaseDatabase/write(_:_:)`` was called while another ran on
  /// the same database: units of work do not nest (run the operation on the handle the outer
  /// one was given).
  case alreadyOpen

  /// One line for `inspector: error: ...` (a defect of the caller, exit 1).
  public var description: String {
    switch self {
    case .alreadyOpen:
      "a unit of work is already open on this case database; units of work do not nest"
    }
  }
}
