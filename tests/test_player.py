"""The step-through player in a real browser: headless Chromium driven by Selenium.

Skipped, with the reason, where Chromium, its driver or Selenium is missing;
``.ci/run`` installs Chromium and its driver from Debian's packages so CI runs them.
"""

import io
import json
import shutil

import numpy as np
import pytest

from rosenblatt import PLA, Perceptron
from rosenblatt.datasets import make_target_line
from rosenblatt.inspection import TracePlayer

AND_X, AND_Y = [[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1]


def test_the_page_holds_the_trace_and_needs_no_network(tmp_path):
    model = Perceptron(shuffle="none", record=True).fit(AND_X, AND_Y)
    player = TracePlayer(model.trace_, AND_X, AND_Y)
    page = player.save(tmp_path / "run.html").read_text()
    data = json.loads(page.split("const DATA = ", 1)[1].split(";\n", 1)[0])
    weights = np.array([frame["w"] for frame in data["frames"][1:]])
    np.testing.assert_array_equal(weights[:, 0], model.trace_.intercept)
    np.testing.assert_array_equal(weights[:, 1:], model.trace_.coef)
    assert data["frames"][-1]["w"] == [model.intercept_[0], *model.coef_[0]]
    assert not any(link in page for link in ("src=", "href=", "@import", "url("))
    assert player._repr_html_().startswith("<iframe srcdoc=")
    with pytest.raises(ValueError, match="TracePlayer plays 2-D data"):
        TracePlayer(model.trace_, np.c_[AND_X, AND_X], AND_Y)


def _browser():
    webdriver = pytest.importorskip("selenium.webdriver", reason="Selenium is not installed")
    binary = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if binary is None or driver_path is None:
        pytest.skip("Chromium and chromedriver are not installed (apt-get install chromium "
                    "chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=800,800"):
        options.add_argument(flag)
    service = webdriver.ChromeService(executable_path=driver_path)
    return webdriver.Chrome(options=options, service=service)


@pytest.fixture(scope="module")
def browser():
    driver = _browser()
    yield driver
    driver.quit()


def test_stepping_shows_the_weights_of_each_record_and_its_line(browser, tmp_path):
    X, y, target = make_target_line(15, random_state=4)
    model = PLA(record=True, random_state=0).fit(X, y)
    trace = model.trace_
    path = TracePlayer(trace, X, y).save(tmp_path / "run.html")
    browser.get(path.as_uri())
    next_button = browser.find_element("id", "next")
    for n in range(1, len(trace) + 1):
        next_button.click()
        state = browser.execute_script("return window.player;")
        assert state["step"] == n
        np.testing.assert_allclose(state["weights"], [trace.intercept[n - 1],
                                                      *trace.coef[n - 1]], rtol=0, atol=1e-12)
        # the line drawn crosses the box where the weights say: w0 + w1 x + w2 y = 0
        ends = np.array(state["boundary"])
        w = np.array(state["weights"])
        np.testing.assert_allclose(w[0] + ends @ w[1:], 0.0, atol=1e-9)
        box = state["box"]
        assert all(np.isclose(p[0], [box["x0"], box["x1"]]).any() or
                   np.isclose(p[1], [box["y0"], box["y1"]]).any() for p in ends)
    assert state["weights"] == [model.intercept_[0], *model.coef_[0]]  # the fitted model
    counters = browser.find_element("id", "counters").text
    assert counters.startswith(f"update {len(trace)} of {len(trace)}, epoch ")
    assert browser.find_element("id", "updated") is not None
    browser.find_element("id", "prev").click()
    assert browser.execute_script("return window.player.step;") == len(trace) - 1


def test_a_screenshot_of_the_player_is_not_blank(browser, tmp_path):
    from PIL import Image

    model = Perceptron(shuffle="none", record=True).fit(AND_X, AND_Y)
    path = TracePlayer(model.trace_, AND_X, AND_Y).save(tmp_path / "and.html")
    browser.get(path.as_uri())
    browser.find_element("id", "last").click()
    formula = browser.find_element("id", "formula").text
    assert "w \u2190 w + \u03b7\u00b7e\u00b7x" in formula and "[-4, 3, 2]" in formula
    shot = Image.open(io.BytesIO(browser.get_screenshot_as_png())).convert("L")
    pixels = np.asarray(shot, dtype=float)
    assert pixels.std() > 5 and (pixels < 128).mean() > 0.001  # drawn, not a blank page


def test_the_command_line_writes_the_player(tmp_path, capsys):
    from rosenblatt.cli import main

    data = tmp_path / "and.csv"
    data.write_text("a,b,y\n0,0,0\n0,1,0\n1,0,0\n1,1,1\n")
    assert main(["animate", str(data), "--model", "perceptron", "--set", "shuffle=none",
                 "--html", str(tmp_path / "run")]) == 0
    assert capsys.readouterr().out == (f"wrote {tmp_path / 'run.html'} (the step-through "
                                       "player, 18 updates)\n")
    assert not (tmp_path / "training.gif").exists()
    page = (tmp_path / "run.html").read_text()
    assert page.count('"update": ') == 19  # the start and 18 updates


def test_a_batch_run_is_refused_with_the_alternative():
    from rosenblatt import BatchPerceptron

    trace = BatchPerceptron(record=True).fit(AND_X, AND_Y).trace_
    with pytest.raises(ValueError, match="moved by many rows at once .*animate instead"):
        TracePlayer(trace, AND_X, AND_Y)


HOSTILE_NAMES = ["<img src=x onerror=alert(1)>", "b <!--<script>"]
HOSTILE_LABELS = np.array(["<!--<script>", "</script><img src=y onerror=alert(2)>"])


def hostile_player():
    """A title with the data's placeholder, names and labels that are markup."""
    y = HOSTILE_LABELS[AND_Y]
    model = Perceptron(shuffle="none", record=True).fit(AND_X, y)
    return TracePlayer(model.trace_, AND_X, y, title="run __DATA__ <b>bold</b>",
                       feature_names=HOSTILE_NAMES)


def test_no_title_name_or_label_becomes_markup_or_script():
    """The page was filled by string replaces, title first: a title holding
    ``__DATA__`` received the data, and a name became a live ``<img onerror>``; a
    ``<!--<script>`` in the data left the page's script unterminated."""
    from html.parser import HTMLParser

    class Tags(HTMLParser):
        def __init__(self):
            super().__init__()
            self.tags, self.scripts, self.titles, self._in = [], [], [], None

        def handle_starttag(self, tag, attrs):
            self.tags.append(tag)
            self._in = tag

        def handle_endtag(self, tag):
            self._in = None

        def handle_data(self, data):
            if self._in == "script":
                self.scripts.append(data)
            elif self._in in ("title", "h3"):
                self.titles.append(data)

    page = hostile_player().html()
    parsed = Tags()
    parsed.feed(page)
    assert "img" not in parsed.tags and "b" not in parsed.tags
    assert parsed.tags.count("script") == 1 and len(parsed.scripts) == 1
    script = parsed.scripts[0]
    assert "<" not in script.split("const DATA = ", 1)[1].split(";\n", 1)[0]
    assert "<!--" not in script and "</script" not in script
    assert parsed.titles == ["run __DATA__ <b>bold</b>"] * 2  # the text, as text
    data = json.loads(script.split("const DATA = ", 1)[1].split(";\n", 1)[0])
    assert data["names"] == HOSTILE_NAMES and data["classes"] == HOSTILE_LABELS.tolist()


def test_hostile_text_is_shown_as_text_in_a_browser(browser, tmp_path):
    path = hostile_player().save(tmp_path / "hostile.html")
    browser.get(path.as_uri())
    # the page's script ran to its end (unterminated, it never did), and no alert is open
    # (an open alert makes every script call fail)
    assert browser.execute_script("return window.player.step;") == 0
    assert browser.execute_script("return document.querySelectorAll('img').length;") == 0
    assert browser.find_element("id", "title").text == "run __DATA__ <b>bold</b>"
    labels = browser.execute_script(
        "return [...document.querySelectorAll('#plot text:not(.ticklabel)')]"
        ".map(t => t.textContent);")
    assert labels == HOSTILE_NAMES
    legend = browser.find_element("id", "legend").text
    assert all(f"class {label}" in legend for label in HOSTILE_LABELS)


def test_the_player_has_ticks_a_class_legend_and_says_when_the_line_is_out_of_view(
        browser, tmp_path):
    # from w = (10, 1, 0), bias first: the line x1 = -10, far left of the AND square
    model = Perceptron(init=np.array([10.0, 1.0, 0.0]), shuffle="none", record=True).fit(
        AND_X, AND_Y)
    path = TracePlayer(model.trace_, AND_X, AND_Y).save(tmp_path / "far.html")
    browser.get(path.as_uri())
    ticks = browser.execute_script(
        "return ['xtick', 'ytick'].map(c => [...document.getElementsByClassName(c)]"
        ".map(t => Number(t.textContent)));")
    for values in ticks:  # round numbers across the view [-0.1, 1.1]
        assert len(values) >= 3 and values == sorted(values)
        assert min(values) >= -0.1 and max(values) <= 1.1
    assert [0.0, 0.5, 1.0] == [v for v in ticks[0] if v in (0.0, 0.5, 1.0)]
    legend = browser.find_element("id", "legend").text
    for entry in ("class 0", "class 1", "learned line", "before the update", "margin band",
                  "updated point"):
        assert entry in legend
    note = browser.find_element("id", "offview")
    assert browser.execute_script("return window.player.offview;") is True
    assert note.is_displayed()
    assert note.text == "The line lies outside the view: all of it is predicted class 1."
    browser.find_element("id", "last").click()
    assert browser.execute_script("return window.player.offview;") is False
    assert not note.is_displayed()
    # PLA from zeros: no line at all at the start, and the page says why
    model = PLA(record=True, random_state=0).fit(AND_X, AND_Y)
    browser.get(TracePlayer(model.trace_, AND_X, AND_Y).save(tmp_path / "zero.html").as_uri())
    assert browser.find_element("id", "offview").text.startswith("No line: w = 0")
