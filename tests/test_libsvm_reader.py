"""The compiled LIBSVM reader against scikit-learn's ``load_svmlight_file``: the same
matrix bit for bit on every file scikit-learn reads, a ValueError naming the file and
line on every file it refuses."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_svmlight_file

from rosenblatt._kernels import _libsvm
from rosenblatt.datasets import ChunkedFile, load_libsvm
from rosenblatt.datasets._loaders import numeric_labels, read_libsvm

SETTINGS = {"max_examples": 300, "deadline": None, "derandomize": True,
            "suppress_health_check": [HealthCheck.function_scoped_fixture]}

#: numbers as files write them, the fast path's and the unusual ones
NUMBERS = st.one_of(
    st.integers(-10**6, 10**6).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.floats(allow_nan=False, allow_infinity=False, width=32).map(lambda v: f"{v:.7g}"),
    st.builds(lambda sign, whole, frac, exp: f"{sign}{whole}.{frac}{exp}",
              st.sampled_from(["", "-", "+"]), st.sampled_from(["", "0", "7", "123456789"]),
              st.sampled_from(["", "5", "000123", "12345678901234567890"]),
              st.sampled_from(["", "e5", "E-3", "e+22", "e-23", "e308", "e400", "e-400"])),
    st.sampled_from(["0", "-0", "0.0", "nan", "inf", "-inf", "NaN", "1_0", ".", "1e", "e3",
                     "", "0x1p3", "1.5.2", "٣"]),
    # the value "1" takes a path of its own (binary features): it and its neighbours
    st.sampled_from(["1", "1", "1", "1.0", "10", "1e0", "1.", "01", "+1", "-1", "11", "1x",
                     "1#", "1\0", "1\r", "1e", "1:1"]),
)
INDEX_TEXTS = st.one_of(st.integers(0, 40).map(str),
                        st.sampled_from(["007", "+3", "-1", "2147483647", "2147483648",
                                         "99999999999", "1_2", "a", ""]))
SPACES = st.sampled_from([" ", "  ", "\t", " \t ", "\x0b", "\x0c"])


@st.composite
def lines(draw):
    """One line: mostly well formed (increasing indices, qid, comments), sometimes
    not (any index text, any order, a missing colon, a NUL byte)."""
    kind = draw(st.sampled_from(["good"] * 6 + ["wild", "blank", "comment"]))
    if kind == "blank":
        return draw(st.sampled_from(["", " ", "\t", "\r"]))
    if kind == "comment":
        return draw(st.sampled_from(["# just a comment", "#", "  # x:1 1:2"]))
    words = [draw(st.one_of(st.sampled_from(["1", "-1", "+1", "0", "2", "1.5", "-0", "1e0",
                                             ".5", "5."]), NUMBERS))]
    if draw(st.integers(0, 5)) == 0:
        words.append(draw(st.sampled_from(["qid:3", "qid:x", "qid", "qidfoo:1"])))
    if kind == "good":
        indices = sorted(draw(st.sets(st.integers(0, 30), max_size=8)))
        words += [f"{j}:{draw(NUMBERS)}" for j in indices]
    else:
        for _ in range(draw(st.integers(0, 5))):
            words.append(draw(st.sampled_from(["{}:{}", "{}{}", "{}::{}", "{}:{}\0"]))
                         .format(draw(INDEX_TEXTS), draw(NUMBERS)))
    text = "".join(w + draw(SPACES) for w in words[:-1]) + words[-1]
    return draw(st.sampled_from(["", " "])) + text + draw(st.sampled_from(
        ["", " ", " # comment", "# 1:2", " #\0"]))


@st.composite
def texts(draw):
    body = draw(st.lists(lines(), min_size=0, max_size=10))
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    return (ending.join(body) + draw(st.sampled_from(["", ending]))).encode("utf-8")


def same_matrix(X, A):
    assert type(X) is type(A)
    assert X.shape == A.shape
    # int32 where the values fit, as scipy chooses (scikit-learn's loader gives int64)
    index = np.int32 if A.indptr[-1] < 2**31 else np.int64
    assert X.indices.dtype == np.int32 and X.indptr.dtype == index
    assert X.has_canonical_format and A.has_canonical_format
    np.testing.assert_array_equal(X.indptr, A.indptr)
    np.testing.assert_array_equal(X.indices, A.indices)
    assert X.data.dtype == A.data.dtype == np.float64
    # bit for bit: -0.0 and 0.0 differ, NaN payloads too
    np.testing.assert_array_equal(X.data.view(np.int64), A.data.view(np.int64))


@settings(**SETTINGS)
@given(raw=texts(), zero_based=st.sampled_from(["auto", True, False]),
       width=st.sampled_from([None, None, 5, 40]))
def test_load_libsvm_equals_scikit_learn(raw, zero_based, width, tmp_path):
    path = tmp_path / "d.svm"
    path.write_bytes(raw)
    try:
        A, b = load_svmlight_file(str(path), zero_based=zero_based, n_features=width)
    except (ValueError, RuntimeError, OverflowError) as refused:
        with pytest.raises(ValueError, match=r"d\.svm") as error:
            load_libsvm(path, zero_based=zero_based, n_features=width)
        if "n_features was set" not in str(refused):
            assert ", line " in str(error.value)
        return
    if A.shape[0] == 0:
        with pytest.raises(ValueError, match="no data lines"):
            load_libsvm(path, zero_based=zero_based, n_features=width)
        return
    if not np.isfinite(b).all():
        with pytest.raises(ValueError, match=r"d\.svm: labels must be finite numbers; .* line"):
            load_libsvm(path, zero_based=zero_based, n_features=width)
        return
    X, y = load_libsvm(path, zero_based=zero_based, n_features=width)
    same_matrix(X, A)
    expected = numeric_labels(b)
    assert y.dtype == expected.dtype
    np.testing.assert_array_equal(y, expected)


@settings(**SETTINGS)
@given(raw=texts(), zero_based=st.booleans())
def test_read_libsvm_is_scikit_learns_loop(raw, zero_based):
    """The arrays before the width is decided: indices as written (zero_based=True), the
    labels (NaN and inf too), row by row."""
    import io

    try:
        A, b = load_svmlight_file(io.BytesIO(raw), zero_based=True)
    except (ValueError, RuntimeError, OverflowError):
        with pytest.raises(ValueError, match=r"^here, line \d+: "):
            read_libsvm(raw, True, "here")
        return
    indices, data, indptr, labels, starts, numbers = read_libsvm(raw, True, "here")
    np.testing.assert_array_equal(indptr, A.indptr)
    np.testing.assert_array_equal(indices, A.indices)
    np.testing.assert_array_equal(data.view(np.int64), A.data.view(np.int64))
    np.testing.assert_array_equal(labels.view(np.int64), b.view(np.int64))
    # each row's start byte and line: the line holds the row
    text_lines = raw.split(b"\n")
    for start, number in zip(starts.tolist(), numbers.tolist()):
        assert raw[start:].split(b"\n")[0] == text_lines[number - 1]


def parse(raw, zero_based=True):
    buf = np.frombuffer(raw, dtype=np.uint8)
    n_lines, n_words = _libsvm.libsvm_capacity(buf)
    out = (np.zeros(n_lines + 1, np.int64), np.empty(n_words, np.int32), np.empty(n_words),
           np.empty(n_lines), np.empty(n_lines, np.int64), np.empty(n_lines, np.int64),
           np.empty(n_lines, np.int64))
    return _libsvm.libsvm_parse(buf, zero_based, 0, _libsvm.POWERS, *out)[:3], out


def test_ordinary_lines_take_the_fast_path_and_unusual_ones_do_not():
    counts, _ = parse(b"+1 3:1 11:0.25 14:1e-3 # c\n\n-1 qid:7 1:-2.5E2\t5:0\n# x\n")
    assert counts == (2, 5, 0)
    for line in (b"nan 1:1", b"1 1:inf", b"1 3:1 2:1", b"1 1:1_0", b"1 +1:2", b"1 1:2 1:3",
                 b"1 2147483648:1", b"1 1:12345678901234567890", b"1 1\x002:3", b"1 qid 1:2",
                 b"1 1:0x10"):
        counts, _ = parse(line + b"\n2 1:1\n")
        assert counts == (2, 1, 1), line
    counts, _ = parse(b"1 0:1\n", zero_based=False)
    assert counts[2] == 1


BINARY_LINES = [b"1 1:1", b"1 1:1 ", b"1 1:1\t", b"1 1:1.0", b"1 1:10", b"1 1:1e0",
                b"1 1:1#comment", b"1 1:1 #comment", b"1 2:1 3:1# 4:1", b"1 1:1\r",
                b"1 1:1\x0b2:1", b"1 1:1.", b"1 1:01", b"1 1:+1", b"1 1:11 2:1", b"1 1:1x",
                b"1 1:1\x00", b"1 1:1\x00#c", b"1 1:1:1", b"1 1:", b"1 qid:1 1:1",
                b"-1 5:1 7:1 9:1"]


@pytest.mark.parametrize("line", BINARY_LINES)
@pytest.mark.parametrize("ending", [b"", b"\n", b"\r\n"])
def test_the_value_one_reads_as_scikit_learn_reads_it(line, ending, tmp_path):
    """The fast path of the value ``1`` (``:1`` then a blank, a comment or the line's
    end) against scikit-learn, and its neighbours that must not take it."""
    path = tmp_path / "d.svm"
    path.write_bytes(b"-1 2:0.5\n" + line + ending)
    try:
        A, b = load_svmlight_file(str(path), zero_based=False)
    except (ValueError, RuntimeError, OverflowError):
        with pytest.raises(ValueError, match=r"d\.svm, line 2: "):
            load_libsvm(path, zero_based=False)
        return
    X, y = load_libsvm(path, zero_based=False)
    same_matrix(X, A)
    np.testing.assert_array_equal(y, numeric_labels(b))


def test_the_value_one_is_the_fast_path():
    counts, (_, indices, data, *_) = parse(b"1 1:1 3:1#c\n-1 2:1 \n1 4:1\r\n1 5:1\t6:1")
    assert counts == (4, 6, 0)
    assert data[:6].tolist() == [1.0] * 6 and indices[:6].tolist() == [1, 3, 2, 4, 5, 6]
    counts, (_, _, data, *_) = parse(b"1 1:10 2:1.0 3:1e0 4:1.\n")
    assert counts == (1, 4, 0) and data[:4].tolist() == [10.0, 1.0, 1.0, 1.0]
    for line in (b"1 1:1x", b"1 1:1\x00", b"1 1:1:1", b"1 1:"):
        counts, _ = parse(line + b"\n")
        assert counts[2] == 1, line  # unusual: scikit-learn's parser reads the line


@pytest.mark.parametrize("line, reason", [
    (b"1 3:1 2:1", "feature indices must be increasing"),
    (b"1 0:1", "feature index 0, but the file is read with indices from 1"),
    (b"1 -3:1", "feature indices must be increasing and not negative"),
    (b"1 2147483648:1", "too large; LIBSVM indices must be below 2\\*\\*31"),
    (b"x 1:1", "label 'x' is not a number"),
    (b"1 1:y", "'1:y' is not 'index:value'"),
])
def test_a_bad_line_is_refused_with_its_file_and_line(line, reason, tmp_path):
    path = tmp_path / "bad.svm"
    path.write_bytes(b"1 1:1\n\n# c\n-1 2:1\n" + line + b"\n1 1:1\n")
    with pytest.raises(ValueError, match=rf"bad\.svm, line 5: .*{reason}"):
        load_libsvm(path, zero_based=False if b" 0:" in line else "auto")


def test_values_scikit_learn_keeps_are_kept(tmp_path):
    """NaN and infinite feature values, explicit zeros: scikit-learn stores them; so does
    the reader (a model's validation refuses NaN later, with its own message)."""
    path = tmp_path / "d.svm"
    path.write_bytes(b"1 1:nan 2:0 3:-0 4:inf 5:1e400\n")
    X, _ = load_libsvm(path)
    A, _ = load_svmlight_file(str(path))
    same_matrix(X, A)


def test_a_nan_label_is_refused_with_its_line(tmp_path):
    path = tmp_path / "d.svm"
    path.write_bytes(b"1 1:1\n\nnan 2:1\n")
    with pytest.raises(ValueError, match=r"d\.svm: labels must be finite numbers; found nan "
                                         r"on line 3"):
        load_libsvm(path)


def test_chunked_file_reads_what_load_libsvm_reads(tmp_path):
    rng = np.random.default_rng(0)
    rows = []
    for k in range(257):
        indices = np.sort(rng.choice(50, size=rng.integers(0, 8), replace=False)) + 1
        rows.append(" ".join([str(rng.choice([-1, 1]))]
                             + [f"{j}:{rng.normal():.17g}" for j in indices]))
        if k % 17 == 0:
            rows.append("# a comment")
    path = tmp_path / "d.svm"
    path.write_text("\n".join(rows) + "\n")
    X, y = load_libsvm(path)
    for size in (1, 10, 64, 1000):
        chunks = ChunkedFile(path, size)
        assert chunks.n_features == X.shape[1] and chunks.n_rows == X.shape[0]
        blocks = list(chunks)
        np.testing.assert_array_equal(np.concatenate([b.data for b, _ in blocks]), X.data)
        np.testing.assert_array_equal(np.concatenate([b.indices for b, _ in blocks]),
                                      X.indices)
        np.testing.assert_array_equal(np.concatenate([t for _, t in blocks]), y)
        assert chunks.n_values == X.nnz


@pytest.mark.parametrize("options, message", [
    ({"n_features": 0}, "'n_features' parameter of load_svmlight_file must be an int"),
    ({"zero_based": "x"}, "'zero_based' parameter of load_svmlight_file must be"),
])
def test_options_it_does_not_take_go_to_scikit_learn(options, message, tmp_path):
    path = tmp_path / "d.svm"
    path.write_bytes(b"1 1:1\n-1 3:2\n")
    with pytest.raises(ValueError, match=rf"d\.svm: The {message}"):
        load_libsvm(path, **options)
    X, _ = load_libsvm(path, zero_based=np.True_)  # numpy's bool: scikit-learn's path
    assert X.shape == (2, 4)


@pytest.mark.parametrize("line", [b"1 3:1 2:1", b"1 1:y", b"nan 1:1"])
def test_chunked_file_refuses_a_bad_line_as_load_libsvm_does(line, tmp_path):
    path = tmp_path / "bad.svm"
    path.write_bytes(b"1 1:1\n" * 40 + b"\n" + line + b"\n" + b"-1 2:1\n" * 5)
    with pytest.raises(ValueError) as whole:
        load_libsvm(path)
    assert "bad.svm" in str(whole.value) and "42" in str(whole.value)
    for size in (1, 7, 100):
        with pytest.raises(ValueError) as chunked:
            ChunkedFile(path, size)
        assert str(chunked.value) == str(whole.value)


def test_chunked_file_scans_in_pieces_of_whole_lines(tmp_path, monkeypatch):
    """The opening pass reads the file in pieces: rows, lines and blocks come out the same
    when a piece boundary falls inside a line."""
    path = tmp_path / "d.svm"
    path.write_bytes(b"".join(b"%d 1:%d 7:0.5 # c\n\n" % (k % 3, k + 1) for k in range(50)))
    whole = ChunkedFile(path, 4)
    monkeypatch.setattr(ChunkedFile, "_SCAN_BYTES", 13)
    pieces = ChunkedFile(path, 4)
    assert pieces._starts == whole._starts and pieces._where == whole._where
    assert pieces._where[1] == (9, 15) and pieces.n_rows == 50 and pieces.n_features == 7
    for (a, b), (c, d) in zip(pieces, whole):
        np.testing.assert_array_equal(a.toarray(), c.toarray())
        np.testing.assert_array_equal(b, d)


def test_read_libsvm_takes_a_view_and_counts_the_newlines():
    """The pass over pieces hands the parser a memoryview (no copy of the piece) and
    takes the newlines it counted; a slow line (read by scikit-learn's parser) too."""
    raw = b"# c\n1 1:1 3:0.5\n\n-1 2:1e400 4:1\n1 qid:2 5:1_0\n"
    expected = read_libsvm(raw, True, "here")
    got = read_libsvm(memoryview(raw)[:len(raw)], True, "here", with_newlines=True)
    assert got[-1] == raw.count(b"\n") == 5
    for a, b in zip(got[:-1], expected):
        np.testing.assert_array_equal(a, b)


@settings(**{**SETTINGS, "max_examples": 150})
@given(raw=texts(), zero_based=st.sampled_from(["auto", True, False]),
       piece=st.sampled_from([1, 2, 7, 64]))
def test_load_libsvm_in_small_pieces_equals_scikit_learn(raw, zero_based, piece, tmp_path):
    """load_libsvm parses a file in pieces of whole lines into arrays that grow: pieces
    of a few bytes (lines longer than the buffer, a slow line in some pieces and not
    in others) read as scikit-learn reads the whole file."""
    from rosenblatt.datasets import _loaders

    path = tmp_path / "d.svm"
    path.write_bytes(raw)
    try:
        A, b = load_svmlight_file(str(path), zero_based=zero_based)
    except (ValueError, RuntimeError, OverflowError):
        with pytest.raises(ValueError, match=r"d\.svm") as whole:
            load_libsvm(path, zero_based=zero_based)
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(_loaders, "_PIECE_BYTES", piece)
            with pytest.raises(ValueError, match=r"d\.svm") as pieces:
                load_libsvm(path, zero_based=zero_based)
        assert str(pieces.value) == str(whole.value)  # the same line named
        return
    if A.shape[0] == 0 or not np.isfinite(b).all():
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_loaders, "_PIECE_BYTES", piece)
        X, y = load_libsvm(path, zero_based=zero_based)
    same_matrix(X, A)
    np.testing.assert_array_equal(y, numeric_labels(b))


def test_small_pages_gives_numpy_its_setting_back():
    """The parsers' arrays are allocated without NumPy's huge-page advice; NumPy's
    setting is back once the last of overlapping users (threads) has left."""
    import threading

    from rosenblatt.datasets._loaders import small_pages

    switch = getattr(np._core.multiarray, "_set_madvise_hugepage", None)
    if switch is None:
        pytest.skip("this NumPy has no huge-page switch")
    before = switch(True)
    try:
        entered, leave = threading.Barrier(3), threading.Event()

        def inside():
            with small_pages():
                entered.wait()
                leave.wait()

        threads = [threading.Thread(target=inside) for _ in range(2)]
        for thread in threads:
            thread.start()
        entered.wait()
        assert switch(False) is False  # off while they are inside
        leave.set()
        for thread in threads:
            thread.join()
        assert switch(True) is True
    finally:
        switch(before)
