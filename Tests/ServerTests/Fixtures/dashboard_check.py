#!/usr/bin/env python3
"""The dashboard in a real browser (headless Chromium through Selenium), for ServerTests.

  dashboard_check.py BASE_URL TOKEN BREAK_FILE BREAK_SOURCE

Logs in with TOKEN through the form, follows each source's link from the table on / to its page and reads its
card there (the items laid out by kind), then, on BREAK_SOURCE's page, removes BREAK_FILE and presses its refresh
button, and waits until that card's badge says error (or stale: the store still has its last good copy) without
reloading the page; then measures the contrast of every badge, real and probed, in the light and dark schemes.
Prints one JSON object: the cards before, the badge after, the contrasts, the browser's console errors.
Needs chromium, chromium-driver and selenium (.ci/run installs them).
"""
import json
import os
import re
import shutil
import sys
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def cards(driver):
    result = []
    for card in driver.find_elements(By.CSS_SELECTOR, "section.card"):
        result.append({
            "source": card.get_attribute("data-source"),
            "status": card.get_attribute("data-status"),
            "badge": card.find_element(By.CSS_SELECTOR, ".badge").text,
            "items": [e.get_attribute("data-item") for e in card.find_elements(By.CSS_SELECTOR, "[data-item]")],
            "text": card.text,
            "images": [e.get_attribute("src") for e in card.find_elements(By.TAG_NAME, "img")],
            "chips": [e.text for e in card.find_elements(By.CSS_SELECTOR, ".chip")],
            "layout": [e.tag_name + "." + (e.get_attribute("class") or "")
                       for e in card.find_elements(By.CSS_SELECTOR, ".cities, .issues, .movies, .entries, .records")],
        })
    return result


def open_streams(base, token):
    """The server's count of open event streams, from /metrics."""
    request = urllib.request.Request(base + "/metrics", headers={"Authorization": "Bearer " + token})
    text = urllib.request.urlopen(request).read().decode()
    found = re.search(r"^aggregate_sse_clients (\d+)", text, re.MULTILINE)
    return int(found.group(1)) if found else None


def settled_streams(wait, base, token):
    """Waits until only one stream is open (the page shown); returns the count then, or the last one seen."""
    try:
        wait.until(lambda d: open_streams(base, token) == 1)
    except TimeoutException:
        pass
    return open_streams(base, token)


def live(driver):
    return driver.find_element(By.TAG_NAME, "html").get_attribute("data-live") == "true"


# The WCAG 2 contrast ratio of each badge's text on its own background, from the browser's computed colours,
# and the product of the opacities of the badge and everything around it (anything below 1 blends the badge into
# the page, which the ratio alone would not show). Real badges on the page, and one probe of every status placed
# where real ones sit: in the table's status cell, also of a row being refreshed, and in a card's header.
CONTRAST_SCRIPT = """
var states = arguments[0];
function channels(colour) {
  var m = colour.match(/rgba?\\(([^)]*)\\)/);
  if (!m) return null;
  var parts = m[1].split(/[\\s,\\/]+/).filter(function (p) { return p.length; }).map(Number);
  return {rgb: parts.slice(0, 3), alpha: parts.length > 3 ? parts[3] : 1};
}
function luminance(rgb) {
  var c = rgb.map(function (v) { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}
function measure(el, where) {
  var style = getComputedStyle(el);
  var text = channels(style.color), back = channels(style.backgroundColor);
  var opacity = 1;
  for (var node = el; node && node.nodeType === 1; node = node.parentElement) {
    opacity *= Number(getComputedStyle(node).opacity);
  }
  var ratio = null;
  if (text && back) {
    var a = luminance(text.rgb), b = luminance(back.rgb);
    ratio = Math.round((Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05) * 100) / 100;
  }
  return {where: where, state: el.className.replace(/^badge\\s*/, ""), color: style.color,
          background: style.backgroundColor, ratio: ratio, opaque: !!(text && back && text.alpha === 1 && back.alpha === 1),
          opacity: opacity};
}
var found = [];
document.querySelectorAll(".badge").forEach(function (el) {
  var where = el.closest("#attention") ? "attention" : el.closest("#sources") ? "table" : el.closest(".card") ? "card" : "page";
  found.push(measure(el, where));
});
var places = [];
var cell = document.querySelector("#sources tbody td.status");
if (cell) {
  places.push(["table probe", cell]);
  var row = cell.parentElement.cloneNode(true);
  row.setAttribute("data-running", "true");
  cell.parentElement.parentElement.appendChild(row);
  places.push(["refreshing row probe", row.querySelector("td.status")]);
}
var header = document.querySelector("section.card > header");
if (header) places.push(["card probe", header]);
var probes = [];
places.forEach(function (place) {
  states.forEach(function (state) {
    var probe = document.createElement("span");
    probe.className = "badge " + state;
    probe.textContent = state;
    place[1].appendChild(probe);
    probes.push(measure(probe, place[0]));
    probe.remove();
  });
});
return {page: found, probes: probes};
"""

STATES = ["ok", "error", "timeout", "stale", "skipped", "loading"]


def badge_contrast(driver, wait, base, card_page):
    """Each badge's contrast on / (the table and "Needs attention") and on a card's page, light and dark."""
    result = {}
    for scheme in ("light", "dark"):
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia",
                               {"features": [{"name": "prefers-color-scheme", "value": scheme}]})
        measured = []
        for url in (base + "/", card_page):
            driver.get(url)
            wait.until(live)
            page = driver.execute_script(CONTRAST_SCRIPT, STATES)
            measured += page["page"] + page["probes"]
        result[scheme] = measured
    driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    return result


def main():
    base, token, break_file, break_source = sys.argv[1:5]
    options = webdriver.ChromeOptions()
    options.add_argument("--headless=new")
    options.add_argument("--no-sandbox")
    options.add_argument("--disable-gpu")
    options.add_argument("--disable-dev-shm-usage")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    for binary in ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"):
        if os.path.exists(binary):
            options.binary_location = binary
            break
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        driver.get(base + "/")
        form = driver.find_element(By.CSS_SELECTOR, "input[name=token]")
        form.send_keys(token)
        form.submit()
        # A bound for a broken page, not a speed goal: under the full suite on two cores a step can take a minute.
        wait = WebDriverWait(driver, 300)
        wait.until(live)
        # The table's order is failing first, then manifest order: every source here is ok.
        links = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "#sources tbody th a")]
        before = []
        for link in links:
            driver.get(link)
            before += cards(driver)
        # Each page left closed its stream: a browser opens six connections to a host at most.
        streams_after_visits = settled_streams(wait, base, token)
        # A page kept for "back" (its stream closed) loads afresh and listens again: the marker set on the copy
        # kept is gone.
        driver.execute_script("window.__kept = 7;")
        driver.get(base + "/")
        wait.until(live)
        driver.back()
        wait.until(live)
        fresh_after_back = driver.execute_script("return window.__kept === undefined;")
        streams_after_back = settled_streams(wait, base, token)
        driver.get(links[[c["source"] for c in before].index(break_source)])
        wait.until(live)
        os.remove(break_file)
        marker = driver.execute_script("window.__samePage = 42; return window.__samePage;")
        button = [b for b in driver.find_elements(By.CSS_SELECTOR, "button[data-refresh]")
                  if b.get_attribute("data-refresh") == break_source][0]
        button.click()

        def broken(d):
            # One script, so a card swapped in meanwhile cannot go stale under the check.
            return d.execute_script(
                "var id = arguments[0]; return Array.from(document.querySelectorAll('section.card')).some(function (c) {"
                " return c.getAttribute('data-source') === id && ['error', 'stale'].indexOf(c.getAttribute('data-status')) >= 0; });",
                break_source)

        try:
            wait.until(broken)
        except Exception:
            print("cards now:", json.dumps(cards(driver)), file=sys.stderr)
            print("console:", driver.get_log("browser"), file=sys.stderr)
            raise
        after = None
        for _ in range(20):
            try:
                after = cards(driver)
                break
            except StaleElementReferenceException:
                continue
        same_page = driver.execute_script("return window.__samePage;") == marker
        title = driver.title
        # With the broken source, / has an error or stale badge in the table and under "Needs attention".
        contrast = badge_contrast(driver, wait, base, links[[c["source"] for c in before].index(break_source)])
        errors = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        json.dump({"before": before, "after": after, "samePage": same_page, "consoleErrors": errors,
                   "title": title, "streams": [streams_after_visits, streams_after_back],
                   "freshAfterBack": fresh_after_back, "contrast": contrast}, sys.stdout)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
