#!/usr/bin/env python3
"""An external provider for aggregate: the most frequent words of a text.

Reads {"source": ..., "options": {"text": "...", "path": "notes.txt", "top": 5}} on stdin
("path" is relative to the manifest's directory, which is the working directory) and prints
one item per word, most frequent first. Problems go to stderr with a non-zero exit status.
"""
import json
import re
import sys
from collections import Counter


def main() -> int:
    request = json.load(sys.stdin)
    options = request.get("options") or {}
    top = options.get("top", 5)
    if not isinstance(top, int) or top < 1:
        print("options.top must be a positive integer", file=sys.stderr)
        return 2
    if "path" in options:
        try:
            with open(options["path"], encoding="utf-8") as handle:
                text = handle.read()
        except OSError as error:
            print(f"cannot read {options['path']}: {error.strerror}", file=sys.stderr)
            return 1
    else:
        text = options.get("text", "")

    words = Counter(re.findall(r"[a-z']+", text.lower()))
    print(f"{sum(words.values())} words, {len(words)} distinct", file=sys.stderr)
    for rank, (word, count) in enumerate(words.most_common(top), start=1):
        print(json.dumps({
            "type": "item",
            "id": word,
            "title": word,
            "subtitle": f"{count} occurrence{'s' if count != 1 else ''}",
            "fields": {"count": count, "rank": rank, "source": request.get("source")},
        }), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
