"""
CISC 271, Class 30: the perceptron rule, online and batch, and Iris
===================================================================

The Queen's University lecture writes labels and classifications in {0, 1}: the
quantisation ``q = heaviside(x̂ᵀŵ)``, the residual ``e = y - q`` (Table 30.2: 0 when
right, +1 for a false negative, -1 for a false positive), and one update for all four
cases, ``ŵ ← ŵ + e x̂`` (eq. 30.2); then the batch rule ``ŵ ← ŵ + X̂ᵀ(y - q)`` (eq. 30.4);
then Iris from four random starts, slowed by a learning rate η (Fig. 30.1).

**What the text leaves open, and how rosenblatt runs it.** The text does not say what
``heaviside(0)`` is. MATLAB's, which the course uses, returns 0.5; other courses use 1
or 0. The choice matters from the first example: with ``ŵ = 0`` every activation is 0.
``Perceptron(h0=...)`` and ``BatchPerceptron(h0=...)`` run the text's rule literally
with ``H(0) = h0`` for ``h0`` in {0, 0.5, 1}, as ``numpy.heaviside(a, h0)`` does. The
default, ``h0=None``, is the rule of the other texts (Daumé, Ahmed & Pavlu): a point on
the line is a mistake whatever its label, ``y a <= 0`` with labels ±1. With ``h0=0.5``
a point on the line moves the weights by half a step, ``e = ±0.5``.
"""

# %%
# Table 30.2, row by row: q and e on AND
# --------------------------------------
# The trace of a run keeps, for every update, the activation, ``q`` and ``e``. With
# MATLAB's ``heaviside(0) = 0.5``:

import warnings

import matplotlib.pyplot as plt
import numpy as np

from rosenblatt import BatchPerceptron, Perceptron
from rosenblatt.datasets import load_iris_binary, make_boolean
from rosenblatt.experiments import iris_restarts

X, y = make_boolean("and")
y01 = (y > 0).astype(int)  # the lecture's {0, 1} labels

CASES = {1: "false negative", -1: "false positive", 0.5: "false negative (a = 0)",
         -0.5: "false positive (a = 0)"}
model = Perceptron(h0=0.5, shuffle="none", record=True).fit(X, y01)
trace = model.trace_
for k in range(len(trace)):
    e = float(trace.e[k])
    w = np.r_[trace.intercept[k], trace.coef[k]]
    print(f"epoch {trace.epoch[k]}, x{trace.index[k] + 1}: a = {trace.activation[k]:+.1f}, "
          f"q = {float(trace.q[k]):g}, y = {y01[trace.index[k]]}, e = {e:+g} "
          f"({CASES[e]}); w = {w.tolist()}")
print("epochs:", model.n_iter_, " final w (bias first):",
      np.r_[model.intercept_, model.coef_[0]].tolist())

# %%
# Rows with ``e = 0`` (true positives and negatives) change nothing and are not
# updates, so the trace skips them. The first example meets ``a = 0``: ``q = 0.5``,
# ``e = -0.5``, a half step away from it.
#
# Every choice of heaviside(0)
# ----------------------------
# The same data, online (eq. 30.2) and batch (eq. 30.4), from ``ŵ = 0``:

for h0 in (None, 0, 0.5, 1):
    online = Perceptron(h0=h0, shuffle="none").fit(X, y01)
    batch = BatchPerceptron(h0=h0).fit(X, y01)
    print(f"h0 = {h0!s:4s}: online {online.n_iter_} epochs -> "
          f"{np.r_[online.intercept_, online.coef_[0]].tolist()}; "
          f"batch {batch.n_iter_} steps -> {np.r_[batch.intercept_, batch.coef_[0]].tolist()}")

# %%
# All eight runs separate AND, each with other weights and after another number of
# passes: with ``H(0) = 0`` a negative point on the line counts as right, so the first
# pass skips it; with ``H(0) = 1`` a positive one does. ``h0=None`` updates on both,
# which is why it takes longest here (and why its bound does not depend on the labels'
# coding).
#
# Iris from random starts (Fig. 30.1)
# -----------------------------------
# Setosa against the rest on petal length and width, from four random starting vectors
# (uniform in [0, 1), bias first), with η = 1 and the slower η = 0.1 the lecture uses to
# exaggerate the effect, visiting the rows in the data's fixed order as the lecture's
# loop does ("for each training sample i"), until a pass without a miss.
# :func:`rosenblatt.experiments.iris_restarts` runs them.

result = iris_restarts(n_restarts=4, etas=(1.0, 0.1), random_state=0, show_progress=False)
print(result.table())
_ = result.plot()
runs = {(restart, eta): (epochs, updates) for restart, eta, epochs, updates, _ in result.rows}
for verdict, compare in [("more", lambda small, large: small > large),
                         ("fewer", lambda small, large: small < large)]:
    starts = [r for r in range(1, 5) if all(compare(a, b) for a, b in zip(runs[r, 0.1],
                                                                          runs[r, 1.0]))]
    print(f"eta = 0.1 needs {verdict} passes and updates than eta = 1 from starts {starts}")

# %%
# Four starts, four separating lines, each stopped at the first pass without a
# mistake, so each lies close to one class or the other, as the lecture says. With
# η = 0.1 each update is small next to the random start, so the lines stay nearer to
# where the start put them. Whether that costs passes depends on the start: two of the
# four need more passes and more updates to separate the classes (up to 9 passes and
# 25 updates, against 5 and 11), while the other two, whose start was already close to
# a separating line, get there sooner with the small steps (3 passes and 2 updates,
# against 4 and 7).

# %%
# Iris under each heaviside(0)
# ----------------------------
# From a random start, as in Fig. 30.1, no activation is ever exactly 0 and the four
# choices give the same run. From ``ŵ = 0`` in the data's order, as the lecture's
# MATLAB loop would start without a random guess, the first example meets ``a = 0``
# and the choice shows (η = 0.1):

X_iris, y_iris = load_iris_binary("setosa-vs-rest",
                                  features=["petal length (cm)", "petal width (cm)"])
y_iris01 = (y_iris == "setosa").astype(int)
same = {tuple(Perceptron(h0=h0, eta=0.1, init="uniform", random_state=0)
              .fit(X_iris, y_iris01).coef_[0]) for h0 in (None, 0, 0.5, 1)}
print("random start: distinct results over the four choices:", len(same))

figure, ax = plt.subplots(figsize=(6, 4.5))
ax.scatter(*X_iris.T, c=np.where(y_iris01 == 1, "tab:red", "tab:blue"), s=12)
grid = np.linspace(0.5, 7.5, 2)
for h0, style in zip((None, 0, 0.5, 1), ("-", "--", "-.", ":")):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # each of these runs converges
        run = Perceptron(h0=h0, eta=0.1, shuffle="none").fit(X_iris, y_iris01)
    w = np.r_[run.intercept_, run.coef_[0]]
    print(f"h0 = {h0!s:4s}: {run.n_iter_} epochs, {run.n_updates_} updates, "
          f"w = {np.array2string(w, precision=3)}, "
          f"training accuracy {run.score(X_iris, y_iris01):.2f}")
    ax.plot(grid, -(w[0] + w[1] * grid) / w[2], style, lw=2, label=f"h0 = {h0}")
ax.set(xlabel="petal length (cm)", ylabel="petal width (cm)", ylim=(-0.5, 3),
       title="setosa (red) against the rest, from w = 0, eta = 0.1")
_ = ax.legend(loc="upper right")

# %%
# The first example is a setosa (label 1), so ``H(0) = 1`` calls it right and skips it,
# while ``H(0) = 0`` and ``None`` both step towards it; the half step of ``h0 = 0.5``
# sends the run on another path, with more updates. Every choice separates the classes.
