#!/usr/bin/python3
"""Browser test of the explorer page served by `dtb serve` (issues 46 and 57).

Drives Debian's headless chromium with Selenium (python3-selenium, chromium, chromium-driver):
loads the page, pastes a FEN and compares the move list with the API's own answer, plays a move
on the board and one from the list, goes back (arrow key and browser Back), reports an illegal
move tried on the board, leaves no move marked after a hover or a tap once the board changed,
slides the piece of a move played (and not when less motion is asked), exports the best line as
PDN, places a king in set-up mode (the controls in view at 1280x900), judges a pasted PDN game
(the board moves to the judged position, the first change of value is offered, an illegal move
is named), switches to Turkish (coordinates a-h/1-8 shown by default), checks error messages
(a malformed FEN marks the box and the stale board), solves a position beyond the tables with
the Solve button, the dark theme and the narrow (phone) layout. Saves a PNG screenshot of each step.

    DTB_URL=http://127.0.0.1:18080/ DTB_SCREENSHOTS=/tmp/shots /usr/bin/python3 tests/web/test_page.py

Exits 0 when every check passes, 1 with a message naming the failed step otherwise.
"""
import json
import os
import re
import shutil
import sys
import tempfile
import time
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.actions import interaction
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.actions.pointer_input import PointerInput
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
SOLVE_FEN = "W:WK1,K26,K30:B32,45"  # 5 pieces, beyond the 4-piece tables: proven won in a few hundred nodes
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
# A well-formed move that is not legal where it is played (50-39 is no diagonal step), at ply 3.
ILLEGAL_PDN = """[Event "An illegal move"]
[GameType "20"]
[SetUp "1"]
[FEN "W:WK40,K45,50:BK11"]
[Result "2-0"]
1. 40-18 11-28 2. 50-39 28-11 2-0
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


def white_value(value, fen):
    """A side-to-move value (win/draw/loss) from White's point of view: 1, 0, -1, or None."""
    if value is None:
        return None
    if value == "draw":
        return 0
    return 1 if (value == "win") == (fen[0] == "W") else -1


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

    def marked_squares(self):
        """The squares the board marks as the last move (or the move under the mouse)."""
        return sorted(e.get_attribute("data-square") for e in self.els("#board rect.sq.last"))

    def media(self, **features):
        """Emulates CSS media features (prefers_color_scheme="dark", ...); none: the defaults."""
        self.d.execute_cdp_cmd("Emulation.setEmulatedMedia", {
            "features": [{"name": k.replace("_", "-"), "value": v} for k, v in features.items()]})


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


def step_coordinates(page):
    print("coordinates on by default: the square numbers of the 10x10 board")
    check(page.el("#show-names").is_selected(), "the coordinates are not on by default")
    names = [e.text for e in page.els("#board .sqname")]
    check(sorted(names, key=int) == [str(n) for n in range(1, 51)], f"the square numbers 1-50 are not shown by default: {names[:5]}...")


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


def step_illegal_board(page, answer):
    print("an illegal move tried on the board is named")
    page.load_fen(FEN)
    page.wait_analysis(answer["fen"], "the FEN loaded")
    origins = {m["path"][0] for m in answer["moves"]}
    first = answer["moves"][0]
    targets = {m["path"][-1] for m in answer["moves"] if m["path"][0] == first["path"][0]}
    occupied = {e.get_attribute("data-piece-square") for e in page.els("#board [data-piece-square]")}
    wrong = next(str(n) for n in range(1, 51) if str(n) not in targets | origins | occupied)
    page.click_square(first["path"][0])
    page.wait(lambda: page.els("#board [data-target]"), "the destinations marked")
    page.click_square(wrong)
    page.wait(lambda: page.el("#move-note").is_displayed() and "illegal move" in page.el("#move-note").text.lower(),
              f"'illegal move' under the board after {first['path'][0]}-{wrong}")
    note = page.el("#move-note").text
    check(f"{first['path'][0]}-{wrong}" in note, f"the illegal move is not named: {note!r}")
    check(page.fen_box() == answer["fen"] and page.piece_at(first["path"][0]), "an illegal move changed the position")
    print(f"  {note}")
    page.shot("illegal-move-on-board")
    page.click_square(first["path"][0])
    page.click_square(first["path"][-1])
    page.wait_analysis(probe("international", first["fen"])["fen"], f"after the legal {first['move']}")
    check(not page.el("#move-note").is_displayed(), "the illegal-move note stays after a legal move")


def step_sticky(page, answer):
    print("a move hovered or tapped in the list leaves no mark once the board changed")
    first = answer["moves"][0]
    after = probe("international", first["fen"])

    def from_start():
        page.load_fen(FEN)
        page.wait_analysis(answer["fen"], "the FEN loaded")
        check(page.marked_squares() == [], f"a fresh position shows marked squares {page.marked_squares()}")

    from_start()
    row = page.el(f'#moves-body tr[data-move="{first["move"]}"]')
    ActionChains(page.d).move_to_element(row).perform()
    page.wait(lambda: page.marked_squares() == sorted(set(first["path"])), "the hovered move marked on the board")
    row.find_element(By.TAG_NAME, "button").click()
    page.wait_analysis(after["fen"], f"after clicking {first['move']}")
    ActionChains(page.d).move_to_element(page.el("h1")).perform()
    page.el("body").send_keys(Keys.ARROW_LEFT)
    page.wait_analysis(answer["fen"], "one ply back")
    check(page.marked_squares() == [], f"the clicked move stays marked on the board after going back: {page.marked_squares()}")

    from_start()
    finger = ActionBuilder(page.d, mouse=PointerInput(interaction.POINTER_TOUCH, "finger"))
    finger.pointer_action.move_to(page.el(f'#moves-body tr[data-move="{first["move"]}"] button')).pointer_down().pointer_up()
    finger.perform()
    page.wait_analysis(after["fen"], f"after tapping {first['move']}")
    page.el("body").send_keys(Keys.ARROW_LEFT)
    page.wait_analysis(answer["fen"], "one ply back after the tap")
    check(page.marked_squares() == [], f"the tapped move stays marked on the board after going back: {page.marked_squares()}")
    # Hover styles only where a pointer hovers: a touch screen would keep a tapped button marked.
    loose = page.js("""const out = [];
      const walk = (rules, hover) => { for (const r of rules) {
        if (r.cssRules && r.media) walk(r.cssRules, hover || /hover:\s*hover/.test(r.media.mediaText));
        else if (r.selectorText && /:hover/.test(r.selectorText) && !hover) out.push(r.selectorText); } };
      for (const sheet of document.styleSheets) walk(sheet.cssRules, false);
      return out;""")
    check(not loose, f"hover styles outside @media (hover: hover): {loose}")
    print(f"  no mark left after hovering, or tapping, {first['move']}")


def step_animation(page, answer):
    print("a move played slides its piece (not when less motion is asked)")
    page.load_fen(FEN)
    page.wait_analysis(answer["fen"], "the FEN loaded")
    # Records each animation the page starts: its element's square, frames and duration.
    page.js("""window.__slides = [];
      if (!Element.prototype.__dtbAnimate) {
        Element.prototype.__dtbAnimate = Element.prototype.animate;
        Element.prototype.animate = function (frames, opts) {
          window.__slides.push({square: this.getAttribute('data-piece-square'), frames: frames.length,
                                duration: typeof opts === 'number' ? opts : opts && opts.duration});
          return this.__dtbAnimate(frames, opts);
        };
      }""")
    first = answer["moves"][0]
    page.el(f'#moves-body tr[data-move="{first["move"]}"] button').click()
    after = probe("international", first["fen"])
    page.wait_analysis(after["fen"], f"after {first['move']}")
    slides = page.js("return window.__slides")
    check(len(slides) == 1 and slides[0]["square"] == first["path"][-1] and slides[0]["frames"] == len(first["path"]),
          f"playing {first['move']} did not slide its piece to {first['path'][-1]} along its path: {slides}")
    check(0 < slides[0]["duration"] <= 200, f"the slide lasts {slides[0]['duration']} ms (at most 200)")
    page.el("body").send_keys(Keys.ARROW_LEFT)
    page.wait_analysis(answer["fen"], "one ply back")
    check(len(page.js("return window.__slides")) == 1, "going back slid a piece")
    page.media(prefers_reduced_motion="reduce")
    try:
        page.el("body").send_keys(Keys.ARROW_RIGHT)
        page.wait_analysis(after["fen"], "one ply forward, less motion asked")
        check(len(page.js("return window.__slides")) == 1, "a piece slid though the system asks for less motion")
    finally:
        page.media()
    print(f"  {first['move']}: one slide of {slides[0]['duration']} ms along {first['path']}; none with reduced motion")


def step_pv_export(page, answer):
    print("the best line exported as PDN: copy and download")
    check(answer["pv"], f"{FEN} has no best line to export")
    page.load_fen(FEN)
    page.wait_analysis(answer["fen"], "the FEN loaded")
    page.wait(lambda: page.el("#pv-export").is_displayed(), "the PDN export of the best line")
    link = page.el("#pv-download")
    name = link.get_attribute("download")
    check(name.endswith(".pdn") and link.get_attribute("href").startswith("blob:"), f"the download link: {name!r} {link.get_attribute('href')!r}")
    text = page.d.execute_async_script("const done = arguments[arguments.length - 1];"
                                       "fetch(arguments[0]).then((r) => r.text()).then(done, (e) => done('failed: ' + e));",
                                       link.get_attribute("href"))
    # The clipboard is stood in for: a headless browser may refuse to write to the real one.
    page.js("window.__copied = null; navigator.clipboard.writeText = async (t) => { window.__copied = t; };")
    page.el("#pv-copy").click()
    page.wait(lambda: page.js("return window.__copied") is not None, "the PDN copied")
    check(page.js("return window.__copied") == text, "the copied PDN differs from the downloaded one")
    # A PDN game: the position's FEN tag, the PV's moves numbered from it, the result.
    tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]$', text, re.M))
    check(tags.get("FEN") == answer["fen"] and tags.get("SetUp") == "1" and tags.get("GameType") == "20", f"the PDN's tags: {tags}")
    words = text[text.rindex("]") + 1:].split()
    check(words[-1] == tags.get("Result") and words[-1] in ("2-0", "0-2"), f"the movetext does not end with the result: {words[-3:]}")
    moves, numbers = [], []
    for w in words[:-1]:
        (numbers if re.fullmatch(r"\d+\.(\.\.)?", w) else moves).append(w)
    check(moves == answer["pv"], f"the PDN's moves {moves}, the API's pv {answer['pv']}")
    want = []
    for i in range(len(moves)):
        ply = i + (0 if answer["fen"][0] == "W" else 1)
        if ply % 2 == 0:
            want.append(f"{ply // 2 + 1}.")
        elif i == 0:
            want.append("1...")
    check(numbers == want, f"move numbers {numbers}, expected {want}")
    status, judged = get_json("api/v1/international/games", text.encode())
    check(status == 200 and len(judged["games"]) == 1, f"the games route on the exported PDN: {status} {judged}")
    g = judged["games"][0]
    check(g["plies"] == len(answer["pv"]) and g["consistent"] and g["judged"] and g["stopped_at_ply"] is None,
          f"the exported PDN is not a consistent game of {len(answer['pv'])} plies: {g['reason']}")
    print(f"  {name}: {' '.join(words)} (judged: {g['reason']})")


def step_setup(page):
    print("set-up mode: place a white king")
    page.d.set_window_size(1280, 900)
    page.js("window.scrollTo(0, 0)")
    page.el("#setup-toggle").click()
    page.wait(lambda: page.el("#setup-panel").is_displayed(), "the set-up panel")
    height = page.js("return window.innerHeight")
    for css in ("#setup-toggle", "#palette", "#setup-clear", "#setup-start", "#setup-done", "#side-b"):
        r = page.js("const r = arguments[0].getBoundingClientRect(); return [r.top, r.bottom]", page.el(css))
        check(0 <= r[0] and r[1] <= height, f"{css} is out of view at 1280x900 (top {r[0]:.0f}, bottom {r[1]:.0f}, window {height})")
    page.shot("setup-in-view-1280x900")
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
    page.d.set_window_size(1280, 1000)


def step_errors(page):
    print("errors are shown as messages")
    page.load_fen(FEN)
    shown = probe("international", FEN)["fen"]
    page.wait_analysis(shown, "a position before the malformed FEN")
    check(page.el("#fen-input").get_attribute("aria-invalid") is None, "the FEN box is marked wrong before any error")
    hash_before = page.js("return location.hash")
    page.load_fen("W:W51:B1")
    page.wait(lambda: "FEN not understood" in page.message(), "a message for a FEN with square 51")
    print(f"  bad FEN: {page.message()}")
    check(page.el("#fen-input").get_attribute("aria-invalid") == "true", "the FEN box is not marked wrong")
    check(page.el("#fen-error").is_displayed() and "still shows" in page.el("#fen-error").text, "no note by the box that the board is the previous position")
    check(page.js("return document.body.dataset.stale") == "true" and page.state() == "invalid", "the page is not marked stale")
    opacity = float(page.js("return getComputedStyle(document.getElementById('board')).opacity"))
    check(opacity < 1, f"the board of the previous position still looks current (opacity {opacity})")
    check(shown in page.message(), f"the message does not say the board shows {shown}: {page.message()!r}")
    check(page.js("return location.hash") == hash_before, "the URL changed for a FEN that could not be read")
    page.shot("error-malformed-fen")
    page.load_fen(FEN)
    page.wait_analysis(shown, "a good FEN after the malformed one")
    check(page.el("#fen-input").get_attribute("aria-invalid") is None and page.js("return document.body.dataset.stale") is None,
          "the marks of the malformed FEN stay after a good one")
    # A FEN the page reads but the server refuses (400): no game reaches it.
    page.load_fen("W:W1:B50")
    page.wait(lambda: page.state() == "error" and "promotion row" in page.message(), "the server's reason for W:W1:B50")
    check(page.el("#fen-input").get_attribute("aria-invalid") == "true", "the FEN box is not marked wrong after a 400")
    print(f"  unreachable: {page.message()}")
    big = "W:WK46,K47,K48,K49:BK1,K2"  # 6 pieces: beyond 2-4 piece tables
    page.load_fen(big)
    page.wait(lambda: page.js("return document.body.dataset.fen") == big and page.state() == "error" and page.message(),
              "a message for a position beyond the tables")
    print(f"  beyond the tables: {page.message()}")
    check("beyond the tables" in page.message() and "dtb gen" in page.message() and "422" not in page.message(),
          f"the message for a position beyond the tables is not the server's sentence: {page.message()!r}")
    check(page.els("#board [data-piece]"), "the board is not drawn when the API has no answer")
    check(not page.el("#pv-export").is_displayed(), "the best line's export is shown for a position without a line")
    page.shot("error-beyond-tables")


def step_solve(page):
    print("a position beyond the tables: the Solve button proves it on the server")
    page.load_fen(FEN)
    page.wait_analysis(probe("international", FEN)["fen"], "a position inside the tables")
    check(not page.el("#solve-box").is_displayed(), "the Solve button is shown for a position inside the tables")
    page.load_fen(SOLVE_FEN)
    page.wait(lambda: page.js("return document.body.dataset.fen") == SOLVE_FEN and page.state() == "error"
              and page.el("#solve-box").is_displayed(), "the Solve button for a position beyond the tables")
    box = page.el("#solve-box")
    check(box.get_attribute("data-state") == "offered", f"the solve box is {box.get_attribute('data-state')!r}")
    page.shot("solve-offered")
    button = page.el("#solve-button")
    # Two clicks in a row: the second, while the first solve runs, is ignored; the button says the
    # server is solving.
    running = page.js("const b = document.getElementById('solve-button'); b.click(); b.click();"
                      "return [b.disabled, b.textContent, document.getElementById('solve-box').dataset.state];")
    print(f"  while solving: {running}")
    check(running[0] and running[1].startswith("Solving") and running[2] == "running",
          f"the button while solving: {running}")
    page.wait(lambda: box.get_attribute("data-state") == "done", "the solve's answer")
    status, api = get_json(f"api/v1/international/solve?fen={urllib.parse.quote(SOLVE_FEN, safe='')}")
    check(status == 200 and api["answer"] == "win", f"the API's solve of {SOLVE_FEN}: {status} {api}")
    check(box.get_attribute("data-requests") == "1", f"{box.get_attribute('data-requests')} solves were asked for one click")
    check(box.get_attribute("data-answer") == api["answer"], f"the page shows {box.get_attribute('data-answer')!r}")
    answer = page.el("#solve-answer").text
    print(f"  {answer}")
    check("Proven" in answer and "White to move wins" in answer, f"the answer reads {answer!r}")
    check(page.el("#solve-best").text == f"Best move: {api['best_move']}", f"the best move reads {page.el('#solve-best').text!r}")
    check(" ".join(api["pv"]) in page.el("#solve-pv").text, f"the line reads {page.el('#solve-pv').text!r}")
    check(button.is_enabled() and button.text == "Solve again", f"the button after the answer: {button.text!r}")
    page.shot("solve-proven")
    # A server that refuses (its queue full): the error in the box, as the page's panels show theirs.
    page.js("""const real = window.fetch;
        window.fetch = (url, init) => String(url).includes('/solve?')
          ? Promise.resolve(new Response('{"error":"the server is judging 16 requests: try again"}',
                                         {status: 503, headers: {'Content-Type': 'application/json'}}))
          : real(url, init);
        window.dtbRealFetch = real;""")
    button.click()
    page.wait(lambda: box.get_attribute("data-state") == "error", "the solve's error")
    page.js("window.fetch = window.dtbRealFetch;")
    error = page.el("#solve-error")
    print(f"  refused: {error.text}")
    check("error" in error.get_attribute("class").split() and "unavailable (503)" in error.text,
          f"the refusal reads {error.text!r} ({error.get_attribute('class')!r})")
    check(button.is_enabled(), "the button stays disabled after an error")
    # Another position: the answer of the last one goes.
    page.load_fen(FEN)
    page.wait(lambda: not page.el("#solve-box").is_displayed(), "the solve box to go with the position")


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
    # Judging moves the board to the position the verdict rests on, and offers the first ply
    # whose value changes.
    positions = game["positions"]
    judged = min(game["decisive_ply"] if game["decisive_ply"] is not None else game["plies"], game["plies"])
    page.wait(lambda: page.fen_box() == positions[judged]["fen"] and page.state() in ("ready", "error"),
              f"the judged position, ply {judged} ({positions[judged]['fen']}), on the board (FEN box {page.fen_box()!r})")
    check(page.el(f'#game-moves button[data-ply="{judged}"]').get_attribute("aria-current") == "true", "the judged ply is not marked in the list")
    change = None
    for k in range(1, len(positions)):
        a, b = positions[k - 1], positions[k]
        for key in ("theoretical", "rule_value"):
            va, vb = white_value(a[key], a["fen"]), white_value(b[key], b["fen"])
            if change is None and va is not None and vb is not None and va != vb:
                change = k
        if change is not None:
            break
    if change is None:
        check(page.els("#game-no-change"), "no word that the value never changes")
    else:
        jump = page.el("#game-jump-change")
        check(jump.get_attribute("data-ply") == str(change), f"first change offered at ply {jump.get_attribute('data-ply')}, expected {change}")
        jump.click()
        page.wait(lambda: page.fen_box() == positions[change]["fen"], f"the first change of value, ply {change}, on the board")
        print(f"  judged at ply {judged}; {jump.text}")
        # The list marks the ply the board shows, and follows it.
        page.el("body").send_keys(Keys.ARROW_LEFT)
        page.wait(lambda: page.fen_box() == positions[change - 1]["fen"], "one ply back along the game")
        marked = [b.get_attribute("data-ply") for b in page.els('#game-moves button[aria-current="true"]')]
        check(marked == [str(change - 1)], f"the list marks plies {marked} while the board shows ply {change - 1}")
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
    # Another position on the board: no ply of the game stays marked.
    page.js("window.scrollTo(0, 0)")
    page.load_fen(FEN)
    page.wait_analysis(probe("international", FEN)["fen"], "a FEN after the game")
    marked = [b.get_attribute("data-ply") for b in page.els('#game-moves button[aria-current="true"]')]
    check(not marked, f"plies {marked} of the game stay marked after the board left it")
    check(page.els("#game-chart .ply-cursor[visibility=hidden]"), "the chart's cursor stays after the board left the game")
    # An illegal move in a game: named as such, and the board shows where it was tried.
    status, bad = get_json("api/v1/international/games", ILLEGAL_PDN.encode())
    check(status == 200 and bad["games"][0]["stopped_at_ply"] == 3, f"the games route on an illegal move: {status} {bad}")
    page.js("arguments[0].value = arguments[1]", area, ILLEGAL_PDN)
    page.el("#pdn-submit").click()
    page.wait(lambda: page.els('#game-verdict[data-stopped-at="3"]'), "the verdict of the game with an illegal move")
    text = page.el("#game-status").text
    check("illegal move" in text.lower() and "ply 3" in text and "disagree" not in text, f"the illegal move is reported as {text!r}")
    before = bad["games"][0]["positions"][-1]["fen"]
    page.wait(lambda: page.fen_box() == before, f"the position where the illegal move was tried ({before}) on the board")
    print(f"  {text}; board at {before}")
    page.el("#game-panel").location_once_scrolled_into_view
    page.shot("game-illegal-move")
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
    files = sorted(e.text for e in page.els("#board .coord.file"))
    ranks = sorted(e.text for e in page.els("#board .coord.rank"))
    check(files == list("abcdefgh") and ranks == [str(n) for n in range(1, 9)], f"the coordinates a-h/1-8 are not shown: {files} {ranks}")
    # The best line's PDN is a Turkish game (GameType 30) that the games route follows to its end.
    if answer["pv"]:
        text = page.el("#pv-export").get_attribute("data-pdn")
        status, judged = get_json("api/v1/international/games", text.encode())
        g = judged["games"][0] if status == 200 and judged.get("games") else {}
        check('[GameType "30"]' in text and g.get("variant") == "turkish" and g.get("plies") == len(answer["pv"]) and g.get("consistent"),
              f"the Turkish best line's PDN is not a consistent Turkish game: {status} {g.get('reason')}\n{text}")
    page.el("#show-names").click()
    page.wait(lambda: not page.els("#board .coord"), "the coordinates off")
    page.el("#show-names").click()
    page.wait(lambda: len(page.els("#board .coord")) == 16, "the coordinates on again")
    page.shot("turkish")
    # Play a Turkish move on the board.
    m = answer["moves"][0]
    page.click_square(m["path"][0])
    page.click_square(m["path"][-1])
    page.wait_analysis(probe("turkish", m["fen"])["fen"], f"after the Turkish move {m['move']}")
    page.el("#flip").click()
    page.shot("turkish-move-flipped")


def step_dark(page):
    print("a dark theme when the system asks for one")

    def luminance(css):
        rgb = [int(x) for x in re.findall(r"\d+", page.js(f"return getComputedStyle({css}).backgroundColor"))[:3]]
        return (0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]) / 255

    page.js("window.scrollTo(0, 0)")
    check(luminance("document.documentElement") > 0.8, "the page is not light by default")
    page.media(prefers_color_scheme="dark")
    try:
        page.wait(lambda: luminance("document.documentElement") < 0.2, "a dark background")
        check(luminance("document.getElementById('analysis')") < 0.2, "the panels stay light in the dark theme")
        page.shot("dark")
    finally:
        page.media()
    print("  dark background under prefers-color-scheme: dark")


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
        for name, step in (("coordinates", lambda: step_coordinates(page)),
                           ("play", lambda: step_play(page, answer)),
                           ("illegal move", lambda: step_illegal_board(page, answer)),
                           ("sticky mark", lambda: step_sticky(page, answer)),
                           ("animation", lambda: step_animation(page, answer)),
                           ("PDN export", lambda: step_pv_export(page, answer)),
                           ("set-up", lambda: step_setup(page)),
                           ("errors", lambda: step_errors(page)), ("solve", lambda: step_solve(page)),
                           ("game", lambda: step_game(page)),
                           ("counters", lambda: step_counters(page)),
                           ("turkish", lambda: step_turkish(page)), ("dark", lambda: step_dark(page)),
                           ("phone", lambda: step_phone(page))):
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
