#!/usr/bin/env python3
"""The desk in a real browser (docs/web-desk.md "The page"; README "The desk in the browser").

Starts `inspector serve` on a free loopback port over a freshly seeded case, signs in with a
new token and drives the page in headless Chromium through Selenium (Debian's chromium,
chromium-driver and python3-selenium): selects a suspect, edits every field of the inspector
and checks each value with the command line and in the history with the investigator's name;
toggles and resizes the inspector and reloads (the width is remembered); a 390 x 844 window
shows the sheet at its two heights; the keyboard moves the selection; a change made with the
command line appears without a reload; a hostile name is shown as text and runs nothing; a
write without a session or without the CSRF token is refused. Screenshots of the wide and the
compact layout go to the artifacts directory (.ci/artifacts by default).

Usage: python3 scripts/desk-browser-test.py [--inspector PATH] [--artifacts DIR]
Exits 0 when every check passes, 1 at the first failure (with what was expected and seen).
"""

import argparse
from http.cookiejar import CookieJar
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

HOSTILE = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>'


def fail(message):
    print(f"desk-browser-test: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def check(condition, message):
    if not condition:
        fail(message)
    print(f"ok - {message}")


class Case:
    """The seeded case file and the command line over it."""

    def __init__(self, inspector, directory):
        self.inspector = inspector
        self.db = os.path.join(directory, "cases.sqlite")

    def run(self, *arguments):
        result = subprocess.run(
            [self.inspector, "--db", self.db, *arguments], capture_output=True, text=True)
        if result.returncode != 0:
            fail(f"inspector {' '.join(arguments)}: exit {result.returncode}: {result.stderr}")
        return result.stdout

    def json(self, *arguments):
        return json.loads(self.run(*arguments, "--format", "json"))


def free_port():
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until(condition, what, timeout=5.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = condition()
            if value:
                return value
        except Exception:  # the page may be mid-render; try again
            pass
        time.sleep(0.05)
    fail(f"timed out after {timeout} s waiting for {what}")


def call(base, method, path, body=None, headers=None, opener=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    request.add_header("Origin", base)
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with (opener or urllib.request.build_opener()).open(request) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--inspector", default=".build/debug/inspector")
    parser.add_argument("--artifacts", default=".ci/artifacts")
    options = parser.parse_args()
    inspector = os.path.abspath(options.inspector)
    os.makedirs(options.artifacts, exist_ok=True)

    with tempfile.TemporaryDirectory() as directory:
        case = Case(inspector, directory)
        case.run("init", "--seed")
        case.run("animal", "add", "--name", HOSTILE, "--species", "Hostile", "--paw", "small")
        token = case.json("serve", "token", "add", "ann")["token"]
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = subprocess.Popen(
            [inspector, "--db", case.db, "serve", "--listen", f"127.0.0.1:{port}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            wait_until(lambda: call(base, "GET", "/api/session")[0] == 200, "the server")
            refusals(base, token)
            browse(base, token, case, options.artifacts)
        finally:
            server.terminate()
            started = time.monotonic()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
                fail("serve did not stop within 30 s of SIGTERM")
        check(server.returncode == 0,
              f"serve stopped cleanly on SIGTERM (exit {server.returncode}, "
              f"{time.monotonic() - started:.1f} s)")
    print("desk-browser-test: all checks passed")


def refusals(base, token):
    """A write without a session, or with one but without its CSRF token, is refused."""
    edit = {"field": "alibi", "expected": "", "value": "forged"}
    status, _ = call(base, "PATCH", "/api/suspects/4", edit)
    check(status == 401, f"a write without a session is refused (got {status})")
    cookies = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(cookies))
    status, session = call(base, "POST", "/api/session", {"token": token}, opener=opener)
    check(status == 200 and session["investigator"] == "ann", "signing in with the token")
    status, _ = call(base, "PATCH", "/api/suspects/4", edit, opener=opener)
    check(status == 403, f"a write without the CSRF token is refused (got {status})")
    status, _ = call(base, "PATCH", "/api/suspects/4", edit,
                     headers={"X-CSRF-Token": "not-the-token"}, opener=opener)
    check(status == 403, f"a write with a wrong CSRF token is refused (got {status})")


def chrome(width, height):
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--lang=en-US",
                     f"--window-size={width},{height}"]:
        options.add_argument(argument)
    options.binary_location = "/usr/bin/chromium"
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(options=options, service=Service("/usr/bin/chromedriver"))


def row_named(driver, title):
    for row in driver.find_elements(By.CSS_SELECTOR, "#suspect-rows tr"):
        if title in row.text:
            return row
    return None


def click(driver, by, selector):
    """Clicks the element, found again if the page redrew it meanwhile."""
    for _ in range(5):
        try:
            driver.find_element(by, selector).click()
            return
        except StaleElementReferenceException:
            time.sleep(0.1)
    fail(f"could not click {selector}")


def value(driver, element_id):
    return driver.find_element(By.ID, element_id).get_attribute("value")


def settle(driver, field):
    """Waits until the field's edit was answered (no error shown, no request pending)."""
    time.sleep(0.3)
    error = driver.find_element(By.ID, f"error-{field}").text
    if error:
        fail(f"editing {field} was refused: {error}")


def browse(base, token, case, artifacts):
    driver = chrome(1280, 800)
    try:
        driver.get(base + "/")
        wait_until(lambda: driver.find_element(By.ID, "token-input").is_displayed(), "the sign-in form")
        driver.find_element(By.ID, "token-input").send_keys(token + Keys.ENTER)
        wait_until(lambda: row_named(driver, "Catie the Crow"), "the suspect table")
        check("Signed in as ann" in driver.find_element(By.ID, "session-name").text, "signed in as ann")

        # A hostile name is text, and nothing ran.
        hostile = wait_until(lambda: row_named(driver, "the Hostile"), "the hostile suspect's row")
        check(HOSTILE in hostile.text, "a hostile name is shown as text")
        check(driver.execute_script("return window.__pwned === undefined"), "the hostile name ran no script")
        check(not driver.find_elements(By.CSS_SELECTOR, "#suspect-rows img, #suspect-rows script"),
              "the hostile name made no element")

        # The empty inspector, then a selection.
        check("Select a suspect to inspect" in driver.find_element(By.ID, "inspector").text,
              "the empty inspector's words")
        row_named(driver, "Catie the Crow").click()
        wait_until(lambda: value(driver, "field-name") == "Catie", "the crow in the inspector")
        check(row_named(driver, "Catie the Crow").get_attribute("aria-selected") == "true",
              "the selected row is marked")
        check(driver.find_element(By.ID, "field-alibi").get_attribute("placeholder")
              == "What was Catie doing at the time of nibbling?", "the alibi's prompt names the suspect")
        driver.save_screenshot(os.path.join(artifacts, "desk-wide.png"))
        unlabelled = driver.execute_script("""
            return Array.from(document.querySelectorAll('input, select, textarea, button'))
              .filter((c) => !(c.labels && c.labels.length) && !c.getAttribute('aria-label')
                && !c.textContent.trim())
              .map((c) => c.id || c.outerHTML.slice(0, 60));""")
        check(not unlabelled, f"every control has a label ({unlabelled})")

        # Every field of the inspector; each edit is one change set after these.
        before = case.json("history", "--limit", "1")[0]["id"]
        name = driver.find_element(By.ID, "field-name")
        name.send_keys(Keys.CONTROL, "a")
        name.send_keys("Catherine" + Keys.TAB)
        settle(driver, "name")
        wait_until(lambda: row_named(driver, "Catherine the Crow"), "the table following the name")
        species = driver.find_element(By.ID, "field-species")
        species.send_keys(Keys.CONTROL, "a")
        species.send_keys("Raven" + Keys.TAB)
        settle(driver, "species")
        emoji = driver.find_element(By.ID, "field-emoji")
        emoji.send_keys(Keys.CONTROL, "a")
        emoji.send_keys(Keys.BACKSPACE + Keys.TAB)
        settle(driver, "emoji")
        driver.find_element(By.CSS_SELECTOR, "#field-paw option[value=large]").click()
        settle(driver, "paw_size")
        click(driver, By.XPATH, "//ul[@id='fruit-toggles']//label[normalize-space()='Elstar Apple']")
        wait_until(lambda: driver.find_elements(By.CSS_SELECTOR, "[aria-label='Move Elstar Apple up']"), "Elstar chosen")
        settle(driver, "favorite_fruits")
        click(driver, By.CSS_SELECTOR, "[aria-label='Move Elstar Apple up']")
        settle(driver, "favorite_fruits")
        click(driver, By.XPATH, "//ul[@id='fruit-toggles']//label[normalize-space()='Hauer Pippin Apple']")
        settle(driver, "favorite_fruits")
        alibi = driver.find_element(By.ID, "field-alibi")
        alibi.send_keys("Counting seeds by the pond.")
        name.click()
        settle(driver, "alibi")
        driver.find_element(By.ID, "sleep-add").click()
        wait_until(lambda: value(driver, "field-sleep") == "22:30", "the new sleep schedule")
        sleep = driver.find_element(By.ID, "field-sleep")
        # Focus lands on the hour; the browser runs in en-US, a 12-hour clock.
        driver.execute_script("arguments[0].focus()", sleep)
        sleep.send_keys("1115P")
        name.click()
        settle(driver, "sleep_schedule")
        level = driver.find_element(By.ID, "field-level")
        level.send_keys(Keys.END)
        for _ in range(5):
            level.send_keys(Keys.ARROW_LEFT)
        name.click()
        settle(driver, "suspicion_level")
        wait_until(lambda: "Extremely suspicious!" in row_named(driver, "Catherine the Raven").text,
                   "the table following the level")

        shown = case.json("show", "id:4")
        expected = {
            "name": "Catherine", "species": "Raven", "emoji": None, "paw_size": "large",
            "favorite_fruits": ["Pink Pearl Apple", "Golden Nectar Plum", "Elstar Apple"],
            "alibi": "Counting seeds by the pond.",
            "sleep_schedule": {"sleep": "23:15", "wake": "06:30"}, "suspicion_level": 0.95,
        }
        for key, want in expected.items():
            check(shown[key] == want, f"the command line shows {key} = {want!r} (got {shown[key]!r})")
        history = [change_set for change_set in case.json("history", "id:4")
                   if change_set["id"] > before]
        actors = {change_set["actor"] for change_set in history}
        check(actors == {"ann"}, f"every edit is recorded with ann as actor (got {actors})")
        check(len(history) >= 10, f"one change set per edit (got {len(history)})")

        # A change made with the command line appears without a reload.
        case.run("alibi", "id:4", "Seen at the orchard")
        wait_until(lambda: value(driver, "field-alibi") == "Seen at the orchard",
                   "the command line's alibi on the page", timeout=3)
        check(True, "a change made with the command line appears without a reload")

        # Keyboard: arrows move the selection, Enter opens the inspector.
        row = row_named(driver, "Catherine the Raven")
        row.click()
        row.send_keys(Keys.ARROW_DOWN)
        wait_until(lambda: value(driver, "field-name") == "Miko", "ArrowDown selecting the cat")
        outline = driver.execute_script("return getComputedStyle(document.activeElement).outlineStyle")
        check(outline == "solid", f"the focused row shows its focus (outline {outline})")
        driver.switch_to.active_element.send_keys(Keys.ARROW_UP)
        wait_until(lambda: value(driver, "field-name") == "Catherine", "ArrowUp selecting the raven")
        driver.find_element(By.ID, "toggle-inspector").click()
        check(not driver.find_element(By.ID, "inspector").is_displayed(), "Toggle Inspector hides it")
        driver.switch_to.active_element.send_keys(Keys.SHIFT, Keys.TAB)
        row_named(driver, "Catherine the Raven").send_keys(Keys.ENTER)
        wait_until(lambda: driver.switch_to.active_element.get_attribute("id") == "field-name",
                   "Enter opening the inspector on its first field")
        check(driver.find_element(By.ID, "inspector").is_displayed(), "Enter shows the inspector")

        # Resize with the keyboard and reload: the width is remembered.
        inspector_width = lambda: driver.execute_script(
            "return document.getElementById('inspector').getBoundingClientRect().width")
        check(abs(inspector_width() - 300) < 1, f"the inspector is 300 px wide (got {inspector_width()})")
        resizer = driver.find_element(By.ID, "inspector-resizer")
        for _ in range(6):
            resizer.send_keys(Keys.ARROW_LEFT)
        check(abs(inspector_width() - 360) < 1, f"the arrows widen it to 360 px (got {inspector_width()})")
        ActionChains(driver).click_and_hold(resizer).move_by_offset(-200, 0).release().perform()
        check(abs(inspector_width() - 400) < 1, f"dragging stops at 400 px (got {inspector_width()})")
        ActionChains(driver).click_and_hold(resizer).move_by_offset(120, 0).release().perform()
        check(abs(inspector_width() - 280) < 2, f"dragging narrows it to 280 px (got {inspector_width()})")
        driver.refresh()
        wait_until(lambda: row_named(driver, "Catherine the Raven"), "the table after the reload")
        check(abs(inspector_width() - 280) < 2, f"the width is remembered after a reload (got {inspector_width()})")

        # The compact layout: a bottom sheet with two heights.
        driver.set_window_size(390, 844)
        wait_until(lambda: driver.find_element(By.ID, "sheet-handle").is_displayed(), "the sheet's handle")
        viewport = driver.execute_script("return window.innerHeight")
        sheet = lambda: driver.find_element(By.ID, "inspector").rect
        medium = sheet()
        check(abs(medium["height"] - viewport * 0.5) < 3 and medium["y"] + medium["height"] >= viewport - 1,
              f"the medium sheet is half the window at its bottom ({medium}, window {viewport})")
        driver.find_element(By.ID, "sheet-handle").click()
        wait_until(lambda: sheet()["height"] > viewport * 0.8, "the large sheet")
        driver.save_screenshot(os.path.join(artifacts, "desk-compact-large.png"))
        handle = driver.find_element(By.ID, "sheet-handle")
        ActionChains(driver).click_and_hold(handle).move_by_offset(0, int(viewport * 0.35)).release().perform()
        wait_until(lambda: abs(sheet()["height"] - viewport * 0.5) < 3, "dragging back to the medium sheet")
        first = driver.find_elements(By.CSS_SELECTOR, "#suspect-rows tr")[0]
        check(first.rect["y"] + first.rect["height"] <= viewport * 0.5, "the table shows above the medium sheet")
        first.click()
        wait_until(lambda: value(driver, "field-name") == "Fabrizio", "a row above the sheet selects")
        driver.save_screenshot(os.path.join(artifacts, "desk-compact.png"))

        # The Favourite Fruits header sorts as `list --sort fruits` does, then reversed.
        driver.set_window_size(1280, 800)
        titles = lambda: driver.execute_script(
            "return Array.from(document.querySelectorAll('#suspect-rows .suspect-title'))"
            ".map((t) => t.textContent)")
        fruits_header = 'button.sort-button[data-sort="fruits"]'
        for arguments, direction in ((("--sort", "fruits"), "ascending"),
                                     (("--sort", "fruits", "--reverse"), "descending")):
            want = [f"{s['name']} the {s['species']}" for s in case.json("list", *arguments)]
            click(driver, By.CSS_SELECTOR, fruits_header)
            wait_until(lambda: titles() == want,
                       f"the rows in the order of list {' '.join(arguments)} ({want})")
            sort = driver.find_element(By.CSS_SELECTOR, fruits_header).find_element(By.XPATH, "..")
            check(sort.get_attribute("aria-sort") == direction,
                  f"the Favourite Fruits header sorts {direction}, as list {' '.join(arguments)}")

        errors = [entry for entry in driver.get_log("browser")
                  if entry["level"] == "SEVERE" and "Content Security Policy" in entry["message"]]
        check(not errors, f"no Content-Security-Policy violation ({errors})")
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
