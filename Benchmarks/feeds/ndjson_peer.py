#!/usr/bin/env python3
"""The peer of `aggregate -f ndjson` on a feed file (issue 20, goal 7): parses FILE with feedparser-rs and
writes one JSON line per entry with the same members and values as the files provider's NDJSON output of
that file, so both do the same job end to end (read, parse, dates to ISO 8601 UTC, JSON out).

    python3 Benchmarks/feeds/ndjson_peer.py FILE [SOURCE_ID] > out.ndjson

SOURCE_ID is the manifest's source id (`source` of each line; default "feed"). On the benchmark's RSS file
the output is byte for byte `aggregate --manifest M -f ndjson`'s (a files source reading FILE)."""
import json
import sys
import time

import feedparser_rs


def iso(parsed):
    """A `*_parsed` struct_time (UTC) as aggregate writes dates: 2026-11-25T18:20:33Z."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", parsed) if parsed else None


def main():
    path = sys.argv[1]
    source = sys.argv[2] if len(sys.argv) > 2 else "feed"
    # The default limits stop at 10,000 entries and 100 MB.
    limits = feedparser_rs.ParserLimits(max_entries=1_000_000, max_feed_size_bytes=1024 * 1024 * 1024)
    with open(path, "rb") as f:
        result = feedparser_rs.parse_with_limits(f.read(), limits=limits)
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
    out = sys.stdout
    lines = []
    for entry in result.entries:
        published, updated = iso(entry.published_parsed), iso(entry.updated_parsed)
        title = entry.title or "(untitled)"
        link = entry.link
        identifier = entry.id or link or title
        date = published or updated
        # `fields` in aggregate's order (keys sorted); absent values left out, as aggregate does.
        fields = {}
        if entry.author:
            fields["author"] = entry.author
        fields["categories"] = [tag.term for tag in entry.tags]
        if entry.content:
            fields["content"] = entry.content[0].value
        if date:
            fields["date"] = date
        enclosure = entry.enclosures[0].href if entry.enclosures else None
        if enclosure:
            fields["enclosureURL"] = enclosure
        fields["id"] = identifier
        if published:
            fields["published"] = published
        elif entry.published:
            fields["publishedRaw"] = entry.published
        if entry.summary:
            fields["summary"] = entry.summary
        fields["title"] = title
        # feedparser-rs copies an RSS item's pubDate to `updated`; aggregate has no updated date there.
        if updated and updated != published:
            fields["updated"] = updated
        if link:
            fields["url"] = link
        lines.append(dumps({"source": source, "kind": "record", "id": identifier, "title": title, "subtitle": None,
                            "url": link, "date": date, "fields": fields}))
        if len(lines) == 4096:
            out.write("\n".join(lines) + "\n")
            lines.clear()
    if lines:
        out.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
