"""
Kowalczyk, *SVM Succinctly*, chapter 3: the perceptron
======================================================

Alexandre Kowalczyk writes the perceptron learning algorithm (PLA) in a few lines of
NumPy (Code Listings 11–14), runs it on a toy data set of 14 points, then shows why a
perceptron is not enough: its updates can make things worse (Fig. 18), every run finds
another separating line (Fig. 19), and not all of them do well on a test set
(Figs. 20–21). This page does each with rosenblatt's :class:`~rosenblatt.PLA`.

**Our convention and the book's.** The book keeps the bias as the first weight, on an
input augmented with ``x0 = 1``; rosenblatt keeps it apart as ``intercept_`` and
prints it first wherever a text does. The book's PLA draws its start from
``np.random.rand(3)`` and, at every step, shuffles the misclassified points with the same
generator and takes the first: ``PLA(init="uniform", random_state=RandomState(seed))``
draws exactly those numbers, so the seed-88 run below is the book's, update for update.
"""

# %%
# Code Listing 14: the seed-88 run
# --------------------------------
# The training set of the book's data module: 7 positive points, then 7 negative ones.

import warnings

import matplotlib.pyplot as plt
import numpy as np
from sklearn.exceptions import ConvergenceWarning

from rosenblatt import PLA, Perceptron
from rosenblatt.datasets import load_svm_succinctly
from rosenblatt.inspection import BoundaryDisplay

X, y = load_svm_succinctly("train")
X_test, y_test = load_svm_succinctly("test")

model = PLA(init="uniform", random_state=np.random.RandomState(88), record=True).fit(X, y)
w = np.r_[model.intercept_, model.coef_[0]]
print("w (bias first):", np.array2string(w, precision=8))
print("updates:", model.n_updates_)

# %%
# The book prints ``[-44.35244895   1.50714969   5.52834138]``: the same vector, after
# the same 175 updates.
#
# Figs. 15–17: why the update rule works
# --------------------------------------
# A point is classified by the sign of ``w·x``: positive when the angle between ``w``
# and ``x`` is under 90°. Adding ``x`` to ``w`` makes the angle smaller (Fig. 16),
# subtracting it makes it bigger (Fig. 17), so ``w ← w + y x`` turns ``w`` the right way
# for a misclassified ``x``. Code Listing 17 checks it on one example: ``x = (1, 2, 7)``
# labelled -1, ``w = (4, 5, 3)``. A :class:`~rosenblatt.Perceptron` started at that ``w``
# (``init``, no separate bias: the book's vectors already hold it) meets the example
# once, by ``partial_fit``; its trace keeps the activation it met, its weights the update.

listing_17 = Perceptron(init=[4.0, 5.0, 3.0], fit_intercept=False, shuffle="none",
                        record=True)
listing_17.partial_fit([[1.0, 2.0, 7.0]], [-1], classes=[-1, 1])
met = listing_17.trace_.activation[0]
print(f"Listing 17: w·x = {met:+.0f}, predicted {np.sign(met):+.0f}; after the update "
      f"w = {listing_17.coef_[0].tolist()}, w·x = "
      f"{listing_17.decision_function([[1.0, 2.0, 7.0]])[0]:+.0f}, predicted "
      f"{listing_17.predict([[1.0, 2.0, 7.0]])[0]:+d}")

# %%
# The book's comments, "The predicted y is 1" then "-1": ``w·x = 35``, and after
# ``w ← w + y x = (4, 5, 3) − (1, 2, 7) = (3, 3, −4)``, ``w·x = −19``. One update was
# enough here. Code Listing 18's vectors, ``x = (1, 3)`` labelled -1 and ``w = (5, 3)``,
# need it twice:


def angle(u, v):
    return np.degrees(np.arccos(u @ v / (np.linalg.norm(u) * np.linalg.norm(v))))


x, w_start = np.array([1.0, 3.0]), np.array([5.0, 3.0])
print(f"w = {w_start}: angle with x {angle(w_start, x):.1f}°, w + x: "
      f"{angle(w_start + x, x):.1f}°, w - x: {angle(w_start - x, x):.1f}°")
w_now = w_start
for step in range(3):
    print(f"after {step} update(s): w = {w_now}, predicted label {np.sign(w_now @ x):+.0f}")
    w_now = w_now - x  # the update for y = -1

figure, axes = plt.subplots(1, 3, figsize=(13, 4.2))
for ax, (title, after, name) in zip(axes, [
        ("Fig. 15: two vectors", None, None),
        ("Fig. 16: the addition, a smaller angle", w_start + x, "w + x"),
        ("Fig. 17: the subtraction, a bigger angle", w_start - x, "w - x")]):
    for vector, label, colour in [(w_start, "w", "tab:blue"), (x, "x", "tab:red")] + (
            [(after, name, "tab:green")] if after is not None else []):
        ax.annotate("", xy=vector, xytext=(0, 0),
                    arrowprops=dict(arrowstyle="->", color=colour, lw=2))
        ax.text(*(vector * 1.06), label, color=colour, fontsize=12)
    shown = w_start if after is None else after
    ax.set_title(f"{title}\nangle with x: {angle(shown, x):.1f}°", fontsize=10)
    ax.set(xlim=(-1, 7), ylim=(-1, 7), aspect="equal")
    ax.axhline(0, color="grey", lw=0.5)
    ax.axvline(0, color="grey", lw=0.5)
figure.tight_layout()

# %%
# The angle between ``w`` and ``x`` is 40.6°; ``w + x`` makes it 26.6° and ``w - x``
# 71.6°. This ``x`` is labelled -1, so the update is ``w - x``: at 71.6° the angle is
# still under 90° and the prediction still +1; the second update, ``w = (3, -3)``,
# crosses 90° (116.6°) and predicts -1. Each update turns ``w`` the right way, though,
# as the book says, not necessarily far enough the first time.
#
# Fig. 18: the update rule oscillates
# -----------------------------------
# An update fixes the point it was made for (eventually), but it can break others. The
# trace keeps the weights after every update, so counting the training points each one
# classifies correctly redraws the book's figure.

trace = model.trace_
correct = [(np.sign(X @ coef + bias) == y).sum()
           for coef, bias in zip(trace.coef, trace.intercept)]
worse = int(np.sum(np.diff(correct) < 0))
print(f"{worse} of the {len(correct)} updates left fewer points classified than before")

figure, ax = plt.subplots(figsize=(8, 3))
ax.plot(np.arange(1, len(correct) + 1), correct, drawstyle="steps-post")
ax.axhline(len(y), color="tab:green", ls="--", lw=1, label="all 14 points")
ax.set(xlabel="update", ylabel="points classified correctly",
       title="Fig. 18: the PLA update rule oscillates")
_ = ax.legend(loc="lower right")

# %%
# The count falls back as often as it climbs: most of the run is spent near 7 of 14,
# the start's "everything is positive". The book's remedy: "keep a record of the value
# of w before making the update and use the updated w only if it reduces the number of
# misclassified examples", the Pocket algorithm. ``PLA(pocket=True)`` runs the PLA as
# before and returns the weights that misclassified fewest points, counted by the PLA
# itself before each update. It matters on data no line separates: two labels of the
# book's set flipped, 500 updates, the same seed.

y_noisy = y.copy()
y_noisy[[0, 9]] = -y_noisy[[0, 9]]
with warnings.catch_warnings():
    warnings.simplefilter("ignore", ConvergenceWarning)  # no line separates them now
    for pocket in (False, True):
        run = PLA(pocket=pocket, init="uniform", max_updates=500,
                  random_state=np.random.RandomState(88)).fit(X, y_noisy)
        print(f"pocket={pocket!s:5s}: {run.n_updates_} updates, the weights returned "
              f"misclassify {int(np.sum(run.predict(X) != y_noisy))} of 14 points")

# %%
# The last weights of a PLA that cannot finish are wherever its last update left them;
# the pocket's are the best the run met. (:class:`~rosenblatt.PocketPerceptron` keeps a
# pocket for the epoch-by-epoch perceptron.)
#
# Figs. 19–21: four runs, four hyperplanes, their test errors
# -----------------------------------------------------------
# Every seed gives another random start and another order of picks, so another line
# that separates the 14 points. The book does not say which seeds its four runs used;
# we ran 100 seeds and measured each line on the book's test set of 32 points
# (Fig. 20).

test_errors = np.array([
    np.sum(PLA(init="uniform", random_state=seed).fit(X, y).predict(X_test) != y_test)
    for seed in range(100)
])
counts = np.bincount(test_errors)
print("runs by test mistakes (of 32), over 100 seeds:",
      ", ".join(f"{n} with {k}" for k, n in enumerate(counts) if n))

# %%
# Every run has an in-sample error of zero; 29 of the 100 make mistakes on the test
# set. As in the book's Figs. 19 and 21, we draw four of them: two lines without a
# test mistake (seeds 0 and 2) and the two with the most (seeds 15 and 54).

figure, axes = plt.subplots(2, 4, figsize=(14, 7), sharex=True, sharey=True)
for column, seed in enumerate([0, 2, 15, 54]):
    run = PLA(init="uniform", random_state=seed).fit(X, y)
    mistakes = int(np.sum(run.predict(X_test) != y_test))
    print(f"seed {seed:2d}: {run.n_updates_} updates, {mistakes} test mistakes")
    BoundaryDisplay.from_estimator(run, X, y, title=f"seed {seed}: training set").plot(
        ax=axes[0, column])
    BoundaryDisplay.from_estimator(
        run, X_test, y_test, title=f"test set: {mistakes} mistakes").plot(ax=axes[1, column])
figure.suptitle("Figs. 19-21: four separating lines, and the test set they meet")
figure.tight_layout()

# %%
# Top row: four hyperplanes, all with zero training error (Fig. 19). Bottom row: the
# same lines on the test set (Figs. 20–21), mistakes ringed. The PLA stops at the first
# line that separates the training data, wherever it lies between the classes; choosing
# the line with the largest margin is what the book's next chapter, the SVM, does.
