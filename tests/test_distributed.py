"""Iterative parameter mixing: equal to the serial estimators with one shard, the
theorems of McDonald, Hall & Mann (2010), the Dask backend equal to threads, and
every input kind."""

import subprocess
import sys
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.datasets import dump_svmlight_file
from sklearn.exceptions import ConvergenceWarning

from rosenblatt import (
    PLA,
    AveragedPerceptron,
    BatchPerceptron,
    KernelPerceptron,
    LinearUnit,
    MulticlassPerceptron,
    Perceptron,
    PocketPerceptron,
    VotedPerceptron,
)
from rosenblatt.distributed import ParameterMixing
from rosenblatt.base._shard import shard_epoch
from rosenblatt.distributed._shards import make_shard
from rosenblatt.io import load, save
from rosenblatt.theory import mistake_bound

from .conftest import integer_blobs


def quietly(model, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        return model.fit(*args, **kwargs)


def noisy(n=240, seed=1):
    X, y = integer_blobs(n=n, d=4, seed=seed, separable=False)
    return X, y


def three_classes(n=240, seed=0):
    rng = np.random.RandomState(seed)
    X = rng.randint(-5, 6, size=(n, 4)).astype(float)
    return X, np.array(["ant", "bee", "cat"])[rng.randint(0, 3, size=n)]


# ---------------------------------------------------------------- one shard = serial

SERIAL_EXACT = [
    Perceptron(shuffle="none", max_iter=15),
    Perceptron(shuffle="none", max_iter=15, init="uniform", random_state=4, eta=0.5),
    MulticlassPerceptron(shuffle="none", max_iter=15),
    BatchPerceptron(max_iter=15),
    LinearUnit(solver="sgd", shuffle="none", max_iter=40, random_state=0),
    LinearUnit(max_iter=40, random_state=0),
    LinearUnit(solver="sgd", shuffle="none", max_iter=40, tol=None, random_state=0),
]
SERIAL_AVERAGED = [
    AveragedPerceptron(shuffle="none", max_iter=15),
    MulticlassPerceptron(shuffle="none", max_iter=15, average=True),
]


@pytest.mark.parametrize("labels", ["binary", "three"])
@pytest.mark.parametrize("estimator", SERIAL_EXACT, ids=repr)
def test_one_shard_is_the_serial_estimator_bit_for_bit(estimator, labels):
    X, y = noisy() if labels == "binary" else three_classes()
    serial = quietly(type(estimator)(**estimator.get_params()), X, y)
    mixed = quietly(ParameterMixing(estimator, n_shards=1, client="threads"), X, y)
    assert_array_equal(mixed.coef_, serial.coef_)
    assert_array_equal(mixed.intercept_, serial.intercept_)
    assert (mixed.n_iter_, mixed.n_updates_, mixed.converged_) == \
        (serial.n_iter_, serial.n_updates_, serial.converged_)


@pytest.mark.parametrize("labels", ["binary", "three"])
@pytest.mark.parametrize("estimator", SERIAL_AVERAGED, ids=repr)
def test_one_shard_averaged_equals_the_serial_mean(estimator, labels):
    X, y = noisy() if labels == "binary" else three_classes()
    serial = quietly(type(estimator)(**estimator.get_params()), X, y)
    mixed = quietly(ParameterMixing(estimator, n_shards=1, client="threads"), X, y)
    assert_array_equal(mixed.coef_, serial.coef_)
    assert_array_equal(mixed.intercept_, serial.intercept_)


def test_linear_unit_loss_curve_and_step_equal_the_serial_ones():
    X, y = noisy()
    serial = LinearUnit(max_iter=300, tol=1e-9, random_state=0).fit(X, y)
    mixed = ParameterMixing(LinearUnit(max_iter=300, tol=1e-9, random_state=0), n_shards=1,
                            client="threads").fit(X, y)
    assert mixed.estimator_.eta_ == serial.eta_
    assert_array_equal(mixed.estimator_.loss_curve_, serial.loss_curve_)


# ------------------------------------------------------------------ the theorems


def separable(n=160, seed=3):
    rng = np.random.RandomState(seed)
    X = rng.uniform(-1, 1, size=(n, 3))
    score = X @ [1.0, -2.0, 0.5] + 0.2
    keep = np.abs(score) > 0.15
    return X[keep], np.where(score[keep] > 0, 1, -1)


@pytest.mark.parametrize("mixing", ["uniform", "errors"])
@pytest.mark.parametrize("n_shards", [2, 4, 8])
def test_theorem_3_mixed_mistakes_stay_below_the_bound(n_shards, mixing):
    X, y = separable()
    # tol=None: the theorem's rule, epochs until a mistake-free one. The default's loss
    # tolerance may stop a little earlier, at a point that depends on float rounding.
    model = ParameterMixing(Perceptron(shuffle="none", max_iter=500, tol=None),
                            n_shards=n_shards, mixing=mixing, client="threads").fit(X, y)
    assert model.converged_ and model.score(X, y) == 1.0
    assert model.mixed_mistakes_[0] <= mistake_bound(X, y)
    mu = model.mixing_weights_[:, :, 0]
    assert_allclose(mu.sum(axis=1), 1.0)
    assert model.mistakes_.shape == (model.n_iter_, n_shards, 1)
    assert_allclose(model.mixed_mistakes_[0], (mu * model.mistakes_[:, :, 0]).sum())


#: McDonald, Hall & Mann's Theorem 2 example: shard A, then shard B.
COUNTEREXAMPLE_X = np.array([[1.0, 1, 0], [0, 0, 1], [0, 1, 1], [1, 0, 0]])
COUNTEREXAMPLE_Y = np.array([0, 1, 0, 1])


@pytest.mark.parametrize("mixing", ["uniform", "errors"])
def test_theorem_2_one_shot_mixing_fails_where_iterative_mixing_separates(mixing):
    rule = MulticlassPerceptron(fit_intercept=False, shuffle="none", max_iter=100)
    one_shot = ParameterMixing(rule, n_shards=2, mixing=mixing, strategy="one_shot",
                               shard_rows="contiguous", client="threads").fit(
        COUNTEREXAMPLE_X, COUNTEREXAMPLE_Y)
    assert one_shot.score(COUNTEREXAMPLE_X, COUNTEREXAMPLE_Y) < 1.0
    iterative = ParameterMixing(rule, n_shards=2, mixing=mixing, shard_rows="contiguous",
                                client="threads").fit(
        COUNTEREXAMPLE_X, COUNTEREXAMPLE_Y)
    assert iterative.converged_ and iterative.score(COUNTEREXAMPLE_X, COUNTEREXAMPLE_Y) == 1.0
    if mixing == "uniform":  # the paper's separating matrix, up to scale
        W = iterative.coef_
        assert_allclose(W / W[1, 0], [[-1, 2, -1], [1, -2, 1]])
        assert iterative.n_iter_ == 3


# --------------------------------------------------------------- backends and tasks


def test_threads_do_not_change_the_result():
    X, y = three_classes()
    one = ParameterMixing(AveragedPerceptron(random_state=2, max_iter=8), n_shards=4,
                          client="threads")
    results = []
    for n_threads in (1, 3):
        from rosenblatt.distributed import _backends

        original = _backends.ThreadBackend.__init__.__defaults__
        _backends.ThreadBackend.__init__.__defaults__ = (n_threads,)
        try:
            results.append(quietly(one, X, y).coef_.copy())
        finally:
            _backends.ThreadBackend.__init__.__defaults__ = original
    assert_array_equal(results[0], results[1])


@pytest.mark.parametrize("estimator", [
    Perceptron(), AveragedPerceptron(), Perceptron(penalty="l1", tol=1e-3),
    MulticlassPerceptron(average=True), BatchPerceptron(), LinearUnit(solver="sgd"),
], ids=repr)
def test_a_shard_task_never_modifies_the_problems_it_is_given(estimator):
    """Several shards train copies: a problem sent to them is left as it was."""
    X, y = noisy()
    model = ParameterMixing(estimator.set_params(max_iter=1, random_state=0), n_shards=2,
                            client="threads")
    quietly(model, X, y)
    fitted = model.estimator_
    shard = make_shard(X, y, None, 0, fitted.classes_)
    problem = fitted._problems[0]
    before = (problem.coef.copy(), problem.intercept.copy(), problem.seen.copy(),
              problem.n_updates)
    learner = fitted._learner()
    learner._before_training(fitted._problems, [shard], None, partial=True)
    parts = shard_epoch(shard, learner, {0: problem}, None, True)
    assert parts[0][0] is not problem and parts[0][1] > 0
    assert_array_equal(problem.coef, before[0])
    assert_array_equal(problem.intercept, before[1])
    assert_array_equal(problem.seen, before[2])
    assert problem.n_updates == before[3]


@pytest.mark.parametrize("estimator,why", [
    (PLA(), "use Perceptron"), (VotedPerceptron(), "use AveragedPerceptron"),
    (KernelPerceptron(), "explicit features"), (PocketPerceptron(), "use AveragedPerceptron"),
    (Perceptron(record=True), "train serially"),
])
def test_rules_that_cannot_be_mixed_are_refused_with_advice(estimator, why):
    X, y = noisy()
    with pytest.raises(ValueError, match=f"cannot train {type(estimator).__name__} on "
                                         f"several shards: .*{why}"):
        ParameterMixing(estimator, n_shards=2, client="threads").fit(X, y)


def test_early_stopping_is_the_estimators_and_stops_before_max_iter_without_warning():
    X, y = noisy(n=400)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        model = ParameterMixing(Perceptron(max_iter=200, random_state=0, early_stopping=True,
                                           n_iter_no_change=3), n_shards=3,
                                client="threads").fit(X, y)
    assert model.n_iter_ < 200 and not model.converged_


def test_not_converging_warns():
    X, y = noisy()
    with pytest.warns(ConvergenceWarning, match="Perceptron ran max_iter=3 epochs without a "
                                                "mistake-free pass"):
        ParameterMixing(Perceptron(max_iter=3), n_shards=2, client="threads").fit(X, y)


def test_fitted_model_saves_as_the_inner_estimator(tmp_path):
    X, y = three_classes()
    model = quietly(ParameterMixing(AveragedPerceptron(max_iter=5, random_state=0),
                                    n_shards=3, client="threads"), X, y)
    save(model, tmp_path / "m.npz")
    loaded = load(tmp_path / "m.npz")
    assert type(loaded) is AveragedPerceptron
    assert_array_equal(loaded.predict(X), model.predict(X))
    assert_array_equal(loaded.coef_, model.coef_)


def test_sample_weight_and_class_weight_reach_the_shards():
    X, y = noisy()
    weights = np.random.RandomState(0).rand(len(y))
    est = Perceptron(shuffle="none", max_iter=6, class_weight={-1: 2.0})
    serial = quietly(Perceptron(**est.get_params()), X, y, sample_weight=weights)
    mixed = quietly(ParameterMixing(est, n_shards=1, client="threads"), X, y,
                    sample_weight=weights)
    assert_array_equal(mixed.coef_, serial.coef_)


def test_importing_rosenblatt_does_not_import_dask():
    code = ("import sys, rosenblatt, rosenblatt.distributed; "
            "print(any(m.split('.')[0] in ('dask', 'distributed') for m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"


# ---------------------------------------------------------------------- inputs


def test_rows_in_memory_are_dealt_to_the_shards_at_random():
    """By default each shard gets a random share of the rows (in their order), drawn
    from the estimator's stream: reproducible, and the shards no longer follow the
    file's order; ``shard_rows="contiguous"`` keeps runs of rows."""
    X, y = noisy()
    fits = {}
    for rows in ("random", "contiguous"):
        fits[rows] = [quietly(ParameterMixing(Perceptron(max_iter=4, random_state=1),
                                              n_shards=3, shard_rows=rows,
                                              client="threads"), X, y) for _ in range(2)]
        assert_array_equal(fits[rows][0].coef_, fits[rows][1].coef_)
    assert not np.array_equal(fits["random"][0].coef_, fits["contiguous"][0].coef_)
    # the deal: a permutation drawn after the estimator's own draws
    from rosenblatt.distributed._inputs import plan_arrays

    plan = plan_arrays(X, y, None, 3, np.array([-1, 1]))
    deal = np.random.RandomState(0).permutation(len(y))
    shards = [function(*args) for function, args in plan.makers([0, 1, 2], deal)]
    rows = np.concatenate([np.sort(deal[k * 80:(k + 1) * 80]) for k in range(3)])
    assert_array_equal(np.concatenate([shard.X for shard in shards]), X[rows])


def test_csr_input_equals_dense_input():
    X, y = noisy()
    dense = quietly(ParameterMixing(Perceptron(max_iter=5, random_state=1), n_shards=3,
                                    client="threads"), X, y)
    sparse = quietly(ParameterMixing(Perceptron(max_iter=5, random_state=1), n_shards=3,
                                     client="threads"), sp.csr_matrix(X), y)
    assert_array_equal(dense.coef_, sparse.coef_)


def test_libsvm_files_read_on_the_workers_equal_the_arrays(tmp_path):
    X, y = noisy(n=240)
    paths = []
    for k, rows in enumerate((slice(0, 120), slice(120, 240))):
        paths.append(str(tmp_path / f"part{k}.svm"))
        dump_svmlight_file(X[rows], y[rows], paths[-1])
    est = Perceptron(max_iter=6, random_state=5)
    from_files = quietly(ParameterMixing(est, n_shards=2, chunk_size=50, client="threads"),
                         paths)
    in_memory = quietly(ParameterMixing(est, n_shards=2, client="threads", shard_rows="contiguous"), X, y)
    assert_array_equal(from_files.classes_, in_memory.classes_)
    # shuffled per block of 50 rows instead of per shard, so only the shapes agree
    assert from_files.mistakes_.shape == in_memory.mistakes_.shape
    natural = Perceptron(max_iter=6, shuffle="none")
    assert_array_equal(
        quietly(ParameterMixing(natural, n_shards=2, chunk_size=50, client="threads"),
                paths).coef_,
        quietly(ParameterMixing(natural, n_shards=2, client="threads", shard_rows="contiguous"), X, y).coef_)


def test_file_inputs_refuse_labels_and_weights(tmp_path):
    X, y = noisy(n=40)
    path = str(tmp_path / "d.svm")
    dump_svmlight_file(X, y, path)
    with pytest.raises(ValueError, match="labels are read from the files"):
        ParameterMixing(Perceptron(), client="threads").fit([path], y)
    with pytest.raises(ValueError, match="sample_weight cannot be given with files"):
        ParameterMixing(Perceptron(), client="threads").fit([path], sample_weight=np.ones(40))


def test_labels_outside_the_given_classes_are_refused():
    X, y = noisy()
    with pytest.raises(ValueError, match="not all among classes"):
        ParameterMixing(Perceptron(), client="threads").fit(X, y, classes=[-1, 0])




@pytest.fixture(scope="module")
def dask():
    return pytest.importorskip("dask.array")


def test_dask_array_and_column_chunks_equal_numpy(dask):
    X, y = noisy(n=240)
    est = Perceptron(max_iter=6, shuffle="none")
    expected = quietly(ParameterMixing(est, n_shards=4, client="threads", shard_rows="contiguous"), X, y)
    rows = dask.from_array(X, chunks=(60, 4))
    columns = dask.from_array(X, chunks=(60, 2))  # fixed up: shards need whole rows
    for Xd in (rows, columns):
        got = quietly(ParameterMixing(est, n_shards=4, client="threads"), Xd,
                      dask.from_array(y, chunks=60))
        assert_array_equal(got.coef_, expected.coef_)


def test_dask_csr_blocks(dask):
    X, y = noisy(n=240)
    Xd = dask.from_array(X, chunks=(80, 4)).map_blocks(sp.csr_matrix)
    est = Perceptron(max_iter=6, shuffle="none")
    got = quietly(ParameterMixing(est, n_shards=3, client="threads"), Xd, y)
    expected = quietly(ParameterMixing(est, n_shards=3, client="threads", shard_rows="contiguous"), X, y)
    assert_array_equal(got.coef_, expected.coef_)


def test_dask_dataframe_with_unknown_divisions(dask):
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    X, y = noisy(n=240)
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"]).assign(label=y)
    ddf = dd.from_pandas(frame, npartitions=4).clear_divisions()
    assert not ddf.known_divisions
    est = Perceptron(max_iter=6, shuffle="none")
    got = quietly(ParameterMixing(est, n_shards=4, client="threads"),
                  ddf[["a", "b", "c", "d"]], ddf["label"])
    expected = quietly(ParameterMixing(est, n_shards=4, client="threads", shard_rows="contiguous"), X, y)
    assert_array_equal(got.coef_, expected.coef_)
    assert got.feature_names_in_.tolist() == ["a", "b", "c", "d"]


def test_misaligned_dask_labels_are_refused(dask):
    X, y = noisy(n=240)
    with pytest.raises(ValueError, match="X has 240 rows but y has 200 labels"):
        ParameterMixing(Perceptron(), client="threads").fit(
            dask.from_array(X, chunks=(60, 4)), dask.from_array(y[:200], chunks=50))


# ------------------------------------------------------------ the Dask backend


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("distributed")
    # compile the kernels here first: workers then load them from the disk cache
    # (several processes compiling into one cache at once can crash, numba #4807)
    X, y = noisy(n=40)
    quietly(ParameterMixing(AveragedPerceptron(max_iter=2), n_shards=2, client="threads"),
            sp.csr_matrix(X), y)
    quietly(ParameterMixing(AveragedPerceptron(max_iter=2), n_shards=2, client="threads"),
            X, y)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None,
                                  env={"NUMBA_NUM_THREADS": "1"}) as cluster, \
            distributed.Client(cluster) as dask_client:
        yield dask_client


@pytest.mark.parametrize("n_shards", [1, 2, 4])
@pytest.mark.parametrize("estimator", [
    Perceptron(max_iter=8, random_state=3),
    AveragedPerceptron(max_iter=8, random_state=3),
], ids=repr)
@pytest.mark.parametrize("labels", ["binary", "three"])
def test_dask_backend_equals_threads_bit_for_bit(client, estimator, n_shards, labels):
    X, y = noisy() if labels == "binary" else three_classes()
    local = quietly(ParameterMixing(estimator, n_shards=n_shards, client="threads"), X, y)
    remote = quietly(ParameterMixing(estimator, n_shards=n_shards, client=client), X, y)
    assert remote.backend_ == "dask" and local.backend_ == "threads"
    assert_array_equal(remote.coef_, local.coef_)
    assert_array_equal(remote.intercept_, local.intercept_)
    assert_array_equal(remote.mistakes_, local.mistakes_)


def test_dask_backend_reads_dask_arrays_and_files_where_they_are(client, tmp_path):
    import dask.array as da

    X, y = noisy(n=240)
    est = Perceptron(max_iter=6, shuffle="none")
    expected = quietly(ParameterMixing(est, n_shards=2, client="threads", shard_rows="contiguous"), X, y)
    got = quietly(ParameterMixing(est, n_shards=2, client=client),
                  da.from_array(X, chunks=(60, 4)), da.from_array(y, chunks=60))
    assert_array_equal(got.coef_, expected.coef_)
    paths = []
    for k, rows in enumerate((slice(0, 120), slice(120, 240))):
        paths.append(str(tmp_path / f"part{k}.svm"))
        dump_svmlight_file(X[rows], y[rows], paths[-1])
    from_files = quietly(ParameterMixing(est, n_shards=2, client=client), paths)
    assert_array_equal(from_files.coef_, expected.coef_)


def test_the_active_client_is_used(client):
    X, y = noisy()
    model = quietly(ParameterMixing(Perceptron(max_iter=3), n_shards=2), X, y)
    assert model.backend_ == "dask"


def test_cli_trains_on_shards_with_threads_and_on_a_scheduler(client, tmp_path, capsys):
    from rosenblatt.cli import main

    data, model = tmp_path / "train.csv", tmp_path / "m.npz"
    assert main(["datasets", "--export", "iris_setosa", "-o", str(data)]) == 0
    for extra in ([], ["--scheduler", client.scheduler.address]):
        assert main(["train", str(data), "--model", "perceptron", "--set", "random_state=0",
                     "--shards", "3", "-o", str(model), "--quiet", *extra]) == 0
        out = capsys.readouterr().out
        backend = "dask" if extra else "threads"
        assert f"shards     3 ({backend})" in out and "accuracy   1.0000" in out
        assert type(load(model)) is Perceptron
    assert main(["train", str(data), "--scheduler", "tcp://127.0.0.1:1", "-o",
                 str(model)]) == 2
    assert "--scheduler needs --shards" in capsys.readouterr().err


def test_the_readme_example_runs_on_a_local_cluster():
    pytest.importorskip("distributed")
    import pathlib

    example = pathlib.Path(__file__).parents[1] / "examples" / "local_cluster.py"
    done = subprocess.run([sys.executable, str(example)], capture_output=True, text=True,
                          timeout=300, check=True)
    first = done.stdout.splitlines()[0]
    assert first.startswith("accuracy 0.9") and "on 4 shards (dask)" in first


def test_a_generator_seeds_the_shards_reproducibly():
    X, y = noisy()
    fits = [quietly(ParameterMixing(Perceptron(max_iter=4, random_state=np.random.default_rng(7)),
                                    n_shards=3, client="threads"), X, y).coef_
            for _ in range(2)]
    assert_array_equal(fits[0], fits[1])


def test_the_mixed_model_draws_like_its_estimator():
    import matplotlib

    matplotlib.use("Agg")
    from rosenblatt.inspection import BoundaryDisplay

    X, y = separable()
    model = quietly(ParameterMixing(Perceptron(max_iter=20, shuffle="none"), n_shards=2,
                                    client="threads"), X[:, :2], y)
    display = BoundaryDisplay.from_estimator(model, X[:, :2], y).plot()
    assert len(display.misclassified) == int((model.predict(X[:, :2]) != y).sum())


def test_linear_unit_without_tol_runs_every_epoch_quietly_with_an_empty_loss_curve(recwarn):
    X, y = noisy()
    model = LinearUnit(solver="sgd", max_iter=12, tol=None, random_state=0)
    mixed = ParameterMixing(model, n_shards=2, client="threads").fit(X, y)
    assert mixed.n_iter_ == 12 and not mixed.converged_
    assert mixed.estimator_.loss_curve_.shape == (0,)
    assert not [w for w in recwarn if issubclass(w.category, ConvergenceWarning)]


# three epochs on noisy data in each fold: not converged, and beside the point here
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_a_mixing_estimator_holding_a_client_clones_and_pickles(client):
    """cross_val_score clones it (the clones share the live client) and a pickle
    keeps the scheduler's address; the fitted model holds no client at all."""
    import pickle

    from sklearn.model_selection import cross_val_score

    X, y = noisy()
    model = ParameterMixing(Perceptron(max_iter=3, random_state=0), n_shards=2, client=client)
    scores = cross_val_score(model, X, y, cv=2)
    assert scores.shape == (2,) and np.all(scores > 0.5)
    again = pickle.loads(pickle.dumps(model))
    assert again.client == client.scheduler.address
    fitted = quietly(again, X, y)
    assert fitted.backend_ == "dask"
    assert_array_equal(fitted.coef_, quietly(model, X, y).coef_)
    assert not any(hasattr(value, "submit") for value in vars(fitted.estimator_).values())
    pickle.loads(pickle.dumps(fitted.estimator_))


def test_balanced_class_weights_count_the_rows_of_files_too(tmp_path):
    """Files are counted on their workers, so 'balanced' no longer needs the rows in
    memory: the same weights as the same rows given as arrays."""
    X, y = noisy(n=200)
    paths = []
    for k, rows in enumerate((slice(0, 100), slice(100, 200))):
        paths.append(str(tmp_path / f"part{k}.svm"))
        dump_svmlight_file(X[rows], y[rows], paths[-1])
    estimator = Perceptron(class_weight="balanced", max_iter=5, shuffle="none")
    from_files = quietly(ParameterMixing(estimator, n_shards=2, client="threads"), paths)
    in_memory = quietly(ParameterMixing(estimator, n_shards=2, shard_rows="contiguous",
                                        client="threads"), X, y)
    assert_allclose(from_files.coef_, in_memory.coef_, rtol=1e-12)
    with pytest.raises(ValueError, match="early_stopping holds rows out of shards kept in"):
        ParameterMixing(Perceptron(early_stopping=True), n_shards=2,
                        client="threads").fit(paths)
