#ifndef FRUIT_INSPECTORS_CSQLITE_SHIM_H
#define FRUIT_INSPECTORS_CSQLITE_SHIM_H

/*
** The session extension's API (sqlite3session_*, sqlite3changeset_*) is declared only when
** SQLITE_ENABLE_SESSION is defined; Debian's libsqlite3 is built with it and with the pre-update
** hook it needs. Whether the linked library really has it is asked at run time
** (sqlite3_compileoption_used("ENABLE_SESSION")) before any of it is called.
*/
#ifndef SQLITE_ENABLE_SESSION
#define SQLITE_ENABLE_SESSION 1
#endif
#ifndef SQLITE_ENABLE_PREUPDATE_HOOK
#define SQLITE_ENABLE_PREUPDATE_HOOK 1
#endif

#include <sqlite3.h>

/*
** Returns SQLITE_TRANSIENT, the destructor value that tells sqlite3_bind_text()
** and sqlite3_bind_blob() to copy the bytes before returning. Swift cannot
** import the macro because it casts -1 to a function pointer. The caller may
** free or reuse its buffer as soon as the bind call returns.
*/
static inline sqlite3_destructor_type csqlite_transient(void) {
  return SQLITE_TRANSIENT;
}

/*
** Sets a boolean sqlite3_db_config() option (op is one of SQLITE_DBCONFIG_*
** taking an int and an int*). sqlite3_db_config() is variadic, which Swift
** cannot call. Returns SQLITE_OK, or SQLITE_ERROR for an unknown op. The
** caller must pass an open connection.
*/
static inline int csqlite_db_config_bool(sqlite3 *db, int op, int on) {
  return sqlite3_db_config(db, op, on, (int *)0);
}

/*
** Sets a boolean sqlite3_db_config() option like csqlite_db_config_bool(),
** then stores in *now the state the option has after the call (0 or 1), so
** the caller can tell an option this SQLite ignores from one it applied.
** Returns SQLITE_OK, or SQLITE_ERROR for an op this SQLite does not know
** (*now is then left unchanged). The caller must pass an open connection and
** a valid pointer.
*/
static inline int csqlite_db_config_flag(sqlite3 *db, int op, int on, int *now) {
  return sqlite3_db_config(db, op, on, now);
}

/*
** Turns SQLite's memory statistics on or off (SQLITE_CONFIG_MEMSTATUS). With
** them on, every allocation SQLite makes takes one process-wide mutex, which
** connections on different threads then contend for. sqlite3_config() is
** variadic, which Swift cannot call. It succeeds only before the library is
** initialized (before the first sqlite3_open_v2()); afterwards it returns
** SQLITE_MISUSE and changes nothing.
*/
static inline int csqlite_config_memstatus(int on) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, on);
}

/*
** Sets the size in bytes up to which a statement journal stays in memory before it is written
** to a temporary file (SQLITE_CONFIG_STMTJRNL_SPILL; -1 keeps it in memory always). A
** statement journal holds the pages a statement changes inside a larger transaction, so that
** the statement alone can roll back. Like csqlite_config_memstatus(), it succeeds only before
** the library is initialized, and returns SQLITE_MISUSE afterwards.
*/
static inline int csqlite_config_stmtjrnl_spill(int bytes) {
  return sqlite3_config(SQLITE_CONFIG_STMTJRNL_SPILL, bytes);
}

#endif
