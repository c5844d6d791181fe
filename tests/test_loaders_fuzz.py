"""Property-based checks of the loaders: reading a file in chunks of any size gives
the rows of reading it whole, and any bytes give rows or a ValueError, nothing else."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rosenblatt.datasets import ChunkedFile, load_csv, load_data, load_libsvm, load_numpy

BOUNDED = {"max_examples": 60, "deadline": None, "derandomize": True,
           "suppress_health_check": [HealthCheck.function_scoped_fixture]}
LABELS = st.sampled_from(["-1", "1", "2", "0.5"])


@st.composite
def libsvm_texts(draw):
    """LIBSVM lines with blank lines, comments and either line ending between them."""
    lines = []
    for _ in range(draw(st.integers(1, 12))):
        indices = sorted(draw(st.sets(st.integers(1, 6), max_size=4)))
        pairs = " ".join(f"{j}:{draw(st.integers(-3, 3))}" for j in indices)
        comment = draw(st.sampled_from(["", " # note"]))
        lines.append(f"{draw(LABELS)} {pairs}{comment}".strip())
        lines.extend(draw(st.lists(st.sampled_from(["", "# comment", "   "]), max_size=2)))
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    return ending.join(lines) + draw(st.sampled_from(["", ending]))


@settings(**BOUNDED)
@given(text=libsvm_texts(), size=st.integers(1, 13))
def test_libsvm_in_chunks_equals_the_whole_file(text, size, tmp_path):
    path = tmp_path / "d.svm"
    path.write_bytes(text.encode())
    X, y = load_libsvm(path)
    chunks = ChunkedFile(path, size, n_features=X.shape[1])
    blocks = list(chunks)
    assert all(len(block_y) <= size for _, block_y in blocks)
    np.testing.assert_array_equal(np.vstack([b.toarray() for b, _ in blocks]), X.toarray())
    together = np.concatenate([block_y for _, block_y in blocks])
    np.testing.assert_array_equal(together, y)
    assert together.dtype == y.dtype == chunks.classes.dtype


@settings(**BOUNDED)
@given(rows=st.lists(st.tuples(st.integers(-9, 9), st.integers(-9, 9), LABELS), min_size=1,
                     max_size=15),
       size=st.integers(1, 16), separator=st.sampled_from([",", ";", "\t"]),
       ending=st.sampled_from(["\n", "\r\n"]))
def test_csv_in_chunks_equals_the_whole_file(rows, size, separator, ending, tmp_path):
    path = tmp_path / "d.csv"
    lines = [separator.join(["a", "b", "y"])] + [separator.join(map(str, row)) for row in rows]
    path.write_bytes((ending.join(lines) + ending).encode())
    X, y = load_csv(path)
    blocks = list(ChunkedFile(path, size))
    np.testing.assert_array_equal(np.vstack([b for b, _ in blocks]), X)
    together = np.concatenate([block_y for _, block_y in blocks])
    np.testing.assert_array_equal(together, y)
    assert together.dtype == y.dtype


@settings(**BOUNDED)
@given(matrix=st.lists(st.lists(st.integers(-5, 5), min_size=3, max_size=3), min_size=1,
                       max_size=12),
       size=st.integers(1, 13), label=st.integers(-3, 2))
def test_npy_in_chunks_equals_the_whole_file(matrix, size, label, tmp_path):
    path = tmp_path / "d.npy"
    np.save(path, np.array(matrix, dtype=np.float64))
    X, y = load_numpy(path, label=label)
    blocks = list(ChunkedFile(path, size, label=label))
    np.testing.assert_array_equal(np.vstack([b for b, _ in blocks]), X)
    together = np.concatenate([block_y for _, block_y in blocks])
    np.testing.assert_array_equal(together, y)
    assert together.dtype == y.dtype == np.int64  # whole numbers, as CSV and LIBSVM give


@settings(**BOUNDED)
@given(raw=st.binary(max_size=200), suffix=st.sampled_from([".csv", ".svm", ".npy"]))
def test_any_bytes_give_rows_or_a_value_error(raw, suffix, tmp_path):
    path = tmp_path / f"d{suffix}"
    path.write_bytes(raw)
    try:
        X, y = load_data(path)
    except ValueError:
        return
    assert X.shape[0] == len(y) > 0


@pytest.mark.parametrize("text", ["1 1:1\n\n# c\n-1 2:1\n", "1 1:1\r\n# c\r\n\r\n-1 2:1\r\n"])
def test_a_comment_at_a_block_boundary_does_not_repeat_rows(text, tmp_path):
    path = tmp_path / "d.svm"
    path.write_bytes(text.encode())
    assert [len(y) for _, y in ChunkedFile(path, 1)] == [1, 1]
