"""The second-order epoch kernels equal the papers' loops (``_papers_second_order``):
every rule and variant, full and diagonal Σ, dense float64/float32 and CSR with
int32/int64 indices, with and without intercept; they resume exactly, follow a
given row order, skip rows of weight 0, and the diagonal form on CSR reads only
the row's stored entries."""

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal

from rosenblatt._kernels import _second_order as so
from rosenblatt._validation import kernel_view

from . import _papers_second_order as papers

#: rules with parameters away from their defaults, so that a mix-up shows
BINARY = {
    "sop": {},
    "cw": {"eta": 0.8},
    "arow": {"r": 0.7},
    "narow": {"b": 0.6},
    "nherd": {"C": 0.4},
    "iellip": {"b": 0.9},
    "scw1": {"C": 0.2, "eta": 0.75},
    "scw2": {"C": 0.5, "eta": 0.9},
}
MULTICLASS = {
    "multiclass_arow": {"r": 0.8},
    "multiclass_scw1": {"C": 0.3, "eta": 0.75},
    "multiclass_scw2": {"C": 0.6, "eta": 0.8},
}
IELLIP_C = 0.3
N_CLASSES = 3
LAYOUTS = ["dense64", "dense32", "csr32", "csr64", "csr32_float32"]
FORMS = ["full", "diagonal"]
SEEDS = [0, 1, 2]
RTOL = 1e-7


def problem(seed, n=60, d=8, multiclass=False):
    """Random rows, a third of the values 0 and some rows all 0; labels from a
    planted model with noise."""
    rng = np.random.RandomState(seed)
    X = rng.randn(n, d) * rng.uniform(0.5, 2.0, size=d)
    X[rng.rand(n, d) < 0.3] = 0.0
    zero = np.sort(rng.choice(n, 5, replace=False))
    X[zero] = 0.0
    if multiclass:
        y = np.argmax(X @ rng.randn(d, N_CLASSES) + 0.5 * rng.randn(n, N_CLASSES), axis=1)
        y[zero] = np.arange(len(zero)) % N_CLASSES
        return X, y.astype(np.intp)
    y = np.where(X @ rng.randn(d) + 0.5 * rng.randn(n) > 0, 1.0, -1.0)
    # With an intercept the rows of zeros are one and the same row: after CW projects
    # onto it, the next with the same label sits exactly on its constraint, where a
    # rounding decides whether it "updates" (by nothing). Alternate their labels.
    y[zero] = np.where(np.arange(len(zero)) % 2, -1.0, 1.0)
    return X, y


def laid_out(X, layout):
    """(what the kernel takes, the float64 values it holds)."""
    if layout.startswith("dense"):
        dense = np.ascontiguousarray(X, dtype=np.float32 if layout == "dense32" else np.float64)
        return dense, dense.astype(np.float64)
    matrix = sp.csr_matrix(X.astype(np.float32 if layout.endswith("float32") else np.float64))
    index = np.int64 if layout == "csr64" else np.int32
    matrix.indices, matrix.indptr = matrix.indices.astype(index), matrix.indptr.astype(index)
    view = kernel_view(matrix)
    assert view[1].dtype == (np.uint64 if index is np.int64 else np.uint32)
    return view, matrix.toarray().astype(np.float64)


def a_of(seed):
    return [1.0, 0.5, 2.0][seed % 3]


def fit(name, X, y, *, form, fit_intercept, a, d=8, sw=None, order=None, state=None, log=None):
    """One kernel epoch (``d`` features) from a new (or the given) state; returns
    (state, (mistakes, updates))."""
    params = BINARY.get(name, MULTICLASS.get(name))
    rule = so.second_order_rule(name, **params)
    order = np.empty(0, dtype=np.intp) if order is None else np.asarray(order, dtype=np.intp)
    if name in MULTICLASS:
        if state is None:
            state = so.new_multiclass_state(rule, N_CLASSES, d, a=a, covariance=form,
                                            fit_intercept=fit_intercept)
        counts = so.multiclass_second_order_epoch(X, y, sw, order, rule, fit_intercept, state,
                                                  log)
    else:
        if state is None:
            state = so.new_state(rule, d, a=a, covariance=form, fit_intercept=fit_intercept,
                                 c=IELLIP_C if name == "iellip" else None)
        counts = so.second_order_epoch(X, y, sw, order, rule, fit_intercept, state, log)
    return state, counts


def reference(name, X, y, *, form, fit_intercept, a, sw=None, passes=1):
    params = BINARY.get(name, MULTICLASS.get(name))
    options = dict(a=a, fit_intercept=fit_intercept, diagonal=form == "diagonal", sw=sw,
                   passes=passes)
    if name in MULTICLASS:
        return papers.multiclass(name, X, y, N_CLASSES, **options, **params)
    return papers.binary(name, X, y, **options, c=IELLIP_C if name == "iellip" else None,
                         **params)


def weights_of(state, name):
    if name in MULTICLASS:
        return state.W, state.b
    return state.w, state.b[0]


def assert_state_equals(state, ref, name, rtol=RTOL):
    coef, intercept = weights_of(state, name)
    scale = max(1.0, np.abs(ref.coef).max())
    assert_allclose(coef, ref.coef, rtol=rtol, atol=1e-12 * scale)
    assert_allclose(intercept, ref.intercept, rtol=rtol, atol=1e-12 * scale)
    assert_allclose(state.cov, ref.cov, rtol=rtol, atol=1e-12 * np.abs(ref.cov).max())
    if name == "iellip":
        assert_allclose(state.c[0], ref.c, rtol=1e-12)


ALL = list(BINARY) + list(MULTICLASS)


@pytest.mark.parametrize("fit_intercept", [False, True])
@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", ALL)
def test_one_pass_equals_the_paper(name, form, layout, fit_intercept):
    for seed in SEEDS:
        X, y = problem(seed, multiclass=name in MULTICLASS)
        view, values = laid_out(X, layout)
        state, (mistakes, updates) = fit(name, view, y, form=form, fit_intercept=fit_intercept,
                                         a=a_of(seed))
        ref = reference(name, values, y, form=form, fit_intercept=fit_intercept, a=a_of(seed))
        assert_state_equals(state, ref, name)
        assert (mistakes, updates) == (ref.mistakes, len(ref.updates))
        assert 0 < updates and state.seen[0] == len(y)


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", ALL)
def test_binary_valued_csr_equals_dense(name, form):
    # every stored value 1: kernel_view drops data and the binary twins run
    rng = np.random.RandomState(3)
    X = (rng.rand(50, 7) < 0.4).astype(float)
    _, y = problem(3, n=50, d=7, multiclass=name in MULTICLASS)
    view = kernel_view(sp.csr_matrix(X))
    assert view[0] is None
    for fit_intercept in (False, True):
        sparse, counts = fit(name, view, y, form=form, fit_intercept=fit_intercept, a=1.0, d=7)
        ref = reference(name, X, y, form=form, fit_intercept=fit_intercept, a=1.0)
        assert_state_equals(sparse, ref, name)
        assert counts == (ref.mistakes, len(ref.updates))


@pytest.mark.parametrize("layout", ["dense64", "csr32"])
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", ALL)
def test_two_calls_resume_exactly(name, form, layout):
    X, y = problem(4, multiclass=name in MULTICLASS)
    view, values = laid_out(X, layout)
    state, first = fit(name, view, y, form=form, fit_intercept=True, a=1.0)
    state, second = fit(name, view, y, form=form, fit_intercept=True, a=1.0, state=state)
    ref = reference(name, values, y, form=form, fit_intercept=True, a=1.0, passes=2)
    assert_state_equals(state, ref, name)
    assert first[0] + second[0] == ref.mistakes and first[1] + second[1] == len(ref.updates)
    assert state.seen[0] == 2 * len(y)
    # and as one call over the rows twice (IELLIP folds its factor at each call's end)
    once, _ = fit(name, view, y, form=form, fit_intercept=True, a=1.0,
                  order=np.r_[np.arange(len(y)), np.arange(len(y))])
    for mine, theirs in zip(state, once):
        assert_allclose(mine, theirs, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("layout", ["dense64", "csr64"])
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", ALL)
def test_a_shuffled_order_equals_the_paper_on_the_shuffled_rows(name, form, layout):
    X, y = problem(5, multiclass=name in MULTICLASS)
    order = np.random.RandomState(9).permutation(len(y))
    view, values = laid_out(X, layout)
    state, counts = fit(name, view, y, form=form, fit_intercept=True, a=0.5, order=order)
    ref = reference(name, values[order], y[order], form=form, fit_intercept=True, a=0.5)
    assert_state_equals(state, ref, name)
    assert counts == (ref.mistakes, len(ref.updates))


def weights(n, seed):
    """Row weights with zeros and non-unit values."""
    rng = np.random.RandomState(seed)
    sw = rng.choice([0.0, 0.5, 1.0, 2.0, 3.0], size=n)
    sw[:3] = 0.0
    return sw


@pytest.mark.parametrize("layout", ["dense64", "csr32"])
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", ALL)
def test_row_weights(name, form, layout):
    X, y = problem(6, multiclass=name in MULTICLASS)
    view, values = laid_out(X, layout)
    sw = weights(len(y), 6)
    state, counts = fit(name, view, y, form=form, fit_intercept=True, a=1.0, sw=sw)
    ref = reference(name, values, y, form=form, fit_intercept=True, a=1.0, sw=sw)
    assert_state_equals(state, ref, name)
    assert counts == (ref.mistakes, len(ref.updates))
    assert state.seen[0] == np.count_nonzero(sw)
    # a row of weight 0 is absent: the same as the loop without it
    unit = (sw > 0).astype(float)
    state, counts = fit(name, view, y, form=form, fit_intercept=True, a=1.0, sw=unit)
    kept = sw > 0
    ref = reference(name, values[kept], y[kept], form=form, fit_intercept=True, a=1.0)
    assert_state_equals(state, ref, name)
    assert counts == (ref.mistakes, len(ref.updates))
    # weights all 1 are the same as no weights, bit for bit
    ones, counts_ones = fit(name, view, y, form=form, fit_intercept=True, a=1.0,
                            sw=np.ones(len(y)))
    none, counts_none = fit(name, view, y, form=form, fit_intercept=True, a=1.0)
    assert counts_ones == counts_none
    for mine, theirs in zip(ones, none):
        assert_array_equal(mine, theirs)


def test_an_arow_weight_is_that_many_copies_of_the_row():
    # full Σ, two classes: k AROW updates on one row are one update with r/k (not so
    # for multiclass AROW, whose margin moves twice as fast and whose rival may change)
    name = "arow"
    X, y = problem(7)
    sw = np.random.RandomState(7).randint(1, 4, size=len(y)).astype(float)
    weighted, _ = fit(name, X, y, form="full", fit_intercept=True, a=1.0, sw=sw)
    copies, _ = fit(name, X, y, form="full", fit_intercept=True, a=1.0,
                    order=np.repeat(np.arange(len(y)), sw.astype(int)))
    assert_allclose(weights_of(weighted, name)[0], weights_of(copies, name)[0], rtol=1e-9)
    assert_allclose(weighted.cov, copies.cov, rtol=1e-9, atol=1e-13)


@pytest.mark.parametrize("name", ["cw", "iellip"])
def test_a_positive_weight_acts_as_one_without_a_loss(name):
    X, y = problem(8)
    sw = np.random.RandomState(8).choice([0.5, 1.0, 4.0], size=len(y))
    weighted, counts_weighted = fit(name, X, y, form="full", fit_intercept=True, a=1.0, sw=sw)
    plain, counts_plain = fit(name, X, y, form="full", fit_intercept=True, a=1.0)
    assert counts_weighted == counts_plain
    for mine, theirs in zip(weighted, plain):
        assert_array_equal(mine, theirs)


@pytest.mark.parametrize("layout", ["dense64", "csr32"])
@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", ALL)
def test_the_update_log(name, form, layout):
    X, y = problem(10, multiclass=name in MULTICLASS)
    view, values = laid_out(X, layout)
    n = len(y)
    sw = np.ones(n)
    sw[[2, 11]] = 0.0
    log = (np.empty(n, np.intp), np.empty(n), np.empty(n, np.int64))
    if name in MULTICLASS:
        log += (np.empty(n, np.intp),)
    state, (_, first) = fit(name, view, y, form=form, fit_intercept=True, a=1.0, sw=sw, log=log)
    ref = reference(name, values, y, form=form, fit_intercept=True, a=1.0, sw=sw)
    assert_array_equal(log[0][:first], [update[0] for update in ref.updates])
    # binary: the activation f = y·margin, as online_epoch logs it; multiclass: the margin
    values = [update[1] * (1 if name in MULTICLASS else y[update[0]]) for update in ref.updates]
    assert_allclose(log[1][:first], values, rtol=1e-9, atol=1e-12)
    counted = np.cumsum(sw > 0)  # the 1-based example number of each row
    assert_array_equal(log[2][:first], counted[log[0][:first]])
    if name in MULTICLASS:
        assert_array_equal(log[3][:first], [update[2] for update in ref.updates])
    # the second epoch goes on counting examples
    _, (_, second) = fit(name, view, y, form=form, fit_intercept=True, a=1.0, sw=sw, log=log,
                         state=state)
    assert second > 0
    assert_array_equal(log[2][:second], counted[-1] + counted[log[0][:second]])


@pytest.mark.parametrize("name", ALL)
def test_the_diagonal_form_reads_only_the_stored_entries(name):
    """Over 2¹⁸ features (the CSR triplet then carries the prefetch look-ahead), with
    NaN in every entry of w and s that no row holds: the results equal the paper's
    on the compacted columns, and the NaNs are never read (they would spread)."""
    multiclass = name in MULTICLASS
    compact, y = problem(11, n=40, d=6, multiclass=multiclass)
    width = 2 ** 18
    columns = np.sort(np.random.RandomState(11).choice(width, compact.shape[1], replace=False))
    wide = sp.csr_matrix(compact)
    wide = sp.csr_matrix((wide.data, columns[wide.indices], wide.indptr),
                         shape=(len(y), width))
    view = kernel_view(wide)
    assert len(view) == 4
    rule = so.second_order_rule(name, **(MULTICLASS if multiclass else BINARY)[name])
    unused = np.ones(width + 1, dtype=bool)
    unused[columns] = False
    unused[-1] = False  # the bias
    if multiclass:
        state = so.new_multiclass_state(rule, N_CLASSES, width, a=1.0, covariance="diagonal",
                                        fit_intercept=True)
        state.W[:, unused[:-1]] = np.nan
    else:
        state = so.new_state(rule, width, a=1.0, covariance="diagonal", fit_intercept=True,
                             c=IELLIP_C if name == "iellip" else None)
        state.w[unused[:-1]] = np.nan
        if name == "sop":
            state.u[unused] = np.nan
    state.cov[unused] = np.nan
    order = np.empty(0, dtype=np.intp)
    epoch = so.multiclass_second_order_epoch if multiclass else so.second_order_epoch
    counts = epoch(view, y, None, order, rule, True, state, None)
    ref = reference(name, compact, y, form="diagonal", fit_intercept=True, a=1.0)
    coef, intercept = weights_of(state, name)
    assert_allclose(coef[..., columns], ref.coef, rtol=RTOL, atol=1e-12)
    assert_allclose(intercept, ref.intercept, rtol=RTOL, atol=1e-12)
    assert_allclose(state.cov[np.r_[columns, width]], ref.cov, rtol=RTOL)
    assert counts == (ref.mistakes, len(ref.updates))
    assert np.isnan(state.cov[unused]).all() and np.isnan(coef[..., unused[:-1]]).all()


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", ALL)
def test_csr_equals_dense(name, form):
    X, y = problem(12, multiclass=name in MULTICLASS)
    dense, dense_counts = fit(name, X, y, form=form, fit_intercept=True, a=1.0)
    view, _ = laid_out(X, "csr64")
    sparse, sparse_counts = fit(name, view, y, form=form, fit_intercept=True, a=1.0)
    assert sparse_counts == dense_counts
    for mine, theirs in zip(sparse, dense):  # dense sums may be reassociated
        assert_allclose(mine, theirs, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("layout", ["dense64", "csr32"])
@pytest.mark.parametrize("name", ALL)
def test_the_full_covariance_stays_exactly_symmetric(name, layout):
    X, y = problem(13, multiclass=name in MULTICLASS)
    view, _ = laid_out(X, layout)
    state, _ = fit(name, view, y, form="full", fit_intercept=True, a=1.0)
    assert_array_equal(state.cov, state.cov.T)


def test_rules_and_states_are_checked():
    with pytest.raises(ValueError, match="Unknown"):
        so.second_order_rule("arrow", r=1.0)
    with pytest.raises(TypeError, match="exactly the parameters"):
        so.second_order_rule("arow")
    with pytest.raises(ValueError, match="eta"):
        so.second_order_rule("cw", eta=1.0)
    with pytest.raises(ValueError, match="positive"):
        so.second_order_rule("nherd", C=0.0)
    with pytest.raises(TypeError, match="IELLIP"):
        so.new_state(so.second_order_rule("iellip", b=0.3), 2, a=1.0, covariance="full",
                     fit_intercept=False)
    with pytest.raises(ValueError, match="at most 1"):
        so.second_order_rule("iellip", b=1.5)
    with pytest.raises(ValueError, match=r"\(0, 1\)"):
        so.new_state(so.second_order_rule("iellip", b=0.3), 2, a=1.0, covariance="full",
                     fit_intercept=False, c=1.0)
    with pytest.raises(ValueError, match="new_multiclass_state"):
        so.new_state(so.second_order_rule("multiclass_arow", r=1.0), 2, a=1.0,
                     covariance="full", fit_intercept=False)
    with pytest.raises(ValueError, match="new_state"):
        so.new_multiclass_state(so.second_order_rule("arow", r=1.0), 3, 2, a=1.0,
                                covariance="full", fit_intercept=False)
    with pytest.raises(ValueError, match="covariance"):
        so.new_state(so.second_order_rule("arow", r=1.0), 2, a=1.0, covariance="diag",
                     fit_intercept=False)
    rule = so.second_order_rule("cw", eta=0.7)
    assert rule.phi == pytest.approx(0.5244005127080407)
    # SOP's Σ is A⁻¹ with A = aI
    assert_array_equal(so.new_state(so.second_order_rule("sop"), 2, a=4.0, covariance="full",
                                    fit_intercept=True).cov, np.eye(3) / 4.0)


@pytest.mark.parametrize("name", [name for name in BINARY if name != "sop"])
def test_w_and_s_as_pairs_give_the_same_state_bit_for_bit(name):
    """interleaved_epoch (w and s as (w_j, s_j) pairs for the epoch, on wide CSR)
    is the plain kernel on strided views: the same state, counts and log, bit for
    bit, with row weights, a shuffled order, the log and IELLIP's carried factor.
    (One typing of the arguments: each other one is a compilation of the kernel.)"""
    rng = np.random.RandomState(5)
    n, d = 3000, 2**17
    X = sp.random(n, d, density=120 / d, random_state=rng, format="csr")
    X.data = rng.randn(X.nnz)
    y = np.where(rng.randn(n) > 0, 1.0, -1.0)
    view = kernel_view(X)
    assert len(view) == 4  # the look-ahead of wide data: what interleaves() requires
    rule = so.second_order_rule(name, **BINARY[name])
    sw, order = rng.choice([0.0, 0.5, 2.0], size=n), rng.permutation(n)
    states, results = [], []
    for epoch in (so.second_order_epoch, so.interleaved_epoch):
        state = so.new_state(rule, d, a=0.8, covariance="diagonal", fit_intercept=True,
                             c=IELLIP_C if name == "iellip" else None)
        assert so.interleaves(view, order, rule, state)
        log = (np.zeros(n, np.intp), np.zeros(n), np.zeros(n, np.int64))
        carry = np.zeros(2)
        counts = [epoch(view, y, sw, order, rule, True, state, log, carry) for _ in range(2)]
        so.second_order_unscale(state.cov, carry)
        states.append(state)
        results.append((counts, log))
    for plain, paired in zip(*states):
        assert_array_equal(plain, paired)
    assert results[0][0] == results[1][0] and results[0][0][0][1] > 0
    for plain, paired in zip(results[0][1], results[1][1]):
        assert_array_equal(plain, paired)


def test_pairs_only_where_they_repay_their_copies():
    rule = so.second_order_rule("arow", r=1.0)
    wide = kernel_view(sp.random(10, 2**17, density=1e-3, format="csr", random_state=0))
    narrow = kernel_view(sp.random(10, 100, density=0.5, format="csr", random_state=0))
    natural = np.empty(0, dtype=np.intp)
    state = so.new_state(rule, 2**17, a=1.0, covariance="diagonal", fit_intercept=True)
    assert not so.interleaves(narrow, natural, rule, so.new_state(
        rule, 100, a=1.0, covariance="diagonal", fit_intercept=True))
    # 1,310 stored values for 131,073 entries of s: the copies would cost more than they save
    assert not so.interleaves(wide, natural, rule, state)
    sop = so.second_order_rule("sop")
    assert not so.interleaves(wide, natural, sop, so.new_state(
        sop, 2**17, a=1.0, covariance="diagonal", fit_intercept=True))
