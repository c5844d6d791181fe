"""The first-order online kernels (``_kernels/_first_order.py``) equal the paper
loops of ``tests/_papers_first_order.py``: for every rule and setting, on dense
float64/float32 and CSR (int32, int64, binary, prefetching) data, with and
without intercept, in natural and shuffled order, over one call or resumed
over several, with sample weights; plus the edge cases of the design note."""

import dataclasses
import json
import math
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal

from rosenblatt._kernels import PERCEPTRON, online_epoch
from rosenblatt._kernels import _first_order as K
from rosenblatt._validation import kernel_view

from . import _papers_first_order as papers

N_FEATURES = 8
N_CLASSES = 3


def _plain_state(d, n_classes, fill=0.0):
    return np.full(d, fill), np.full(1, fill), np.zeros(1, np.int64)


def _join(w, b, fit_intercept):
    """The weights of the rows with a constant 1 appended (the intercept last)."""
    return np.append(w, b[0]) if fit_intercept else w.copy()


@dataclasses.dataclass
class Rule:
    """One rule in one setting: its kernel and parameters, its paper loop, its state."""

    name: str
    kernel: object
    params: tuple  # the kernel's arguments between ``order`` and ``fit_intercept``
    reference: object
    options: dict  # the paper loop's keywords
    start: object = _plain_state  # (d, n_classes) -> the state at the start
    coef: object = lambda state, fit: _join(state[0], state[1], fit)
    kind: str = "real"  # the data it is tried on ("positive" for the Winnows)
    skips_zero_rows: bool = False  # x = 0 is passed over as if absent
    multiclass: bool = False

    def run(self, X, y, sw, order, fit_intercept, state, log):
        return self.kernel(X, y, sw, order, *self.params, fit_intercept, state, log)

    def paper(self, X, y, sw):
        return self.reference(X, y, sample_weight=sw, **self.options)


def romma(aggressive):
    return Rule("romma" + "-aggressive" * aggressive, K.romma_epoch, (aggressive,),
                papers.romma, dict(aggressive=aggressive), skips_zero_rows=True)


def alma(p=2.0, alpha=0.9, B=None, C=math.sqrt(2)):
    return Rule(f"alma-p{p}-a{alpha}-B{B}-C{C:.3g}", K.alma_epoch,
                (p, alpha, 1 / alpha if B is None else B, C), papers.alma,
                dict(p=p, alpha=alpha, B=B, C=C),
                start=lambda d, k: (*_plain_state(d, k), np.zeros(1, np.int64)),
                skips_zero_rows=True)


def ogd(loss, eta=1.0):
    return Rule(f"ogd-{loss}-eta{eta}", K.ogd_epoch, (eta, K.OGD_LOSSES[loss]), papers.ogd,
                dict(eta=eta, loss=loss))


def winnow(alpha=2.0, threshold=N_FEATURES / 2, w0=1.0):
    # threshold: the default n_features/2, resolved by the caller
    return Rule(f"winnow-a{alpha}-t{threshold}-w{w0}", K.winnow_epoch, (alpha, threshold),
                papers.winnow, dict(alpha=alpha, threshold=threshold, w0=w0),
                start=lambda d, k: _plain_state(d, k, w0), kind="positive")


def balanced_winnow(alpha=2.0, threshold=0.0, w0=1.0):
    return Rule(f"balanced-a{alpha}-t{threshold}-w{w0}", K.balanced_winnow_epoch,
                (alpha, threshold), papers.balanced_winnow,
                dict(alpha=alpha, threshold=threshold, w0=w0),
                start=lambda d, k: (np.full(d, w0), np.full(d, w0), np.full(1, w0),
                                    np.full(1, w0), np.zeros(1, np.int64)),
                coef=lambda s, fit: _join(s[0] - s[1], s[2] - s[3], fit), kind="positive")


def pnorm(p):
    return Rule(f"pnorm-p{p:.3g}", K.pnorm_epoch, (p,), papers.pnorm, dict(p=p),
                start=lambda d, k: (np.zeros(d), np.zeros(1), np.zeros(d), np.zeros(1),
                                    np.zeros(1, np.int64)),
                coef=lambda s, fit: _join(s[2], s[3], fit))


def multiclass_pa(variant, C=1.0):
    return Rule(f"mpa-{variant}-C{C}", K.multiclass_pa_epoch, (C, K.PA_VARIANTS[variant]),
                papers.multiclass_pa, dict(n_classes=N_CLASSES, C=C, variant=variant),
                start=lambda d, k: (np.zeros((k, d)), np.zeros(k), np.zeros(1, np.int64)),
                coef=lambda s, fit: np.column_stack([s[0], s[1]]) if fit else s[0].copy(),
                skips_zero_rows=variant != "pa2", multiclass=True)


RULES = [
    romma(False), romma(True),
    alma(), alma(p=3.0, alpha=0.5, B=2.0, C=1.0), alma(p=2.0, alpha=1.0, C=0.5),
    ogd("hinge"), ogd("logistic"), ogd("squared", eta=0.1), ogd("perceptron", eta=0.5),
    winnow(), winnow(alpha=1.5, threshold=2.0, w0=0.5),
    balanced_winnow(), balanced_winnow(alpha=1.5, threshold=0.5, w0=2.0),
    pnorm(2.0), pnorm(3.0), pnorm(max(2.0, 2 * math.log(N_FEATURES))),
    multiclass_pa("pa"), multiclass_pa("pa1", C=0.1), multiclass_pa("pa2", C=0.5),
]
BY_NAME = {rule.name: rule for rule in RULES}
LAYOUTS = ["dense64", "dense32", "csr32", "csr64", "csr-prefetch"]


def make_data(seed, kind, multiclass, n=60, d=N_FEATURES):
    """Random rows, 45 % zeros and three all-zero rows; labels from a planted model."""
    rng = np.random.RandomState(seed)
    if kind == "real":
        X = rng.standard_normal((n, d))
    elif kind == "positive":
        X = rng.uniform(0.0, 1.5, (n, d))
    else:  # binary: the CSR twins that read no values
        X = np.ones((n, d))
    X[rng.rand(n, d) < 0.45] = 0.0
    X[[3, 17, 41]] = 0.0
    if multiclass:
        scores = X @ rng.standard_normal((d, N_CLASSES)) + rng.standard_normal((n, N_CLASSES))
        return X, np.argmax(scores, axis=1).astype(np.intp)
    score = X @ rng.standard_normal(d) + 0.3 * rng.standard_normal(n)
    return X, np.where(score > np.median(score), 1.0, -1.0)


def layout(X, name):
    """(what the kernel takes, the same rows as dense float64 for the paper loop)."""
    if name == "dense64":
        return X, X
    if name == "dense32":
        X32 = X.astype(np.float32)
        return X32, X32.astype(np.float64)
    matrix = sp.csr_matrix(X)
    if name == "csr64":
        matrix.indices = matrix.indices.astype(np.int64)
        matrix.indptr = matrix.indptr.astype(np.int64)
    view = kernel_view(matrix)
    assert view[1].dtype == (np.uint64 if name == "csr64" else np.uint32)
    if name == "csr-prefetch":
        view = (*view[:3], 2)  # what kernel_view gives wide data: a look-ahead of 2 rows
    return view, X


def augment(X, fit_intercept):
    return np.column_stack([X, np.ones(len(X))]) if fit_intercept else X


def new_log(n, rule):
    log = (np.full(n, -1, np.intp), np.full(n, np.nan), np.full(n, -1, np.int64))
    return (*log, np.full(n, -1, np.intp)) if rule.multiclass else log


def expected(rule, X, y, sw, order, fit_intercept, seen=0):
    """The paper loop over the rows in the order the kernel meets them, and the log
    the kernel should write: rows, decision values, example numbers (from ``seen``)."""
    rows = np.arange(len(X)) if len(order) == 0 else np.asarray(order)
    Xs, ys = augment(X, fit_intercept)[rows], y[rows]
    weights = None if sw is None else sw[rows]
    run = rule.paper(Xs, ys, weights)
    present = np.ones(len(rows), bool) if weights is None else weights != 0
    if rule.skips_zero_rows:
        present &= Xs.any(axis=1)
    number = seen + np.cumsum(present)
    at = [u[0] if rule.multiclass else u for u in run.updated]
    log = dict(rows=rows[at], scores=np.array(run.scores), positions=number[at],
               ties=number[list(run.ties)])
    if rule.multiclass:
        log["rivals"] = np.array([u[1] for u in run.updated], dtype=np.intp)
    return run, log, int(number[-1]) if len(number) else seen


def compare_log(rule, log, updates, want, offset=0):
    """The kernel's log of ``updates`` entries is the paper loop's, but for the rows
    whose update test was a tie (rounding decides those; see _papers_first_order).
    ``offset``: the first row of the data the kernel was given."""
    mine = ~np.isin(log[2][:updates], want["ties"])
    theirs = ~np.isin(want["positions"], want["ties"])
    assert_array_equal(log[0][:updates][mine], want["rows"][theirs] - offset)
    close(log[1][:updates][mine], want["scores"][theirs])
    assert_array_equal(log[2][:updates][mine], want["positions"][theirs])
    if rule.multiclass:
        assert_array_equal(log[3][:updates][mine], want["rivals"][theirs])
    assert (log[0][updates:] == -1).all()  # nothing written past the updates


def close(actual, desired):
    scale = max(1.0, float(np.abs(desired).max(initial=0.0)))
    assert_allclose(actual, desired, rtol=1e-7, atol=1e-12 * scale)


def check_epoch(rule, Xk, Xd, y, sw, order, fit_intercept):
    """Run one kernel epoch from the start and compare it with the paper loop
    (weights, counts, log); returns the state."""
    state = rule.start(Xd.shape[1], N_CLASSES)
    log = new_log(len(order) if len(order) else len(Xd), rule)
    mistakes, updates = rule.run(Xk, y, sw, np.asarray(order, np.intp), fit_intercept,
                                 state, log)
    paper, want, count = expected(rule, Xd, y, sw, order, fit_intercept)
    close(rule.coef(state, fit_intercept), paper.w)
    assert mistakes == paper.mistakes
    if not len(want["ties"]):
        assert updates == len(paper.updated)
    compare_log(rule, log, updates, want)
    assert seen_of(rule, state) == count
    return state


def seen_of(rule, state):
    """The kernel's count of the examples met (ALMA keeps its ``k`` after it)."""
    return (state[2] if rule.kernel is K.alma_epoch else state[-1])[0]


def random_order(seed, n, repeats):
    rng = np.random.RandomState(100 + seed)
    return rng.randint(0, n, size=n + 7) if repeats else rng.permutation(n)


ids = dict(ids=lambda rule: rule.name)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("name", LAYOUTS)
@pytest.mark.parametrize("rule", RULES, **ids)
def test_one_pass_equals_the_paper(rule, name, fit_intercept, seed):
    X, y = make_data(seed, rule.kind, rule.multiclass)
    Xk, Xd = layout(X, name)
    check_epoch(rule, Xk, Xd, y, None, [], fit_intercept)


def general_position(rule, kind, fit_intercept):
    """The first seed whose data leave the paper loop no decision to rounding.
    0/1 values make exact ties common (x·w = 0 on cancelling integer sums, most
    of all through g_p), which a different summation order may break."""
    for seed in range(40, 100):
        X, y = make_data(seed, kind, rule.multiclass)
        if not rule.paper(augment(X, fit_intercept), y, None).unstable:
            return X, y
    raise AssertionError(f"no data in general position for {rule.name}")


@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("name", ["dense64", "csr32", "csr-prefetch"])
@pytest.mark.parametrize("rule", RULES, **ids)
def test_binary_values_equal_the_paper(rule, name, fit_intercept):
    # every stored value is 1: kernel_view hands the CSR twins that read no values
    X, y = general_position(rule, "binary", fit_intercept)
    Xk, Xd = layout(X, name)
    if name != "dense64":
        assert Xk[0] is None
    check_epoch(rule, Xk, Xd, y, None, [], fit_intercept)


@pytest.mark.parametrize("rule", RULES, **ids)
def test_binary_twins_equal_the_twins_that_read_the_ones(rule):
    # bit for bit, on any data: 1 · w is w, and base ** (e · 1) is base ** e
    X, y = make_data(4, "binary", rule.multiclass)
    binary, _ = layout(X, "csr32")
    ones = (np.ones(len(binary[1])), *binary[1:])
    order = random_order(4, len(X), True)
    sw = np.random.RandomState(4).uniform(0.0, 2.0, len(X))
    results = []
    for Xk in (binary, ones):
        state = rule.start(X.shape[1], N_CLASSES)
        log = new_log(len(order), rule)
        counts = rule.run(Xk, y, sw, order, True, state, log)
        results.append((counts, rule.coef(state, True), log))
    assert results[0][0] == results[1][0]
    assert_array_equal(results[0][1], results[1][1])
    for a, b in zip(results[0][2], results[1][2]):
        assert_array_equal(a, b)


@pytest.mark.parametrize("repeats", [False, True])
@pytest.mark.parametrize("name", ["dense64", "csr64", "csr-prefetch"])
@pytest.mark.parametrize("rule", RULES, **ids)
def test_an_order_equals_the_paper_on_the_rows_in_that_order(rule, name, repeats):
    X, y = make_data(5, rule.kind, rule.multiclass)
    Xk, Xd = layout(X, name)
    order = random_order(5, len(X), repeats)
    check_epoch(rule, Xk, Xd, y, None, order, True)


@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("name", ["dense64", "csr32"])
@pytest.mark.parametrize("rule", RULES, **ids)
def test_calls_resume_where_the_last_stopped(rule, name, fit_intercept):
    X, y = make_data(6, rule.kind, rule.multiclass)
    half = 27
    first, second = layout(X[:half], name)[0], layout(X[half:], name)[0]
    state = check_epoch(rule, first, X[:half], y[:half], None, [], fit_intercept)
    # the second call continues the example numbers and the counters...
    _, _, seen = expected(rule, X[:half], y[:half], None, [], fit_intercept)
    check_second_half(rule, second, X, y, half, fit_intercept, state, seen)
    # ...and ends where one pass over all the rows ends
    close(rule.coef(state, fit_intercept), rule.paper(augment(X, fit_intercept), y, None).w)


def check_second_half(rule, second, X, y, half, fit_intercept, state, seen):
    log = new_log(len(X) - half, rule)
    mistakes, updates = rule.run(second, y[half:], None, np.zeros(0, np.intp), fit_intercept,
                                 state, log)
    whole, want, count = expected(rule, X, y, None, [], fit_intercept)
    assert seen_of(rule, state) == count
    later = want["rows"] >= half
    want = {key: value[later] if key != "ties" else value for key, value in want.items()}
    compare_log(rule, log, updates, want, offset=half)
    first = rule.paper(augment(X[:half], fit_intercept), y[:half], None)
    assert mistakes == whole.mistakes - first.mistakes


@pytest.mark.parametrize("rule", RULES, **ids)
def test_a_second_epoch_continues_the_first(rule):
    # two epochs (two calls, as fit's loop and partial_fit make them) = one pass over X twice
    X, y = make_data(7, rule.kind, rule.multiclass)
    Xk, _ = layout(X, "csr32")
    state = rule.start(X.shape[1], N_CLASSES)
    order = random_order(7, len(X), False)
    for _ in range(2):
        rule.run(Xk, y, None, order, True, state, None)
    twice = np.concatenate([order, order])
    close(rule.coef(state, True), rule.paper(augment(X, True)[twice], y[twice], None).w)


@pytest.mark.parametrize("name", ["dense32", "csr64"])
@pytest.mark.parametrize("rule", RULES, **ids)
def test_rows_of_weight_zero_are_absent(rule, name):
    X, y = make_data(8, rule.kind, rule.multiclass)
    sw = np.ones(len(X))
    sw[np.random.RandomState(8).rand(len(X)) < 0.3] = 0.0
    Xk, Xd = layout(X, name)
    state = check_epoch(rule, Xk, Xd, y, sw, [], True)
    keep = sw != 0
    close(rule.coef(state, True), rule.paper(augment(Xd[keep], True), y[keep], None).w)


@pytest.mark.parametrize("name", ["dense64", "csr32"])
@pytest.mark.parametrize("rule", RULES, **ids)
def test_sample_weights_multiply_the_step(rule, name):
    X, y = make_data(9, rule.kind, rule.multiclass)
    rng = np.random.RandomState(9)
    sw = rng.uniform(0.25, 2.0, len(X))
    sw[rng.rand(len(X)) < 0.2] = 0.0
    Xk, Xd = layout(X, name)
    order = random_order(9, len(X), False)
    state = check_epoch(rule, Xk, Xd, y, sw, order, True)
    if rule.kernel is K.romma_epoch:  # no step: only zero or not matters
        rows = order[sw[order] != 0]
        close(rule.coef(state, True), rule.paper(augment(Xd, True)[rows], y[rows], None).w)
    else:  # the weights did change the result
        plain = rule.paper(augment(Xd, True)[order], y[order], (sw[order] != 0) * 1.0).w
        assert not np.allclose(rule.coef(state, True), plain)


# ---- the edge cases of the design note -----------------------------------------------------

def one_epoch(rule, X, y, fit_intercept=False, state=None, sw=None):
    X = np.asarray(X, dtype=float)
    state = rule.start(X.shape[1], N_CLASSES) if state is None else state
    log = new_log(len(X), rule)
    result = rule.run(X, np.asarray(y), sw, np.zeros(0, np.intp), fit_intercept, state, log)
    return result, state, log


@pytest.mark.parametrize("aggressive", [False, True])
def test_romma_leaves_w_alone_on_a_row_parallel_to_it(aggressive):
    # after x1, w = x1/‖x1‖²; -x1 labelled +1 has f = -1, A = 1 = f²: D = 0, no w fits
    x1 = np.array([3.0, 4.0])
    (mistakes, updates), state, log = one_epoch(romma(aggressive), [x1, -x1], [1.0, 1.0])
    assert (mistakes, updates) == (2, 1)
    assert_allclose(state[0], x1 / 25, rtol=1e-15)
    assert log[0][0] == 0 and log[0][1] == -1


def test_romma_and_alma_pass_over_zero_rows_as_if_absent():
    X = np.array([[0.0, 0.0], [1.0, 2.0], [0.0, 0.0], [-2.0, 1.0]])
    y = np.array([1.0, 1.0, -1.0, -1.0])
    for rule in (romma(False), romma(True), alma(), alma(p=3.0)):
        (mistakes, updates), state, log = one_epoch(rule, X, y)
        # only rows 1 and 3 count, as examples 1 and 2, both mistakes (w = 0 at row 1;
        # row 3 is scored 0, or with the wrong sign for p = 3)
        assert mistakes == 2 and state[2][0] == 2, rule.name
        assert_array_equal(log[0][:updates], [1, 3][:updates])
        assert_array_equal(log[2][:updates], [1, 2][:updates])
        assert np.isfinite(state[0]).all()
        if rule.kernel is K.alma_epoch:
            assert state[3][0] == updates  # k − 1 = the corrections made
        # with an intercept, no row is 0: all four count
        (mistakes, updates), state, _ = one_epoch(rule, X, y, fit_intercept=True)
        assert state[2][0] == 4


def test_romma_first_update_is_y_x_over_its_squared_norm():
    (_, updates), state, _ = one_epoch(romma(False), [[1.0, 2.0, 2.0]], [-1.0],
                                       fit_intercept=True)
    assert updates == 1
    assert_allclose(state[0], -np.array([1.0, 2.0, 2.0]) / 10)  # ‖x‖² + 1² = 10
    assert_allclose(state[1], [-0.1])


def _romma_scales(X, y):
    """The largest product of ROMMA's rescalings c = (A − y f)/D between two restarts
    (w = y x/‖x‖²) along the paper loop: the scale the kernel keeps apart from ``w``."""
    w, log_scale, largest = np.zeros(X.shape[1]), 0.0, 0.0
    for x, label in zip(X, y):
        f = w @ x
        if label * f > 0:
            continue
        A = (x @ x) * (w @ w)
        if w @ w == 0 or A <= label * f:
            w, log_scale = label * x / (x @ x), 0.0
            continue
        D = A - f * f
        if D <= 1e-12 * A:
            continue
        c = (A - label * f) / D
        w = c * w + (w @ w) * (label - f) / D * x
        log_scale += math.log10(c)
        largest = max(largest, log_scale)
    return largest


@pytest.mark.parametrize("fit_intercept", [False, True])
def test_romma_equals_the_paper_where_its_scale_is_folded_many_times(fit_intercept):
    """ROMMA keeps w = s·v; on noise the rescalings multiply s by 10^12 and more over
    three passes, past the 1e9 where it is folded into v: still the paper's weights."""
    rng = np.random.default_rng(7)
    X = rng.normal(size=(400, 20))
    y = np.where(rng.random(400) < 0.5, 1.0, -1.0)
    X, y = np.vstack([X] * 3), np.concatenate([y] * 3)
    Xa = augment(X, fit_intercept)
    assert _romma_scales(Xa, y) > 12  # the fold happens (threshold 9 decades)
    state = _plain_state(20, N_CLASSES)
    K.romma_epoch(X, y, None, np.zeros(0, np.intp), False, fit_intercept, state, None)
    want = papers.romma(Xa, y).w
    assert_allclose(_join(state[0], state[1], fit_intercept), want, rtol=1e-12,
                    atol=1e-12 * np.abs(want).max())


@pytest.mark.parametrize("average", [False, True])
@pytest.mark.parametrize("name", ["dense64", "csr32"])
def test_romma_blocks_with_a_carried_scale_equal_one_call(name, average):
    """The blocks of a file, each a call carrying (s, ‖w‖²), then alma_unscale: the
    weights (and averaging sums) of one call over all the rows, bit for bit."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(300, 12))
    X[X < 0.3] = 0.0
    y = np.where(rng.random(300) < 0.5, 1.0, -1.0)
    Xk, _ = layout(X, name)

    def sums():
        return (np.zeros(12), np.zeros(1), np.zeros(1, np.int64)) if average else None

    whole, whole_sums = _plain_state(12, N_CLASSES), sums()
    carry = np.zeros(4)
    K.romma_epoch(Xk, y, None, np.zeros(0, np.intp), True, True, whole, None, carry,
                  whole_sums)
    K.alma_unscale(whole[0], whole[1], True, carry)
    blocks, block_sums = _plain_state(12, N_CLASSES), sums()
    carry = np.zeros(4)
    for start in range(0, 300, 70):
        order = np.arange(start, min(start + 70, 300), dtype=np.intp)
        K.romma_epoch(Xk, y, None, order, True, True, blocks, None, carry, block_sums)
    K.alma_unscale(blocks[0], blocks[1], True, carry)
    for a, b in zip(whole, blocks):
        assert_array_equal(a, b)
    if average:
        for a, b in zip(whole_sums, block_sums):
            assert_array_equal(a, b)
    # and without a carry (each call folds): the paper's weights, to rounding
    plain = _plain_state(12, N_CLASSES)
    K.romma_epoch(Xk, y, None, np.zeros(0, np.intp), True, True, plain, None)
    assert_allclose(plain[0], whole[0], rtol=1e-12, atol=1e-15)


def test_alma_projects_into_the_unit_ball_and_counts_k():
    rule = alma(p=2.0, alpha=0.5, C=10.0)
    X, y = make_data(10, "real", False)
    (_, updates), state, _ = one_epoch(rule, X, y, fit_intercept=True)
    assert state[3][0] == updates > 0
    assert np.linalg.norm(_join(state[0], state[1], True)) <= 1 + 1e-12


def test_pnorm_theta_back_to_zero_gives_w_zero():
    # x then x with the other label: θ = x − x = 0, and g_p(0) = 0 (not 0/0)
    x = np.array([1.0, -2.0, 0.5])
    for p in (2.0, 3.0, 4.5):
        (mistakes, updates), state, _ = one_epoch(pnorm(p), [x, x], [1.0, -1.0])
        assert (mistakes, updates) == (2, 2)
        assert_array_equal(state[0], 0.0)
        assert_array_equal(state[2], 0.0)


def test_pnorm_recomputes_w_from_theta_at_the_start():
    rule = pnorm(3.0)
    X, y = make_data(11, "real", False)
    _, state, _ = one_epoch(rule, X[:20], y[:20], fit_intercept=True)
    theta, theta_b, w, b, seen = state
    w[:], b[:] = np.nan, np.nan  # w is derived: any content will do
    one_epoch(rule, X[20:], y[20:], fit_intercept=True, state=state)
    close(_join(w, b, True), rule.paper(augment(X, True), y, None).w)


def test_pnorm_with_p_two_is_the_perceptron():
    X, y = make_data(12, "real", False)
    Xk = kernel_view(sp.csr_matrix(X))
    order = random_order(12, len(X), False)
    state = pnorm(2.0).start(X.shape[1], 0)
    perceptron = (np.zeros(X.shape[1]), np.zeros(1), np.zeros(1, np.int64))
    for _ in range(3):
        mistakes, _ = K.pnorm_epoch(Xk, y, None, order, 2.0, True, state, None)
        updates, _ = online_epoch(Xk, y, None, order, 1.0, True, PERCEPTRON, perceptron,
                                  None, None, None, None)
        assert mistakes == updates
    assert_array_equal(state[2], perceptron[0])  # bit for bit
    assert_array_equal(state[3], perceptron[1])


def test_winnow_takes_its_threshold_and_starts_from_w0():
    X = np.array([[1.0, 0.0, 1.0], [0.0, 1.0, 0.0], [1.0, 1.0, 1.0]])
    y = np.array([1.0, -1.0, 1.0])
    rule = winnow(alpha=3.0, threshold=1.5, w0=0.5)
    (mistakes, updates), state, log = one_epoch(rule, X, y)
    # row 0: 0.5 + 0.5 − 1.5 < 0, promoted to 1.5 on features 0 and 2; row 1: 0.5 − 1.5 < 0,
    # a correct negative; row 2: 1.5 + 0.5 + 1.5 − 1.5 > 0, correct
    assert (mistakes, updates) == (1, 1)
    assert_array_equal(state[0], [1.5, 0.5, 1.5])
    assert_array_equal(log[1][:1], [-0.5])
    (mistakes, _), state, _ = one_epoch(rule, X, y, fit_intercept=True)
    # the bias starts at w0 too and moves with the row's constant 1: row 0 ties (a
    # mistake, promoted), row 1 then scores 0.5 + 1.5 − 1.5 > 0 (demoted)
    assert mistakes == 2
    assert_allclose(_join(state[0], state[1], True), [1.5, 0.5 / 3, 1.5, 0.5], rtol=1e-15)


def test_balanced_winnow_starts_at_zero_weights():
    rule = balanced_winnow(w0=1.5)
    (mistakes, _), state, _ = one_epoch(rule, [[1.0, 0.0]], [-1.0])
    assert mistakes == 1  # (u − v)·x = 0: a tie is a mistake
    assert_array_equal(state[0], [0.75, 1.5])
    assert_array_equal(state[1], [3.0, 1.5])


def test_ogd_steps_shrink_with_every_row_met():
    # squared loss, x = 1: w_t = w + η/√t (y − w); the rows of weight 0 do not count
    X = np.ones((4, 1))
    y = np.ones(4)
    sw = np.array([1.0, 0.0, 1.0, 1.0])
    (_, updates), state, log = one_epoch(ogd("squared"), X, y, sw=sw)
    w = 0.0
    for t in (1, 2, 3):
        w += (1 - w) / math.sqrt(t)
    assert updates == 1  # w = 1 after the first row: y − f = 0, no step after
    assert_allclose(state[0], [w])
    assert state[2][0] == 3


def test_ogd_logistic_does_not_overflow():
    gradient = K._ogd_gradient
    assert gradient(K.LOGISTIC, 1.0, 1e6) == 0.0 and gradient(K.LOGISTIC, -1.0, 1e6) == -1.0
    assert gradient(K.LOGISTIC, 1.0, -1e6) == 1.0 and gradient(K.LOGISTIC, 1.0, 0.0) == 0.5
    X = np.array([[1.0], [800.0], [-800.0], [1e3]])
    y = np.array([1.0, 1.0, 1.0, -1.0])
    for fit_intercept in (False, True):
        (mistakes, updates), state, _ = one_epoch(ogd("logistic"), X, y, fit_intercept)
        # the last row is met with y f ≈ 5e5: its step underflows to 0
        assert np.isfinite(state[0]).all() and updates == 3


def test_multiclass_pa_ties_go_to_the_lowest_other_class():
    X = np.array([[1.0, 0.0], [0.0, 1.0], [0.0, 2.0]])
    y = np.array([0, 2, 1], dtype=np.intp)
    (mistakes, updates), state, log = one_epoch(multiclass_pa("pa"), X, y)
    assert_array_equal(log[3][:2], [1, 0])  # W = 0: every score ties
    assert_allclose(state[0][0], [0.5, -0.5])  # τ = 1/(2·1), then −τ on row 1
    assert mistakes == 3


@pytest.mark.parametrize("variant", ["pa", "pa1", "pa2"])
def test_multiclass_pa_zero_rows(variant):
    X = np.array([[0.0, 0.0], [1.0, 1.0]])
    y = np.array([1, 0], dtype=np.intp)
    (mistakes, updates), state, log = one_epoch(multiclass_pa(variant), X, y)
    # PA-II has a step for x = 0 (τ = ℓ · 2C), which moves nothing; PA and PA-I skip it
    assert state[2][0] == (2 if variant == "pa2" else 1)
    assert updates == mistakes == state[2][0]
    assert_allclose(state[0][0] + state[0][1], 0.0)  # + on one class, − on the other


def test_pure_python_kernels_equal_compiled_ones():
    """NUMBA_DISABLE_JIT=1 runs the plain-Python bodies (and the row helpers' Python twins)."""
    script = textwrap.dedent("""
        import json
        import numpy as np
        from tests import test_first_order_kernels as t
        out = {}
        for rule in t.RULES:
            for name, kind in (("dense32", rule.kind), ("csr64", rule.kind),
                               ("csr-prefetch", "binary")):
                X, y = t.make_data(3, kind, rule.multiclass)
                Xk, _ = t.layout(X, name)
                state = rule.start(X.shape[1], t.N_CLASSES)
                order = t.random_order(3, len(X), True)
                sw = np.linspace(0, 2, len(X))
                mistakes, _ = rule.run(Xk, y, sw, order, True, state, t.new_log(len(order), rule))
                out[rule.name + name] = [mistakes, rule.coef(state, True).ravel().tolist()]
        print(json.dumps(out))
    """)
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    runs = []
    for disable in ("1", "0"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=disable)
        done = subprocess.run([sys.executable, "-c", script], env=env, cwd=root,
                              capture_output=True, text=True, check=True)
        runs.append(json.loads(done.stdout))
    python, compiled = runs
    assert python.keys() == compiled.keys() and len(python) == 3 * len(RULES)
    for key in python:
        # the mistakes and the weights (the count of updates may differ by a tie that
        # rounding decides, see _papers_first_order.Ties: the compiled sums are reordered)
        assert python[key][0] == compiled[key][0], key
        assert_allclose(python[key][1], compiled[key][1], rtol=1e-9, atol=1e-12, err_msg=key)
