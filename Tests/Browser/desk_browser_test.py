"""The desk in a real browser: headless Chromium driven by Selenium against `inspector serve`.

Run by scripts/browser-test.sh, which seeds a case file, adds the investigator "ann", starts the
server and passes: --url, --token, --inspector, --db, --artifacts. Each check prints one line;
the first failure raises and the script exits 1.

What it checks (docs/web-desk.md): sign-in; the seed case's table; selecting a suspect and
editing every field of the inspector, each value read back with the command line and each
change set in `history` with ann as actor; toggling and resizing the inspector, the width kept
over a reload; keyboard selection; a change made with the command line appearing without a
reload; a hostile name shown as text, running nothing; writes without a session or a CSRF token
refused; the compact layout's sheet and its two heights; screenshots of both layouts.
"""

import argparse
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

SEED_TITLES = [
    "Fabrizio the Fish",
    "Soloman the Snail",
    "Ding the Dove",
    "Catie the Crow",
    "Miko the Cat",
    "Ricardo the Rabbit",
    "Cornelius the Duck",
    "Maria the Mouse",
    "Haku the Hedgehog",
    "Rénard the Raccoon",
]


def parse_arguments():
    parser = argparse.ArgumentParser()
    for name in ("url", "token", "inspector", "db", "artifacts"):
        parser.add_argument("--" + name, required=True)
    return parser.parse_args()


ARGS = parse_arguments()


def passed(what):
    print("ok: " + what, flush=True)


def expect(condition, what):
    if not condition:
        raise AssertionError(what)


def cli(*arguments):
    """Runs inspector on the served case file (as ann's colleague bob) and returns stdout."""
    result = subprocess.run(
        [ARGS.inspector, "--db", ARGS.db, "--as", "bob", *arguments],
        capture_output=True, text=True, check=False)
    expect(result.returncode == 0,
           f"inspector {' '.join(arguments)} exited {result.returncode}: {result.stderr.strip()}")
    return result.stdout


def cli_json(*arguments):
    return json.loads(cli("--format", "json", *arguments))


def make_driver(width, height):
    options = webdriver.ChromeOptions()
    options.add_argument("--headless=new")
    options.add_argument("--no-sandbox")
    options.add_argument("--disable-dev-shm-usage")
    options.add_argument("--disable-gpu")
    options.add_argument(f"--window-size={width},{height}")
    for binary in ("/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if os.path.exists(binary):
            options.binary_location = binary
            break
    service = None
    for driver in ("/usr/bin/chromedriver", "/usr/lib/chromium/chromedriver"):
        if os.path.exists(driver):
            service = Service(executable_path=driver)
            break
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    if service is None:
        return webdriver.Chrome(options=options)
    return webdriver.Chrome(options=options, service=service)


def wait_until(driver, condition, what, timeout=10):
    try:
        return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: condition())
    except TimeoutException:
        raise AssertionError(f"timed out waiting for {what}") from None


def by_id(driver, element_id):
    return driver.find_element(By.ID, element_id)


def row_titles(driver):
    return [cell.text for cell in driver.find_elements(By.CSS_SELECTOR, "#suspect-rows .suspect-title")]


def row(driver, suspect_id):
    return driver.find_element(By.CSS_SELECTOR, f'#suspect-rows tr[data-id="{suspect_id}"]')


def set_text(driver, element_id, text):
    """Replaces a text control's value as a reader would, then leaves it (the page saves)."""
    control = by_id(driver, element_id)
    control.click()
    control.send_keys(Keys.CONTROL, "a")
    control.send_keys(Keys.DELETE)
    control.send_keys(text)
    control.send_keys(Keys.TAB)


def field_error(driver, field):
    return by_id(driver, "error-" + field).text


def sign_in(driver):
    driver.get(ARGS.url)
    wait_until(driver, lambda: by_id(driver, "sign-in-button").is_displayed(), "the sign-in button")
    by_id(driver, "sign-in-button").click()
    token = by_id(driver, "token-input")
    token.send_keys(ARGS.token)
    token.send_keys(Keys.ENTER)
    wait_until(driver, lambda: "ann" in by_id(driver, "session-name").text, "ann signed in")
    passed("signed in as ann with a personal access token")


def check_table(driver):
    wait_until(driver, lambda: len(row_titles(driver)) >= 10, "the seed suspects")
    titles = row_titles(driver)
    expect(titles[:10] == SEED_TITLES, f"table rows: {titles}")
    expect("Select a suspect to inspect" in by_id(driver, "inspector-empty").text, "empty inspector")
    expect("Fill out details from the interview" in by_id(driver, "inspector-empty").text,
           "empty inspector's second line")
    passed("the table shows the seed case's ten suspects in order; the inspector waits")


def select(driver, suspect_id, name):
    row(driver, suspect_id).click()
    wait_until(driver, lambda: by_id(driver, "field-name").get_attribute("value") == name,
               f"{name} in the inspector")
    expect(row(driver, suspect_id).get_attribute("aria-selected") == "true", "selected row")


def wait_saved(driver, suspect_id, check, what):
    """Waits until the command line sees the edit (the page saves on change)."""
    deadline = time.time() + 10
    while time.time() < deadline:
        shown = cli_json("show", f"id:{suspect_id}")
        if check(shown):
            return shown
        time.sleep(0.1)
    raise AssertionError(f"the command line never saw {what}: {shown}")


def edit_every_field(driver):
    select(driver, 2, "Soloman")
    placeholder = by_id(driver, "field-alibi").get_attribute("placeholder")
    expect(placeholder == "What was Soloman doing at the time of nibbling?",
           f"alibi prompt: {placeholder}")

    set_text(driver, "field-name", "Solomon")
    wait_saved(driver, 2, lambda s: s["name"] == "Solomon", "the new name")
    wait_until(driver, lambda: "Solomon the Snail" in row_titles(driver), "the table following")
    passed("name edited; the table follows")

    set_text(driver, "field-species", "Sea Snail")
    wait_saved(driver, 2, lambda s: s["species"] == "Sea Snail", "the species")
    passed("species edited")

    Select(by_id(driver, "field-paw")).select_by_visible_text("Large")
    wait_saved(driver, 2, lambda s: s["paw_size"] == "large", "paw size large")
    passed("paw size set to Large")

    before = cli_json("show", "id:2")["favorite_fruits"]
    expect(before == ["Elstar Apple", "Flavor King Plum"], f"seed favourites: {before}")
    driver.find_element(By.CSS_SELECTOR, '#fruit-toggles input[data-key="toggle:Pink Pearl Apple"]').click()
    wait_saved(driver, 2, lambda s: s["favorite_fruits"] == before + ["Pink Pearl Apple"],
               "the added favourite")
    wait_until(driver, lambda: driver.find_elements(
        By.CSS_SELECTOR, 'button[aria-label="Move Pink Pearl Apple up"]'), "the move button")
    driver.find_element(By.CSS_SELECTOR, 'button[aria-label="Move Pink Pearl Apple up"]').click()
    wait_saved(driver, 2, lambda s: s["favorite_fruits"] ==
               ["Elstar Apple", "Pink Pearl Apple", "Flavor King Plum"], "the moved favourite")
    wait_until(driver, lambda: driver.find_elements(
        By.CSS_SELECTOR, '#fruit-toggles input[data-key="toggle:Elstar Apple"]'), "the toggle")
    driver.find_element(By.CSS_SELECTOR, '#fruit-toggles input[data-key="toggle:Elstar Apple"]').click()
    wait_saved(driver, 2, lambda s: s["favorite_fruits"] == ["Pink Pearl Apple", "Flavor King Plum"],
               "the removed favourite")
    passed("favourite fruits added, moved up and removed, order kept")

    set_text(driver, "field-alibi", "Was counting shells on the beach.")
    wait_saved(driver, 2, lambda s: s["alibi"] == "Was counting shells on the beach.", "the alibi")
    passed("alibi edited")

    by_id(driver, "sleep-add").click()
    wait_saved(driver, 2, lambda s: s["sleep_schedule"] == {"sleep": "22:30", "wake": "06:30"},
               "the default sleep schedule")
    wake = by_id(driver, "field-wake")
    wait_until(driver, lambda: wake.is_displayed(), "the wake time")
    driver.execute_script(
        "arguments[0].value = '07:15'; arguments[0].dispatchEvent(new Event('change', {bubbles: true}));",
        wake)
    wait_saved(driver, 2, lambda s: s["sleep_schedule"] == {"sleep": "22:30", "wake": "07:15"},
               "the new wake time")
    passed("sleep schedule added (22:30-06:30) and its wake time changed to 07:15")

    level = by_id(driver, "field-level")
    level.click()
    for _ in range(100):
        level.send_keys(Keys.ARROW_LEFT)
    for _ in range(80):
        level.send_keys(Keys.ARROW_RIGHT)
    driver.execute_script("arguments[0].dispatchEvent(new Event('change', {bubbles: true}));", level)
    shown = wait_saved(driver, 2, lambda s: abs(s["suspicion_level"] - 0.8) < 1e-9, "level 0.8")
    expect(shown["suspicion_label"] == "Extremely suspicious!", f"label {shown['suspicion_label']}")
    wait_until(driver, lambda: "Extremely suspicious!" in row(driver, 2).text, "the table's band")
    passed("suspicion level set to 0.8 with the keyboard; the table shows Extremely suspicious!")

    history = cli_json("history", "id:2", "--limit", "20")
    by_ann = [entry for entry in history if entry.get("actor") == "ann"]
    expect(len(by_ann) >= 10, f"ann's change sets in the history: {len(by_ann)}")
    passed(f"the history holds {len(by_ann)} change sets by ann, one an edit")


def invalid_value_refused(driver):
    set_text(driver, "field-name", "")
    wait_until(driver, lambda: field_error(driver, "name") != "", "the name's error")
    expect(cli_json("show", "id:2")["name"] == "Solomon", "name kept after a refused edit")
    passed(f"an empty name is refused beside the field: {field_error(driver, 'name')!r}")
    by_id(driver, "field-name").send_keys(Keys.ESCAPE)


def toggle_and_resize(driver):
    inspector = by_id(driver, "inspector")
    by_id(driver, "toggle-inspector").click()
    wait_until(driver, lambda: not inspector.is_displayed(), "the inspector hidden")
    by_id(driver, "toggle-inspector").click()
    wait_until(driver, lambda: inspector.is_displayed(), "the inspector shown")
    width = inspector.size["width"]
    expect(abs(width - 300) <= 2, f"default width {width}")
    resizer = by_id(driver, "inspector-resizer")
    resizer.click()
    for _ in range(12):
        resizer.send_keys(Keys.ARROW_LEFT)
    wait_until(driver, lambda: inspector.size["width"] > 300, "a wider inspector")
    widened = inspector.size["width"]
    for _ in range(60):
        resizer.send_keys(Keys.ARROW_LEFT)
    wait_until(driver, lambda: inspector.size["width"] == 400, "the inspector at its widest, 400")
    driver.refresh()
    wait_until(driver, lambda: len(row_titles(driver)) >= 10, "the table after reload")
    inspector = by_id(driver, "inspector")
    expect(inspector.size["width"] == 400, f"width after reload {inspector.size['width']}")
    passed(f"inspector toggled off and on; resized 300 -> {widened} -> 400 px; 400 kept over a reload")


def keyboard(driver):
    row(driver, 1).click()
    wait_until(driver, lambda: by_id(driver, "field-name").get_attribute("value") == "Fabrizio",
               "Fabrizio selected")
    row(driver, 1).send_keys(Keys.ARROW_DOWN)
    row(driver, 2).send_keys(Keys.ARROW_DOWN)
    focused = driver.switch_to.active_element
    expect(focused.get_attribute("data-id") == "3", f"focus on row {focused.get_attribute('data-id')}")
    focused.send_keys(Keys.ENTER)
    wait_until(driver, lambda: by_id(driver, "field-name").get_attribute("value") == "Ding",
               "Ding in the inspector after Enter")
    expect(row(driver, 3).get_attribute("aria-selected") == "true", "row 3 selected")
    passed("arrow keys move through the table and Enter opens Ding in the inspector")


def live_change(driver):
    started = time.time()
    cli("alibi", "id:3", "Was seen by the pond all night.")
    wait_until(driver, lambda: by_id(driver, "field-alibi").get_attribute("value")
               == "Was seen by the pond all night.", "the command line's alibi on the page")
    cli("suspect", "id:4", "0.6")
    wait_until(driver, lambda: "Very suspicious" in row(driver, 4).text,
               "the command line's level in the table")
    passed(f"changes made with the command line appear without a reload ({time.time() - started:.2f} s)")


def hostile_name(driver):
    hostile = '<img src=x onerror="window.pwned=1"><script>window.pwned=2</script>'
    cli("animal", "add", "--name", hostile, "--species", "Lynx", "--paw", "small")
    wait_until(driver, lambda: any(hostile in title for title in row_titles(driver)),
               "the hostile name as text in the table")
    expect(driver.execute_script("return window.pwned === undefined"), "a script ran")
    expect(not driver.find_elements(By.CSS_SELECTOR, '#suspect-rows img, #suspect-rows script'),
           "markup from data in the table")
    passed("a name made of markup is shown as text and runs nothing")


def refused_writes(driver):
    cookie = driver.get_cookie("inspector_session")
    expect(cookie is not None, "session cookie")
    expect(cookie.get("httpOnly") is True, f"cookie HttpOnly: {cookie}")
    expect(cookie.get("sameSite") == "Strict", f"cookie SameSite: {cookie}")
    body = json.dumps({"field": "alibi", "expected": "", "value": "forged"}).encode()

    def patch(headers):
        request = urllib.request.Request(
            ARGS.url.rstrip("/") + "/api/suspects/5", data=body, method="PATCH",
            headers={"Content-Type": "application/json", **headers})
        try:
            with urllib.request.urlopen(request) as response:
                return response.status
        except urllib.error.HTTPError as error:
            return error.code

    without_session = patch({})
    without_csrf = patch({"Cookie": f"inspector_session={cookie['value']}"})
    wrong_csrf = patch({"Cookie": f"inspector_session={cookie['value']}", "X-CSRF-Token": "forged"})
    expect(without_session == 401, f"write without a session: {without_session}")
    expect(without_csrf == 403, f"write without a CSRF token: {without_csrf}")
    expect(wrong_csrf == 403, f"write with a wrong CSRF token: {wrong_csrf}")
    expect(cli_json("show", "id:5")["alibi"] != "forged", "a refused write was stored")
    passed("writes without a session (401) or a CSRF token (403, 403) are refused; nothing stored")


def screenshot(driver, name):
    os.makedirs(ARGS.artifacts, exist_ok=True)
    path = os.path.join(ARGS.artifacts, name)
    driver.save_screenshot(path)
    passed(f"screenshot {path}")


def wide_screenshot(driver):
    driver.set_window_size(1280, 800)
    row(driver, 1).click()
    wait_until(driver, lambda: by_id(driver, "field-name").get_attribute("value") == "Fabrizio",
               "Fabrizio selected")
    time.sleep(0.3)
    screenshot(driver, "desk-wide.png")


def compact(driver):
    driver.set_window_size(390, 844)
    time.sleep(0.3)
    inspector = by_id(driver, "inspector")
    height = driver.execute_script("return window.innerHeight")
    wait_until(driver, lambda: "sheet-medium" in inspector.get_attribute("class")
               or "sheet-large" in inspector.get_attribute("class"), "the sheet")
    if "sheet-large" in inspector.get_attribute("class"):
        by_id(driver, "sheet-handle").click()
    wait_until(driver, lambda: "sheet-medium" in inspector.get_attribute("class"), "the medium sheet")
    medium = inspector.rect
    expect(medium["y"] > height * 0.3, f"medium sheet top {medium['y']} of {height}")
    expect(medium["y"] + medium["height"] >= height - 2, "the sheet sits at the bottom")
    table_rect = by_id(driver, "table-scroll").rect
    expect(table_rect["y"] < medium["y"], "the table above the medium sheet")
    row(driver, 2).click()
    wait_until(driver, lambda: by_id(driver, "field-name").get_attribute("value") == "Solomon",
               "a row above the sheet selectable")
    time.sleep(0.3)
    screenshot(driver, "desk-compact.png")
    by_id(driver, "sheet-handle").click()
    wait_until(driver, lambda: "sheet-large" in inspector.get_attribute("class"), "the large sheet")
    time.sleep(0.3)
    large = inspector.rect
    expect(large["y"] < medium["y"] - 50, f"large sheet top {large['y']} vs medium {medium['y']}")
    screenshot(driver, "desk-compact-large.png")
    passed(f"390 x 844: a bottom sheet, medium (top at {medium['y']:.0f} px) and large "
           f"(top at {large['y']:.0f} px); the table usable above the medium one")


def main():
    driver = make_driver(1280, 800)
    try:
        sign_in(driver)
        check_table(driver)
        edit_every_field(driver)
        invalid_value_refused(driver)
        toggle_and_resize(driver)
        keyboard(driver)
        live_change(driver)
        hostile_name(driver)
        refused_writes(driver)
        wide_screenshot(driver)
        compact(driver)
        # Refusals the test provoked (422, 401) are logged by Chromium as failed loads; any
        # other severe entry is a script error.
        console = [entry for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"
                   and "Failed to load resource" not in entry.get("message", "")]
        expect(not console, f"errors in the browser's console: {console}")
        passed("no error in the browser's console")
    except Exception:
        screenshot(driver, "desk-failure.png")
        raise
    finally:
        driver.quit()
    print("browser test passed")


if __name__ == "__main__":
    try:
        main()
    except AssertionError as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
