"""Bad input gets a clear ValueError that says what to do (issue 12's catalogue,
begun): one named case per kind of bad input."""

import numpy as np
import pytest

from rosenblatt import AveragedPerceptron, Perceptron
from rosenblatt.cli import main

X4 = np.array([[0.0, 0], [0, 1], [1, 0], [1, 1]])
Y4 = np.array([0, 0, 0, 1])


@pytest.mark.parametrize("class_weight,message", [
    ({0: 1.0, 7: 2.0}, r"class_weight has keys \[7\] that are not classes of y \[0, 1\]"),
    ({0: -1.0}, "class_weight must be finite and non-negative"),
    ({1: float("nan")}, "class_weight must be finite and non-negative"),
    ({1: float("inf")}, "class_weight must be finite and non-negative"),
    ({1: "heavy"}, r"class_weight\[1\] must be a number"),
])
def test_class_weight_that_cannot_apply_is_refused(class_weight, message):
    with pytest.raises(ValueError, match=message):
        Perceptron(class_weight=class_weight).fit(X4, Y4)
    with pytest.raises(ValueError, match=message):
        AveragedPerceptron(class_weight=class_weight).partial_fit(X4, Y4, classes=[0, 1])


def test_string_labels_take_string_keys():
    model = Perceptron(class_weight={"yes": 2.0}, shuffle="none", max_iter=50)
    model.fit(X4, np.where(Y4 == 1, "yes", "no"))
    assert model.converged_


def test_set_params_between_partial_fit_calls_is_checked():
    model = Perceptron().partial_fit(X4, Y4, classes=[0, 1])
    model.set_params(eta=-5)
    with pytest.raises(ValueError, match="'eta' parameter of Perceptron must be"):
        model.partial_fit(X4, Y4)


def test_demo_with_one_point_refuses_instead_of_looping_forever(capsys):
    assert main(["demo", "-n", "1", "--no-pictures"]) == 2
    assert "expected at least 2, got '1'" in capsys.readouterr().err


def test_epochs_without_chunk_size_is_refused(tmp_path, capsys):
    data = tmp_path / "and.csv"
    main(["datasets", "--export", "and", "-o", str(data)])
    capsys.readouterr()
    assert main(["train", str(data), "--epochs", "3", "-o", str(tmp_path / "m.npz")]) == 2
    assert "--set max_iter=N" in capsys.readouterr().err


from rosenblatt import (  # noqa: E402
    PLA,
    BatchPerceptron,
    KernelPerceptron,
    LinearUnit,
    MulticlassPerceptron,
    PocketPerceptron,
    VotedPerceptron,
)

XOR_X = np.array([[1.0, 2], [2, 1], [-1, -3], [3, -2]])
XOR_Y = np.array([0, 1, 1, 0])
OVERFLOWING = [Perceptron, AveragedPerceptron, VotedPerceptron, PocketPerceptron,
               BatchPerceptron, MulticlassPerceptron, PLA]


@pytest.mark.parametrize("cls", OVERFLOWING, ids=lambda cls: cls.__name__)
def test_weights_that_overflow_are_refused_not_reported_converged(cls):
    """eta = 1e308 overflows the weights to inf and then NaN, and a NaN activation
    is never a mistake: without the check the run 'converged' with a NaN model."""
    with pytest.raises(ValueError, match="infinite or NaN weights .* Scale X"):
        cls(eta=1e308).fit(XOR_X, XOR_Y)


def test_huge_sample_weights_are_refused_the_same_way():
    with pytest.raises(ValueError, match="infinite or NaN weights in epoch 1"):
        Perceptron(shuffle="none").fit(XOR_X, XOR_Y, sample_weight=[1e308] * 4)


def test_a_kernel_returning_nan_is_refused():
    def broken(A, B):
        return np.full((len(A), len(B)), np.nan)

    with pytest.raises(ValueError, match="KernelPerceptron ran into infinite or NaN"):
        KernelPerceptron(kernel=broken).fit(XOR_X, XOR_Y)


def test_overflowing_weights_are_refused_after_mixing_too():
    from rosenblatt.distributed import ParameterMixing

    X = np.tile(XOR_X, (5, 1))
    y = np.tile(XOR_Y, 5)
    with pytest.raises(ValueError, match="Perceptron ran into infinite or NaN weights"):
        ParameterMixing(Perceptron(eta=1e308), n_shards=2, client="threads").fit(X, y)


@pytest.mark.parametrize("params", [{"max_iter": True}, {"n_iter_no_change": False}],
                         ids=lambda params: next(iter(params)))
def test_booleans_are_not_whole_numbers(params):
    """``True`` is an ``int`` to Python: max_iter=True used to train one epoch."""
    from rosenblatt import KernelPerceptron, PassiveAggressiveClassifier
    from rosenblatt.distributed import ParameterMixing

    name = next(iter(params))
    for model in (Perceptron(**params), PassiveAggressiveClassifier(**params),
                  KernelPerceptron(**params)):
        with pytest.raises(ValueError, match=f"'{name}' parameter .* must be an int"):
            model.fit(XOR_X, XOR_Y)
    with pytest.raises(ValueError, match=f"'{name}' parameter .* must be an int"):
        ParameterMixing(Perceptron(**params), n_shards=2).fit(XOR_X, XOR_Y)
    with pytest.raises(ValueError, match="'n_shards' parameter .* must be an int"):
        ParameterMixing(Perceptron(), n_shards=True).fit(XOR_X, XOR_Y)
    with pytest.raises(ValueError, match="'budget' parameter"):
        KernelPerceptron(budget=True).fit(XOR_X, XOR_Y)


# XOR never converges: the last fit, of numbers that are large but allowed, warns so
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("sparse", [False, True], ids=["dense", "csr"])
def test_features_whose_squares_overflow_are_refused(sparse):
    """X near 1e300 kept finite weights but made every activation inf or NaN: XOR,
    which no line separates, 'converged' for every online rule."""
    import scipy.sparse as sp

    from rosenblatt import PassiveAggressiveClassifier

    X = XOR_X * 1e300
    X = sp.csr_matrix(X) if sparse else X
    for model in (Perceptron(), AveragedPerceptron(), PassiveAggressiveClassifier(),
                  MulticlassPerceptron(), LinearUnit(), KernelPerceptron()):
        with pytest.raises(ValueError, match="X holds values up to 3e\\+300, whose squares"):
            model.fit(X, XOR_Y)
    Perceptron().fit(XOR_X * 1e150, XOR_Y)  # large, but its squares are still numbers


@pytest.mark.parametrize("cls", [Perceptron, AveragedPerceptron, VotedPerceptron,
                                 PocketPerceptron], ids=lambda cls: cls.__name__)
def test_activations_that_overflow_with_finite_weights_are_refused(cls):
    """Weights near 1e300 times features of 1e100: every weight is a number but
    w·x is inf, then inf − inf = NaN, which is never a mistake."""
    with pytest.raises(ValueError, match="activations w·x \\+ b overflowed to inf or NaN"):
        cls(eta=1e200, shuffle="none").fit(XOR_X * 1e100, XOR_Y)


def test_labels_too_large_for_int64_stay_apart_and_nan_labels_are_refused(tmp_path):
    from rosenblatt.datasets import load_csv, load_libsvm

    svm = tmp_path / "big.svm"
    svm.write_text("1e30 1:1\n1e31 1:2\n1e30 1:3\n")
    _, y = load_libsvm(svm)
    assert len(np.unique(y)) == 2 and y.dtype == np.float64
    csv_file = tmp_path / "big.csv"
    csv_file.write_text("a,y\n1,1e30\n2,1e31\n")
    assert len(np.unique(load_csv(csv_file)[1])) == 2
    svm.write_text("nan 1:1\n1 1:2\n")
    with pytest.raises(ValueError, match="big.svm: labels must be finite numbers; found nan"):
        load_libsvm(svm)
    csv_file.write_text("a,y\n1,inf\n2,1\n")
    with pytest.raises(ValueError, match="big.csv: labels must be finite numbers; found inf"):
        load_csv(csv_file)
    _, small = load_libsvm(_write(tmp_path, "1 1:1\n-1 1:2\n"))
    assert small.dtype == np.int64


def _write(folder, text):
    path = folder / "small.svm"
    path.write_text(text)
    return path


def test_an_out_of_range_npy_label_column_is_refused_not_wrapped(tmp_path):
    from rosenblatt.datasets import load_numpy

    path = tmp_path / "d.npy"
    np.save(path, np.arange(12.0).reshape(4, 3))
    with pytest.raises(ValueError, match="label column 3 is out of range for 3 columns"):
        load_numpy(path, label=3)
    with pytest.raises(ValueError, match="label column -4 is out of range"):
        load_numpy(path, label=-4)
    X, y = load_numpy(path, label=0)
    assert y.tolist() == [0.0, 3.0, 6.0, 9.0] and X.shape == (4, 2)


def test_evaluate_does_not_round_float_labels_into_the_classes():
    from rosenblatt.cli.evaluate import evaluate

    X, y = [[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1]
    model = Perceptron(shuffle="none").fit(X, y)
    assert evaluate(model, X, [0.0, 0.0, 0.0, 1.0]).accuracy == 1.0
    with pytest.raises(ValueError, match=r"the labels \[0.4\] are not classes of the model"):
        evaluate(model, X, [0.4, 0.0, 0.0, 1.0])


@pytest.mark.parametrize("argv,message", [
    (["train", "{data}", "--set", "foo=1", "-o", "m.npz"],
     "Perceptron does not take 'foo'; its parameters are alpha, class_weight"),
    (["animate", "{data}", "--model", "kernel", "-o", "a.gif"],
     "animate draws the trace of updates, which kernel does not record"),
    (["animate", "{data}", "--fps", "0", "-o", "a.gif"],
     "argument --fps: expected a number > 0, got '0'"),
    (["animate", "{data}", "--fps", "inf", "-o", "a.gif"],
     "argument --fps: expected a number > 0, got 'inf'"),
    (["animate", "{data}", "--model", "multiclass", "-o", "a.gif"],
     "animate draws one line moving; multiclass keeps a weight vector per class"),
    (["experiment", "target_line", "--set", "n_runs=0"],
     "n_runs must be a whole number >= 1; got 0"),
    (["experiment", "permutation", "--set", "n_samples=True"],
     "n_samples must be a whole number >= 1; got True"),
])
def test_command_line_mistakes_exit_2_with_one_line(argv, message, tmp_path, capsys):
    from rosenblatt.cli import main

    data = tmp_path / "d.csv"
    data.write_text("a,b,y\n0,0,0\n0,1,0\n1,0,0\n1,1,1\n")
    argv = [str(data) if a == "{data}" else str(tmp_path / a) if a.endswith((".npz", ".gif"))
            else a for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


# three epochs on XOR: a ConvergenceWarning at every fit, beside the point here
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("cls", [Perceptron, AveragedPerceptron, KernelPerceptron],
                         ids=lambda cls: cls.__name__)
def test_a_loaded_model_refuses_to_go_on_training_from_nothing(cls, tmp_path):
    """A file saved without its training state (``training_state=False``, or by
    the first file format) cannot go on training, and says so; a fresh fit is allowed."""
    from rosenblatt.io import load, save

    model = cls(max_iter=3, random_state=0).fit(XOR_X, XOR_Y)
    save(model, tmp_path / "m.npz", training_state=False)
    loaded = load(tmp_path / "m.npz")
    with pytest.raises(ValueError, match="holds what prediction needs but not the training"):
        loaded.partial_fit(XOR_X, XOR_Y)
    with pytest.raises(ValueError, match="so warm_start=True would not continue"):
        loaded.set_params(warm_start=True).fit(XOR_X, XOR_Y)
    refit = loaded.set_params(warm_start=False).fit(XOR_X, XOR_Y)
    np.testing.assert_array_equal(refit.decision_function(XOR_X), model.decision_function(XOR_X))
    refit.partial_fit(XOR_X, XOR_Y)  # in memory again: training goes on


@pytest.mark.parametrize("name,content,message", [
    ("latin.csv", b"a,b,y\n1,2,0\n1,\xff,1\n", "latin.csv, line 3: not UTF-8 text (byte 0xff"),
    ("narrow.csv", b"a,b,y\n1,2\n3,4\n", "narrow.csv, line 2: 2 fields, expected 3"),
    ("quote.csv", b'a,b,y\n1,2,0\n"3,4,1\n', "quote.csv, line 3: 1 fields, expected 3"),
    ("huge.svm", b"1 1:1\n-1 3000000000:1\n", "LIBSVM indices must be below 2**31"),
    ("empty.npy", None, "empty.npy: no data rows"),
])
def test_files_a_user_brings_exit_2_with_the_file_and_line(name, content, message, tmp_path,
                                                          capsys):
    from rosenblatt.cli import main

    path = tmp_path / name
    if content is None:
        np.save(path, np.zeros((0, 3)))
    else:
        path.write_bytes(content)
    assert main(["train", str(path), "--chunk-size", "10", "-o", str(tmp_path / "m.npz"),
                 "--quiet"] if name.endswith(".npy") else
                ["train", str(path), "-o", str(tmp_path / "m.npz"), "--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_a_semicolon_csv_is_read_by_its_separator(tmp_path):
    from rosenblatt.datasets import load_csv

    path = tmp_path / "semi.csv"
    path.write_text("a;b;y\n1.5;2;no\n3;4;yes\n")
    X, y = load_csv(path)
    assert X.tolist() == [[1.5, 2.0], [3.0, 4.0]] and y.tolist() == ["no", "yes"]


def test_the_command_line_reports_warnings_in_one_line_and_ctrl_c_as_130(tmp_path, capsys,
                                                                          monkeypatch):
    from rosenblatt.cli import _main, main

    data = tmp_path / "xor.csv"
    data.write_text("a,b,y\n0,0,0\n0,1,1\n1,0,1\n1,1,0\n")
    assert main(["train", str(data), "-o", str(tmp_path / "m.npz"), "--tol", "none",
                 "--set", "max_iter=3"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("rosenblatt train: warning: Perceptron ran max_iter=3 epochs")
    assert len(err.strip().splitlines()) == 1 and "warnings.warn" not in err

    def interrupted(args):
        raise KeyboardInterrupt
    parser = _main.build_parser()
    monkeypatch.setattr(_main, "build_parser", lambda only=None: parser)
    parser.set_defaults(run=interrupted)
    for action in parser._subparsers._group_actions[0].choices.values():
        action.set_defaults(run=interrupted)
    assert main(["demo"]) == 130
    assert capsys.readouterr().err == "rosenblatt demo: interrupted\n"


def test_pictures_go_where_the_command_says_and_model_files_follow_the_umask(tmp_path,
                                                                              capsys):
    import os

    from rosenblatt.cli import main

    data = tmp_path / "and.csv"
    data.write_text("a,b,y\n0,0,0\n0,1,0\n1,0,0\n1,1,1\n")
    model = tmp_path / "m.npz"
    previous = os.umask(0o022)
    try:
        assert main(["train", str(data), "-o", str(model), "--quiet"]) == 0
    finally:
        os.umask(previous)
    assert model.stat().st_mode & 0o777 == 0o644  # not mkstemp's 0600
    folder = tmp_path / "pictures"
    folder.mkdir()
    assert main(["plot", str(model), str(data), "-o", str(folder)]) == 0
    assert (folder / "boundary.png").is_file()
    assert main(["plot", str(model), str(data), "-o", str(tmp_path / "named")]) == 0
    assert (tmp_path / "named.png").is_file()
    assert f"wrote {tmp_path / 'named.png'}" in capsys.readouterr().out


def test_version_and_help_answer_without_importing_the_library():
    """``rosenblatt --version`` took 1.6 s: it imported scikit-learn and numba."""
    import subprocess
    import sys

    code = ("import sys; from rosenblatt.cli import main; code = main(['--version']); "
            "heavy = [m for m in ('sklearn', 'numba', 'scipy', 'matplotlib') if m in sys.modules]; "
            "print(heavy)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.splitlines() == ["rosenblatt 0.1.0", "[]"]


@pytest.mark.parametrize("scale", [1e-9, 1e-3, 1.0, 1e3, 1e6, 1e9])
def test_theory_answers_do_not_depend_on_the_scale_of_the_data(scale):
    """AND at 1e-9 was 'not separable' and its margin at 1e6 off by 40x: the
    solvers' tolerances are absolute, so the data are centred and scaled first."""
    from rosenblatt.theory import dataset_margin, is_linearly_separable

    AND = np.array([[0.0, 0], [0, 1], [1, 0], [1, 1]])
    assert is_linearly_separable(AND * scale + 5 * scale, [0, 0, 0, 1])
    assert not is_linearly_separable(AND * scale, [0, 1, 1, 0])
    gamma, w, b = dataset_margin(AND * scale, [0, 0, 0, 1])
    assert gamma / scale == pytest.approx(np.sqrt(2) / 4, rel=1e-6)
    np.testing.assert_allclose(w, [np.sqrt(0.5)] * 2, rtol=1e-6)
    assert b / scale == pytest.approx(-1.5 * np.sqrt(0.5), rel=1e-6)


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_the_pocket_is_judged_on_a_sample_beyond_check_rows():
    """Counting every row after every update was quadratic (a9a: hours). Up to
    check_rows rows nothing changes; beyond, a fixed sample judges the candidates
    and pocket_errors_ is still the exact count of the returned weights."""
    rng = np.random.RandomState(0)
    X, y = rng.randn(300, 4), rng.randint(0, 2, 300)
    exact = PocketPerceptron(max_iter=4, random_state=0, check_rows=None).fit(X, y)
    same = PocketPerceptron(max_iter=4, random_state=0, check_rows=300).fit(X, y)
    np.testing.assert_array_equal(same.coef_, exact.coef_)
    assert same.pocket_errors_.tolist() == exact.pocket_errors_.tolist()
    sampled = PocketPerceptron(max_iter=4, random_state=0, check_rows=50).fit(X, y)
    wrong = np.sum(sampled.predict(X) != y)
    assert sampled.pocket_errors_.tolist() == [float(wrong)]
    with pytest.raises(ValueError, match="'check_rows' parameter"):
        PocketPerceptron(check_rows=0).fit(X, y)


# random labels: five epochs do not converge; the warning tested is the memory one
@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_the_vote_warns_once_when_its_memory_grows_large(monkeypatch):
    from rosenblatt.linear_model import _voted

    monkeypatch.setattr(_voted, "MEMORY_WARNING_BYTES", 10_000)
    rng = np.random.RandomState(0)
    X, y = rng.randn(200, 5), rng.randint(0, 2, 200)
    with pytest.warns(RuntimeWarning, match="VotedPerceptron keeps every weight vector") as seen:
        VotedPerceptron(max_iter=5, random_state=0).fit(X, y)
    assert sum("keeps every weight vector" in str(w.message) for w in seen) == 1


@pytest.mark.parametrize("params", [{"coef0": np.inf}, {"coef0": np.nan}, {"gamma": np.inf}],
                         ids=str)
def test_kernel_parameters_must_be_finite(params):
    """coef0=inf gave a NaN model that claimed convergence."""
    name = next(iter(params))
    with pytest.raises(ValueError, match=f"The '{name}' parameter of KernelPerceptron must be"):
        KernelPerceptron(kernel="poly", **params).fit(XOR_X, XOR_Y)


def test_a_csv_without_a_header_keeps_its_first_row(tmp_path):
    from rosenblatt.datasets import ChunkedFile, load_csv

    path = tmp_path / "plain.csv"
    path.write_text("1,2,0\n3,4,1\n5,6,1\n")
    X, y = load_csv(path)
    assert X.tolist() == [[1, 2], [3, 4], [5, 6]] and y.tolist() == [0, 1, 1]
    assert [len(block_y) for _, block_y in ChunkedFile(path, 2)] == [2, 1]
    named = tmp_path / "named.csv"
    named.write_text("x1,x2,label\n1,2,0\n")
    assert load_csv(named, label="label")[1].tolist() == [0]
