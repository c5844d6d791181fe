"""A LIBSVM file read in blocks with ``one_pass``: the first epoch is the pass
that opening used to make, and the model, the rows and the errors are those of
the two passes (bit for bit), whatever the first block promised."""

import pickle
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from rosenblatt import AROW, AveragedPerceptron, FTRLProximal, Perceptron
from rosenblatt.cli import main
from rosenblatt.datasets import ChunkedFile, _chunks
from rosenblatt.io import load, save
from rosenblatt.streaming import fit_chunks


def svm_file(path, n=157, d=9, seed=0, labels=(-1, 1), one_based=True, extra=""):
    """Random real values, some zero features, blank lines and comments."""
    rng = np.random.default_rng(seed)
    lines = ["# a comment line", ""]
    base = 1 if one_based else 0
    for i in range(n):
        columns = np.flatnonzero(rng.random(d) < 0.6)
        words = [f"{j + base}:{rng.standard_normal():.17g}" for j in columns]
        lines.append(f"{labels[i % len(labels)]} " + " ".join(words) +
                     (" # row" if i % 7 == 0 else ""))
        if i % 11 == 0:
            lines.append("")
    path.write_text("\n".join(lines) + "\n" + extra)
    return path


def fitted(model, path, chunk_size, one_pass, n_features=12, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        chunks = ChunkedFile(path, chunk_size, n_features=n_features, one_pass=one_pass)
        return fit_chunks(model, chunks, **options), chunks


def assert_same_model(a, b, tmp_path):
    """Every array of the model files (the training state too) equal, bit for bit."""
    save(a, tmp_path / "a.npz")
    save(b, tmp_path / "b.npz")
    with np.load(tmp_path / "a.npz") as left, np.load(tmp_path / "b.npz") as right:
        assert sorted(left.files) == sorted(right.files)
        for name in left.files:
            assert np.array_equal(left[name], right[name]), name
    for name in ("n_iter_", "n_updates_", "converged_", "stop_reason_"):
        assert getattr(a, name) == getattr(b, name), name


@pytest.fixture(autouse=True)
def small_pieces(monkeypatch):
    # pieces of a few lines, so that blocks span pieces and pieces span blocks
    monkeypatch.setattr(ChunkedFile, "_SCAN_BYTES", 700)


@pytest.mark.parametrize("make", [
    lambda: Perceptron(shuffle="none", random_state=0, max_iter=5),
    lambda: AveragedPerceptron(shuffle="none", random_state=0, max_iter=3),
    lambda: AROW(covariance="diagonal", shuffle="none", random_state=0, max_iter=2),
    lambda: FTRLProximal(shuffle="none", random_state=0, max_iter=1),
])
@pytest.mark.parametrize("chunk_size", [1, 10, 33, 1000])
def test_one_pass_trains_the_model_of_two_passes(tmp_path, make, chunk_size):
    path = svm_file(tmp_path / "d.svm")
    two, chunks_two = fitted(make(), path, chunk_size, one_pass=False)
    one, chunks_one = fitted(make(), path, chunk_size, one_pass=True)
    assert_same_model(one, two, tmp_path)
    for name in ("n_rows", "n_blocks", "n_values", "zero_based", "_starts", "_end", "_where",
                 "uses_index_zero", "largest_index"):
        assert getattr(chunks_one, name) == getattr(chunks_two, name), name
    assert np.array_equal(chunks_one.classes, chunks_two.classes)


def test_the_first_epoch_reads_the_file_once(tmp_path, monkeypatch):
    path = svm_file(tmp_path / "d.svm", n=300)
    read = []
    original = _chunks.read_libsvm

    def counted(payload, *args, **kwargs):
        read.append(len(payload))
        return original(payload, *args, **kwargs)

    monkeypatch.setattr(_chunks, "read_libsvm", counted)
    size = path.stat().st_size
    fitted(Perceptron(shuffle="none", random_state=0, max_iter=1), path, 40, one_pass=False)
    # the pass on opening, then the epoch (its blocks from the first data line)
    assert 1.9 * size < sum(read) <= 2 * size
    read.clear()
    fitted(Perceptron(shuffle="none", random_state=0, max_iter=1), path, 40, one_pass=True)
    # once, but for the few rows past each block's end, parsed again with the next piece
    assert size <= sum(read) < 1.25 * size
    read.clear()
    fitted(Perceptron(shuffle="none", random_state=0, max_iter=3, tol=None), path, 40,
           one_pass=True)
    assert 2.9 * size < sum(read) < 3.25 * size


def test_blocks_are_the_rows_of_the_file(tmp_path):
    path = svm_file(tmp_path / "d.svm", n=90)
    two = ChunkedFile(path, 13, n_features=12)
    one = ChunkedFile(path, 13, n_features=12, one_pass=True)
    assert not one.scanned
    blocks = list(one.first_pass())
    assert one.scanned
    for index, (X, y, weights) in blocks:
        X2, y2 = two.block(index)
        assert weights is None and y.dtype == y2.dtype and np.array_equal(y, y2)
        assert X.shape == X2.shape and X.indices.dtype == X2.indices.dtype
        assert np.array_equal(X.indptr, X2.indptr) and np.array_equal(X.indices, X2.indices)
        assert np.array_equal(X.data, X2.data)
        assert one.blocks_where(index) == two.blocks_where(index)


@pytest.mark.parametrize("late, why", [
    ("3 1:1 4:2\n", "a label the first block does not hold"),
    ("1 0:1 4:2\n", "index 0: the file counts from 0"),
])
def test_a_broken_promise_starts_the_fit_again(tmp_path, monkeypatch, late, why):
    path = svm_file(tmp_path / "d.svm", n=80, extra=late)
    two, _ = fitted(AveragedPerceptron(shuffle="none", random_state=0, max_iter=2), path, 16,
                    one_pass=False)
    ended = []
    original = _chunks.FirstPassEnded.__init__

    def noted(self, *args):
        ended.append(args)
        original(self, *args)

    monkeypatch.setattr(_chunks.FirstPassEnded, "__init__", noted)
    one, chunks = fitted(AveragedPerceptron(shuffle="none", random_state=0, max_iter=2), path,
                         16, one_pass=True)
    assert chunks.scanned and len(ended) == 1  # the fit started again, once
    assert_same_model(one, two, tmp_path)


def test_a_file_of_one_class_at_first_is_scanned_on_opening(tmp_path):
    path = tmp_path / "d.svm"
    # more than a piece of the first class only: the first block holds one class
    path.write_text("".join(f"-1 1:{i}\n" for i in range(300)) + "1 2:1\n1 1:-1 2:3\n")
    chunks = ChunkedFile(path, 5, n_features=3, one_pass=True)
    assert chunks.scanned and chunks.classes.tolist() == [-1, 1]


@pytest.mark.parametrize("late", [
    "1 2:x\n",  # not a number
    "1 4:1 2:1\n",  # indices out of order
    "nan 1:1\n",  # a label that is not finite
    "1 40:1\n",  # beyond n_features=12
])
def test_errors_are_those_of_the_two_passes_and_the_model_is_untouched(tmp_path, late):
    path = svm_file(tmp_path / "d.svm", n=60, extra=late)
    with pytest.raises(ValueError) as two:
        ChunkedFile(path, 8, n_features=12)
    model = Perceptron(shuffle="none", random_state=0, max_iter=2)
    model.fit(np.eye(12)[:2], [0, 1])  # fitted before: a failed fit keeps it
    before = (model.coef_.copy(), model.classes_.copy())
    chunks = ChunkedFile(path, 8, n_features=12, one_pass=True)
    with pytest.raises(ValueError) as one:
        fit_chunks(model, chunks)
    assert str(one.value) == str(two.value) and type(one.value) is type(two.value)
    assert "d.svm" in str(one.value) and "line 6" in str(one.value)
    assert np.array_equal(model.coef_, before[0]) and model.classes_.tolist() == [0, 1]


def test_asking_for_the_whole_file_first_makes_the_pass(tmp_path):
    path = svm_file(tmp_path / "d.svm", n=50)
    one = ChunkedFile(path, 7, n_features=12, one_pass=True)
    two = ChunkedFile(path, 7, n_features=12)
    assert one.n_rows == two.n_rows and one.scanned and one.n_blocks == two.n_blocks
    copy = pickle.loads(pickle.dumps(ChunkedFile(path, 7, n_features=12, one_pass=True)))
    assert copy.scanned and copy.n_rows == 50


@pytest.mark.parametrize("make", [
    lambda: Perceptron(shuffle="every_epoch", random_state=3, max_iter=3),  # blocks permuted
    lambda: Perceptron(shuffle="none", random_state=0, max_iter=3, class_weight="balanced"),
    lambda: Perceptron(shuffle="none", random_state=0, max_iter=3, n_jobs=2),  # problems on threads
])
def test_what_cannot_be_one_pass_still_trains_the_same(tmp_path, make):
    path = svm_file(tmp_path / "d.svm", n=120, labels=(0, 1, 2))
    two, _ = fitted(make(), path, 16, one_pass=False)
    one, _ = fitted(make(), path, 16, one_pass=True)
    assert_same_model(one, two, tmp_path)


def test_zero_based_files_and_widths_the_caller_decides(tmp_path):
    path = svm_file(tmp_path / "d.svm", n=70, one_based=False)
    for zero_based in (None, True):
        two = fitted(Perceptron(shuffle="none", random_state=0, max_iter=2), path, 9, False)[0]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            chunks = ChunkedFile(path, 9, n_features=12, zero_based=zero_based, one_pass=True)
            one = fit_chunks(Perceptron(shuffle="none", random_state=0, max_iter=2), chunks)
        assert chunks.zero_based is True
        assert_same_model(one, two, tmp_path)
    # no width given: the width needs every index, so the pass is made on opening
    assert ChunkedFile(path, 9, one_pass=True).scanned


def test_the_command_line_reads_a_file_once_and_reports_its_rows(tmp_path, capsys):
    path = svm_file(tmp_path / "d.svm", n=90)
    out = tmp_path / "m.npz"
    assert main(["train", str(path), "--n-features", "12", "--chunk-size", "20", "--epochs",
                 "2", "--set", "shuffle='none'", "--set", "random_state=0", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "90 rows" in printed and "in blocks of 20" in printed
    two, _ = fitted(Perceptron(shuffle="none", random_state=0), path, 20, one_pass=False,
                    n_epochs=2)
    assert_same_model(load(out), two, tmp_path)


def test_the_command_line_says_how_wide_a_file_is_found_by_the_first_epoch(tmp_path, capsys):
    path = svm_file(tmp_path / "d.svm", n=90, extra="1 40:1\n")
    assert main(["train", str(path), "--n-features", "12", "--chunk-size", "20", "--set",
                 "shuffle='none'", "-o", str(tmp_path / "m.npz")]) != 0
    err = capsys.readouterr().err
    assert "d.svm, line" in err and "give --n-features 40 or more" in err


def vw_file(path, n=140, seed=1, labels=(-1, 1), weight_at=None, extra=""):
    """VW text: namespaces with scales, names hashed or numbers, blank lines."""
    rng = np.random.default_rng(seed)
    lines = []
    for i in range(n):
        words = " ".join(f"f{j}:{rng.standard_normal():.17g}" for j in
                         np.flatnonzero(rng.random(8) < 0.5))
        weight = " 2.5" if i == weight_at else ""
        lines.append(f"{labels[i % len(labels)]}{weight} |a {words} |b:0.5 {i % 13} x")
        if i % 9 == 0:
            lines.append("")
    path.write_text("\n".join(lines) + "\n" + extra)
    return path


@pytest.mark.parametrize("make", [
    lambda: AveragedPerceptron(shuffle="none", random_state=0, max_iter=3),
    lambda: FTRLProximal(shuffle="none", random_state=0, max_iter=2),
])
@pytest.mark.parametrize("chunk_size", [1, 12, 1000])
@pytest.mark.parametrize("weight_at", [None, 0, 100])
def test_a_vw_file_in_one_pass_trains_the_model_of_two_passes(tmp_path, make, chunk_size,
                                                               weight_at):
    path = vw_file(tmp_path / "d.vw", weight_at=weight_at)
    two, chunks_two = fitted(make(), path, chunk_size, one_pass=False, n_features=2**10)
    one, chunks_one = fitted(make(), path, chunk_size, one_pass=True, n_features=2**10)
    assert_same_model(one, two, tmp_path)
    for name in ("n_rows", "n_blocks", "n_values", "weighted", "_starts", "_end", "_where",
                 "n_features"):
        assert getattr(chunks_one, name) == getattr(chunks_two, name), name
    assert np.array_equal(chunks_one.classes, chunks_two.classes)


def test_vw_blocks_are_the_rows_of_the_file(tmp_path):
    path = vw_file(tmp_path / "d.vw", n=90, weight_at=1)  # weighted in the first block
    two = ChunkedFile(path, 13, n_features=2**10)
    one = ChunkedFile(path, 13, n_features=2**10, one_pass=True)
    assert not one.scanned
    for index, (X, y, weights) in list(one.first_pass()):
        X2, y2, weights2 = two.weighted_block(index)
        assert y.dtype == y2.dtype and np.array_equal(y, y2)
        assert np.array_equal(weights, weights2)
        assert X.shape == X2.shape and X.indptr.dtype == X2.indptr.dtype
        assert X.indices.dtype == X2.indices.dtype and X.has_canonical_format
        assert np.array_equal(X.indptr, X2.indptr) and np.array_equal(X.indices, X2.indices)
        assert np.array_equal(X.data, X2.data)
        assert one.blocks_where(index) == two.blocks_where(index)


@pytest.mark.parametrize("late", [
    "1 |a x:y\n",  # a bad feature value: the two passes refuse it when its block is read
    " |a x\n",  # no label: refused on opening by the two passes
    "1 x\n",  # no '|'
])
def test_vw_errors_are_those_of_the_two_passes(tmp_path, late):
    path = vw_file(tmp_path / "d.vw", n=60, extra=late)

    def error(one_pass):
        with pytest.raises(ValueError) as raised:
            fitted(Perceptron(shuffle="none", random_state=0, max_iter=2), path, 8,
                   one_pass=one_pass, n_features=2**10)
        return str(raised.value)

    assert error(True) == error(False)
    assert "d.vw" in error(True) and "line 68" in error(True)


def test_a_thread_asking_for_the_whole_file_waits_for_the_first_pass(tmp_path):
    """Problems on threads (one-vs-rest with n_jobs): one reads the first pass, the
    others wait for it to be made and read the blocks by index."""
    import threading

    path = svm_file(tmp_path / "d.svm", n=200)
    two = ChunkedFile(path, 16, n_features=12)
    one = ChunkedFile(path, 16, n_features=12, one_pass=True)
    blocks = one.first_pass()
    first = next(blocks)  # the pass has begun
    found = {}
    thread = threading.Thread(target=lambda: found.update(blocks=one.n_blocks, rows=one.n_rows))
    thread.start()
    thread.join(0.3)
    assert thread.is_alive()  # waiting for the first pass
    assert one.first_pass() is None  # taken
    rest = list(blocks)
    thread.join(10)
    assert found == {"blocks": two.n_blocks, "rows": two.n_rows}
    assert len(rest) + 1 == two.n_blocks and first[0] == 0 and one.scanned
    # asked first, the pass is made, and no first pass is left to read
    early = ChunkedFile(path, 16, n_features=12, one_pass=True)
    assert early.n_rows == 200 and early.first_pass() is None
