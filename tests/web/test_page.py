#!/usr/bin/python3
"""Browser test of the explorer page served by `dtb serve` (issue 46).

Drives Debian's headless chromium with Selenium (python3-selenium, chromium, chromium-driver):
loads the page, pastes a FEN and compares the move list with the API's own answer, plays a move
on the board and one from the list, goes back (arrow key and browser Back), places a king in
set-up mode, judges a pasted PDN game, switches to Turkish, checks error messages and the narrow
(phone) layout. Saves a PNG screenshot of each step.

    DTB_URL=http://127.0.0.1:18080/ DTB_SCREENSHOTS=/tmp/shots /usr/bin/python3 tests/web/test_page.py

Exits 0 when every check passes, 1 with a message naming the failed step otherwise.
"""
import json
import os
import shutil
import sys
import tempfile
import time
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

URL = os.environ.get("DTB_URL", "http://127.0.0.1:18080/")
if not URL.endswith("/"):
    URL += "/"
SHOTS = os.environ.get("DTB_SCREENSHOTS", "web-screenshots")
CHROMIUM = os.environ.get("DTB_CHROMIUM", "/usr/bin/chromium")
DRIVER = os.environ.get("DTB_CHROMEDRIVER", "/usr/bin/chromedriver")
WAIT = float(os.environ.get("DTB_WAIT", "15"))

FEN = "W:WK6,K22,K27:BK49"  # international, 4 pieces: a win with several moves
TURKISH_FEN = "W:Wa2,b3,h3:Bd6"
PDN = """[Event "16-move limit passed, then a win recorded"]
[GameType "20"]
[SetUp "1"]
[FEN "W:WK40,K45,50:BK11"]
[Result "2-0"]
1. 40-18 11-28 2. 18-27 28-39 3. 27-38 39-25 4. 45-40 25-48 5. 40-18 48-25 6. 38-27 25-30
7. 27-22 30-48 8. 22-28 48-43 9. 18-12 43-27 10. 28-11 27-43 11. 12-18 43-16 12. 18-7 16-43
13. 11-22 43-21 14. 7-2 21-38 15. 22-13 38-32 16. 2-8 32-49 17. 13-22 49-38 2-0
"""
WDL_TEXT = {"win": "Win", "draw": "Draw", "loss": "Loss"}


class Failure(Exception):
    pass


def check(cond, what):
    if not cond:
        raise Failure(what)


def get_json(path, data=None):
    req = urllib.request.Request(URL + path, data=data, headers={"Content-Type": "text/plain"} if data else {})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read().decode())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read().decode() or "{}")


def probe(variant, fen):
    status, data = get_json(f"api/v1/{variant}?fen={urllib.parse.quote(fen, safe='')}")
    check(status == 200, f"the API answered {status} for {variant} {fen}: {data}")
    return data


class Page:
    def __init__(self, driver):
        self.d = driver
        self.step = 0

    def wait(self, cond, what, timeout=WAIT):
        try:
            return WebDriverWait(self.d, timeout).until(lambda d: cond())
        except TimeoutException:
            raise Failure(f"timed out after {timeout} s waiting for {what}") from None

    def el(self, css):
        return self.d.find_element(By.CSS_SELECTOR, css)

    def els(self, css):
        return self.d.find_elements(By.CSS_SELECTOR, css)

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def shot(self, name):
        self.step += 1
        path = os.path.join(SHOTS, f"{self.step:02d}-{name}.png")
        check(self.d.save_screenshot(path), f"could not save the screenshot {path}")
        print(f"  screenshot {path}")

    def state(self):
        return self.js("return document.body.dataset.state || ''")

    def fen_box(self):
        return self.el("#fen-input").get_attribute("value")

    def wait_analysis(self, fen, what):
        """Waits until the move list shows the answer for `fen` (canonical form)."""
        self.wait(lambda: self.el("#moves").get_attribute("data-fen") == fen and self.state() == "ready",
                  f"the move list of {fen} ({what}); page state {self.state()!r}, "
                  f"list for {self.el('#moves').get_attribute('data-fen')!r}, message {self.message()!r}")

    def message(self):
        m = self.el("#message")
        return m.text if m.is_displayed() else ""

    def load_fen(self, fen):
        box = self.el("#fen-input")
        box.clear()
        box.send_keys(fen + Keys.ENTER)

    def move_rows(self):
        rows = []
        for tr in self.els("#moves-body tr"):
            tds = tr.find_elements(By.TAG_NAME, "td")
            rows.append({"move": tds[0].text.strip(), "value": tds[1].text.strip(), "dtw": tds[2].text.strip(),
                         "dtc": tds[3].text.strip(), "data-wdl": tr.get_attribute("data-wdl")})
        return rows

    def piece_at(self, square):
        found = self.els(f'#board [data-piece-square="{square}"]')
        return found[0].get_attribute("data-piece") if found else None

    def click_square(self, square):
        self.el(f'#board rect[data-square="{square}"]').click()


def compare_moves(page, answer, what):
    rows = page.move_rows()
    api = answer["moves"]
    check(len(rows) == len(api), f"{what}: the page lists {len(rows)} moves, the API {len(api)}")
    for i, (row, m) in enumerate(zip(rows, api)):
        want = {"move": m["move"], "value": WDL_TEXT[m["wdl"]], "dtw": "-" if m["dtw"] is None else str(m["dtw"]),
                "dtc": "-" if m["dtc"] is None else str(m["dtc"]), "data-wdl": m["wdl"]}
        check(row == want, f"{what}: move {i + 1} shows {row}, the API says {want}")
    print(f"  {len(rows)} moves match the API ({', '.join(r['move'] + ' ' + r['value'] for r in rows[:4])}...)")


def step_load(page):
    print("load the page")
    page.d.get(URL)
    page.wait(lambda: len(page.els('#board rect[data-square]')) == 50, "the 10x10 board (50 playable squares)")
    page.wait(lambda: page.state() in ("ready", "error"), "the first answer")
    check(page.state() == "ready", f"the first position has no analysis: {page.message()}")
    check(page.els("#moves-body tr"), "the first position shows no move")
    page.wait(lambda: page.el("#server-status").text.startswith("dtb"), "the server status line")
    page.shot("loaded")


def step_fen(page):
    print(f"paste the FEN {FEN}")
    answer = probe("international", FEN)
    page.load_fen(FEN)
    page.wait_analysis(answer["fen"], "after pasting the FEN")
    check(page.fen_box() == answer["fen"], f"FEN box shows {page.fen_box()!r}, expected {answer['fen']!r}")
    check(page.js("return decodeURIComponent(location.hash)") == f"#international/{answer['fen']}", "the URL does not hold the position")
    compare_moves(page, answer, FEN)
    value = page.el("#position-value").text
    check(WDL_TEXT[answer["wdl"]] in value, f"the position's value {answer['wdl']} is not written in {value!r}")
    # The verdict under the counting rules, from the adjudicate route.
    status, verdict = get_json(f"api/v1/international/adjudicate?fen={urllib.parse.quote(answer['fen'], safe='')}&rules=fmjd&reversible=0")
    check(status == 200, f"adjudicate answered {status}: {verdict}")
    page.wait(lambda: page.el("#adjudication").get_attribute("data-state") == "ready", "the verdict under the rules")
    check(page.el("#adjudication").get_attribute("data-result") == verdict["result"],
          f"verdict {page.el('#adjudication').get_attribute('data-result')!r}, API {verdict['result']!r}")
    check(WDL_TEXT[verdict["result"]] in page.el("#verdict-text").text, "the verdict is not written as text")
    print(f"  verdict under fmjd: {page.el('#verdict-text').text}")
    page.shot("fen-pasted")
    return answer


def step_play(page, answer):
    first = answer["moves"][0]
    path = first["path"]
    print(f"play {first['move']} on the board ({path[0]} then {path[-1]})")
    page.click_square(path[0])
    page.wait(lambda: page.els(f'#board [data-target="{path[-1]}"]'), f"the destination {path[-1]} marked after clicking {path[0]}")
    page.click_square(path[-1])
    after = probe("international", first["fen"])
    page.wait_analysis(after["fen"], f"after playing {first['move']}")
    check(page.fen_box() == after["fen"], f"FEN box {page.fen_box()!r} after the move, expected {after['fen']!r}")
    check(page.piece_at(path[-1]) is not None and page.piece_at(path[0]) is None,
          f"the board does not show the piece moved from {path[0]} to {path[-1]}")
    compare_moves(page, after, f"after {first['move']}")
    page.shot("move-played-on-board")

    second = after["moves"][0]
    print(f"play {second['move']} from the move list")
    page.el(f'#moves-body tr[data-move="{second["move"]}"] button').click()
    after2 = probe("international", second["fen"])
    page.wait_analysis(after2["fen"], f"after clicking {second['move']} in the list")
    check(page.fen_box() == after2["fen"], f"FEN box {page.fen_box()!r}, expected {after2['fen']!r}")
    compare_moves(page, after2, f"after {second['move']}")
    page.shot("move-played-from-list")

    print("left arrow goes one ply back, browser Back too")
    page.el("body").send_keys(Keys.ARROW_LEFT)
    page.wait_analysis(after["fen"], "after the left arrow")
    page.el("body").send_keys(Keys.ARROW_RIGHT)
    page.wait_analysis(after2["fen"], "after the right arrow")
    page.d.back()
    page.wait_analysis(after["fen"], "after the browser's Back")
    page.d.back()
    page.wait_analysis(answer["fen"], "after the browser's Back, twice")
    page.el("#nav-forward").click()
    page.wait_analysis(after["fen"], "after the forward button (the line's next position)")
    # A new line from the FEN box: the forward button plays the principal variation's first move.
    page.load_fen(FEN)
    page.wait_analysis(answer["fen"], "the FEN loaded again")
    if answer["pv"]:
        pv_move = next(m for m in answer["moves"] if m["move"] == answer["pv"][0])
        page.el("#nav-forward").click()
        page.wait_analysis(probe("international", pv_move["fen"])["fen"], "after the forward button (the PV's first move)")
        print(f"  the forward button played the PV's {answer['pv'][0]}")


def step_setup(page):
    print("set-up mode: place a white king")
    page.el("#setup-toggle").click()
    page.wait(lambda: page.el("#setup-panel").is_displayed(), "the set-up panel")
    page.el("#side-w").click()
    page.el("#setup-clear").click()
    page.wait(lambda: page.fen_box() == "W:W:B", f"an empty board after Clear (FEN box {page.fen_box()!r})")
    page.el("#palette-bk").click()
    page.click_square("49")
    page.el("#palette-wk").click()
    page.click_square("23")
    page.wait(lambda: page.fen_box() == "W:WK23:BK49", f"the FEN W:WK23:BK49 after placing kings (FEN box {page.fen_box()!r})")
    check(page.piece_at("23") == "wk", "no white king drawn on 23")
    page.el("#palette-wm").click()
    page.click_square("33")
    page.wait(lambda: page.fen_box() == "W:WK23,33:BK49", f"a white man on 33 (FEN box {page.fen_box()!r})")
    page.el("#side-b").click()
    page.wait(lambda: page.fen_box() == "B:WK23,33:BK49", f"Black to move (FEN box {page.fen_box()!r})")
    page.wait_analysis("B:WK23,33:BK49", "the set-up position")
    compare_moves(page, probe("international", "B:WK23,33:BK49"), "set-up position")
    page.shot("setup-kings-placed")
    page.el("#setup-start").click()
    page.wait(lambda: page.fen_box().startswith("W:W31,32,33") and page.fen_box().endswith("B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20"),
              f"the start position (FEN box {page.fen_box()!r})")
    page.wait(lambda: page.state() in ("ready", "error"), "an answer for the start position")
    page.shot("setup-start-position")
    page.el("#setup-done").click()
    page.wait(lambda: not page.el("#setup-panel").is_displayed(), "set-up mode to end")


def step_errors(page):
    print("errors are shown as messages")
    page.load_fen("W:W51:B1")
    page.wait(lambda: "FEN not understood" in page.message(), "a message for a FEN with square 51")
    print(f"  bad FEN: {page.message()}")
    big = "W:WK46,K47,K48,K49:BK1,K2"  # 6 pieces: beyond 2-4 piece tables
    page.load_fen(big)
    page.wait(lambda: page.js("return document.body.dataset.fen") == big and page.state() == "error" and page.message(),
              "a message for a position beyond the tables")
    print(f"  beyond the tables: {page.message()}")
    check(page.els("#board [data-piece]"), "the board is not drawn when the API has no answer")
    page.shot("error-beyond-tables")


def step_game(page):
    print("paste a PDN game and see its verdict")
    status, answer = get_json("api/v1/international/games", PDN.encode())
    check(status == 200 and answer.get("games"), f"the games route answered {status}: {answer}")
    game = answer["games"][0]
    area = page.el("#pdn-text")
    area.clear()
    page.js("arguments[0].value = arguments[1]", area, PDN)  # a paste: one event, no typing
    page.el("#pdn-submit").click()
    page.wait(lambda: page.els("#game-verdict"), f"the game's verdict ({page.el('#game-output').text[:200]!r})")
    v = page.el("#game-verdict")
    check(v.get_attribute("data-outcome") == game["outcome"], f"outcome {v.get_attribute('data-outcome')!r}, API {game['outcome']!r}")
    check(v.get_attribute("data-consistent") == str(game["consistent"]).lower(), "the consistency differs from the API's")
    check(game["outcome"] in v.text, f"the outcome {game['outcome']!r} is not written in the verdict")
    for p in game["problems"]:
        check(p in v.text, f"the problem {p!r} is not shown")
    events = [e.get_attribute("data-event") for e in page.els("#game-events li")]
    check(events == [e["event"] for e in game["events"]], f"events {events}, API {[e['event'] for e in game['events']]}")
    check(len(page.els("#game-chart .event")) == len(game["events"]), "the chart does not mark every event")
    check(len(page.els("#game-moves button[data-ply]")) == game["plies"] + 1, "the ply list does not hold every ply")
    # The chart: one point per ply, from the answer's positions; clicking one shows its position,
    # with the game's counters at that ply.
    positions = game["positions"]
    check(len(positions) == game["plies"] + 1, f"the API gives {len(positions)} positions for {game['plies']} plies")
    points = page.els("#game-chart .ply-point")
    check(len(points) == game["plies"] + 1, f"the chart has {len(points)} points for {game['plies'] + 1} positions")
    check(page.els("#game-chart path[data-series=theo]") and page.els("#game-chart path[data-series=rule]"),
          "the chart does not draw both the theoretical value and the value under the rules")
    starts = [e["ply"] for e in game["events"] if e["event"].endswith("started")]
    draws = [e["ply"] for e in game["events"] if e["event"].startswith("draw by")]
    check([p["ply"] for p in positions if p["started"]] == starts and [p["ply"] for p in positions if p["drawn_by"]] == draws,
          "the positions' started/drawn_by disagree with the events")
    check(len(page.els("#game-chart .ev-label.ev-start")) == len(starts) and len(page.els("#game-chart .ev-label.ev-draw")) == len(draws),
          "the chart does not label where each count starts and where a limit draws")
    for ply in (draws[0] if draws else 5, 7):
        want = positions[ply]
        page.js("arguments[0].scrollIntoView({block: 'center'})", page.el("#game-chart"))
        page.el(f'#game-chart .ply-point[data-ply="{ply}"] .ply-hit').click()
        page.wait(lambda: page.fen_box() == want["fen"] and page.state() == "ready"
                  and page.el("#moves").get_attribute("data-fen") == want["fen"],
                  f"the position of ply {ply} ({want['fen']}) on the board after clicking its point (FEN box {page.fen_box()!r})")
        k = want["counters"]
        shown = {n: page.el(f"#{n}").get_attribute("value") for n in ("reversible", "endgame", "small")}
        expected = {n: "" if k[n] is None else str(k[n]) for n in ("reversible", "endgame", "small")}
        check(shown == expected, f"ply {ply}: the counters shown {shown}, the game's {expected}")
        print(f"  chart point {ply}: {want['fen']}, counters {expected}, theoretical {want['theoretical']}, under the rules {want['rule_value']}")
    page.js("arguments[0].scrollIntoView({block: 'center'})", page.el("#game-chart"))
    page.shot("game-chart")
    print(f"  verdict: {v.text.splitlines()[0]}; outcome {game['outcome']!r}; events {events}")
    # Clicking a ply shows its position once the page knows it (from the answer or by replaying).
    page.wait(lambda: page.els('#game-moves button[data-ply="3"] .ply-value') or page.el("#game-moves-note").text.startswith("The positions"),
              "values along the game")
    if page.els('#game-moves button[data-ply="3"] .ply-value'):
        page.el('#game-moves button[data-ply="3"]').click()
        page.wait(lambda: page.state() == "ready" and page.el("#moves").get_attribute("data-fen") == page.fen_box()
                  and page.fen_box() != "W:WK40,K45,50:BK11", "the position after ply 3 on the board")
        print(f"  ply 3 shown: {page.fen_box()}")
    page.el("#game-panel").location_once_scrolled_into_view
    page.shot("game-judged")
    # A body without a game: a readable error.
    page.js("arguments[0].value = 'not a game'", area)
    page.el("#pdn-submit").click()
    page.wait(lambda: page.els("#game-error") or page.els("#game-verdict"), "an answer for a body without a game")
    if page.els("#game-error"):
        print(f"  no game: {page.el('#game-error').text}")


def step_counters(page):
    print("counters follow the moves played")
    fen = "W:WK6,K22,K27:BK49"  # K v 3K: the 16-move class
    page.d.execute_script("window.scrollTo(0, 0)")
    page.load_fen(fen)
    answer = probe("international", fen)
    page.wait_analysis(answer["fen"], "the 16-move class position")
    check(page.el("#reversible").get_attribute("value") == "0" and page.el("#endgame").get_attribute("value") == "",
          "a pasted FEN does not start with fresh counters")
    for name, value in (("reversible", "5"), ("endgame", "3")):
        box = page.el(f"#{name}")
        box.clear()
        box.send_keys(value)
    query = "rules=fmjd&reversible=5&endgame=3"
    page.wait(lambda: query in page.js("return decodeURIComponent(location.hash)"), "the counters in the URL")
    status, api = get_json(f"api/v1/international?fen={urllib.parse.quote(answer['fen'], safe='')}&{query}")
    check(status == 200 and api["counters"] == {"reversible": 5, "endgame": 3, "small": None}, f"the probe with counters: {status} {api}")
    # A king move: both counts go on; then the capture in the best line restarts the reversible one.
    move = api["moves"][0]
    page.wait(lambda: page.el("#moves").get_attribute("data-counters") == "5/3/" and page.state() == "ready",
              "the moves asked again with the counters typed")
    page.el(f'#moves-body tr[data-move="{move["move"]}"] button').click()
    page.wait_analysis(probe("international", move["fen"])["fen"], f"after {move['move']}")
    want = move["counters"]

    def shown():
        return {n: page.el(f"#{n}").get_attribute("value") for n in ("reversible", "endgame", "small")}

    expected = {n: "" if want[n] is None else str(want[n]) for n in ("reversible", "endgame", "small")}
    check(shown() == expected, f"after {move['move']} the page shows the counters {shown()}, the API says {expected}")
    check(expected != {"reversible": "5", "endgame": "3", "small": ""}, "the counters did not change")
    print(f"  after {move['move']}: counters {expected} (were 5/3)")
    page.shot("counters-followed")
    page.wait(lambda: f"reversible={want['reversible']}" in page.js("return decodeURIComponent(location.hash)"),
              "the new counters in the URL")
    # Back one ply: the counters of that position again.
    page.el("body").send_keys(Keys.ARROW_LEFT)
    page.wait_analysis(answer["fen"], "after the left arrow")
    check(shown() == {"reversible": "5", "endgame": "3", "small": ""}, f"back at the start the counters are {shown()}")
    # A shared link restores them.
    link = page.d.current_url
    page.d.get("about:blank")
    page.d.get(link)
    page.wait_analysis(answer["fen"], "the shared link")
    check(shown() == {"reversible": "5", "endgame": "3", "small": ""}, f"the link restored the counters {shown()}")
    # Set-up edits start afresh.
    page.el("#setup-toggle").click()
    page.el("#palette-x").click()
    page.click_square("6")
    page.wait(lambda: page.fen_box() == "W:WK22,K27:BK49", f"a king removed in set-up (FEN box {page.fen_box()!r})")
    page.wait(lambda: shown() == {"reversible": "0", "endgame": "", "small": ""}, f"fresh counters after a set-up edit ({shown()})")
    page.wait_analysis("W:WK22,K27:BK49", "the set-up position")
    page.el("#setup-done").click()


def step_turkish(page):
    print("switch to Turkish")
    page.d.execute_script("window.scrollTo(0, 0)")
    page.el("#variant-turkish").click()
    page.wait(lambda: page.el("#board").get_attribute("data-variant") == "turkish"
              and len(page.els("#board rect[data-square]")) == 64, "the 8x8 board with 64 squares")
    page.wait(lambda: page.state() in ("ready", "error"), "an answer for the Turkish position")
    answer = probe("turkish", TURKISH_FEN)
    page.load_fen(TURKISH_FEN)
    page.wait_analysis(answer["fen"], "the Turkish position")
    compare_moves(page, answer, TURKISH_FEN)
    check(page.piece_at("d6") == "bm" and page.piece_at("a2") == "wm", "the Turkish pieces are not on d6 and a2")
    check(page.el("#rules-panel").is_displayed() is False, "the counting rules panel is shown for Turkish")
    page.el("#show-names").click()
    page.wait(lambda: len(page.els("#board .sqname")) == 64, "the square names a1-h8")
    page.shot("turkish")
    # Play a Turkish move on the board.
    m = answer["moves"][0]
    page.click_square(m["path"][0])
    page.click_square(m["path"][-1])
    page.wait_analysis(probe("turkish", m["fen"])["fen"], f"after the Turkish move {m['move']}")
    page.el("#flip").click()
    page.shot("turkish-move-flipped")


def step_phone(page):
    print("narrow (phone) layout")
    page.d.set_window_size(390, 1200)
    page.wait(lambda: page.el("#board-area").rect["y"] + page.el("#board-area").rect["height"] <= page.el("#panels").rect["y"] + 1,
              "the board above the panels in a narrow window")
    check(page.el("#board").rect["width"] <= 390, "the board is wider than the window")
    page.d.execute_script("window.scrollTo(0, 0)")
    page.shot("phone")


def js_errors(driver):
    try:
        logs = driver.get_log("browser")
    except WebDriverException:
        return []
    # Resource loads answered 4xx/5xx are the API's expected errors; anything else is a script error.
    return [e["message"] for e in logs if e.get("level") == "SEVERE" and "Failed to load resource" not in e["message"]]


def failure_shot(driver, name):
    try:
        path = os.path.join(SHOTS, f"failure-{name}.png")
        driver.save_screenshot(path)
        print(f"  screenshot of the failure: {path}", file=sys.stderr)
    except WebDriverException:
        pass


def main():
    os.makedirs(SHOTS, exist_ok=True)
    profile = tempfile.mkdtemp(prefix="dtb-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for a in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
              "--disable-background-networking", "--disable-component-update", "--disable-sync",
              "--disable-dev-shm-usage", f"--user-data-dir={profile}", "--window-size=1280,1000"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = None
    started = time.monotonic()
    try:
        driver = webdriver.Chrome(service=Service(DRIVER), options=opts)
        driver.set_page_load_timeout(30)
        page = Page(driver)
        step_load(page)
        answer = step_fen(page)
        # The later steps are independent: each runs, failures are collected.
        failures = []
        for name, step in (("play", lambda: step_play(page, answer)), ("set-up", lambda: step_setup(page)),
                           ("errors", lambda: step_errors(page)), ("game", lambda: step_game(page)),
                           ("counters", lambda: step_counters(page)),
                           ("turkish", lambda: step_turkish(page)), ("phone", lambda: step_phone(page))):
            try:
                step()
            except Failure as e:
                failures.append(f"{name}: {e}")
                print(f"FAILED ({name}): {e}", file=sys.stderr)
                failure_shot(driver, name)
                page.d.set_window_size(1280, 1000)
        errors = js_errors(driver)
        if errors:
            failures.append(f"script errors in the browser console: {errors}")
        if failures:
            print(f"FAILED: {len(failures)} step(s): " + " | ".join(failures), file=sys.stderr)
            return 1
        print(f"OK: every check passed in {time.monotonic() - started:.1f} s; screenshots in {SHOTS}")
        return 0
    except Failure as e:
        print(f"FAILED: {e}", file=sys.stderr)
        if driver:
            failure_shot(driver, "start")
        return 1
    except (WebDriverException, OSError, urllib.error.URLError) as e:
        print(f"FAILED: {type(e).__name__}: {e}", file=sys.stderr)
        return 1
    finally:
        if driver:
            driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
