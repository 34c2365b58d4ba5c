#ifndef AGGREGATE_CSQLITE_CONNECTION_H
#define AGGREGATE_CSQLITE_CONNECTION_H

/// Per-connection SQLite settings that Swift cannot reach because `sqlite3_db_config` is variadic.
///
/// The connection is taken as `void *` (a GRDB `Database.sqliteConnection`) so that this header does not
/// include <sqlite3.h> a second time next to GRDB's own SQLite module.

/// Keeps the last connection to close from checkpointing the WAL into the database file (and deleting
/// the WAL). That checkpoint fsyncs the WAL and the database on every run; leaving the committed pages in
/// the WAL is as safe (SQLite reads them back at the next open) and SQLite still checkpoints on its own
/// once the WAL passes its auto-checkpoint size. Returns an SQLite result code.
int aggregate_sqlite_keep_wal_on_close(void *connection);

#endif
