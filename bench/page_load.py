# The explorer page loaded in headless Chromium (Debian chromium + chromium-driver, Selenium):
# DOM interactive, load event, and the time until the move list of a position is shown; then the
# page's weight: the bytes of each file it loaded (the page, its scripts and style; not the API's
# answers) as the server sends them to a client that accepts gzip, summed.
# Usage: /usr/bin/python3 bench/page_load.py http://127.0.0.1:8080/   (a running dtb serve)
import sys, tempfile, time, urllib.request
URL = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080/"
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait
from selenium.webdriver.common.by import By
o = webdriver.ChromeOptions()
o.binary_location = "/usr/bin/chromium"
for a in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir=" + tempfile.mkdtemp()]:
    o.add_argument(a)
d = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=o)
for k in range(3):
    d.get("about:blank")
    t0 = time.time()
    d.get(URL + "#international/W:WK6,K22,K27:BK49")
    WebDriverWait(d, 10).until(lambda d: d.find_elements(By.CSS_SELECTOR, "tr[data-move]"))
    t1 = time.time()
    nav = d.execute_script("const t=performance.timing; return [t.domInteractive-t.navigationStart, t.loadEventEnd-t.navigationStart]")
    print("run", k, "dom interactive %d ms, load %d ms, moves listed %.0f ms" % (nav[0], nav[1], (t1 - t0) * 1000))
files = [URL] + sorted(set(d.execute_script(
    "return performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.startsWith(location.origin) && !n.includes('/api/'))")))
d.quit()
total = 0
for f in files:
    with urllib.request.urlopen(urllib.request.Request(f, headers={"Accept-Encoding": "gzip"})) as r:
        n = len(r.read())
    total += n
    print("  %-40s %6d bytes" % (f[len(URL) - 1:] or "/", n))
print("page weight: %d bytes over %d files (gzip accepted)" % (total, len(files)))
