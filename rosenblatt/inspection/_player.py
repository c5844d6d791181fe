"""A step-through player of a 2-D run: one self-contained HTML file, no network."""

import html
import json
import pathlib
import re

import numpy as np

from ._boundary import BoundaryDisplay


class TracePlayer:
    """Step through the updates of a 2-D trace in a browser: previous, next, play,
    speed and a slider; the updated point ringed, the line before (faded) and
    after, the weight vector, the margin band, the update written out with its
    numbers (``w ← w + η·e·x``), and the epoch, update and mistake counters.

    The page is one file with its script and styles inline (no network, no CDN):
    :meth:`save` writes it, :meth:`html` returns it, and in a notebook the player
    shows itself (``_repr_html_``, in an isolated frame). Its first frame is the
    starting weights and its last the running weights at the end (the fitted
    model's, except for the averaged, voted and pocket rules, which publish
    something else made of them). Batch runs are refused: they have no single
    update to step through.

    >>> from rosenblatt import Perceptron
    >>> X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1]
    >>> model = Perceptron(shuffle="none", record=True).fit(X, y)
    >>> player = TracePlayer(model.trace_, X, y)
    >>> len(player.frames), player.frames[-1]["w"]
    (19, [-4.0, 3.0, 2.0])
    >>> page = player.html()
    >>> "<script>" in page, any(link in page for link in ("src=", "href=", "@import"))
    (True, False)
    """

    def __init__(self, trace, X, y, *, title=None, feature_names=None):
        self.X = np.asarray(X, dtype=np.float64)
        if self.X.ndim != 2 or self.X.shape[1] != 2:
            raise ValueError(f"TracePlayer plays 2-D data; X has shape {self.X.shape}.")
        if not hasattr(trace, "coef") or np.ndim(trace.coef) != 2:
            raise ValueError("TracePlayer plays the trace of a binary model (record=True); "
                             "a multiclass run keeps one line per class.")
        before = np.vstack([np.reshape(trace.coef_init, (1, -1)), trace.coef[:-1]])
        if len(trace) and not np.allclose(before + trace.update[:, None] * trace.x, trace.coef):
            raise ValueError("TracePlayer steps through one update at a time; this run moved "
                             "by many rows at once (a batch rule): draw it with "
                             "rosenblatt.inspection.animate instead.")
        self.trace = trace
        self.y = np.asarray(y)
        self.title = title or f"{len(trace)} updates on {len(self.X)} points"
        self.feature_names = ["x1", "x2"] if feature_names is None else \
            [str(name) for name in feature_names]
        box = BoundaryDisplay(self.X, self.y, [1.0, 0.0], 0.0, classes=trace.classes)
        self.xlim, self.ylim = box.xlim, box.ylim
        self.frames = self._frames()

    def _frames(self):
        """The weights (bias first) before any update and after each, with what
        each update did: the row, its label, the residual and the step."""
        trace = self.trace
        frames = [{"w": [float(trace.intercept_init), *map(float, trace.coef_init)],
                   "row": None, "epoch": 0, "update": 0}]
        residuals = trace.e
        for k in range(len(trace)):
            frames.append({
                "w": [float(trace.intercept[k]), *map(float, trace.coef[k])],
                "row": int(trace.index[k]), "epoch": int(trace.epoch[k]), "update": k + 1,
                "x": [float(v) for v in trace.x[k]],
                "label": str(trace.labels[k]), "e": float(residuals[k]),
                "step": float(trace.update[k]), "activation": float(trace.activation[k]),
            })
        return frames

    def _data(self):
        positive = self.y == self.trace.classes[-1]
        return {
            "title": self.title, "names": self.feature_names,
            "classes": [str(c) for c in self.trace.classes],
            "points": self.X.tolist(), "positive": positive.tolist(),
            "xlim": list(map(float, self.xlim)), "ylim": list(map(float, self.ylim)),
            "frames": self.frames,
        }

    def html(self):
        """The player as one HTML page. No title, feature name or label can become
        markup or script: the text is escaped for HTML, the data serialised for a
        script (no ``<``, ``>`` or ``&`` in it), and both placed in one pass, so
        that one is never searched for the other's placeholder."""
        fill = {"__TITLE__": html.escape(self.title), "__DATA__": script_json(self._data())}
        return re.sub("__TITLE__|__DATA__", lambda match: fill[match.group()], _PAGE)

    def save(self, path):
        """Write the page to ``path`` (UTF-8); returns the path."""
        path = pathlib.Path(path)
        path.write_text(self.html(), encoding="utf-8")
        return path

    def _repr_html_(self):
        # an iframe of its own: notebooks sanitise or share scripts in plain output
        return (f'<iframe srcdoc="{html.escape(self.html(), quote=True)}" '
                'style="width: 100%; max-width: 760px; height: 760px; border: 0"></iframe>')


def script_json(value):
    """``value`` as JSON that is inert inside an HTML ``<script>``: ``<``, ``>`` and
    ``&`` written as ``\\u003c``, ``\\u003e``, ``\\u0026`` (the same string to
    JavaScript), so that neither ``</script>`` nor ``<!--`` (which leaves the page's
    own ``</script>`` unseen) can occur.

    >>> script_json({"name": "</script><!--<script>"})
    '{"name": "\\\\u003c/script\\\\u003e\\\\u003c!--\\\\u003cscript\\\\u003e"}'
    """
    # json.dumps writes every other character outside ASCII as a \\u escape of four
    # hex digits (U+2028 too)
    return json.dumps(value).replace("<", "\\u003c").replace(">", "\\u003e").replace(
        "&", "\\u0026")


_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>__TITLE__</title>
<style>
body { font: 14px sans-serif; margin: 12px; color: #222; }
#controls button, #controls select { font-size: 14px; margin-right: 4px; }
#slider { width: 420px; vertical-align: middle; }
#counters { margin: 6px 0; font-weight: bold; }
#formula { font-family: monospace; margin: 6px 0; min-height: 2.6em; white-space: pre; }
#legend { margin: 6px 0; font-size: 13px; }
#legend .item { margin-right: 14px; white-space: nowrap; }
#legend .key { display: inline-block; vertical-align: middle; margin-right: 5px; }
.key.point { width: 10px; height: 10px; border-radius: 50%; }
.key.pos { background: #d62728; } .key.neg { background: #1f77b4; }
.key.ring { width: 8px; height: 8px; border-radius: 50%; border: 2.5px solid orange; }
.key.stroke { width: 24px; border-top: 2.5px solid #2ca02c; }
.key.stroke.before { opacity: 0.3; } .key.stroke.band { border-top: 1.5px dashed #2ca02c; }
#offview { margin: 6px 0; padding: 4px 8px; max-width: 504px; background: #fff3cd;
  border: 1px solid #e0b84c; }
svg { border: 1px solid #ccc; background: white; max-width: 100%; height: auto; }
svg text { font-size: 13px; } svg .ticklabel { font-size: 11px; fill: #444; }
.pos { fill: #d62728; } .neg { fill: #1f77b4; } .tick { stroke: #777; }
.now { stroke: #2ca02c; stroke-width: 2.5; } .before { stroke: #2ca02c; stroke-width: 2;
  opacity: 0.3; } .band { stroke: #2ca02c; stroke-width: 1; stroke-dasharray: 5 4; }
</style></head><body>
<h3 id="title">__TITLE__</h3>
<div id="controls">
<button id="first">|&#x25C0; first</button><button id="prev">&#x25C0; previous</button>
<button id="play">play</button><button id="next">next &#x25B6;</button>
<button id="last">last &#x25B6;|</button>
speed <select id="speed"><option value="1000">1/s</option><option value="400" selected>
2.5/s</option><option value="100">10/s</option><option value="25">40/s</option></select>
<input id="slider" type="range" min="0" value="0">
</div>
<div id="counters"></div><div id="formula"></div>
<div id="legend"></div>
<div id="offview" hidden></div>
<svg id="plot" width="520" height="520" viewBox="0 0 520 520"></svg>
<script>
"use strict";
// every text from the data goes in through textContent: it is never read as markup
const DATA = __DATA__;
const SIZE = 520, LEFT = 60, BOTTOM = 48, PAD = 14, NS = "http://www.w3.org/2000/svg";
const [x0, x1] = DATA.xlim, [y0, y1] = DATA.ylim;
const [W, H] = [SIZE - LEFT - PAD, SIZE - BOTTOM - PAD];  // room for the box
const scale = Math.min(W / (x1 - x0), H / (y1 - y0));  // one scale: the same aspect as the data
const [X0, Y0] = [LEFT + (W - (x1 - x0) * scale) / 2, SIZE - BOTTOM - (H - (y1 - y0) * scale) / 2];
const NEGATIVE = DATA.classes[0], POSITIVE = DATA.classes[DATA.classes.length - 1];
function px(p) { return [X0 + (p[0] - x0) * scale, Y0 - (p[1] - y0) * scale]; }
function segment(w) {  // the line w[0] + w[1] x + w[2] y = 0 inside the box
  const pts = [];
  if (w[2] !== 0) for (const x of [x0, x1]) { const y = -(w[0] + w[1] * x) / w[2];
    if (y >= y0 && y <= y1) pts.push([x, y]); }
  if (w[1] !== 0) for (const y of [y0, y1]) { const x = -(w[0] + w[2] * y) / w[1];
    if (x >= x0 && x <= x1) pts.push([x, y]); }
  const unique = pts.filter((p, i) => pts.findIndex(q => Math.abs(q[0] - p[0]) < 1e-12 &&
    Math.abs(q[1] - p[1]) < 1e-12) === i).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return unique.length < 2 ? null : [unique[0], unique[unique.length - 1]];
}
function ticks(lo, hi) {  // about six round numbers in [lo, hi]: steps of 1, 2 or 5 x 10^k
  if (!(hi > lo)) return [];
  const raw = (hi - lo) / 6, power = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = power * [1, 2, 5, 10].find(m => m * power >= raw);
  const digits = Math.max(0, -Math.floor(Math.log10(step)));
  const values = [];
  for (let k = Math.ceil(lo / step); k * step <= hi; k++) values.push((k * step).toFixed(digits));
  return values;
}
function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const k in attrs) node.setAttribute(k, attrs[k]);
  parent.appendChild(node); return node;
}
function line(w, cls, svg) {
  const s = segment(w); if (!s) return null;
  const [a, b] = [px(s[0]), px(s[1])];
  return el("line", {x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: cls}, svg);
}
function fmt(v) { return (Math.round(v * 1e4) / 1e4).toString(); }
function vec(v) { return "[" + v.map(fmt).join(", ") + "]"; }
function mistakes(w) {  // the rule's mistakes: y a <= 0 (a point on the line counts)
  return DATA.points.filter((p, i) => (DATA.positive[i] ? 1 : -1) *
    (w[0] + w[1] * p[0] + w[2] * p[1]) <= 0).length;
}
function offView(w) {  // why no line is drawn, or "" when it is in view
  if (segment(w)) return "";
  if (w[1] === 0 && w[2] === 0) return w[0] === 0 ?
    "No line: w = 0, so every point lies on the boundary (a mistake for either class)." :
    `No line: the weights of ${DATA.names[0]} and ${DATA.names[1]} are 0, so every point ` +
    `is predicted class ${w[0] > 0 ? POSITIVE : NEGATIVE}.`;
  const a = w[0] + w[1] * (x0 + x1) / 2 + w[2] * (y0 + y1) / 2;
  return `The line lies outside the view: all of it is predicted class ` +
    `${a > 0 ? POSITIVE : NEGATIVE}.`;
}
const legend = document.getElementById("legend");
for (const [key, text] of [["point neg", `class ${NEGATIVE}`], ["point pos", `class ${POSITIVE}`],
    ["stroke", "learned line"], ["stroke before", "before the update"],
    ["stroke band", "margin band"], ["ring", "updated point"]]) {
  const item = document.createElement("span"), swatch = document.createElement("span");
  item.className = "item"; swatch.className = "key " + key;
  item.appendChild(swatch); item.appendChild(document.createTextNode(text));
  legend.appendChild(item);
}
const svg = document.getElementById("plot"), slider = document.getElementById("slider");
slider.max = DATA.frames.length - 1;
const player = {step: 0, weights: null, boundary: null, box: {x0, x1, y0, y1}, timer: null,
  offview: false};
window.player = player;
function axes() {
  const [ax, ay] = px([x0, y0]), [bx, by] = px([x1, y1]);
  el("rect", {x: ax, y: by, width: bx - ax, height: ay - by, fill: "none", stroke: "#999"}, svg);
  for (const v of ticks(x0, x1)) { const [x, y] = px([Number(v), y0]);
    el("line", {x1: x, y1: y, x2: x, y2: y + 5, class: "tick"}, svg);
    el("text", {x, y: y + 18, "text-anchor": "middle", class: "ticklabel xtick"}, svg)
      .textContent = v; }
  for (const v of ticks(y0, y1)) { const [x, y] = px([x0, Number(v)]);
    el("line", {x1: x - 5, y1: y, x2: x, y2: y, class: "tick"}, svg);
    el("text", {x: x - 8, y: y + 4, "text-anchor": "end", class: "ticklabel ytick"}, svg)
      .textContent = v; }
  el("text", {x: (ax + bx) / 2, y: ay + 38, "text-anchor": "middle"}, svg).textContent =
    DATA.names[0];
  el("text", {x: ax - 46, y: (ay + by) / 2, transform: `rotate(-90 ${ax - 46} ${(ay + by) / 2})`,
    "text-anchor": "middle"}, svg).textContent = DATA.names[1];
}
function draw(k) {
  k = Math.max(0, Math.min(DATA.frames.length - 1, k));
  const f = DATA.frames[k], w = f.w;
  player.step = k; player.weights = w; slider.value = k;
  while (svg.firstChild) svg.removeChild(svg.firstChild);
  axes();
  if (k > 0) line(DATA.frames[k - 1].w, "before", svg);
  const margins = DATA.points.map((p, i) => (DATA.positive[i] ? 1 : -1) *
    (w[0] + w[1] * p[0] + w[2] * p[1]));
  const gamma = Math.min(...margins);
  if (gamma > 0) for (const s of [-1, 1]) line([w[0] + s * gamma, w[1], w[2]], "band", svg);
  const now = line(w, "now", svg);
  player.boundary = segment(w);
  const note = document.getElementById("offview");
  note.textContent = offView(w); note.hidden = !note.textContent;
  player.offview = !note.hidden;
  if (now && (w[1] !== 0 || w[2] !== 0)) {  // the weight vector, from the line's middle
    const s = player.boundary, mid = [(s[0][0] + s[1][0]) / 2, (s[0][1] + s[1][1]) / 2];
    const n = Math.hypot(w[1], w[2]), len = 0.15 * Math.max(x1 - x0, y1 - y0);
    const tip = [mid[0] + len * w[1] / n, mid[1] + len * w[2] / n];
    const [m, t] = [px(mid), px(tip)];
    el("line", {x1: m[0], y1: m[1], x2: t[0], y2: t[1], class: "now", id: "arrow"}, svg);
    el("circle", {cx: t[0], cy: t[1], r: 3, fill: "#2ca02c"}, svg);
  }
  DATA.points.forEach((p, i) => { const [cx, cy] = px(p);
    el("circle", {cx, cy, r: 5, class: DATA.positive[i] ? "pos" : "neg"}, svg); });
  if (f.row !== null) { const [cx, cy] = px(DATA.points[f.row]);
    el("circle", {cx, cy, r: 11, fill: "none", stroke: "orange", "stroke-width": 3,
      id: "updated"}, svg); }
  const m = mistakes(w);
  document.getElementById("counters").textContent = k === 0 ?
    `start: w = ${vec(w)} (bias first), ${m} mistakes` :
    `update ${f.update} of ${DATA.frames.length - 1}, epoch ${f.epoch}, ${m} mistakes`;
  document.getElementById("formula").textContent = k === 0 ? "" :
    `row ${f.row}: label ${f.label}, activation a = ${fmt(f.activation)}, ` +
    `e = ${fmt(f.e)}\\nw \\u2190 w + \\u03b7\\u00b7e\\u00b7x = ${vec(DATA.frames[k - 1].w)} + ` +
    `${fmt(f.step)}\\u00b7${vec([1, ...f.x])} = ${vec(w)}`;
}
function stop() { clearInterval(player.timer); player.timer = null;
  document.getElementById("play").textContent = "play"; }
document.getElementById("next").onclick = () => { stop(); draw(player.step + 1); };
document.getElementById("prev").onclick = () => { stop(); draw(player.step - 1); };
document.getElementById("first").onclick = () => { stop(); draw(0); };
document.getElementById("last").onclick = () => { stop(); draw(DATA.frames.length - 1); };
slider.oninput = () => { stop(); draw(Number(slider.value)); };
document.getElementById("play").onclick = () => {
  if (player.timer) return stop();
  document.getElementById("play").textContent = "pause";
  player.timer = setInterval(() => { if (player.step >= DATA.frames.length - 1) stop();
    else draw(player.step + 1); }, Number(document.getElementById("speed").value));
};
draw(0);
</script></body></html>
"""
