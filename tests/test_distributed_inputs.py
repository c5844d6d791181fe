"""What the user passes to ParameterMixing, turned into shards and backends:
Dask arrays of unequal blocks, lists of files, and an estimator holding a live
Dask client (cloned and pickled)."""

import pickle

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_array_equal
from sklearn.base import BaseEstimator, clone
from sklearn.datasets import dump_svmlight_file

from rosenblatt.distributed._backends import (
    DaskBackend,
    HoldsClient,
    ThreadBackend,
    backend_for,
)
from rosenblatt.distributed._inputs import plan_arrays, plan_dask, plan_files


def rows_and_labels(n=100, d=3, seed=0):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(n, d))
    return X, np.where(X[:, 0] > 0, 1, -1)


def built(plan, backend=None):
    indices = list(range(plan.n_shards))
    return (backend or ThreadBackend()).build(plan.makers(indices))


# ------------------------------------------------- Dask arrays of unequal blocks


@pytest.mark.parametrize("blocks, n_shards, rows", [
    ((40, 60), 2, [50, 50]),
    ((10, 10, 10, 70), 4, [25, 25, 25, 25]),
    ((100,), 3, [33, 33, 34]),
    ((97, 1, 1, 1), 2, [50, 50]),
    ((50, 50), 7, [14, 14, 14, 15, 14, 14, 15]),
])
def test_unequal_dask_blocks_make_the_requested_shards_balanced_by_rows(blocks, n_shards,
                                                                        rows):
    da = pytest.importorskip("dask.array")
    X, y = rows_and_labels()
    weights = np.linspace(0.5, 2.0, len(y))
    plan = plan_dask(da.from_array(X, chunks=(blocks, (X.shape[1],))),
                     da.from_array(y, chunks=(blocks,)), da.from_array(weights, chunks=blocks),
                     n_shards, None, backend=ThreadBackend())
    shards = built(plan)
    assert plan.n_shards == len(shards) == n_shards
    assert [shard.X.shape[0] for shard in shards] == rows
    expected = built(plan_arrays(X, y, weights, n_shards, np.array([-1, 1])))
    for got, want in zip(shards, expected, strict=True):
        assert_array_equal(got.X, want.X)
        assert_array_equal(got.codes, want.codes)
        assert_array_equal(got.weights, want.weights)
        assert got.index == want.index


def test_more_shards_than_rows_gives_a_shard_per_row():
    da = pytest.importorskip("dask.array")
    X, y = rows_and_labels(n=3)
    plan = plan_dask(da.from_array(X, chunks=(3, 3)), y, None, 8, np.array([-1, 1]),
                     ThreadBackend())
    assert [shard.X.shape[0] for shard in built(plan)] == [1, 1, 1]


def test_unequal_csr_blocks_and_unknown_block_sizes_are_balanced_too():
    da = pytest.importorskip("dask.array")
    X, y = rows_and_labels()
    csr = da.from_array(X, chunks=((40, 60), (3,))).map_blocks(sp.csr_matrix)
    unknown = da.from_array(X, chunks=((40, 60), (3,)))
    unknown = unknown[da.from_array(np.ones(100, dtype=bool), chunks=((40, 60),))]
    assert np.isnan(unknown.shape[0])
    expected = built(plan_arrays(X, y, None, 2, np.array([-1, 1])))
    for Xd in (csr, unknown):
        shards = built(plan_dask(Xd, y, None, 2, None, ThreadBackend()))
        assert [shard.X.shape[0] for shard in shards] == [50, 50]
        for got, want in zip(shards, expected, strict=True):
            assert_array_equal(sp.csr_matrix(got.X).toarray(), want.X)


def test_sample_weight_of_another_length_is_refused_by_name():
    da = pytest.importorskip("dask.array")
    X, y = rows_and_labels()
    with pytest.raises(ValueError, match="X has 100 rows but sample_weight has 90 weights"):
        plan_dask(da.from_array(X, chunks=(40, 3)), y, np.ones(90), 2, None, ThreadBackend())


# ------------------------------------------------------------ lists of files


def write_csv(path, X, y):
    np.savetxt(path, np.column_stack([X, y]), delimiter=",", fmt="%.6f")
    return str(path)


def write_npy(path, X, y):
    np.save(path, np.column_stack([X, y]))
    return str(path)


def test_dense_files_of_different_widths_are_refused_naming_both(tmp_path):
    X, y = rows_and_labels(n=20)
    wide = write_csv(tmp_path / "wide.csv", X, y)
    narrow = write_npy(tmp_path / "narrow.npy", X[:, :2], y)
    with pytest.raises(ValueError, match="same columns") as error:
        plan_files([wide, narrow], None, 2, None, ThreadBackend(), 8, None)
    message = str(error.value)
    assert "wide.csv has 3 feature column(s)" in message and "narrow.npy has 2" in message


def test_dense_files_of_one_width_in_both_formats_are_one_training_set(tmp_path):
    X, y = rows_and_labels(n=20)
    paths = [write_csv(tmp_path / "a.csv", X[:10], y[:10]),
             write_npy(tmp_path / "b.npy", X[10:], y[10:])]
    plan = plan_files(paths, None, 2, None, ThreadBackend(), 8, None)
    assert plan.n_features == 3 and plan.n_shards == 2
    assert_array_equal(plan.classes, [-1, 1])


def test_libsvm_files_are_read_at_the_largest_width(tmp_path):
    X, y = rows_and_labels(n=20)
    narrow = X.copy()
    narrow[:, 2] = 0.0  # the last feature never appears in this file
    paths = [str(tmp_path / "a.svm"), str(tmp_path / "b.svm")]
    dump_svmlight_file(X[:10], y[:10], paths[0])
    dump_svmlight_file(narrow[10:], y[10:], paths[1])
    plan = plan_files(paths, None, 2, None, ThreadBackend(), 4, None)
    assert plan.n_features == 3
    assert all(X.shape[1] == 3 for shard in built(plan) for X, _ in shard.weighted_rows())


def test_libsvm_and_dense_files_are_not_mixed(tmp_path):
    X, y = rows_and_labels(n=20)
    svm = str(tmp_path / "a.svm")
    dump_svmlight_file(X[:10], y[:10], svm)
    csv = write_csv(tmp_path / "b.csv", X[10:], y[10:])
    with pytest.raises(ValueError, match=r"mix LIBSVM \(.*a\.svm\) with CSV/\.npy "
                                         r"\(.*b\.csv\).*share one format"):
        plan_files([svm, csv], None, 2, None, ThreadBackend(), 8, None)


# ------------------------------------------- an estimator holding a Dask client


class HoldsAClient(HoldsClient, BaseEstimator):
    def __init__(self, alpha=1.0, inner=None, client=None):
        self.alpha = alpha
        self.inner = inner
        self.client = client

    def fit(self, X=None, y=None):
        backend_for(self.client)  # what ParameterMixing.fit does first
        self.coef_ = np.array([self.alpha])
        return self


class Inner(BaseEstimator):
    def __init__(self, beta=2):
        self.beta = beta


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as local, \
            distributed.Client(local, set_as_default=False) as dask_client:
        yield dask_client


def test_a_clone_shares_the_live_client_and_clones_the_rest(cluster):
    inner = Inner(beta=5)
    model = HoldsAClient(alpha=3.0, inner=inner, client=cluster).fit()
    twin = clone(model)
    assert twin.client is cluster and model.client is cluster
    assert twin.alpha == 3.0 and twin.inner is not inner and twin.inner.beta == 5
    assert not hasattr(twin, "coef_")
    assert clone(HoldsAClient(client="threads")).client == "threads"
    assert clone(HoldsAClient()).client is None


def test_pickling_keeps_the_scheduler_address_and_fits_on_it_again(cluster):
    model = HoldsAClient(alpha=3.0, client=cluster).fit()
    again = pickle.loads(pickle.dumps(model))
    assert again.client == cluster.scheduler.address and model.client is cluster
    assert_array_equal(again.coef_, model.coef_)
    backend = backend_for(again.client)
    assert isinstance(backend, DaskBackend)
    assert backend.client.scheduler.address == cluster.scheduler.address
    assert backend.client.submit(sum, [1, 2]).result() == 3
    assert backend_for(again.client).client is backend.client  # connected once
    assert pickle.loads(pickle.dumps(again)).client == again.client


def test_a_fitted_plain_model_pickles(cluster):
    from rosenblatt import Perceptron

    X, y = rows_and_labels()
    fitted = Perceptron(max_iter=200).fit(X, y)
    assert_array_equal(pickle.loads(pickle.dumps(fitted)).coef_, fitted.coef_)
    assert pickle.dumps(HoldsAClient(client=cluster).fit())


def test_an_unreachable_address_is_refused_with_what_to_do():
    distributed = pytest.importorskip("distributed")
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}), \
            pytest.raises(ValueError, match="could not connect to a Dask scheduler"):
        backend_for("tcp://127.0.0.1:1")
    assert distributed


def test_libsvm_files_count_features_from_zero_together(tmp_path):
    """One file uses feature index 0, the other does not: as scikit-learn's
    load_svmlight_files, every file then counts from 0 (the second one used to be
    read one-based on its own, its features shifted by one column)."""
    from sklearn.datasets import load_svmlight_files

    paths = [tmp_path / "zero.svm", tmp_path / "one.svm"]
    paths[0].write_text("1 0:1 2:3\n-1 1:2\n")
    paths[1].write_text("-1 1:4 3:1\n1 2:5\n")
    plan = plan_files([str(p) for p in paths], None, 2, None, ThreadBackend(), 8, None)
    X0, y0, X1, y1 = load_svmlight_files([str(p) for p in paths])
    assert plan.n_features == X0.shape[1] == 4
    got = [X.toarray() for shard in built(plan) for X, _ in shard.weighted_rows()]
    assert_array_equal(got[0], X0.toarray())
    assert_array_equal(got[1], X1.toarray())
