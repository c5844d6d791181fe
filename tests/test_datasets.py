import numpy as np
import pytest

from rosenblatt.datasets import (
    load_csv,
    load_data,
    load_iris_binary,
    load_libsvm,
    load_numpy,
    make_boolean,
    make_target_line,
)
from rosenblatt.theory import is_linearly_separable


def test_boolean_tables_follow_ahmed_and_pavlu():
    for name, column in [("and", [-1, -1, -1, 1]), ("or", [-1, 1, 1, 1]),
                         ("nand", [1, 1, 1, -1]), ("xor", [-1, 1, 1, -1])]:
        X, y = make_boolean(name)
        assert X.tolist() == [[0, 0], [0, 1], [1, 0], [1, 1]] and y.tolist() == column
    with pytest.raises(ValueError, match="Unknown Boolean function 'nor'"):
        make_boolean("nor")


def test_target_line_is_the_blogs_construction():
    rng = np.random.RandomState(7)
    (xa, ya), (xb, yb) = rng.uniform(-1, 1, size=(2, 2))
    X, y, target = make_target_line(30, random_state=7)
    assert np.allclose(target, [xb * ya - xa * yb, yb - ya, xa - xb])
    assert np.array_equal(y, np.where(target[0] + X @ target[1:] > 0, 1, -1))
    X3, y3, target3 = make_target_line(30, 3, random_state=1)
    assert X3.shape == (30, 3) and target3.shape == (4,)


def test_iris_problems():
    X, y = load_iris_binary("setosa-vs-rest")
    assert X.shape == (150, 4) and is_linearly_separable(X, y)
    X, y = load_iris_binary("versicolor-vs-virginica", features=["petal width (cm)"])
    assert X.shape == (100, 1) and sorted(set(y)) == ["versicolor", "virginica"]
    with pytest.raises(ValueError, match="Unknown Iris problem"):
        load_iris_binary("setosa")


def test_csv_loader(tmp_path):
    path = tmp_path / "d.csv"
    path.write_text("x1,label,x2\n1,a,2\n\n3,b,4\n")
    X, y = load_csv(path, label="label")
    assert X.tolist() == [[1, 2], [3, 4]] and y.tolist() == ["a", "b"]
    X, y = load_csv(path, label=1)
    assert y.tolist() == ["a", "b"]
    numeric = tmp_path / "n.csv"
    numeric.write_text("1,2,0\n3,4,1\n")
    X, y = load_data(numeric, header=False)
    assert y.dtype.kind == "i" and y.tolist() == [0, 1]


@pytest.mark.parametrize("text, message", [
    ("a,b,y\n1,2,0\n3,4\n", "line 3: 2 fields, expected 3"),
    ("a,b,y\n1,2,0\n3,x,1\n", "line 3: field 2 is 'x', not a number"),
    ("a,b,y\n", "no data lines"),
])
def test_malformed_csv_names_the_line(tmp_path, text, message):
    path = tmp_path / "bad.csv"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        load_csv(path)


def test_libsvm_loader_keeps_int64_indices(tmp_path):
    path = tmp_path / "d.svm"
    path.write_text("1 1:0.5 3:1\n-1 2:2\n")
    X, y = load_libsvm(path)
    assert X.shape == (2, 3) and y.tolist() == [1, -1]
    assert X.toarray().tolist() == [[0.5, 0, 1], [0, 2, 0]]


@pytest.mark.parametrize("text, message", [
    ("1 1:0.5\n-1 2:x\n", "line 2: '2:x' is not 'index:value'"),
    ("1 1:0.5\nfoo 2:1\n", "line 2: label 'foo' is not a number"),
    ("1 3:0.5 2:1\n", "line 1: feature indices must be increasing"),
])
def test_malformed_libsvm_names_the_line(tmp_path, text, message):
    path = tmp_path / "bad.svm"
    path.write_text(text)
    with pytest.raises(ValueError, match=message):
        load_libsvm(path)


def test_numpy_loaders(tmp_path):
    np.savez(tmp_path / "d.npz", X=np.eye(2), y=np.array([0, 1]))
    X, y = load_numpy(tmp_path / "d.npz")
    assert X.tolist() == [[1, 0], [0, 1]] and y.tolist() == [0, 1]
    np.save(tmp_path / "d.npy", np.array([[1.0, 2.0, 0.0], [3.0, 4.0, 1.0]]))
    X, y = load_data(tmp_path / "d.npy")
    assert X.shape == (2, 2) and y.tolist() == [0, 1]
    np.save(tmp_path / "objects.npy", np.array([{"a": 1}], dtype=object), allow_pickle=True)
    with pytest.raises(ValueError, match="without pickles"):
        load_numpy(tmp_path / "objects.npy")
    np.savez(tmp_path / "noy.npz", X=np.eye(2))
    with pytest.raises(ValueError, match=r"missing \['y'\]"):
        load_numpy(tmp_path / "noy.npz")


def test_missing_file(tmp_path):
    with pytest.raises(ValueError, match="no such file"):
        load_data(tmp_path / "absent.csv")


def test_real_libsvm_file(shared_data):
    X, y = load_libsvm(shared_data / "a9a.t", n_features=123)
    assert X.shape == (16281, 123) and sorted(set(y.tolist())) == [-1, 1]
