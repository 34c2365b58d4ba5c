#include "CSQLiteConnection.h"

#include <sqlite3.h>

int aggregate_sqlite_keep_wal_on_close(void *connection) {
    return sqlite3_db_config((sqlite3 *)connection, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, (int *)0);
}
