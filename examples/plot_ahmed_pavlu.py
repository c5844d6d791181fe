"""
Ahmed & Pavlu, *The Perceptron Algorithm*: AND, the bound, the loss, the linear unit
====================================================================================

Bilal Ahmed and Virgil Pavlu's lecture notes learn the boolean AND with the perceptron
one example at a time (Algorithm 1), prove the mistake bound, name the perceptron's
loss, and turn to the linear unit, trained by batch and by stochastic gradient descent
(Algorithms 2 and 3), for data no line separates.

**Conventions.** The notes put the bias in the weights, as ``w0`` on the input
``x0 = 1``; rosenblatt keeps it apart (``intercept_``) and prints it first, so
``[w0, w1, w2]`` below reads as the notes' vector. Labels are -1 and +1, and a point
with ``w·x = 0`` counts as a mistake for either label (``ŷ y <= 0``), as in the notes.
"""

# %%
# AND, one example at a time
# --------------------------
# The four rows in the notes' table order, η = 1, weights from zero, no shuffling. The
# trace records every update; replaying it gives the notes' step list: the activation
# ``ŷ = w·x`` each example meets, and the weights after it.

import warnings

import matplotlib.pyplot as plt
import numpy as np

from rosenblatt import LinearUnit, Perceptron
from rosenblatt.datasets import make_boolean
from rosenblatt.experiments import and_epochs, gradient_descent
from rosenblatt.inspection import BoundaryDisplay, LossDisplay
from rosenblatt.theory import is_linearly_separable, mistake_bound, perceptron_loss

X, y = make_boolean("and")
model = Perceptron(eta=1.0, shuffle="none", record=True).fit(X, y)
trace = model.trace_

w = np.zeros(3)  # [w0 (bias), w1, w2]
updates = dict(zip(trace.t.tolist(), zip(trace.intercept, trace.coef)))
for t in range(1, 2 * len(y) + 1):  # the first two epochs, example by example
    i = (t - 1) % len(y)
    activation = w[0] + X[i] @ w[1:]
    if t in updates:
        bias, coef = updates[t]
        w = np.r_[bias, coef]
        action = f"update: w = {w.astype(int).tolist()}"
    else:
        action = "no update"
    print(f"epoch {(t - 1) // len(y) + 1}, x{i + 1}: w·x = {activation:+.0f}; {action}")

# %%
# The first four lines are the notes' epoch 1, number for number: ``ŷ1 = 0`` (a mistake,
# w ← [-1, 0, 0]), ``ŷ2 = ŷ3 = -1`` (right), ``ŷ4 = -1`` (wrong, w ← [0, 1, 1]).
#
# Epoch by epoch, to convergence
# ------------------------------
# :func:`rosenblatt.experiments.and_epochs` gives the weights at the end of every epoch
# and draws the boundary each one makes (the notes' Figure 2 shows epochs 1, 2 and the
# last).

result = and_epochs()
print(result.table())
_ = result.plot()

# %%
# Epoch 9 is the first without a mistake; the weights it keeps, ``[-4, 3, 2]``, put the
# line ``3 x1 + 2 x2 = 4`` between (1, 1) and the other three corners.
#
# The mistake bound
# -----------------
# If a unit vector separates the (augmented) data with margin γ, and every example has
# norm at most R, the perceptron makes at most (R/γ)² mistakes, in any order. The
# notes' bound reads ``k <= (R/γ)² ‖w_opt‖²`` with an unnormalised ``w_opt``; with
# ``‖w_opt‖ = 1`` it is the same number. :func:`rosenblatt.theory.mistake_bound`
# computes it, finding γ with a quadratic program.

bound = mistake_bound(X, y)
print(f"bound (R/γ)² = {bound:.1f}; mistakes made = {model.n_updates_}")

# %%
# Here R² = 3 (the corner (1, 1, 1)) and γ² = 3/51, so the bound is 51: the 18 mistakes
# of the run are well inside it. A different order of the rows gives a different count,
# never above 51.

orders = [Perceptron(shuffle="once", random_state=seed).fit(X, y).n_updates_
          for seed in range(200)]
print(f"over 200 random orders: between {min(orders)} and {max(orders)} mistakes")

# %%
# Is there a loss function here?
# ------------------------------
# The perceptron minimises ``L_p = max(0, -y w·x)``, zero on the right side of the line
# and growing with the distance on the wrong side. Unlike the hinge loss, it does not
# ask for a margin: any separating line has loss zero, which is why the run stops at
# the first it finds.

scores_start = np.zeros(len(y))                             # w = 0
scores_epoch1 = X @ [1.0, 1.0] + 0.0                        # w = [0, 1, 1]
scores_final = model.decision_function(X)                   # w = [-4, 3, 2]
for name, scores in [("w = 0", scores_start), ("after epoch 1", scores_epoch1),
                     ("final", scores_final)]:
    print(f"perceptron loss, {name}: {perceptron_loss(y, scores).sum():.0f}")

_ = LossDisplay().plot()

# %%
# At ``w = 0`` every loss is zero too (``max(0, -0)``): the loss is flat there, and only
# the rule "update on ``y ŷ <= 0``" moves the perceptron off it. After epoch 1 the
# three negative rows score 0, 1 and 1: a loss of 2. At the end it is 0.
#
# The linear unit, for data no line separates
# -------------------------------------------
# With ``o(x) = w·x`` instead of its sign, the squared loss ``E(w) = ½ Σ (y - o)²`` has a
# gradient, and gradient descent converges whether or not the classes can be
# separated. The notes give both versions: batch (Algorithm 2, one step per pass over
# the data) and stochastic (Algorithm 3, one step per example). Below, two overlapping
# Gaussian clouds.

rng = np.random.RandomState(0)
X2 = np.vstack([rng.randn(50, 2) + [1, 1], rng.randn(50, 2) - [1, 1]])
y2 = np.r_[np.ones(50), -np.ones(50)]
batch = LinearUnit(solver="batch", eta=0.001, random_state=0).fit(X2, y2)
stochastic = LinearUnit(solver="sgd", eta=0.001, shuffle="every_epoch",
                        random_state=0).fit(X2, y2)
for name, unit in [("batch", batch), ("stochastic", stochastic)]:
    weights = np.r_[unit.intercept_, unit.coef_[0]]
    print(f"{name:10s}: w = {np.array2string(weights, precision=3)}, "
          f"E(w) = {unit.loss_curve_[-1]:.3f} after {unit.n_iter_} epochs, "
          f"training accuracy {unit.score(X2, y2):.2f}")

# %%
# Here, with the same η = 0.001 for both:

figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
left.plot(batch.loss_curve_, label="batch")
left.plot(stochastic.loss_curve_, label="stochastic")
left.set(xscale="log", xlabel="epoch", ylabel="E(w)", title="squared loss per epoch")
left.legend()
grid = np.linspace(-4, 4, 2)
right.scatter(*X2.T, c=np.where(y2 > 0, "tab:red", "tab:blue"), s=12)
for name, unit, style in [("batch", batch, "-"), ("stochastic", stochastic, "--")]:
    w0, (w1, w2) = unit.intercept_[0], unit.coef_[0]
    right.plot(grid, -(w0 + w1 * grid) / w2, style, color="tab:green", label=name)
right.set(xlim=(-4, 4), ylim=(-4, 4), aspect="equal", xlabel="x1", ylabel="x2",
          title="the two linear units' boundaries")
right.legend(loc="upper left")
figure.tight_layout()

# %%
# Both reach the same minimum of E (a convex quadratic) to three decimals, and stop when
# E changes by less than ``tol = 1e-6`` (relative) from one epoch to the next: the
# batch version in smooth steps, the stochastic one with a little noise that its small
# η keeps small. With the same η they also take about the same number of epochs: a
# stochastic epoch's hundred small steps add up to nearly the batch epoch's one step,
# their sum. What differs is the step each tolerates. Ten times larger, η = 0.01:

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # both warn: one diverges, one does not settle
    large = {solver: LinearUnit(solver=solver, eta=0.01, random_state=0).fit(X2, y2)
             for solver in ("batch", "sgd")}
print(f"eta = 0.01, batch: E rose to {large['batch'].loss_curve_[0]:.3f} in epoch 1 "
      "(diverged; the weights of least E kept)")
print(f"eta = 0.01, sgd  : E = {large['sgd'].loss_curve_[-1]:.3f} after "
      f"{large['sgd'].n_iter_} epochs, settled: {large['sgd'].converged_}")

# %%
# The batch step, the sum over 100 rows, overshoots at once: the loss grows, and
# rosenblatt stops and keeps the weights of least loss. The stochastic one reaches
# ``E = 17.19`` in a few epochs but its noise, ten times larger, keeps it circling
# there and never settles at the minimum, 17.055: for that its step must shrink.
#
# "Stochastic gradient descent is faster"?
# ----------------------------------------
# The notes end on a claim: SGD processes "a single example each time as opposed to the
# batch gradient descent that needs to process the entire dataset to carry out a single
# update. This makes the stochastic gradient descent algorithm faster." A race at one η
# says nothing about it (each solver has its own best step), so
# :func:`rosenblatt.experiments.gradient_descent` gives each its best: it tries steps
# from 2⁻¹⁰ to 2 times the solver's ``eta="auto"`` step (``1/L`` for batch, ``1/max‖x̃‖²``
# for SGD) and, for each target, within 1 % and within 0.1 % of the least ``E`` (from a
# least-squares solve), keeps the step that gets there in the fewest epochs, then times
# a fit that runs those epochs (CPU, the least of five). On the 100 points above
# (``random_state=0`` draws the same clouds), then on 20,000 points with 20 features:

small = gradient_descent(100, 2, random_state=0, show_progress=False)
print(small.table())
large = gradient_descent(20_000, 20, random_state=0, show_progress=False)
print(large.table())
_ = large.plot()

# %%
# Which claim holds, and where:
#
# - **Per epoch, and per example seen: yes.** On the 100 points SGD needs 2 epochs to come
#   within 1 % and 4 within 0.1 %, batch 3 and 5: a small gain. On 20,000 points SGD is
#   within 1 % after its first epoch and within 0.1 % after its second, where batch
#   needs 60 and 77. An epoch shows each solver every example once, so the examples seen
#   are in the same ratio (the loss is measured after each epoch: SGD's "1 epoch" may
#   be fewer examples).
# - **Per update: no**, and this is the notes' own premise: batch makes one update per
#   pass and SGD one per example, so batch reaches 0.1 % in 77 updates where SGD makes
#   40,000. One batch step, the sum of N gradients, is worth many small ones; it is
#   just slow to come, and on many redundant rows SGD's N steps go much farther.
# - **Per CPU second: only when the data are large.** On 100 points both fits take
#   about a millisecond, the cost of a call to ``fit``, whatever the solver; on 20,000
#   points SGD gets within 0.1 % several times sooner than batch (its epoch costs a
#   little more than a batch epoch, but it needs 2 of them, not 77).
#
# Separable and not: the notes' two pictures
# ------------------------------------------
# The notes' Figure 1 shows a data set a line separates, and a second that none does.
# The perceptron finishes an epoch without a mistake on the first; on the second it
# never can, and by default rosenblatt stops it once the epoch's mistakes stop falling
# (``tol``), a linear program having found that no line separates the rows
# (``stop_reason_`` is ``"tol"``, no warning); with the texts' rule alone (``tol=None``)
# it would run to ``max_iter`` and warn.

rng = np.random.RandomState(1)
figure, axes = plt.subplots(1, 2, figsize=(11, 5))
for ax, (name, offset) in zip(axes, [("linearly separable", 2.5), ("not separable", 0.8)]):
    X3 = np.vstack([rng.randn(40, 2) * 0.6 + offset, rng.randn(40, 2) * 0.6 - offset])
    y3 = np.r_[np.ones(40), -np.ones(40)]
    run = Perceptron(random_state=0).fit(X3, y3)
    print(f"{name:18s}: separable {is_linearly_separable(X3, y3)}, "
          f"{run.n_iter_} epochs ({run.stop_reason_}), training accuracy "
          f"{run.score(X3, y3):.2f}")
    BoundaryDisplay.from_estimator(run, X3, y3, title=f"{name}: {run.n_iter_} epochs").plot(
        ax=ax)
figure.tight_layout()

# %%
# On the left, every point on its side after a few epochs; on the right, the last line
# of a run that could not finish: the notes' case for the pocket's "minimum number of
# misclassifications" (:class:`~rosenblatt.PocketPerceptron`) and for the linear unit
# above.
