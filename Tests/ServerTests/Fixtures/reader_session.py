"""A whole reader session against a running `aggregate serve`, driven by PyPI `google-reader` (the client library
Miniflux's maintainers wrote and run against Miniflux and FreshRSS). Prints what it saw as one JSON object;
ReaderClientLibraryTests checks it.

Usage: reader_session.py BASE_URL USERNAME PASSWORD FEED_STREAM
"""
import json
import sys

import google_reader
import requests

base, username, password, feed_stream = sys.argv[1:5]
client = google_reader.Client(base)
seen = {}

try:
    client.login(username, password + "-wrong")
    seen["wrongPasswordRefused"] = False
except google_reader.AuthenticationError:
    seen["wrongPasswordRefused"] = True

auth = client.login(username, password)
token = client.get_token(auth)
seen["tokenGiven"] = bool(token)
seen["userName"] = client.get_user_info(auth).user_name
subscriptions = client.list_subscriptions(auth)
seen["subscriptions"] = [s.id for s in subscriptions]
seen["categories"] = {s.id: [c.label for c in s.categories] for s in subscriptions}
seen["tags"] = [t.id for t in client.list_tags(auth)]


def unread_count():
    response = requests.get(
        f"{base}/reader/api/0/unread-count", params={"output": "json"},
        headers={"Authorization": f"GoogleLogin auth={auth.AccessToken}"})
    response.raise_for_status()
    return {entry["id"]: entry["count"] for entry in response.json()["unreadcounts"]}


def ids(stream, **filters):
    return [ref.id for ref in client.get_stream_items_ids(auth, stream, **filters).item_refs]


reading_list = google_reader.STREAM_READING_LIST
read = google_reader.STREAM_READ
unread = ids(reading_list, exclude_target=read)
seen["unreadBefore"] = len(unread)
seen["countsBefore"] = unread_count()

# Pages of two, following the continuation, give the same ids as one page.
paged, continuation = [], None
while True:
    page = client.get_stream_items_ids(auth, reading_list, limit=2, continuation=continuation, exclude_target=read)
    paged += [ref.id for ref in page.item_refs]
    continuation = page.continuation
    if not continuation:
        break
seen["pagedSame"] = paged == unread

long_ids = [google_reader.get_long_item_id(int(i)) for i in unread]
contents = client.get_stream_items_contents(auth, token, long_ids)
seen["contentIDs"] = [item.id for item in contents.items]
seen["longIDs"] = long_ids
seen["titles"] = sorted(item.title for item in contents.items)
seen["origins"] = sorted({item.origin.stream_id for item in contents.items})

first, second = long_ids[0], long_ids[1]
client.edit_tags(auth, token, [first], add_tags=[read])
client.edit_tags(auth, token, [second], add_tags=[google_reader.STREAM_STARRED])
seen["unreadAfterRead"] = len(ids(reading_list, exclude_target=read))
seen["readIDs"] = ids(reading_list, include_target=read)
seen["starredIDs"] = ids(google_reader.STREAM_STARRED)
seen["countsAfterRead"] = unread_count()
after = client.get_stream_items_contents(auth, token, [first, second]).items
seen["categoriesAfter"] = [sorted(c for c in item.categories if "/state/" in c) for item in after]

client.edit_tags(auth, token, [first], remove_tags=[read])
seen["unreadAfterUnread"] = len(ids(reading_list, exclude_target=read))

client.mark_all_as_read(auth, token, feed_stream)
seen["feedUnreadAfterMarkAll"] = len(ids(feed_stream, exclude_target=read))
seen["unreadAfterMarkAll"] = len(ids(reading_list, exclude_target=read))
seen["countsAfterMarkAll"] = unread_count()

try:
    client.get_stream_items_ids(google_reader.AuthToken("GoogleLogin", "forged"), reading_list)
    seen["forgedTokenRefused"] = False
except google_reader.AuthenticationError:
    seen["forgedTokenRefused"] = True

print(json.dumps(seen))
