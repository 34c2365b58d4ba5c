#!/usr/bin/env python3
"""The three large inputs of issue 20, deterministic (fixed seeds): the same bytes on every machine and run.

    python3 Benchmarks/large/generate.py DIRECTORY [ndjson|json|csv ...]

- issues-1000000.ndjson: 1,000,000 lines of small GitHub-issue objects (~179 MB), as bench.py's local-files
  benchmark has always used (same bytes as its `issues_file`);
- issues-500000.json: one 500,000-element JSON array of GitHub-like issues (~179 MB), pretty enough to have
  line breaks between elements, nested user/labels/milestone objects, escapes and non-ASCII text;
- rows-500000.csv: 500,000 rows with a header (~34 MB); quoted fields with commas, doubled quotes and line
  breaks, numbers, booleans and empty cells.

A file that already exists with the expected size is kept."""
import json, os, random, sys

ISSUES_NDJSON = 1_000_000
ISSUES_JSON = 500_000
CSV_ROWS = 500_000

WORDS = ("parser crash timeout cache fails when the feed has a long title with unicode café naïve 東京 "
         "regression memory leak in worker slow query on startup retry logic broken docs typo").split()


def ndjson(path):
    with open(path, "w") as f:
        for i in range(ISSUES_NDJSON):
            f.write(json.dumps({"id": i, "number": i + 1, "title": f"Issue number {i}", "state": "open" if i % 3 else "closed",
                                "user": {"login": f"user{i % 97}"}, "labels": ["bug"] if i % 5 == 0 else [],
                                "created_at": "2026-11-20T08:00:00Z", "comments": i % 13}) + "\n")


def issue(rng, i):
    title = " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 9)))
    if i % 17 == 0:
        title += ' "quoted" \\ path\tand tab'
    day = 1 + i % 28
    return {
        "id": 1_000_000_000 + i, "number": i + 1, "title": title.capitalize(),
        "state": "open" if i % 3 else "closed", "locked": i % 11 == 0,
        "user": {"login": f"user{rng.randint(0, 4999)}", "id": rng.randint(1, 10 ** 7)},
        "labels": [{"name": rng.choice(["bug", "enhancement", "docs", "question"]), "color": "d73a4a"}
                   for _ in range(i % 3)],
        "milestone": None if i % 4 else {"title": f"v{i % 9}.0", "number": i % 9},
        "comments": rng.randint(0, 40), "score": round(rng.random() * 100, 3),
        "created_at": f"2026-{1 + i % 12:02d}-{day:02d}T{i % 24:02d}:{i % 60:02d}:00Z",
        "body": None if i % 5 == 0 else " ".join(rng.choice(WORDS) for _ in range(rng.randint(3, 16))),
    }


def json_array(path):
    rng = random.Random(20)
    with open(path, "w") as f:
        f.write("[\n")
        for i in range(ISSUES_JSON):
            f.write(("  " if i == 0 else ",\n  ") + json.dumps(issue(rng, i), ensure_ascii=False))
        f.write("\n]\n")


SURNAMES = ["Kim", "Lee", "Park", "Müller", "O'Neil", "García", "Nakamura"]
GIVEN = ["Mina", "Joon", "Ana", "Lukas", "Sean", "Yuki"]


def csv_rows(path):
    rng = random.Random(2020)
    cities = ["Seoul", "Busan, Korea", "São Paulo", 'The "Big" Apple', "Zürich", "Oslo"]
    with open(path, "w", newline="") as f:
        f.write("id,name,city,amount,active,note,created\n")
        for i in range(CSV_ROWS):
            city = rng.choice(cities)
            city = f'"{city.replace(chr(34), chr(34) * 2)}"' if ("," in city or '"' in city) else city
            note = "" if i % 4 == 0 else rng.choice(["ok", "late", "check, twice", "line one\nline two", "n/a"])
            if "," in note or "\n" in note:
                note = f'"{note}"'
            name = f'"{rng.choice(SURNAMES)}, {rng.choice(GIVEN)}"' if i % 3 else f"user{rng.randint(0, 9999)}"
            f.write(f"{i},{name},{city},{rng.randint(0, 99999) / 100},"
                    f"{'true' if i % 2 else 'false'},{note},2026-11-{1 + i % 28:02d}\n")


FILES = {"ndjson": (f"issues-{ISSUES_NDJSON}.ndjson", ndjson), "json": (f"issues-{ISSUES_JSON}.json", json_array),
         "csv": (f"rows-{CSV_ROWS}.csv", csv_rows)}


def main():
    directory = sys.argv[1]
    os.makedirs(directory, exist_ok=True)
    for kind in sys.argv[2:] or list(FILES):
        name, write = FILES[kind]
        path = os.path.join(directory, name)
        if not os.path.exists(path):
            write(path + ".partial")
            os.replace(path + ".partial", path)
        print(path)


if __name__ == "__main__":
    main()
