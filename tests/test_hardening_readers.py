"""Readers, streaming and two parameters hardened: every malformed input is a
ValueError naming the file (and the line); the chunked readers accept exactly what
the whole-file readers accept. Each cause has an example test (it failed before
the fix) and a property test (hypothesis) generating its siblings."""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rosenblatt import KernelPerceptron, LinearUnit, Perceptron
from rosenblatt.datasets import ChunkedFile, load_csv, load_libsvm
from rosenblatt.streaming import fit_chunks

BOUNDED = {"max_examples": 80, "deadline": None, "derandomize": True,
           "suppress_health_check": [HealthCheck.function_scoped_fixture]}


def outcome(read):
    """("ok", value) or ("error", message) for a reader that may refuse."""
    try:
        return "ok", read()
    except ValueError as error:
        return "error", str(error)


def whole_and_chunked(path, size, whole):
    """Both readers' outcomes on ``path``, the chunks stacked into one X, y."""
    def chunked():
        blocks = list(ChunkedFile(path, size))
        X = [b.toarray() if sp.issparse(b) else b for b, _ in blocks]
        return np.vstack(X), np.concatenate([y for _, y in blocks])

    def read():
        X, y = whole(path)
        return (X.toarray() if sp.issparse(X) else X), y

    return outcome(read), outcome(chunked)


def assert_agree(path, first, second):
    assert first[0] == second[0], (first, second)
    if first[0] == "error":
        assert str(path) in first[1]
        assert first[1] == second[1]
    else:
        (X1, y1), (X2, y2) = first[1], second[1]
        np.testing.assert_array_equal(X1, X2)
        np.testing.assert_array_equal(y1, y2)
        assert y1.dtype == y2.dtype


# ----------------------------------------------------------------- CSV: overflow
def test_csv_overflowing_feature_is_refused_with_the_line(tmp_path):
    path = tmp_path / "data.csv"
    path.write_text("a,b,y\n1,2,0\n1e400,2,1\n")
    with pytest.raises(ValueError, match=r"data.csv, line 3: field 1 is '1e400', too large"):
        load_csv(path)
    with pytest.raises(ValueError, match=r"data.csv, line 3: field 1 is '1e400', too large"):
        ChunkedFile(path, 1)


def test_csv_overflowing_label_is_refused_with_the_line(tmp_path):
    path = tmp_path / "data.csv"
    path.write_text("a,y\n1,0\n2,-1e999\n")
    with pytest.raises(ValueError, match=r"data.csv: labels must be finite.*line 3"):
        load_csv(path)


@settings(**BOUNDED)
@given(mantissa=st.integers(1, 9), exponent=st.integers(309, 5000),
       sign=st.sampled_from(["", "-", "+"]), row=st.integers(0, 3), column=st.integers(0, 1))
def test_any_overflowing_csv_number_is_refused_with_its_line(tmp_path, mantissa, exponent,
                                                           sign, row, column):
    path = tmp_path / "data.csv"
    cells = [["1", "2"] for _ in range(4)]
    cells[row][column] = f"{sign}{mantissa}e{exponent}"
    path.write_text("a,b,y\n" + "".join(f"{a},{b},{k % 2}\n" for k, (a, b) in enumerate(cells)))
    for read in (load_csv, lambda p: list(ChunkedFile(p, 2))):
        with pytest.raises(ValueError, match=rf"data.csv, line {row + 2}: field "
                                             rf"{column + 1} .*too large"):
            read(path)


def test_csv_inf_and_nan_written_out_are_not_overflows(tmp_path):
    path = tmp_path / "data.csv"
    path.write_text("a,b,y\ninf,nan,0\n1,2,1\n")
    X, _ = load_csv(path)
    assert np.isinf(X[0, 0]) and np.isnan(X[0, 1])


# ----------------------------------------------------------------- CSV: byte-order mark
def test_a_byte_order_mark_is_not_part_of_the_first_name(tmp_path):
    path = tmp_path / "data.csv"
    path.write_bytes("a,b,y\n1,2,0\n3,4,1\n".encode("utf-8-sig"))
    X, y = load_csv(path, label="a")
    assert X.tolist() == [[2, 0], [4, 1]] and y.tolist() == [1, 3]
    assert [b.tolist() for b, _ in ChunkedFile(path, 1, label="a")] == [[[2, 0]], [[4, 1]]]


def test_a_byte_order_mark_does_not_make_the_first_data_line_a_header(tmp_path):
    path = tmp_path / "data.csv"
    path.write_bytes("1,2,0\n3,4,1\n".encode("utf-8-sig"))
    assert load_csv(path)[0].shape == (2, 2)
    assert ChunkedFile(path, 1).n_rows == 2


@settings(**BOUNDED)
@given(names=st.lists(st.text("abcxyz_ ", min_size=1, max_size=6).map(str.strip)
                      .filter(bool), min_size=2, max_size=4, unique=True),
       separator=st.sampled_from([",", ";", "\t"]), size=st.integers(1, 3))
def test_with_or_without_a_byte_order_mark_the_same_names_and_rows(tmp_path, names, separator,
                                                                   size):
    rows = [separator.join(str(k + j) for j in range(len(names))) for k in range(3)]
    text = separator.join(names) + "\n" + "\n".join(rows) + "\n"
    plain, marked = tmp_path / "plain.csv", tmp_path / "marked.csv"
    plain.write_text(text, encoding="utf-8")
    marked.write_text(text, encoding="utf-8-sig")
    for label in (names[0], 0, -1):
        X, y = load_csv(plain, label=label)
        X2, y2 = load_csv(marked, label=label)
        np.testing.assert_array_equal(X, X2)
        np.testing.assert_array_equal(y, y2)
        blocks = list(ChunkedFile(marked, size, label=label))
        np.testing.assert_array_equal(np.vstack([b for b, _ in blocks]), X)


# ----------------------------------------------------------------- label index
def test_a_non_integer_label_index_is_refused(tmp_path):
    path = tmp_path / "data.csv"
    path.write_text("a,b,y\n1,2,0\n3,4,1\n")
    with pytest.raises(ValueError, match=r"data.csv: the label column must be given as a "
                                         r"whole number.*got 1.7"):
        load_csv(path, label=1.7)
    with pytest.raises(ValueError, match=r"data.csv: the label column must be"):
        ChunkedFile(path, 1, label=1.7)


@settings(**BOUNDED)
@given(label=st.one_of(st.floats(allow_nan=True), st.booleans(), st.just(np.float64(1.0))),
       kind=st.sampled_from(["csv", "npy"]))
def test_any_label_index_but_a_whole_number_is_refused(tmp_path, label, kind):
    path = tmp_path / f"data.{kind}"
    if kind == "csv":
        path.write_text("a,b,y\n1,2,0\n3,4,1\n")
    else:
        np.save(path, np.array([[1.0, 2, 0], [3, 4, 1]]))
    from rosenblatt.datasets import load_data

    for read in (lambda: load_data(path, label=label), lambda: ChunkedFile(path, 1, label=label)):
        with pytest.raises(ValueError, match=rf"data.{kind}: the label column must be"):
            read()


def test_numpy_integer_label_indices_are_whole_numbers(tmp_path):
    path = tmp_path / "data.csv"
    path.write_text("a,b,y\n1,2,0\n3,4,1\n")
    assert load_csv(path, label=np.int64(0))[1].tolist() == [1, 3]


# ----------------------------------------------------------------- streaming parameters
def small_npy(tmp_path):
    path = tmp_path / "data.npy"
    np.save(path, np.array([[1.0, 2, 0], [3, 4, 1]]))
    return path


def assert_chunk_size_refused(tmp_path, size):
    with pytest.raises(ValueError, match=r"data.npy: chunk_size must be a positive number"):
        ChunkedFile(small_npy(tmp_path), size)


@pytest.mark.parametrize("size", [None, 1.7, 2.0, "3", True, 0, -1])
def test_a_chunk_size_that_is_not_a_positive_whole_number_is_refused(tmp_path, size):
    assert_chunk_size_refused(tmp_path, size)


@settings(**BOUNDED)
@given(size=st.one_of(st.floats(allow_nan=True), st.integers(max_value=0), st.none(),
                      st.text(max_size=3), st.booleans()))
def test_no_chunk_size_but_a_positive_whole_number_is_taken(tmp_path, size):
    assert_chunk_size_refused(tmp_path, size)


@settings(**BOUNDED)
@given(n_epochs=st.one_of(st.integers(max_value=0), st.floats(allow_nan=True),
                          st.booleans()))
def test_no_number_of_epochs_but_a_positive_whole_number_is_taken(tmp_path, n_epochs):
    with pytest.raises(ValueError, match=r"n_epochs must be a whole number.*1 or more"):
        fit_chunks(Perceptron(), ChunkedFile(small_npy(tmp_path), 1), n_epochs=n_epochs)


def test_no_number_of_epochs_is_the_models_max_iter_and_its_stopping_rule(tmp_path):
    # n_epochs=None (the default since fit_chunks runs the training loop): up to max_iter
    # epochs, stopped by the model's own rule, as fit stops
    chunks = ChunkedFile(small_npy(tmp_path), 1)
    model = fit_chunks(Perceptron(shuffle="none", max_iter=50), chunks, n_epochs=None)
    fitted = Perceptron(shuffle="none", max_iter=50).fit([[1.0, 2], [3, 4]], [0, 1])
    assert model.n_iter_ == fitted.n_iter_ < 50
    assert model.stop_reason_ == fitted.stop_reason_ == "mistake_free"


def test_a_training_error_names_the_file_and_the_lines(tmp_path):
    path = tmp_path / "data.csv"
    path.write_text("a,y\n1,0\n2,1\nnan,1\n4,0\n")
    with pytest.raises(ValueError, match=r"data.csv, lines 4-5 \(block 2, epoch 1\): .*NaN"):
        fit_chunks(Perceptron(), ChunkedFile(path, 2))


# ----------------------------------------------------------------- .npy that is not one
@pytest.mark.parametrize("raw", [b"", b"not numpy at all", b"\x93NUMPY\x01\x00garbage"])
def test_a_npy_file_that_is_not_one_is_named(tmp_path, raw):
    path = tmp_path / "data.npy"
    path.write_bytes(raw)
    with pytest.raises(ValueError, match=r"data.npy: not a readable NumPy file"):
        ChunkedFile(path, 1)


@settings(**BOUNDED)
@given(raw=st.binary(max_size=120), keep=st.integers(0, 128))
def test_any_damaged_npy_is_refused_naming_it_or_read_as_whole(tmp_path, raw, keep):
    good = tmp_path / "good.npy"
    np.save(good, np.array([[1.0, 2, 0], [3, 4, 1]]))
    path = tmp_path / "data.npy"
    path.write_bytes(good.read_bytes()[:keep] + raw)
    from rosenblatt.datasets import load_numpy

    whole, chunked = outcome(lambda: load_numpy(path)), outcome(lambda: list(ChunkedFile(path, 1)))
    if chunked[0] == "error":
        assert "data.npy" in chunked[1]
    if whole[0] == "error":
        assert "data.npy" in whole[1]


# ----------------------------------------------------------------- LIBSVM in chunks = whole
def test_libsvm_query_ids_are_read_in_chunks_as_whole(tmp_path):
    path = tmp_path / "data.svm"
    path.write_text("1 qid:3 1:1\n0 qid:3 2:1\n")
    assert_agree(path, *whole_and_chunked(path, 1, load_libsvm))


def test_a_libsvm_file_without_features_reads_as_whole(tmp_path):
    path = tmp_path / "data.svm"
    path.write_text("1\n0\n")
    assert_agree(path, *whole_and_chunked(path, 1, load_libsvm))


def test_libsvm_errors_in_chunks_are_those_of_the_whole_file(tmp_path):
    path = tmp_path / "data.svm"
    path.write_text("1 1:1\n0 2:1\n1 3:x\n")
    first, second = whole_and_chunked(path, 2, load_libsvm)
    assert first == second
    assert first[1].endswith("data.svm, line 3: '3:x' is not 'index:value'.")


def test_libsvm_too_wide_names_the_line_in_both_readers(tmp_path):
    path = tmp_path / "data.svm"
    path.write_text("1 1:1\n0 2:1\n1 7:1\n")
    message = r"data.svm, line 3: its rows name features beyond the 3 expected"
    with pytest.raises(ValueError, match=message):
        load_libsvm(path, n_features=3)
    with pytest.raises(ValueError, match=message):
        ChunkedFile(path, 1, n_features=3)


NUMBERS = st.sampled_from(["1", "-1", "0", "0.5", "2", "1e400", "-1e400", "nan", "inf", "x",
                           "", "1e-400", "+3", "1_0", "0x1", " "])
INDICES = st.sampled_from(["0", "1", "2", "3", "7", "-1", "x", "", "2147483648", "1.5", "+2",
                           "qid"])
NOISE = st.sampled_from(["", "# comment", "   ", "#", "\t", "\ufeff", "\x00", "\x0c", "\r",
                         "1", ":", "1 :", "1 1:", "qid:1"])


@st.composite
def libsvm_texts(draw):
    """Near-valid LIBSVM: bad numbers and indices, overflows, BOMs, NUL and stray
    fields, blank and comment lines anywhere (so at block borders too)."""
    lines = []
    for _ in range(draw(st.integers(1, 8))):
        if draw(st.booleans()):
            indices = sorted(draw(st.sets(st.integers(0, 5), max_size=3)))
            pairs = [f"{j}:{draw(st.sampled_from(['1', '-2', '0.5']))}" for j in indices]
            label = draw(st.sampled_from(["1", "-1", "2", "0.5"]))
        else:
            pairs = [f"{draw(INDICES)}:{draw(NUMBERS)}"
                     for _ in range(draw(st.integers(0, 3)))]
            label = draw(NUMBERS)
        if draw(st.integers(0, 5)) == 0:
            pairs.insert(0, f"qid:{draw(st.integers(0, 3))}")
        comment = draw(st.sampled_from(["", " # note", "#x"]))
        lines.append(" ".join([label, *pairs]) + comment)
        lines.extend(draw(st.lists(NOISE, max_size=2)))
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    text = ending.join(lines) + draw(st.sampled_from(["", ending]))
    return draw(st.sampled_from(["", "\ufeff"])) + text


@settings(**{**BOUNDED, "max_examples": 300})
@given(text=libsvm_texts(), size=st.integers(1, 4))
def test_near_valid_libsvm_is_read_alike_whole_and_in_chunks(tmp_path, text, size):
    path = tmp_path / "data.svm"
    path.write_bytes(text.encode("utf-8"))
    first, second = whole_and_chunked(path, size, load_libsvm)
    assert_agree(path, first, second)


@settings(**BOUNDED)
@given(raw=st.binary(max_size=120), size=st.integers(1, 4))
def test_any_bytes_are_read_alike_as_libsvm_whole_and_in_chunks(tmp_path, raw, size):
    path = tmp_path / "data.svm"
    path.write_bytes(raw)
    assert_agree(path, *whole_and_chunked(path, size, load_libsvm))


# ----------------------------------------------------------------- CSV in chunks = whole
def test_csv_labels_that_change_type_between_chunks_are_typed_over_the_file(tmp_path):
    path = tmp_path / "data.csv"
    path.write_text("a,y\n1,1\n2,1.0\n3,cat\n")
    first, second = whole_and_chunked(path, 1, load_csv)
    assert_agree(path, first, second)
    assert first[1][1].tolist() == ["1", "1.0", "cat"]
    assert ChunkedFile(path, 1).classes.tolist() == ["1", "1.0", "cat"]


CELLS = st.sampled_from(["1", "-2", "0.5", "1e400", "-1e999", "nan", "inf", "x", "", " 3 ",
                         '"4"', '"5', "1,5", "1;2", "\ufeff", "\x00", "1e-400", "y"])


@st.composite
def csv_texts(draw):
    """Near-valid CSV: missing and extra fields, bad and overflowing numbers, quotes,
    BOMs, blank lines anywhere, numeric and text labels mixed between blocks."""
    width = draw(st.integers(2, 3))
    lines = [",".join("abc"[:width])] if draw(st.booleans()) else []
    for _ in range(draw(st.integers(1, 8))):
        if draw(st.integers(0, 2)):
            cells = [draw(st.sampled_from(["1", "-2", "0.5"])) for _ in range(width - 1)]
            cells.append(draw(st.sampled_from(["0", "1", "1.0", "cat", "2"])))
        else:
            cells = [draw(CELLS) for _ in range(draw(st.integers(width - 1, width + 1)))]
        lines.append(",".join(cells))
        lines.extend(draw(st.lists(st.sampled_from(["", " ", ",,"]), max_size=1)))
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    return draw(st.sampled_from(["", "\ufeff"])) + ending.join(lines) + ending


@settings(**{**BOUNDED, "max_examples": 300})
@given(text=csv_texts(), size=st.integers(1, 4))
def test_near_valid_csv_is_read_alike_whole_and_in_chunks(tmp_path, text, size):
    path = tmp_path / "data.csv"
    path.write_bytes(text.encode("utf-8"))
    first, second = whole_and_chunked(path, size, load_csv)
    assert_agree(path, first, second)
    if first[0] == "ok":
        assert np.isfinite(first[1][0]).all() or "nan" in text or "inf" in text


# ----------------------------------------------------------------- kernel names
def test_a_misspelt_kernel_name_is_a_value_error_with_a_suggestion():
    X, y = [[0.0, 1], [1, 0]], [0, 1]
    with pytest.raises(ValueError, match=r"kernel.*'linear', 'poly', 'rbf'.*got 'rbff'.*"
                                         r"Did you mean kernel='rbf'"):
        KernelPerceptron(kernel="rbff").fit(X, y)
    model = KernelPerceptron().fit(X, y)
    model.kernel = "sigmoid"  # a kernel scikit-learn knows and this model does not offer
    with pytest.raises(ValueError, match=r"'kernel' parameter of KernelPerceptron.*'sigmoid'"):
        model.predict(X)


@settings(**BOUNDED)
@given(name=st.text(max_size=8).filter(lambda name: name not in ("linear", "poly", "rbf")))
def test_no_kernel_name_but_the_three_is_taken(name):
    import sklearn

    for skip in (False, True):
        with sklearn.config_context(skip_parameter_validation=skip):
            with pytest.raises(ValueError, match=r"'kernel' parameter of KernelPerceptron "
                                                 r"must be one of"):
                KernelPerceptron(kernel=name).fit([[0.0, 1], [1, 0]], [0, 1])


# ----------------------------------------------------------------- LinearUnit on zero rows
@pytest.mark.parametrize("solver", ["batch", "sgd"])
@pytest.mark.parametrize("sparse", [False, True])
def test_linear_unit_on_all_zero_features_without_intercept_says_why(solver, sparse):
    X = np.zeros((4, 3))
    with pytest.raises(ValueError, match=r"every feature of every row .* is 0 and "
                                         r"fit_intercept=False.*fit_intercept=True"):
        LinearUnit(solver=solver, fit_intercept=False).fit(sp.csr_matrix(X) if sparse else X,
                                                           [0, 1, 1, 0])


@settings(**BOUNDED)
@given(n_rows=st.integers(2, 6), n_features=st.integers(1, 4),
       solver=st.sampled_from(["batch", "sgd"]), zero_weighted=st.booleans())
def test_linear_unit_zero_rows_are_refused_and_any_other_rows_get_a_finite_eta(
        n_rows, n_features, solver, zero_weighted):
    y = np.arange(n_rows) % 2
    X = np.zeros((n_rows, n_features))
    weights = None
    if zero_weighted:  # the only non-zero row has weight 0: still nothing to learn
        X[0] = 1.0
        weights = np.r_[0.0, np.ones(n_rows - 1)]
    with pytest.raises(ValueError, match=r"cannot choose eta='auto'"):
        LinearUnit(solver=solver, fit_intercept=False).fit(X, y, sample_weight=weights)
    # rows in the null space of the start vector (x = (1, -1, ...)): an eta, no ArpackError
    X = np.tile(np.r_[1.0, -1.0, np.zeros(n_features - 1)], (n_rows, 1)) * (1 + np.arange(
        n_rows))[:, None]
    model = LinearUnit(solver=solver, fit_intercept=False, max_iter=3, tol=None).fit(X, y)
    assert np.isfinite(model.eta_) and model.eta_ > 0
