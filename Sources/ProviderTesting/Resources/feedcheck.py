#!/usr/bin/env python3
"""What a real feed reader makes of our feeds, for tests.

  feedcheck.py xml FILE       python feedparser's view: {"bozo", "error", "version", "entries": [...]}
  feedcheck.py jsonfeed FILE SCHEMA
                              JSON Feed validated against SCHEMA: {"errors": [...]}

Needs feedparser and jsonschema (.ci/run installs them).
"""
import json
import sys
import calendar


def xml(path):
    import feedparser
    parsed = feedparser.parse(path)
    entries = []
    for entry in parsed.entries:
        published = entry.get("published_parsed")
        entries.append({
            "id": entry.get("id"),
            "title": entry.get("title"),
            "link": entry.get("link"),
            "published": calendar.timegm(published) if published else None,
        })
    return {
        "bozo": bool(parsed.bozo),
        "error": str(parsed.get("bozo_exception", "")),
        "version": parsed.version,
        "entries": entries,
    }


def jsonfeed(path, schema_path):
    import jsonschema
    with open(path, encoding="utf-8") as handle:
        document = json.load(handle)
    with open(schema_path, encoding="utf-8") as handle:
        schema = json.load(handle)
    validator = jsonschema.Draft7Validator(schema)
    errors = ["%s: %s" % ("/".join(str(p) for p in error.absolute_path), error.message)
              for error in validator.iter_errors(document)]
    return {"errors": errors}


if __name__ == "__main__":
    kind = sys.argv[1]
    result = xml(sys.argv[2]) if kind == "xml" else jsonfeed(sys.argv[2], sys.argv[3])
    json.dump(result, sys.stdout)
