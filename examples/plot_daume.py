"""
Daumé, *A Course in Machine Learning*, chapter 4: the perceptron
================================================================

Hal Daumé III's chapter gives the perceptron (Algorithm 5), its geometry (the weight
vector is the normal of the boundary; the bias shifts it), a heuristic for reading the
weights (the top ten features), margins and the convergence theorem, and three
practical points with figures: early stopping (Fig. 4.3), permuting the data every
epoch (Fig. 4.4), and the voted and averaged perceptrons (Algorithm 7); then the XOR
problem and the feature conjunctions that fix it.

**Conventions.** The chapter's rule and rosenblatt's default are the same: labels ±1,
an update on ``y a <= 0``, η = 1, ``w = 0, b = 0`` to start. Its algorithms run all
MaxIter epochs, where rosenblatt stops after the first without a mistake: the same
weights for the perceptron, not for the averaged one (Algorithm 7, below). Daumé's
figures 4.3 and 4.4 are sketches without data; we measure the same questions on data
that say where they come from, with enough runs to answer them.
"""

# %%
# A neuron (Figs. 4.1 and 4.2)
# ----------------------------
# "We are going to think of our learning algorithm as a single neuron": it receives
# ``D`` inputs, one per feature, each through a connection with a weight, sums the
# weighted inputs, adds the bias, and fires (predicts +1) when the sum, the activation
# ``a = Σ w_d x_d + b``, is positive. The neuron drawn here is a learned one: the
# perceptron on XOR with the conjunction ``x1 AND x2`` added (the chapter's last section,
# below), three inputs, met by ``x = (1, 1, 1)``.

import warnings

import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.exceptions import ConvergenceWarning
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from rosenblatt import AveragedPerceptron, Perceptron, PocketPerceptron
from rosenblatt.datasets import make_boolean, make_target_line
from rosenblatt.experiments import epochs_curve, margin_bound, permutation, variants
from rosenblatt.inspection import BoundaryDisplay, RegionsDisplay
from rosenblatt.metrics import top_features
from rosenblatt.preprocessing import pairwise_conjunctions
from rosenblatt.theory import dataset_margin, geometric_margin, is_linearly_separable

X_xor, y_xor = make_boolean("xor")
neuron = make_pipeline(pairwise_conjunctions(), Perceptron(shuffle="none")).fit(X_xor, y_xor)
w_neuron, b_neuron = neuron[-1].coef_[0], neuron[-1].intercept_[0]
x_neuron = neuron[0].transform([[1, 1]])[0]  # x1 = x2 = 1, so x1 AND x2 = 1
products = w_neuron * x_neuron
activation = neuron.decision_function([[1, 1]])[0]
print(f"inputs {x_neuron.tolist()}, weights {w_neuron.tolist()}, products "
      f"{products.tolist()}, sum {products.sum():+.0f}, bias {b_neuron:+.0f}: "
      f"a = {activation:+.0f}, fires: {bool(activation > 0)}")

figure, (left, right) = plt.subplots(1, 2, figsize=(13, 4.5))
names = ["x1", "x2", "x1 x2"]
heights = [2.0, 0.0, -2.0]
for name, height, weight, value in zip(names, heights, w_neuron, x_neuron):
    left.add_patch(plt.Circle((0, height), 0.45, color=plt.cm.Oranges(0.2 + 0.6 * value)))
    left.text(0, height, f"{name}\n= {value:g}", ha="center", va="center", fontsize=9)
    left.annotate("", xy=(3.35, 0.25 * height), xytext=(0.5, height), arrowprops=dict(
        arrowstyle="-|>", lw=1.5 * abs(weight), color="tab:red" if weight > 0 else "tab:blue"))
    left.text(1.6, 0.62 * height + 0.25, f"w = {weight:+g}", fontsize=10)
left.add_patch(plt.Circle((4, 0), 0.7, color="tab:grey" if activation <= 0 else "tab:red"))
left.text(4, 0, "fires?\n" + ("yes" if activation > 0 else "no"), ha="center", va="center",
          color="white", fontsize=10)
left.set(xlim=(-1, 5.2), ylim=(-3, 3), aspect="equal",
         title="Fig. 4.1: a neuron, three inputs, connections as strong as weights")
left.axis("off")
columns = [("x_d", x_neuron), ("w_d", w_neuron), ("w_d x_d", products)]
for column, (header, values) in enumerate(columns):
    right.text(column, 3.6, header, ha="center", fontsize=11, weight="bold")
    for row, value in enumerate(values):
        right.text(column, 2.6 - row, f"{value:+g}", ha="center", fontsize=11)
right.annotate("", xy=(3.4, 1.6), xytext=(2.4, 1.6), arrowprops=dict(arrowstyle="-|>"))
right.text(4.3, 1.6, f"Σ = {products.sum():+g}\n+ b = {b_neuron:+g}\na = {activation:+g}",
           ha="center", va="center", fontsize=11)
right.annotate("", xy=(6.0, 1.6), xytext=(5.1, 1.6), arrowprops=dict(arrowstyle="-|>"))
right.text(6.8, 1.6, f"sign(a) = {np.sign(activation):+.0f}", ha="center", va="center",
           fontsize=11)
right.set(xlim=(-0.6, 7.8), ylim=(-0.2, 4.2),
          title="Fig. 4.2: inputs, weights, products, sum, activation")
right.axis("off")
figure.tight_layout()

# %%
# Both inputs on: ``2 + 2 − 5 = −1``, and the bias ``−1`` makes ``a = −2``: the neuron
# does not fire, and XOR(1, 1) is indeed negative. A zero weight would leave its input
# unheard, a positive one pushes towards firing and a negative one away (§4.1).
#
# The activation is a dot product (Math Review, Fig. 4.5)
# -------------------------------------------------------
# ``a = w·x`` without a bias. Daumé's example: ``u = (0.8, 0.6)``, a unit vector, and
# ``v = (0.37, 0.73)``, with ``u·v = 0.734``: the length of ``v``'s projection on ``u``.
# A perceptron with the weights ``u`` and no bias computes exactly that as its
# activation at ``v`` (it meets ``v``, labelled +1, once: a positive activation, no
# update). ``v`` splits into ``a``, along ``u``, and ``b``, perpendicular to it:

u, v = np.array([0.8, 0.6]), np.array([0.37, 0.73])
unit = Perceptron(init=u, fit_intercept=False, shuffle="none").partial_fit(
    [v], [1], classes=[-1, 1])
u_dot_v = unit.decision_function([v])[0]
along, across = u_dot_v * u, v - u_dot_v * u
print(f"u·v = {u_dot_v:.3f} ({unit.n_updates_} updates); a = {np.round(along, 4).tolist()}, "
      f"‖a‖ = {np.linalg.norm(along):.3f}; b = {np.round(across, 4).tolist()}, "
      f"‖b‖ = {np.linalg.norm(across):.3f}; a·b = {abs(along @ across):.3f}")

figure, ax = plt.subplots(figsize=(4.5, 4.5))
for vector, start, name, colour in [(u, (0, 0), "u", "tab:grey"), (v, (0, 0), "v", "k"),
                                    (along, (0, 0), "a", "tab:red"),
                                    (across, along, "b", "tab:blue")]:
    ax.annotate("", xy=np.add(start, vector), xytext=start,
                arrowprops=dict(arrowstyle="-|>", color=colour, lw=2))
    label = np.add(start, vector) if name == "u" else np.add(start, vector / 2)
    ax.text(*(label + [0.03, -0.06]), name, color=colour, fontsize=13)
ax.set(xlim=(-0.1, 0.9), ylim=(-0.1, 0.9), aspect="equal",
       title="Fig. 4.5: v = a + b, ‖a‖ = u·v = 0.734")
_ = ax.grid(alpha=0.3)

# %%
# ``‖a‖ = 0.734 = u·v`` and ``a·b = 0``. The book's sentence says "the length of b is
# exactly u·v", a slip: it is the length of ``a``, the part along ``u`` (``b``'s length is
# 0.362). Hence "the dot product between u and v is the projection of v onto u", and
# Fig. 4.7 below: the activation of every point is its projection on ``w``.
#
# The geometry: w is the normal of the boundary
# ---------------------------------------------
# The boundary is the set ``w·x + b = 0``: the weight vector is perpendicular to it and
# points to the positive side; the bias shifts it by ``-b/‖w‖`` along ``w`` (Figs.
# 4.6–4.8). The activation of a point is its projection on ``w``, times ``‖w‖``, plus
# ``b`` (Fig. 4.7).

X, y, _ = make_target_line(40, random_state=np.random.RandomState(7))
model = Perceptron(shuffle="none").fit(X, y)
w, b = model.coef_[0], model.intercept_[0]
print(f"w = {np.array2string(w, precision=3)}, b = {b:.3f}, "
      f"the boundary is {abs(b) / np.linalg.norm(w):.3f} from the origin")

figure, (left, right) = plt.subplots(1, 2, figsize=(11, 5))
BoundaryDisplay.from_estimator(model, X, y, title="boundary, w and margin band").plot(ax=left)
projection = X @ w / np.linalg.norm(w)
right.scatter(projection, np.zeros_like(projection), c=np.where(y > 0, "tab:red", "tab:blue"))
right.axvline(-b / np.linalg.norm(w), color="tab:green", label="-b/‖w‖: the boundary")
right.set(yticks=[], xlabel="projection of x on w/‖w‖",
          title="Fig. 4.7: every point projected onto w")
right.legend(loc="upper left")
figure.tight_layout()

# %%
# On the right, the data seen from ``w``: one number per point, the negatives on one
# side of ``-b/‖w‖`` and the positives on the other.
#
# Only the direction of ``w`` matters: replacing ``w`` and ``b`` by ``2w`` and ``2b``
# doubles every activation and changes no sign (§4.3).

doubled = Perceptron(shuffle="none").fit(X, y)
doubled.coef_, doubled.intercept_ = 2 * model.coef_, 2 * model.intercept_
print("2w, 2b: activations doubled:",
      bool(np.allclose(doubled.decision_function(X), 2 * model.decision_function(X))),
      "; predictions changed:", int(np.sum(doubled.predict(X) != model.predict(X))))

# %%
# Why an update helps (eqs. 4.3–4.6): after a mistake on a positive ``x``, the weights
# become ``w + x`` and ``b + 1``, so the same example's activation becomes
# ``a' = a + Σ x_d² + 1``, at least one more. (The user guide has it as a doctest.)

x = X[0]
before = Perceptron(init=[-1.0, 0.0, 0.0], shuffle="none", tol=None)
a = float(before.init[0] + x @ np.asarray(before.init[1:]))
after = before.partial_fit([x], [1], classes=[-1, 1])
print(f"a = {a:.4f}; a' = {after.decision_function([x])[0]:.4f}; "
      f"a + Σx² + 1 = {a + x @ x + 1:.4f}")

# %%
# The top features
# ----------------
# Daumé §4.4: with standardised features, sort the weights and read the ten largest
# positive and the ten most negative. On the breast cancer data (positive = benign):
# a hyperplane does separate its 569 rows, a linear program says, but the perceptron
# would need many epochs to find one; we stop it after 10 and read its last weights (the
# ``ConvergenceWarning`` saying so is expected here).

data = load_breast_cancer()
with warnings.catch_warnings():
    warnings.simplefilter("ignore", ConvergenceWarning)
    pipeline = make_pipeline(StandardScaler(), Perceptron(max_iter=10, random_state=0))
    pipeline.fit(data.data, data.target)
print(f"separable: {is_linearly_separable(data.data, data.target)}; after "
      f"{pipeline[-1].n_iter_} epochs ({pipeline[-1].stop_reason_}): training accuracy "
      f"{pipeline.score(data.data, data.target):.3f}")
positive, negative = top_features(pipeline[-1], list(data.feature_names), k=10)
print("most benign:   ", ", ".join(f"{name} ({weight:+.1f})" for name, weight in positive[:3]))
print("most malignant:", ", ".join(f"{name} ({weight:+.1f})" for name, weight in negative[:3]))

figure, ax = plt.subplots(figsize=(8, 5))
names = [name for name, _ in negative[::-1]] + [name for name, _ in positive[::-1]]
weights = [weight for _, weight in negative[::-1]] + [weight for _, weight in positive[::-1]]
ax.barh(names, weights, color=np.where(np.array(weights) > 0, "tab:red", "tab:blue"))
ax.set(xlabel="weight (standardised features)",
       title="the ten most positive and ten most negative weights")
figure.tight_layout()

# %%
# Daumé's caveat applies: a feature's weight also depends on the features it is
# correlated with (the radius, perimeter and area of a cell nucleus here), so the list
# ranks what this perceptron uses, not what causes the label.
#
# Margins and the convergence theorem
# -----------------------------------
# The margin of a separating ``(w, b)`` is the distance of the closest point (eq. 4.8,
# divided by ``‖w‖``); the margin of the data is the largest over all ``(w, b)`` (eq. 4.9).
# The perceptron's line has some margin; the largest is found by a quadratic program.

gamma, w_best, b_best = dataset_margin(X, y)
print(f"margin of the perceptron's line: {geometric_margin(X, y, w, b):.4f}; "
      f"margin of the data: {gamma:.4f}")

# %%
# Theorem 2 bounds the perceptron's mistakes by ``(R/γ)²`` on separable data, whatever
# the order. :func:`rosenblatt.experiments.margin_bound` draws points farther than a
# given gap from a random line and counts the updates as the gap shrinks:

result = margin_bound((0.2, 0.1, 0.05, 0.02, 0.01), n_samples=200, random_state=0,
                      show_progress=False)
print(result.table())
_ = result.plot()

# %%
# The updates grow as the margin shrinks (not at every step: each row is another
# random line and sample), always below the bound and far below it: the bound holds
# for the worst order of the worst data with that margin.
#
# Without separability there is no such bound, and §4.5's "very uninteresting" data set
# shows it: no features, one positive and one negative example. Only the bias can move,
# and each example undoes the other's update, for ever (the texts' rule alone,
# ``tol=None``, runs to ``max_iter`` and warns):

with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always", ConvergenceWarning)
    bias_only = Perceptron(shuffle="none", tol=None, max_iter=1000, record=True).fit(
        np.zeros((2, 1)), [1, -1])
print(f"bias after each update: {bias_only.trace_.intercept[:6].tolist()} ...; "
      f"{bias_only.n_updates_} updates in {bias_only.n_iter_} epochs, "
      f"warned: {any(w.category is ConvergenceWarning for w in caught)}")

# %%
# Early stopping (Fig. 4.3)
# -------------------------
# Train and test error after each epoch, on the breast cancer data (70/30 split,
# standardised).

result = epochs_curve("breast_cancer", n_epochs=30, random_state=0, show_progress=False)
best = result.data["best_epoch"]
print(f"least test error: vanilla at epoch {best['vanilla']}, "
      f"averaged at epoch {best['averaged']}")
train = np.array(result.data["errors"]["vanilla"][0])
low = int(np.argmin(train))
high = low + int(np.argmax(train[low:]))
print(f"vanilla training error: {train[low]:.4f} at epoch {low + 1}, "
      f"{train[high]:.4f} at epoch {high + 1}")
_ = result.plot()

# %%
# The vanilla perceptron's training error does not keep falling: after its first
# epochs it rises and falls with each epoch's last updates (down to 0.0075 at epoch 12,
# back to 0.043 at epoch 14), and its test error with it. The averaged perceptron's
# errors move smoothly, its training error down to 0.0075. The dotted lines mark the
# least test error; in practice a held-out validation set (``early_stopping=True``)
# chooses the epoch.
#
# One split is one noisy curve. Daumé's sweet spot, where the test error stops falling
# and starts to rise while the training error goes on down, shows in the mean over 20
# random splits (each with its own row orders):

mean = epochs_curve("breast_cancer", n_epochs=30, n_splits=20, random_state=0,
                    show_progress=False)
train_mean, test_mean = map(np.array, mean.data["errors"]["averaged"])
sweet = mean.data["best_epoch"]["averaged"]
print(f"20 splits, averaged perceptron: test error {test_mean[0]:.4f} at epoch 1, "
      f"{test_mean[sweet - 1]:.4f} at epoch {sweet} (the least), {test_mean[-1]:.4f} at "
      f"epoch 30; training error {train_mean[sweet - 1]:.4f} at epoch {sweet}, "
      f"{train_mean[-1]:.4f} at epoch 30")
_ = mean.plot()

# %%
# The averaged perceptron's mean test error falls from 0.036 to its least, 0.0269, by
# epoch 4, and then no further: 0.0284 at epoch 30, while its training error goes on
# falling, from 0.0157 to 0.0107. The later epochs fit the training rows better and the
# test rows slightly worse: Daumé's sweet spot, shallow on these data (Fig. 4.3 is a
# sketch; the averaged perceptron is the one that overfits least). The vanilla
# perceptron's mean curves still wobble from epoch to epoch, at every epoch above the
# averaged one's.
#
# Permuting once or every epoch (Fig. 4.4)
# ----------------------------------------
# Daumé: permuting the data every epoch "tends to yield about 20 % savings in number of
# iterations" against permuting once. We test it on 100 points sorted with every
# negative first (the order he warns of), 1,000 data sets, each given to the three
# modes, with bootstrap 95 % intervals. The number of epochs a run needs has a long
# tail (a thin margin takes hundreds), so 50 runs can point either way; 1,000 decide.

result = permutation(n_samples=100, n_runs=1000, random_state=0, show_progress=False)
print(result.table())
_ = result.plot()

# %%
# Never permuting is far worse than permuting once; permuting every epoch saves about
# a seventh of the epochs against permuting once (+15 %), with an interval that excludes
# zero and contains Daumé's 20 %. Daumé adds that "in theory, you can actually prove that
# it's expected to be about twice as fast": a saving of 50 %, far above what these runs
# measure (the interval stops at +28 %). The median run needs the same 11 epochs either
# way: the saving comes from the long runs.
#
# Why a fixed order can be so bad (§4.2): on 500 positive examples followed by 500
# negative ones, one pass learns from a handful of examples and ends predicting nearly
# everything negative:

X_line, y_line, _ = make_target_line(4000, random_state=np.random.RandomState(0))
X_sorted = np.vstack([X_line[y_line > 0][:500], X_line[y_line < 0][:500]])
y_sorted = np.r_[np.ones(500), -np.ones(500)]
with warnings.catch_warnings():
    warnings.simplefilter("ignore", ConvergenceWarning)  # one pass: not converged
    for order in ("none", "every_epoch"):
        one_pass = Perceptron(shuffle=order, max_iter=1, random_state=0)
        one_pass.fit(X_sorted, y_sorted)
        print(f"500 positives then 500 negatives, shuffle={order!r}: "
              f"{one_pass.n_updates_} updates, "
              f"accuracy {one_pass.score(X_sorted, y_sorted):.3f} after one pass")

# %%
# In the given order: 3 updates, and the line that ends the pass calls 92 % of the
# points negative, for 58 % accuracy: Daumé's "only learned from a handful of
# examples". Permuted, the same pass makes 51 updates and reaches 99 %.
#
# Vanilla, averaged, voted (and pocket)
# -------------------------------------
# Algorithm 7's averaged perceptron predicts with the mean of every weight vector it
# went through; the voted perceptron lets each vote with its survival count (eq. 4.17).
# Test errors after 10 epochs on three data sets bundled with scikit-learn:

result = variants(n_epochs=10, random_state=0, show_progress=False)
print(result.table())
_ = result.plot()

# %%
# ``variants`` runs the texts' rule (``tol=None``): ten epochs unless one makes no
# mistake. On digits and on Iris, averaging and voting beat the last weight vector, as
# Daumé says they usually do. On breast cancer, with this split, the vanilla perceptron's
# last vector happens to do better, by one of the 171 test points: within what another
# split (or another row order) would change. The averaged perceptron predicts at the
# cost of the vanilla one; the voted one keeps every vector it went through.
#
# Algorithm 7, exactly
# --------------------
# Daumé's Algorithm 7 runs all MaxIter epochs, and goes on averaging after an epoch
# without a mistake: the running weights stay, and the mean moves towards them.
# rosenblatt stops at the first mistake-free epoch by default, the rule of the other
# texts; ``stop_mistake_free=False`` (with ``tol=None``: no stall rule either) is
# Algorithm 7. Its weights are ours times ``T / (T + 1)``, ``T`` the examples seen (it
# divides by its counter ``c = T + 1``). On AND with MaxIter = 50:

X_and, y_and = make_boolean("and")
with warnings.catch_warnings():
    # all MaxIter epochs on purpose; rosenblatt still warns that max_iter was reached
    warnings.simplefilter("ignore", ConvergenceWarning)
    algorithm_7 = AveragedPerceptron(max_iter=50, tol=None, stop_mistake_free=False,
                                     shuffle="none").fit(X_and, y_and)
default = AveragedPerceptron(max_iter=50, shuffle="none").fit(X_and, y_and)
T = algorithm_7.n_examples_
print(f"Algorithm 7: {algorithm_7.n_iter_} epochs, returns "
      f"b = {algorithm_7.intercept_[0] * T / (T + 1):.2f}, "
      f"w = {np.round(algorithm_7.coef_[0] * T / (T + 1), 2).tolist()}; "
      f"predicts {algorithm_7.predict([[1.0, 0.4]])[0]:+d} at (1, 0.4)")
print(f"default    : {default.n_iter_} epochs, mean b = {default.intercept_[0]:.2f}, "
      f"w = {np.round(default.coef_[0], 2).tolist()}; "
      f"predicts {default.predict([[1.0, 0.4]])[0]:+d} at (1, 0.4)")

# %%
# Both separate AND, yet they disagree on points near the line, such as (1, 0.4).
#
# XOR, and the conjunctions that fix it
# -------------------------------------
# No line separates XOR (Fig. 4.12): the perceptron never finishes an epoch without a
# mistake. By default rosenblatt stops it once the epoch's mistakes stop falling
# (``tol``: five epochs in a row without fewer mistakes than the fewest so far), after a
# linear program has found that no line separates the rows; ``stop_reason_`` says
# ``"tol"``, and there is no warning. The texts' rule alone (``tol=None``) stops it at
# ``max_iter`` with a ``ConvergenceWarning``. Adding the conjunction ``x1 AND x2`` as a
# third feature makes it separable.

print("XOR separable:", is_linearly_separable(X_xor, y_xor))
for tol in (1e-3, None):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ConvergenceWarning)
        plain = Perceptron(shuffle="none", max_iter=100, tol=tol).fit(X_xor, y_xor)
    print(f"plain perceptron, tol={tol}: accuracy {plain.score(X_xor, y_xor):.2f} after "
          f"{plain.n_iter_} epochs, stop_reason_ {plain.stop_reason_!r}, warned: "
          f"{any(w.category is ConvergenceWarning for w in caught)}")

conjunctions = pairwise_conjunctions()
X_and = conjunctions.fit_transform(X_xor)
print("with x1 AND x2 added:", conjunctions.get_feature_names_out(["x1", "x2"]).tolist(),
      "separable:", is_linearly_separable(X_and, y_xor))
lifted = make_pipeline(pairwise_conjunctions(), Perceptron(shuffle="none")).fit(X_xor, y_xor)
weights = np.r_[lifted[-1].intercept_, lifted[-1].coef_[0]]
print(f"perceptron on (x1, x2, x1 x2): accuracy {lifted.score(X_xor, y_xor):.2f} after "
      f"{lifted[-1].n_iter_} epochs, w (bias first) = {weights.tolist()}")

# %%
# The learned weights read as a rule: positive for ``x1`` or ``x2`` alone, and a
# negative weight on the conjunction that cancels them when both are on, as the
# "excellent-and-not" features of Daumé's example do.
#
# Daumé's sentiment example is XOR in words: the features *excellent*, *terrible* and
# *not*, where *not* flips the meaning of the other two. His weights on the two
# conjunctions with *not* classify every review:

reviews = np.array([[1, 0, 0], [0, 1, 0], [1, 0, 1], [0, 1, 1]])  # excellent, terrible, not
sentiment = np.array([1, -1, -1, 1])
with_not = np.c_[reviews, reviews[:, 0] * reviews[:, 2], reviews[:, 1] * reviews[:, 2]]
daume = np.array([+1, -1, 0, -2, +2])  # excellent, terrible, not, excellent-and-not, ...
print("separable without conjunctions:", is_linearly_separable(reviews, sentiment))
for review, activation, label in zip(
        ["excellent", "terrible", "not excellent", "not terrible"], with_not @ daume,
        sentiment):
    print(f"{review:13s}: w·x = {activation:+d}, label {label:+d}")

# %%
# Limitations: what a line cannot do (§4.7)
# -----------------------------------------
# "Its decision boundaries can only be linear", where a decision tree's and nearest
# neighbours' need not be. On four clouds in XOR's corners, each model's regions
# (:class:`~rosenblatt.inspection.RegionsDisplay`). On such data the perceptron's last
# weights are wherever its last mistakes left them (here a line outside the square that
# calls every point negative); the line drawn is the best one the run met, kept in its
# pocket (:class:`~rosenblatt.PocketPerceptron`: the weights with the fewest training
# mistakes).

rng = np.random.RandomState(0)
corners = np.array([[0, 0], [1, 1], [0, 1], [1, 0]])
X_clouds = np.repeat(corners, 50, axis=0) + 0.15 * rng.randn(200, 2)
y_clouds = np.repeat([-1, -1, 1, 1], 50)
figure, axes = plt.subplots(1, 3, figsize=(14, 4.5))
for ax, (name, classifier) in zip(axes, [
        ("decision tree", DecisionTreeClassifier(random_state=0)),
        ("5 nearest neighbours", KNeighborsClassifier(5)),
        ("perceptron (pocket)", PocketPerceptron(random_state=0))]):
    classifier.fit(X_clouds, y_clouds)
    accuracy = classifier.score(X_clouds, y_clouds)
    print(f"{name:20s}: training accuracy {accuracy:.2f}")
    RegionsDisplay.from_estimator(classifier, X_clouds, y_clouds, ax=ax)
    ax.set_title(f"{name}: training accuracy {accuracy:.2f}")
figure.tight_layout()
last = Perceptron(random_state=0).fit(X_clouds, y_clouds)
print(f"the plain perceptron's last weights: training accuracy "
      f"{last.score(X_clouds, y_clouds):.2f}, stopped by {last.stop_reason_!r} after "
      f"{last.n_iter_} epochs")

# %%
# The tree cuts the square into the four quadrants and the neighbours follow the
# clouds; the perceptron's one line cannot: even the best it met leaves more than a
# third of the points on the wrong side (no line does better than three clouds of four).
