#!/usr/bin/env python3
"""The dashboard over a large fleet in a real browser (headless Chromium through Selenium), for ServerTests.

  dashboard_scale_check.py BASE_URL DATA_DIR BREAK_SOURCE SEARCH_SOURCE [SCREENSHOT.png]

Opens / and waits until it listens to /events; reads the summary's counts and the table; saves a screenshot when
asked; removes BREAK_SOURCE's file (DATA_DIR/ID.ndjson) and asks the server to refresh it, then waits, without
reloading, until the source is listed under "Needs attention" and its row says so; searches for SEARCH_SOURCE
through the form; follows its link to its page and counts its items; opens the newest items. Prints one JSON
object. Needs chromium, chromium-driver and selenium (.ci/run installs them).
"""
import json
import os
import shutil
import sys
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait


def counts(driver):
    return driver.execute_script(
        "var out = {}; document.querySelectorAll('#summary [data-count]').forEach(function (c) {"
        " out[c.getAttribute('data-count')] = c.querySelector('dd').textContent.trim(); }); return out;")


def navigate(driver, wait, action):
    """Does `action` (a click or a submit that loads a page) and waits until the new page has loaded: a marker set
    on the old page is gone and the new one is complete. The URL alone changes before the old page is replaced,
    so reading the page then could read the old one."""
    driver.execute_script("window.__oldPage = true;")
    action()
    wait.until(lambda d: d.execute_script(
        "return window.__oldPage === undefined && document.readyState === 'complete';"))


def main():
    base, data_dir, break_source, search_source = sys.argv[1:5]
    screenshot = sys.argv[5] if len(sys.argv) > 5 else None
    options = webdriver.ChromeOptions()
    options.add_argument("--headless=new")
    options.add_argument("--no-sandbox")
    options.add_argument("--disable-gpu")
    options.add_argument("--disable-dev-shm-usage")
    options.add_argument("--window-size=1280,1000")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    for binary in ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"):
        if os.path.exists(binary):
            options.binary_location = binary
            break
    driver_path = shutil.which("chromedriver") or "/usr/bin/chromedriver"
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    result = {}
    try:
        # A bound for a broken page, not a speed goal: under the full suite on two cores a step can take a minute.
        wait = WebDriverWait(driver, 300)
        driver.get(base + "/")
        wait.until(lambda d: d.find_element(By.TAG_NAME, "html").get_attribute("data-live") == "true")
        result["before"] = counts(driver)
        result["rows"] = len(driver.find_elements(By.CSS_SELECTOR, "#sources tbody tr"))
        result["headers"] = [th.text for th in driver.find_elements(By.CSS_SELECTOR, "#sources thead th[scope=col]")]
        result["shown"] = driver.find_element(By.ID, "shown").text
        if screenshot:
            driver.save_screenshot(screenshot)
        marker = driver.execute_script("window.__samePage = 42; return window.__samePage;")

        os.remove(os.path.join(data_dir, break_source + ".ndjson"))
        request = urllib.request.Request(base + "/api/sources/" + break_source + "/refresh", method="POST")
        urllib.request.urlopen(request).read()

        def listed(d):
            return d.execute_script(
                "var id = arguments[0]; var item = Array.from(document.querySelectorAll('#attention li'))"
                ".find(function (li) { return li.getAttribute('data-source') === id; });"
                " if (!item) return null; return item.querySelector('.badge').textContent;", break_source)

        def row(d):
            return d.execute_script(
                "var id = arguments[0]; var row = Array.from(document.querySelectorAll('#sources tbody tr'))"
                ".find(function (r) { return r.getAttribute('data-source') === id; });"
                " return row ? [row.getAttribute('data-status'), row.querySelector('td.status').textContent] : null;",
                break_source)

        # The attention list, the row, the counts and the title are each changed by an event of their own: wait
        # for all four (each is what the failure must come to), not for the first and then read the others.
        def settled(d):
            found = listed(d)
            now = counts(d)
            status = row(d)
            if found and status and status[0] != "ok" and now.get("error") == "1" and "failing" in d.title:
                return found
            return None

        try:
            result["attention"] = wait.until(settled)
        except Exception:
            print("page now:", driver.find_element(By.ID, "summary").get_attribute("outerHTML")[:4000], file=sys.stderr)
            raise
        result["row"] = row(driver)
        result["after"] = counts(driver)
        result["title"] = driver.title
        result["samePage"] = driver.execute_script("return window.__samePage;") == marker

        search = driver.find_element(By.CSS_SELECTOR, "form.filters input[name=q]")
        search.send_keys(search_source)
        navigate(driver, wait, search.submit)
        result["searchRows"] = [tr.get_attribute("data-source") for tr in driver.find_elements(By.CSS_SELECTOR, "#sources tbody tr")]
        result["searchValue"] = driver.find_element(By.CSS_SELECTOR, "form.filters input[name=q]").get_attribute("value")

        navigate(driver, wait, driver.find_element(By.CSS_SELECTOR, "#sources tbody th a").click)
        card = driver.find_element(By.CSS_SELECTOR, "section.card")
        result["sourcePage"] = {"source": card.get_attribute("data-source"),
                                "items": len(card.find_elements(By.CSS_SELECTOR, "[data-item]"))}

        navigate(driver, wait, driver.find_element(By.LINK_TEXT, "Newest items").click)
        result["newest"] = [tr.get_attribute("data-item") for tr in driver.find_elements(By.CSS_SELECTOR, "#items tbody tr")]
        result["consoleErrors"] = [entry["message"] for entry in driver.get_log("browser") if entry["level"] == "SEVERE"]
        json.dump(result, sys.stdout)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
