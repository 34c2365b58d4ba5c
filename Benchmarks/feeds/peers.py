#!/usr/bin/env python3
"""Parses one feed file with a Python peer and prints `entries seconds peak_rss_kib dated_entries`, the
same line feed-bench prints. The timed part reads the file and parses it (as feed-bench does).

usage: peers.py feedparser|feedparser-rs FILE
"""
import resource
import sys
import time


def main():
    peer, path = sys.argv[1], sys.argv[2]
    if peer == "feedparser":
        import feedparser
        start = time.perf_counter()
        with open(path, "rb") as f:
            result = feedparser.parse(f.read())
    elif peer == "feedparser-rs":
        import feedparser_rs
        # The default limits stop at 10,000 entries and 100 MB; this file is past the first.
        limits = feedparser_rs.ParserLimits(max_entries=100_000, max_feed_size_bytes=512 * 1024 * 1024)
        start = time.perf_counter()
        with open(path, "rb") as f:
            result = feedparser_rs.parse_with_limits(f.read(), limits=limits)
    else:
        sys.exit(f"unknown peer {peer}")
    seconds = time.perf_counter() - start
    entries = result.entries
    dated = sum(1 for entry in entries if entry.get("published_parsed"))
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    print(len(entries), f"{seconds:.4f}", peak_kib, dated)


if __name__ == "__main__":
    main()
