/// The item archive on PostgreSQL (migration "v6-archive"), the same rows as SQLite's `archive_item`: the source
/// identity in each row, the reader state, and a stored `tsvector` (the title weighing most, then the subtitle,
/// the URL, the text) under a GIN index. `id` is a `bigserial`: an archive id is never reused.
enum PostgresArchiveSchema {
    static let statements = [
        """
        CREATE TABLE archive_item (
            id bigserial PRIMARY KEY,
            source_id text NOT NULL,
            fingerprint text NOT NULL,
            item_id text NOT NULL,
            kind text NOT NULL,
            title text NOT NULL,
            subtitle text,
            url text,
            body text NOT NULL,
            date double precision,
            sort_date double precision NOT NULL,
            fields text NOT NULL,
            first_seen_at double precision NOT NULL,
            last_seen_at double precision NOT NULL,
            read_at double precision,
            starred_at double precision,
            search tsvector GENERATED ALWAYS AS (
                setweight(to_tsvector('english', title), 'A')
                || setweight(to_tsvector('english', coalesce(subtitle, '')), 'B')
                || setweight(to_tsvector('simple', coalesce(url, '')), 'C')
                || setweight(to_tsvector('english', body), 'D')
            ) STORED,
            UNIQUE (source_id, fingerprint, item_id)
        )
        """,
        "CREATE INDEX archive_item_search ON archive_item USING GIN (search)",
        "CREATE INDEX archive_item_sort ON archive_item (sort_date, id)",
        "CREATE INDEX archive_item_source_seen ON archive_item (source_id, first_seen_at)",
    ]
}
