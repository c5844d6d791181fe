"""Vowpal Wabbit's text format, the width of the feature space, probabilities and
the line per pass on the command line (issue 32, item 4)."""

import contextlib
import importlib.util
import io
import pathlib
import re
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.utils import murmurhash3_32

from rosenblatt import OnlineGradientDescent, Perceptron
from rosenblatt._kernels import _text
from rosenblatt.base._registry import short_names
from rosenblatt.cli import main
from rosenblatt.datasets import ChunkedFile, load_data, load_libsvm
from rosenblatt.datasets._loaders import data_format
from rosenblatt.datasets._vw import load_vw, parse_vw, parse_vw_line, vw_hash
from rosenblatt.io import load

ROOT = pathlib.Path(__file__).resolve().parents[1]
SETTINGS = settings(max_examples=200, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.function_scoped_fixture])


def call(argv):
    """``main(argv)`` with its output captured: ``(code, stdout, stderr)``."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code = main([str(a) for a in argv])
    return code, out.getvalue(), err.getvalue()


def user_error(argv, *messages):
    """Exit 2, one line on stderr holding every message, no traceback."""
    code, _, err = call(argv)
    assert code == 2, (argv, code, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    for message in messages:
        assert message in err, (message, err)
    return err


def click_log():
    spec = importlib.util.spec_from_file_location("click_log", ROOT / "benchmarks" /
                                                  "click_log.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ------------------------------------------------------------------ the reader

def test_values_namespaces_importance_tags_and_hashing(tmp_path):
    path = tmp_path / "d.vw"
    path.write_text("1 2.5 'ad7 |user age:0.5 city=paris |ad:2 17 x:-1 x:0.25\n"
                    "\n"
                    "-1 seen| 3 3 0:7 zero:0\n"
                    "0 |a b:1e-3 |b b:4\n")
    width = 2**20
    X, y, w = load_vw(path, hash_bits=20, with_weights=True)
    user, ad, a, b = vw_hash("user"), vw_hash("ad"), vw_hash("a"), vw_hash("b")
    expected = np.zeros((3, width))
    expected[0, vw_hash("age", user) % width] += 0.5
    expected[0, vw_hash("city=paris", user) % width] += 1.0
    expected[0, (17 + ad) % width] += 2.0              # a name of digits: its number
    expected[0, vw_hash("x", ad) % width] += 2 * (-1 + 0.25)
    expected[1, 3] = 2.0                               # 3 twice, default namespace: column 3
    expected[1, 0] = 7.0
    expected[2, vw_hash("b", a) % width] = 1e-3
    expected[2, vw_hash("b", b) % width] = 4.0
    np.testing.assert_array_equal(X.toarray(), expected)
    assert X.nnz == np.count_nonzero(expected)  # duplicates added, zeros left out
    assert all(np.all(np.diff(X.indices[X.indptr[r]:X.indptr[r + 1]]) > 0) for r in range(3))
    assert y.tolist() == [1, -1, 0] and w.tolist() == [2.5, 1.0, 1.0]
    assert X.has_canonical_format and X.indices.dtype == np.int32
    # "seen" touches the bar: a tag, so -1 is the label and the weight is 1
    assert parse_vw_line(b"-1 seen| 3", 8)[:2] == (-1.0, 1.0)
    assert parse_vw_line(b"1 2|f a", 8)[:2] == (1.0, 1.0)  # "2" touches the bar: a tag
    assert parse_vw_line(b"| a", 8)[0] is None            # no label: prediction only


def test_the_murmur_hash_is_scikit_learns_on_any_bytes():
    rng = np.random.default_rng(0)
    for length in list(range(0, 12)) + [31, 64, 101]:
        for _ in range(30):
            raw = rng.integers(0, 256, length, dtype=np.uint8)
            seed = int(rng.integers(0, 2**32))
            assert _text.murmur3(raw, 0, length, seed) == murmurhash3_32(
                raw.tobytes(), seed=seed, positive=True)


def test_the_columns_are_vowpal_wabbits_own():
    vowpalwabbit = pytest.importorskip("vowpalwabbit")
    workspace = vowpalwabbit.Workspace("--quiet -b 20")
    try:
        for namespace in ["user", "a", "12", "ünï"]:
            seed = workspace.hash_space(namespace)
            assert seed == vw_hash(namespace)
            for name in ["x", "price", "123", "0", "Constant", "f9", "é"]:
                line = f"1 |{namespace} {name}".encode()
                [(column, _)] = parse_vw_line(line, 2**20)[2]
                assert column == workspace.hash_feature(name, seed), (namespace, name)
        assert parse_vw_line(b"1 | 123", 2**20)[2] == [(workspace.hash_feature("123", 0), 1.0)]
    finally:
        workspace.finish()


@pytest.mark.parametrize("line, message", [
    ("1 a b", "no '|'"),
    ("x |f a", "the label 'x' is not a number"),
    ("nan |f a", "the label nan is not a finite number"),
    ("1 -2 |f a", "the importance weight -2 is not a finite number >= 0"),
    ("1 2 3 |f a", "3 numbers before '|'"),
    ("1 'a 'b |f a", "two tags"),
    ("1 |f a:x", "the value of feature 'a:x', 'x' is not a number"),
    ("1 |f a:nan", "the feature 'a:nan' has the value nan, not a finite number"),
    ("1 |f a:1e999", "too large for a 64-bit float"),
    ("1 |f a:", "is not a number"),
    ("1 |f :3", "the feature ':3' has no name"),
    ("1 |:2 a", "the namespace ':2' has no name"),
    ("1 |f:y a", "the scale of namespace 'f', 'y' is not a number"),
    ("1 |f:1e300 a:1e300", "overflows a 64-bit float"),
])
def test_a_malformed_line_is_refused_with_its_file_and_line(tmp_path, line, message):
    path = tmp_path / "bad.vw"
    path.write_text("1 |f a\n\n-1 |f b\n" + line + "\n1 |f c\n")
    with pytest.raises(ValueError) as raised:
        load_vw(path)
    assert str(raised.value).startswith(f"{path}, line 4: ") and message in str(raised.value)
    with pytest.raises(ValueError) as chunked:  # the same line when read in blocks
        [block for block in ChunkedFile(path, 2)]
    assert f"{path}, line 4: " in str(chunked.value)


def test_a_line_without_a_label_is_refused_for_training_and_read_for_prediction(tmp_path):
    path = tmp_path / "d.vw"
    path.write_text("1 |f a\n|f b\n")
    with pytest.raises(ValueError, match=r"d.vw, line 2: no label before '\|'"):
        load_vw(path)
    X, y = load_vw(path, labels=False)
    assert X.shape[0] == 2 and y[0] == 1 and np.isnan(y[1])


WORDS = st.sampled_from(["a", "b", "17", "0", "007", "x:2", "x:-0.5", "b:1e3", "c:0",
                         "é:1", "n:.5", "m:5.", "q:+3", "z:1e-30", "y:123456789012345678901",
                         "w:1e23", "v:nan", "u:inf", "t:", ":1", "s:1:2", "r:abc", "p:1e999"])
NAMESPACES = st.sampled_from(["|", "| ", "|f ", "|user ", "|f:2 ", "|g:-0.5 ", "|:3 ", "|h:x ",
                              "|12 "])
HEADERS = st.sampled_from(["1 ", "-1 ", "0 ", "1 2 ", "1 0.5 'tag ", "-1 tag", "", "1 2 3 ",
                           "x ", "nan ", "1 -1 ", "2.5e1 ", " ", "'a 'b "])


@st.composite
def vw_lines(draw, headers=HEADERS, namespaces=NAMESPACES, words=WORDS):
    line = draw(headers)
    for _ in range(draw(st.integers(0, 3))):
        line += draw(namespaces) + " ".join(draw(st.lists(words, max_size=6)))
    return line


#: only what is valid: every example reads, most on the compiled path (hashed names out
#: of order, duplicates that add up or cancel, digits, scaled namespaces)
GOOD_WORDS = st.sampled_from(["a", "b", "c", "17", "0", "007", "x:2", "x:-2", "b:1e3", "c:0",
                              "é:1", "n:.5", "m:5.", "q:+3", "z:1e-30", "w:1e23", "4:2.5",
                              "y:123456789012345678901"])
GOOD_NAMESPACES = st.sampled_from(["| ", "|f ", "|user ", "|f:2 ", "|g:-0.5 ", "|12 "])
GOOD_HEADERS = st.sampled_from(["1 ", "-1 ", "0 ", "1 2 ", "1 0.5 'tag ", "-1 tag", "2.5e1 "])


def reference(lines, width):
    """The plain parser, line by line: ``(rows, labels, weights)`` or the first error."""
    rows, labels, weights = [], [], []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            label, weight, pairs = parse_vw_line(line.encode(), width)
        except ValueError as error:
            return f"f, line {number}: {error}."
        rows.append(pairs)
        labels.append(np.nan if label is None else label)
        weights.append(weight)
    return rows, labels, weights


@SETTINGS
@given(lines=st.lists(st.one_of(vw_lines(), vw_lines(GOOD_HEADERS, GOOD_NAMESPACES,
                                                     GOOD_WORDS)), max_size=6) |
       st.lists(vw_lines(GOOD_HEADERS, GOOD_NAMESPACES, GOOD_WORDS), min_size=1, max_size=6),
       bits=st.sampled_from([3, 10, 20]))
def test_the_compiled_parser_reads_every_line_as_the_plain_one(lines, bits):
    width = 2**bits
    expected = reference(lines, width)
    payload = "\n".join(lines).encode()
    if isinstance(expected, str):
        with pytest.raises(ValueError) as raised:
            parse_vw(payload, width, "f")
        assert str(raised.value) == expected
        return
    X, labels, weights = parse_vw(payload, width, "f")
    rows, want_labels, want_weights = expected
    assert X.shape == (len(rows), width)
    for r, pairs in enumerate(rows):
        start, stop = X.indptr[r], X.indptr[r + 1]
        assert list(zip(X.indices[start:stop].tolist(), X.data[start:stop].tolist())) == pairs
    np.testing.assert_array_equal(labels, want_labels)
    np.testing.assert_array_equal(weights, want_weights)


@SETTINGS
@given(lines=st.lists(st.one_of(vw_lines(), vw_lines(GOOD_HEADERS, GOOD_NAMESPACES,
                                                     GOOD_WORDS)), max_size=6),
       piece=st.sampled_from([1, 3, 16]))
def test_a_file_read_in_small_pieces_reads_as_the_plain_parser(lines, piece, tmp_path_factory):
    """load_vw reads a file in pieces of whole lines into arrays that grow: pieces of
    a few bytes (lines longer than the buffer, slow lines in some) read every line as
    the plain parser does, and refuse the same line."""
    from rosenblatt.datasets import _loaders
    from rosenblatt.datasets._vw import read_vw_file

    width = 2**10
    expected = reference(lines, width)
    path = tmp_path_factory.mktemp("vw") / "f"
    path.write_bytes("\n".join(lines).encode())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_loaders, "_PIECE_BYTES", piece)
        if isinstance(expected, str):
            with pytest.raises(ValueError) as raised:
                read_vw_file(path, width)
            assert str(raised.value) == expected.replace("f, line", f"{path}, line", 1)
            return
        indptr, indices, data, labels, weights = read_vw_file(path, width)
    rows, want_labels, want_weights = expected
    assert len(indptr) == len(rows) + 1
    for r, pairs in enumerate(rows):
        start, stop = indptr[r], indptr[r + 1]
        assert list(zip(indices[start:stop].tolist(), data[start:stop].tolist())) == pairs
    np.testing.assert_array_equal(labels, want_labels)
    np.testing.assert_array_equal(weights, want_weights)


def test_plain_lines_take_the_compiled_path_only():
    payload = b"1 0.5 'id |user a b:2 17 |ad:0.5 c:1.25e-3 d:-4\n-1 | 3 5:2.5\n"
    buf = np.frombuffer(payload, dtype=np.uint8)
    n = 4
    out = (np.zeros(n + 1, dtype=np.int64), np.empty(32, dtype=np.int32), np.empty(32),
           np.empty(n), np.empty(n), np.empty((n, 4), dtype=np.int64),
           np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64))
    rows, _, slow, _ = _text.vw_parse(buf, 2**20, _text.POWERS, *out)
    assert (rows, slow) == (2, 0)
    # each row's start byte and line (from 0), for a file read in one pass
    assert out[-2][:2].tolist() == [0, payload.index(b"-1")] and out[-1][:2].tolist() == [0, 1]


def test_format_by_suffix_and_content(tmp_path):
    (tmp_path / "a.txt").write_text("\n1 |f a\n")
    (tmp_path / "b.t").write_text("1 1:2 # | a comment\n")
    assert data_format(tmp_path / "a.txt") == "vw" and data_format(tmp_path / "b.t") == "libsvm"
    assert data_format(tmp_path / "b.t", "vw") == "vw"
    X, y = load_data(tmp_path / "a.txt", n_features=8)
    assert X.shape == (1, 8) and y.tolist() == [1]


def test_read_in_blocks_equals_read_whole_with_weights(tmp_path):
    path = tmp_path / "d.vw"
    lines = [f"{(-1) ** i} {1 + i % 3} |f a{i % 5} b:{i / 7:.3f}\n" + ("\n" if i % 4 else "")
             for i in range(23)]
    path.write_text("".join(lines))
    X, y, w = load_vw(path, n_features=64, with_weights=True)
    chunks = ChunkedFile(path, 5, n_features=64)
    assert chunks.n_rows == 23 and chunks.n_blocks == 5 and chunks.weighted
    parts = [chunks.weighted_block(i) for i in range(chunks.n_blocks)]
    np.testing.assert_array_equal(sp.vstack([p[0] for p in parts]).toarray(), X.toarray())
    assert np.concatenate([p[1] for p in parts]).tolist() == y.tolist()
    assert np.concatenate([p[2] for p in parts]).tolist() == w.tolist()
    assert chunks.blocks_where(1) == f"{path}, lines {lines_before(lines, 5) + 1}-" \
        f"{lines_before(lines, 10)}"


def lines_before(lines, k):
    """The file line of data row ``k`` (from 1) of the texts above."""
    return sum(text.count("\n") for text in lines[:k - 1]) + 1


def test_the_click_log_in_both_formats_is_one_matrix(tmp_path):
    paths = click_log().write_click_log(tmp_path, n_rows=300, hash_bits=12, per_row=8, seed=3)
    X_vw, y_vw = load_vw(paths["train.vw"], hash_bits=12)
    X_svm, y_svm = load_libsvm(paths["train.svm"], n_features=2**12)
    assert (X_vw != X_svm).nnz == 0 and y_vw.tolist() == y_svm.tolist()
    assert X_vw.shape == (240, 4096) and set(y_vw.tolist()) == {-1, 1}
    assert 5 <= np.diff(X_vw.indptr).mean() <= 8
    columns, labels = click_log().make_click_log(2000, hash_bits=12, per_row=8, seed=3)
    assert len(columns) == 2000 and 0.25 < np.mean(labels == 1) < 0.75


# ------------------------------------------------------------- the command line

@pytest.fixture
def svm_files(tmp_path):
    train = tmp_path / "train.svm"
    train.write_text("+1 1:1 3:1\n-1 2:1 5:1\n+1 1:1 4:1\n-1 2:1 5:1\n")
    wide = tmp_path / "wide.svm"
    wide.write_text("+1 1:1 9:1\n-1 2:1\n")
    return train, wide


def test_a_wider_libsvm_test_file_needs_n_features_at_training(svm_files, tmp_path):
    train, wide = svm_files
    model = tmp_path / "m.npz"
    assert call(["train", train, "-o", model, "--quiet"])[0] == 0
    for command in ("predict", "evaluate"):
        user_error([command, model, wide], "wide.svm, line 1: its rows name features beyond "
                   "the 5 expected (the file is 9 wide)", "train it with --n-features 9")
    assert call(["train", train, "-o", model, "--quiet", "--n-features", "16"])[0] == 0
    assert load(model).n_features_in_ == 16
    code, out, _ = call(["evaluate", model, wide])
    assert code == 0 and out.startswith("accuracy  ")
    code, out, _ = call(["predict", model, wide])
    assert code == 0 and len(out.split()) == 2
    assert call(["train", train, "-o", model, "--quiet", "--hash-bits", "4"])[0] == 0
    assert load(model).n_features_in_ == 16
    user_error(["predict", model, wide, "--n-features", "32"],
               "--n-features gives 32 features, but the model has 16")
    user_error(["train", wide, "-o", model, "--n-features", "4"],
               "its rows name features beyond the 4 expected", "give --n-features 9 or more")
    user_error(["train", wide, "-o", model, "--chunk-size", "1", "--n-features", "4"],
               "give --n-features 9 or more")


def test_vw_on_the_command_line_train_predict_evaluate(tmp_path):
    paths = click_log().write_click_log(tmp_path, n_rows=400, hash_bits=10, per_row=6, seed=1)
    model = tmp_path / "m.npz"
    code, out, err = call(["train", paths["train.vw"], "--model", "perceptron", "--set",
                           "shuffle=none", "--hash-bits", "10", "-o", model, "--quiet"])
    assert code == 0, err
    fitted = load(model)
    X, y = load_svm_as_vw(paths["train.svm"], 2**10)
    expected = Perceptron(shuffle="none").fit(X, y)
    np.testing.assert_array_equal(fitted.coef_, expected.coef_)
    # in blocks: the same model (shuffle="none"), and the test file hashed into its width
    chunked = tmp_path / "c.npz"
    assert call(["train", paths["train.vw"], "--set", "shuffle=none", "--hash-bits", "10",
                 "--chunk-size", "64", "-o", chunked, "--quiet"])[0] == 0
    np.testing.assert_array_equal(load(chunked).coef_, expected.coef_)
    code, out, _ = call(["evaluate", model, paths["test.vw"]])
    X_test, y_test = load_svm_as_vw(paths["test.svm"], 2**10)
    assert code == 0 and f"accuracy  {expected.score(X_test, y_test):.4f}" in out
    code, out, _ = call(["predict", model, paths["test.vw"]])
    assert out.split() == list(map(str, expected.predict(X_test)))
    # the same file read as VW whatever its name, or by --data-format
    renamed = tmp_path / "test.txt"
    renamed.write_bytes(paths["test.vw"].read_bytes())
    assert call(["predict", model, renamed])[1] == out
    assert call(["predict", model, renamed, "--data-format", "vw"])[1] == out


def load_svm_as_vw(path, width):
    X, y = load_libsvm(path, n_features=width)
    return X, y


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_importance_weights_are_sample_weights(tmp_path):
    path = tmp_path / "w.vw"
    rows = [("1", "3", "a b"), ("-1", "0.5", "b c"), ("1", "1", "c d"), ("-1", "2", "a d"),
            ("1", "0", "b")]
    path.write_text("".join(f"{label} {weight} | {names}\n" for label, weight, names in rows))
    model = tmp_path / "m.npz"
    assert call(["train", path, "--model", "passive_aggressive", "--set", "shuffle=none",
                 "--set", "max_iter=3", "--hash-bits", "6", "-o", model, "--quiet"])[0] == 0
    X, y, w = load_vw(path, hash_bits=6, with_weights=True)
    from rosenblatt import PassiveAggressiveClassifier

    expected = PassiveAggressiveClassifier(shuffle="none", max_iter=3).fit(X, y,
                                                                        sample_weight=w)
    unweighted = PassiveAggressiveClassifier(shuffle="none", max_iter=3).fit(X, y)
    np.testing.assert_array_equal(load(model).coef_, expected.coef_)
    assert not np.array_equal(expected.coef_, unweighted.coef_)


class Probabilistic:
    """A model with probabilities, as the command line sees one (scikit-learn's)."""

    def __init__(self, X, y):
        from sklearn.linear_model import LogisticRegression

        self.inner = LogisticRegression().fit(X, y)
        self.classes_, self.n_features_in_ = self.inner.classes_, X.shape[1]

    def predict(self, X):
        return self.inner.predict(X)

    def decision_function(self, X):
        return self.inner.decision_function(X)

    def predict_proba(self, X):
        return self.inner.predict_proba(X)


def test_predict_proba_writes_the_models_probabilities(tmp_path, monkeypatch):
    data = tmp_path / "d.csv"
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 3))
    y = np.where(X[:, 0] + 0.3 * rng.normal(size=30) > 0, "yes", "no")
    data.write_text("a,b,c,label\n" + "".join(f"{r[0]},{r[1]},{r[2]},{t}\n"
                                              for r, t in zip(X.tolist(), y)))
    model = Probabilistic(X, y)
    import rosenblatt.cli.predict as predict_module

    monkeypatch.setattr(predict_module, "load_classifier", lambda path, command: model)
    code, out, err = call(["predict", "m.npz", data, "--proba"])
    assert code == 0, err
    read = np.array([[float(v) for v in line.split()] for line in out.splitlines()])
    np.testing.assert_array_equal(read, model.predict_proba(X))
    code, out, _ = call(["predict", "m.npz", data, "--proba", "--format", "csv", "--scores"])
    lines = out.splitlines()
    assert lines[0] == "label,score,proba_no,proba_yes"
    np.testing.assert_array_equal([[float(v) for v in line.split(",")[2:]]
                                   for line in lines[1:]], model.predict_proba(X))
    code, out, _ = call(["predict", "m.npz", data, "--proba", "--format", "json"])
    import json

    document = json.loads(out)
    assert document["classes"] == ["no", "yes"]
    np.testing.assert_array_equal(document["proba"], model.predict_proba(X))


def registered_with_probabilities():
    from rosenblatt.base._registry import estimator_class

    names = []
    for short, name in short_names().items():
        cls = estimator_class(name)
        if hasattr(cls(), "predict_proba"):
            names.append(short)
    return names


@pytest.mark.parametrize("short", registered_with_probabilities() or ["none yet"])
def test_predict_proba_of_every_model_that_has_them(short, tmp_path):
    if short == "none yet":
        pytest.skip("no registered estimator has predict_proba in this installation")
    data = tmp_path / "d.csv"
    data.write_text("a,b,y\n0,0,0\n0,1,0\n1,0,1\n1,1,1\n0.2,0.1,0\n0.9,0.8,1\n")
    model = tmp_path / "m.npz"
    assert call(["train", data, "--model", short, "-o", model, "--quiet"])[0] == 0
    code, out, _ = call(["predict", model, data, "--proba"])
    fitted = load(model)
    X, _ = load_data(data)
    read = np.array([[float(v) for v in line.split()] for line in out.splitlines()])
    np.testing.assert_array_equal(read, fitted.predict_proba(X))


@pytest.mark.parametrize("short, has_log_loss", [("ftrl", True), ("perceptron", False)])
def test_evaluate_reports_the_log_loss_of_a_model_with_probabilities(short, has_log_loss,
                                                                     tmp_path):
    from sklearn.metrics import log_loss
    data = tmp_path / "d.csv"
    data.write_text("a,b,y\n0,0,0\n0,1,0\n1,0,1\n1,1,1\n0.2,0.1,0\n0.9,0.8,1\n")
    model = tmp_path / "m.npz"
    assert call(["train", data, "--model", short, "-o", model, "--quiet"])[0] == 0
    code, out, _ = call(["evaluate", model, data])
    assert code == 0
    shown = re.findall(r"^log-loss  ([0-9.]+)$", out, re.M)
    if not has_log_loss:
        assert shown == []
        return
    X, y = load_data(data)
    assert shown == [f"{log_loss(y, load(model).predict_proba(X)):.4f}"]


def test_predict_proba_of_a_model_without_them_says_which_have_them(tmp_path):
    data = tmp_path / "d.csv"
    data.write_text("a,b,y\n0,0,0\n0,1,0\n1,0,1\n1,1,1\n")
    model = tmp_path / "m.npz"
    assert call(["train", data, "-o", model, "--quiet"])[0] == 0
    user_error(["predict", model, data, "--proba"],
               "Perceptron gives no probabilities (it has no predict_proba); the models that "
               "do: ", "with --set loss=logistic", "CalibratedClassifierCV")


def test_train_help_lists_every_registered_estimator_by_family():
    code, out, _ = call(["train", "--help"])
    assert code == 0
    listed = re.findall(r"^    (\w+) +\S", out, re.MULTILINE)
    assert sorted(listed) == sorted(short_names())
    assert "  second-order\n    sop " in out
    assert "    ogd                  Online gradient descent on a convex loss" in out


@pytest.mark.parametrize("model", [["--model", "ftrl"],
                                   ["--model", "ogd", "--set", "loss=logistic"]])
def test_the_pass_line_of_a_logistic_model_shows_its_progressive_log_loss(model, tmp_path):
    # as Vowpal Wabbit's progress lines: each row's log-loss before its update
    from rosenblatt.engine import on_epoch
    paths = click_log().write_click_log(tmp_path, n_rows=500, hash_bits=10, per_row=6, seed=2)
    out_model = tmp_path / "m.npz"
    lines = {}
    for chunk in ([], ["--chunk-size", "70"]):
        code, out, err = call(["train", paths["train.vw"], *model, "--set", "max_iter=2",
                               "--set", "tol=None", "--hash-bits", "10", "--set",
                               "shuffle=none", "-o", out_model, *chunk])
        assert code == 0, err
        lines[bool(chunk)] = [float(re.search(r"log-loss ([\d.]+)$", line)[1])
                              for line in out.splitlines() if line.startswith("pass ")]
    X, y = load_vw(paths["train.vw"], hash_bits=10)
    estimator = load(out_model).set_params(warm_start=False)
    losses = []
    with on_epoch(estimator, lambda problem: losses.append(problem.epoch_loss)):
        estimator.fit(X, y)
    assert lines[False] == lines[True] == [round(loss, 4) for loss in losses]
    assert len(losses) == 2 and 0.0 < losses[1] < losses[0] < np.log(2) + 0.1


def test_a_line_per_pass_with_rows_per_second_and_progressive_mistakes(tmp_path):
    paths = click_log().write_click_log(tmp_path, n_rows=500, hash_bits=10, per_row=6, seed=2)
    model = tmp_path / "m.npz"
    code, out, err = call(["train", paths["train.vw"], "--model", "ogd", "--set",
                           "max_iter=3", "--set", "tol=None", "--hash-bits", "10",
                           "--set", "shuffle=none", "-o", model])
    assert code == 0, err
    passes = [line for line in out.splitlines() if line.startswith("pass ")]
    assert len(passes) == 3
    fitted = load(model)
    for epoch, line in enumerate(passes, start=1):
        fields = re.match(r"pass (\d+) +([\d,]+) rows +([\d.]+) s +([\d,]+) rows/s +"
                          r"progressive mistakes ([\d.]+)", line)
        assert fields and int(fields[1]) == epoch and fields[2] == "400", line
        # the mistakes of each row before its update, as the loop counted them
        assert float(fields[5]) == pytest.approx(fitted.n_mistakes_[epoch - 1] / 400, abs=5e-5)
    # in blocks: the same lines' mistakes
    code, out, _ = call(["train", paths["train.vw"], "--model", "ogd", "--set", "max_iter=3",
                         "--set", "tol=None", "--hash-bits", "10", "--set", "shuffle=none",
                         "--chunk-size", "50", "-o", model])
    assert [line.split()[-1] for line in out.splitlines() if line.startswith("pass ")] == \
        [line.split()[-1] for line in passes]
    assert not [line for line in call(["train", paths["train.vw"], "--hash-bits", "10", "-o",
                                       model, "--quiet"])[1].splitlines()
                if line.startswith("pass ")]


def test_the_perceptrons_progressive_mistakes_are_its_updates(tmp_path):
    data = tmp_path / "and.csv"
    data.write_text("x1,x2,y\n0,0,0\n0,1,0\n1,0,0\n1,1,1\n")
    code, out, _ = call(["train", data, "--set", "shuffle=none", "-o", tmp_path / "m.npz"])
    rates = [float(line.split()[-1]) for line in out.splitlines() if line.startswith("pass ")]
    # Ahmed & Pavlu's AND: 9 epochs, the last without a mistake, 18 updates in all
    assert len(rates) == 9 and rates[-1] == 0.0 and sum(rates) * 4 == pytest.approx(18)


@pytest.mark.parametrize("argv, messages", [
    (["train", "{vw}", "--label", "0", "-o", "{out}"],
     ["--label applies to CSV and .npy files; a VW line's label is its first word"]),
    (["train", "{bad}", "-o", "{out}"], ["bad.vw, line 2: no '|'"]),
    (["train", "{bad}", "-o", "{out}", "--chunk-size", "1"], ["bad.vw, line 2: no '|'"]),
    (["train", "{csv}", "--hash-bits", "8", "-o", "{out}"],
     ["--hash-bits applies to LIBSVM and VW files; a CSV file's width is its columns"]),
    (["train", "{vw}", "--hash-bits", "0", "-o", "{out}"],
     ["argument --hash-bits: expected a whole number from 1 to 31, got '0'"]),
    (["train", "{vw}", "--hash-bits", "8", "--n-features", "9", "-o", "{out}"],
     ["not allowed with argument"]),
    (["train", "{vw}", "--data-format", "json", "-o", "{out}"], ["invalid choice: 'json'"]),
    (["train", "{csv}", "--data-format", "vw", "-o", "{out}"], ["d.csv, line 1: no '|'"]),
    (["predict", "{model}", "{vw}", "--hash-bits", "3"],
     ["--hash-bits gives 8 features, but the model has 16"]),
])
def test_each_bad_path_is_one_line_and_exit_2(argv, messages, tmp_path):
    files = {"vw": tmp_path / "d.vw", "bad": tmp_path / "bad.vw", "csv": tmp_path / "d.csv",
             "out": tmp_path / "m.npz", "model": tmp_path / "model.npz"}
    files["vw"].write_text("1 | a\n-1 | b\n")
    files["bad"].write_text("1 | a\n-1 b\n")
    files["csv"].write_text("a,b,y\n0,0,0\n1,1,1\n")
    assert call(["train", files["vw"], "--n-features", "16", "-o", files["model"],
                 "--quiet"])[0] == 0
    user_error([a.format(**files) for a in argv], *messages)


def test_a_vw_model_goes_on_learning_and_trains_on_shards(tmp_path):
    paths = click_log().write_click_log(tmp_path, n_rows=300, hash_bits=10, per_row=6, seed=4)
    model, resumed = tmp_path / "m.npz", tmp_path / "r.npz"
    assert call(["train", paths["train.vw"], "--hash-bits", "10", "--set", "max_iter=1",
                 "--set", "shuffle=none", "-o", model, "--quiet"])[0] == 0
    code, out, err = call(["train", paths["train.vw"], "--resume", model, "--epochs", "1",
                           "-o", resumed, "--quiet"])
    assert code == 0 and out.startswith(f"resumed    {model}"), err
    assert load(resumed).n_iter_ == 2 and load(resumed).n_features_in_ == 1024
    for chunked in ([], ["--chunk-size", "50"]):
        user_error(["train", paths["train.vw"], "--resume", model, "--hash-bits", "12", "-o",
                    resumed, *chunked], "--hash-bits gives 4,096 features, but "
                   f"{model} has 1,024")
    code, out, err = call(["train", paths["train.vw"], "--hash-bits", "10", "--shards", "2",
                           "-o", resumed, "--quiet"])
    assert code == 0 and "shards     2 (threads)" in out, err
