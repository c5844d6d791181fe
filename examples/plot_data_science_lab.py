"""
The Data Science Lab, *Machine Learning Classics: The Perceptron*
=================================================================

The blog post draws a random target line in [-1, 1]², labels N = 20 random points by
it, runs the PLA from zeros (picking a misclassified point at random each time), plots
every iteration and assembles the plots into a GIF, then measures the out-of-sample
error by Monte Carlo ("0.0598200": about 6 %) and notes that it could be computed
exactly as the area between the two lines. This page does each step with rosenblatt,
and steps through the run in the player below.

**Conventions.** The blog keeps the bias as ``w[0]`` on ``x0 = 1``; rosenblatt keeps it
as ``intercept_`` and prints it first. The blog's own random numbers come from Python's
``random`` module, seeded by nothing, so its run cannot be replayed; we seed NumPy and
say which seed. A point exactly on the target line would get the blog's
``sign(0) = 0``, no class; :func:`~rosenblatt.datasets.make_target_line` labels it -1
(the chance of drawing one is zero).
"""

# %%
# Finding the blog's run
# ----------------------
# The blog's run "converges after 7 iterations", and its line misclassifies about 6 %
# of fresh points (its Monte Carlo estimate: 0.0598200). Each NumPy seed below draws a
# target, 20 points and the PLA's picks, exactly as the rest of this page does; a seed
# whose line leaves all 20 points on one side gives the PLA nothing to learn and is
# skipped. Of the seeds whose run takes 7 iterations, we keep the one whose exact E_out
# is nearest the blog's number.

import matplotlib.pyplot as plt
import numpy as np

from rosenblatt import PLA
from rosenblatt.datasets import label_by, make_target_line
from rosenblatt.experiments import target_line
from rosenblatt.inspection import BoundaryDisplay, TracePlayer
from rosenblatt.metrics import exact_out_of_sample_error, in_sample_error, out_of_sample_error

BLOG_ITERATIONS, BLOG_E_OUT = 7, 0.0598200
runs = {}  # seed -> (iterations, exact E_out)
for seed in range(1000):
    rng = np.random.RandomState(seed)
    X, y, target = make_target_line(20, random_state=rng)
    if len(np.unique(y)) < 2:
        continue
    run = PLA(random_state=rng).fit(X, y)
    runs[seed] = (run.n_updates_,
                  exact_out_of_sample_error(target, np.r_[run.intercept_, run.coef_[0]]))
sevens = [seed for seed, (iterations, _) in runs.items() if iterations == BLOG_ITERATIONS]
blog_seed = min(sevens, key=lambda seed: abs(runs[seed][1] - BLOG_E_OUT))
iterations = np.array([count for count, _ in runs.values()])
print(f"{len(runs)} seeds with both classes; {len(sevens)} converge after 7 iterations; "
      f"median {np.median(iterations):.0f}, mean {iterations.mean():.1f}, "
      f"most frequent {np.bincount(iterations).argmax()}")
print(f"the blog's run: seed {blog_seed}, {runs[blog_seed][0]} iterations, exact E_out "
      f"{runs[blog_seed][1]:.4f}")

figure, ax = plt.subplots(figsize=(8, 3.5))
ax.hist(iterations, bins=np.arange(0.5, 61.5), color="tab:blue",
        label=f"{len(runs)} seeds ({np.sum(iterations > 60)} beyond 60)")
ax.hist(iterations[iterations == BLOG_ITERATIONS], bins=np.arange(0.5, 61.5),
        color="tab:orange", label="7 iterations, as in the blog")
ax.set(xlabel="iterations (updates) of the PLA, N = 20", ylabel="seeds",
       title="How many iterations the blog's experiment takes")
_ = ax.legend()

# %%
# Seven iterations is no accident of the blog's: it is the most frequent count, though
# only about one run in ten takes exactly that; the median run needs 11, and a target
# that leaves a thin margin makes a long tail. From here on, the page follows seed 581:
# 7 iterations, and a line whose exact E_out, 0.0596, is the blog's 6 %.
#
# The target and the data
# -----------------------

rng = np.random.RandomState(blog_seed)
X, y, target = make_target_line(20, random_state=rng)
print("target V (bias first):", np.array2string(target, precision=3))
print(f"points: {np.sum(y > 0)} labelled +1, {np.sum(y < 0)} labelled -1")

# %%
# The blog's first picture, ``p.plot()``: the data before the first update. Only the
# target (black) and the points: the PLA starts from ``w = 0``, which draws no line and
# classifies no point (``sign(0) = 0`` is neither class), so every point is a candidate
# for the first update.

start = np.zeros(3)  # the blog's w, bias first
wrong_at_start = int(np.sum(np.sign(start[0] + X @ start[1:]) != y))
print(f"before the first update: w = {start.tolist()}, {wrong_at_start} of {len(y)} "
      "points misclassified")
figure, ax = plt.subplots(figsize=(5, 5))
line = np.linspace(-1, 1, 2)
ax.plot(line, -(target[0] + target[1] * line) / target[2], "k-", label="target")
ax.scatter(*X.T, c=np.where(y > 0, "tab:red", "tab:blue"), edgecolors="k", zorder=3)
ax.set(xlim=(-1, 1), ylim=(-1, 1), aspect="equal", title="N = 20: the start, w = 0")
_ = ax.legend(loc="upper left")

# %%
# The PLA, iteration by iteration
# -------------------------------
# ``PLA(record=True)`` keeps the weights after every update; the blog saves one plot per
# iteration (green: the current guess; black: the target). The point each update was
# made for is ringed, and the previous guess is drawn faded.

model = PLA(random_state=rng, record=True).fit(X, y)
trace = model.trace_
print("iterations:", model.n_updates_)
print("w (bias first):", np.array2string(np.r_[model.intercept_, model.coef_[0]],
                                         precision=3))

columns = 4
rows = -(-len(trace) // columns)
figure, axes = plt.subplots(rows, columns, figsize=(3.2 * columns, 3.2 * rows),
                            squeeze=False)
for k, ax in enumerate(axes.ravel()):
    if k >= len(trace):
        ax.axis("off")
        continue
    previous = (trace.coef_init, trace.intercept_init) if k == 0 else \
        (trace.coef[k - 1], trace.intercept[k - 1])
    BoundaryDisplay(X, y, trace.coef[k], trace.intercept[k], target=target,
                    highlight=trace.index[k], previous=previous,
                    title=f"N = 20, iteration {k + 1}").plot(ax=ax)
    ax.get_legend().remove()
axes[0, 0].legend(loc="upper left", fontsize=6)
figure.tight_layout()

# %%
# E_in and E_out, by Monte Carlo and exactly
# ------------------------------------------
# The blog averages the error on 100 fresh sets of 500 points. The exact value is the
# area of the square where the target and the learned line disagree, over its area 4:
# :func:`~rosenblatt.metrics.exact_out_of_sample_error` clips the square by both lines.

print(f"E_in = {in_sample_error(model, X, y):.3f}")
monte_carlo = np.mean([out_of_sample_error(model, target, 500, random_state=rng)
                       for _ in range(100)])
hypothesis = np.r_[model.intercept_, model.coef_[0]]
exact = exact_out_of_sample_error(target, hypothesis)
print(f"E_out: Monte Carlo (100 × 500 points) = {monte_carlo:.4f}, exact = {exact:.4f}")

fresh = np.random.RandomState(0).uniform(-1, 1, size=(500, 2))
fresh_labels = label_by(target, fresh)
display = BoundaryDisplay(fresh, fresh_labels, model.coef_[0], model.intercept_[0],
                          target=target, title="500 fresh points: E_out > 0").plot()
display.ax_.scatter(*X.T, s=80, c=np.where(y > 0, "tab:red", "tab:blue"),
                    edgecolors="k", label="training points", zorder=6)
_ = display.ax_.set(xlim=(-1, 1), ylim=(-1, 1))

# %%
# E_in is 0 (the PLA stops only then), but the learned line is not the target: the
# points between the two lines are misclassified (ringed). Monte Carlo agrees with the
# exact area within what 50,000 points allow (a standard error of about 0.001),
# and both are the blog's 0.0598 to within as much.
#
# Over many targets
# -----------------
# One run says little: :func:`rosenblatt.experiments.target_line` repeats it for 200
# random targets, each with its own 20 points.

result = target_line(n_samples=20, n_runs=200, n_test=10_000, random_state=0,
                     show_progress=False)
print(result.table())
_ = result.plot()

# %%
# With N = 20 the PLA needs from a handful to over a hundred iterations (the long tail:
# a target that leaves a thin margin), and its E_out averages near the blog's 6 %. The exact
# column needs no sampling at all; the Monte Carlo column scatters around it.
#
# The animation, in the player
# ----------------------------
# The blog glued the per-iteration PNGs into a GIF with ImageMagick. rosenblatt writes
# the GIF itself (``rosenblatt.inspection.animate(trace, X, y, "run.gif", target=...)``,
# or ``rosenblatt animate`` on the command line), and also a player: one HTML file, no
# network, that steps forward and back through the same run. Press "next" to make the
# first update; the line before it stays faded, the updated point is ringed, and the
# update is written out with its numbers.

TracePlayer(trace, X, y, title="The blog's run, N = 20")
