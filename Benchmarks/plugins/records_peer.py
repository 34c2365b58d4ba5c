#!/usr/bin/env python3
"""The exec peer of the records benchmark (bench.py): what Examples/plugins/rust-records does, as an exec program.

Reads {"options": {"url": ...}} on stdin, fetches the URL (a JSON array of records), and prints one item per record:
"id" (string or number), "title", "subtitle", "url" and "date" (strings) as the item's, the rest as its fields."""
import json, sys, urllib.request

ITEM_KEYS = ("title", "subtitle", "url", "date")


def main():
    request = json.load(sys.stdin)
    with urllib.request.urlopen(request["options"]["url"]) as response:
        records = json.load(response)
    if isinstance(records, dict):
        records = records["records"]
    out = sys.stdout
    for record in records:
        item = {"type": "item"}
        fields = {}
        for key, value in record.items():
            if key == "id" and isinstance(value, (str, int, float)):
                item["id"] = str(value)
            elif key in ITEM_KEYS and isinstance(value, str):
                item[key] = value
            else:
                fields[key] = value
        if fields:
            item["fields"] = fields
        out.write(json.dumps(item, ensure_ascii=False, separators=(",", ":")))
        out.write("\n")


main()
