#!/usr/bin/env python3
"""Writes a deterministic RSS 2.0 feed with N items (default 50,000, ~30 MB) for the feed benchmark.

Every item has a title, link, guid, RFC 822 pubDate (rotating named zones and offsets), author, two
categories and an escaped-HTML description, so the parsers do the work a real feed asks of them.
"""
import random
import sys

WORDS = ("aggregate feed parser swift stream entry channel item libxml2 benchmark date zone title "
         "summary content author category link guid enclosure atom rdf namespace base encoding").split()
DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
ZONES = ["GMT", "+0000", "-0500", "EST", "PDT", "+0130", "UT", "Z"]


def sentence(rng, n):
    return " ".join(rng.choice(WORDS) for _ in range(n))


def write_feed(out, count, seed=42, name=""):
    """Writes `count` items to `out`; `name` (a feed's own tag) keeps links and guids apart across many feeds."""
    rng = random.Random(seed)
    tag = f"{name}/" if name else ""
    with open(out, "w", encoding="utf-8") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n')
        f.write('<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">\n<channel>\n')
        f.write("<title>Benchmark feed</title>\n<link>https://example.org/</link>\n")
        f.write("<description>Generated for the aggregate feed benchmark</description>\n")
        for i in range(count):
            day, month = rng.randrange(1, 29), rng.randrange(12)
            year = 2000 + rng.randrange(26)
            hh, mm, ss = rng.randrange(24), rng.randrange(60), rng.randrange(60)
            weekday = DAYS[(i * 3) % 7]
            zone = ZONES[i % len(ZONES)]
            body = " ".join(f"&lt;p&gt;{sentence(rng, 10)}&lt;/p&gt;" for _ in range(3))
            f.write(
                "<item>\n"
                f"  <title>{sentence(rng, 6)} #{i}</title>\n"
                f"  <link>https://example.org/posts/{tag}{i}.html</link>\n"
                f'  <guid isPermaLink="false">urn:aggregate:bench:{tag}{i}</guid>\n'
                f"  <pubDate>{weekday}, {day:02d} {MONTHS[month]} {year} {hh:02d}:{mm:02d}:{ss:02d} {zone}</pubDate>\n"
                f"  <dc:creator>{sentence(rng, 2)}</dc:creator>\n"
                f"  <category>{rng.choice(WORDS)}</category><category>{rng.choice(WORDS)}</category>\n"
                f"  <description>{body}</description>\n"
                "</item>\n"
            )
        f.write("</channel>\n</rss>\n")


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
    write_feed(sys.argv[2] if len(sys.argv) > 2 else "feed-50k.rss", count)


if __name__ == "__main__":
    main()
