extension Schema {
    /// The item archive (`ItemArchiveRepository`): every item a run saw, with its source identity
    /// (`archive_source`, apart from the history's keys, so clearing the history keeps the archive), the reader
    /// state (read, starred), and an FTS5 index over its text. `id` is AUTOINCREMENT: an archive id is never
    /// reused, as reader apps remember them, and the rows a batch inserted are those above the highest id before
    /// it: `ArchiveWriter` indexes them with one statement, as FTS5 flushes its pending terms at every statement (a
    /// trigger per row: BENCHMARKS.md, "Figures behind the code"). Triggers keep the index when a row goes, and when an
    /// update changed its text (only then: seeing an item again does not touch the index). `archive_batch` knows a
    /// large batch archived whole by the digest of its content (`ArchiveWriter`).
    /// Added to every store, new or old: `current` stays what v4 left.
    static let v6Archive = """
        CREATE TABLE archive_source (
            key INTEGER PRIMARY KEY AUTOINCREMENT,
            source_id TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            UNIQUE (source_id, fingerprint)
        );
        CREATE TABLE archive_item (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            source_key INTEGER NOT NULL,
            item_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            title TEXT NOT NULL,
            subtitle TEXT,
            url TEXT,
            body TEXT NOT NULL,
            date REAL,
            sort_date REAL NOT NULL,
            fields BLOB NOT NULL,
            first_seen_at REAL NOT NULL,
            last_seen_at REAL NOT NULL,
            read_at REAL,
            starred_at REAL,
            UNIQUE (source_key, item_id)
        );
        CREATE TABLE archive_batch (
            source_key INTEGER NOT NULL,
            digest BLOB NOT NULL,
            archived_at REAL NOT NULL,
            PRIMARY KEY (source_key, digest)
        ) WITHOUT ROWID;
        CREATE INDEX archive_item_sort ON archive_item(sort_date, id);
        CREATE INDEX archive_item_source_seen ON archive_item(source_key, first_seen_at);
        CREATE VIRTUAL TABLE archive_fts USING fts5(
            title, subtitle, body, url,
            content = 'archive_item', content_rowid = 'id', tokenize = 'porter unicode61 remove_diacritics 2'
        );
        CREATE TRIGGER archive_item_deleted AFTER DELETE ON archive_item BEGIN
            INSERT INTO archive_fts (archive_fts, rowid, title, subtitle, body, url)
                VALUES ('delete', old.id, old.title, old.subtitle, old.body, old.url);
        END;
        CREATE TRIGGER archive_item_changed AFTER UPDATE OF title, subtitle, body, url ON archive_item
        WHEN old.title IS NOT new.title OR old.subtitle IS NOT new.subtitle OR old.body IS NOT new.body
            OR old.url IS NOT new.url
        BEGIN
            INSERT INTO archive_fts (archive_fts, rowid, title, subtitle, body, url)
                VALUES ('delete', old.id, old.title, old.subtitle, old.body, old.url);
            INSERT INTO archive_fts (rowid, title, subtitle, body, url)
                VALUES (new.id, new.title, new.subtitle, new.body, new.url);
        END;
        """
}

extension Schema {
    /// The archive's staging area (`ArchiveStaging`): large batches as rows of encoded items, exploded into
    /// `archive_item` and its index by the next reader of the archive or a long-running front end's upkeep.
    static let v7ArchiveStaging = """
        CREATE TABLE archive_staged (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            source_key INTEGER NOT NULL,
            seen_at REAL NOT NULL,
            items BLOB NOT NULL
        );
        CREATE INDEX archive_staged_source ON archive_staged(source_key);
        """
}
