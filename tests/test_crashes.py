"""Inputs that once crashed the process (segfaults in compiled code), each run in a
subprocess: a regression fails this one test instead of killing the test run."""

import subprocess
import sys
import textwrap

import pytest

CASES = {
    "csr indices beyond n_features, predicted": """
        import numpy as np, scipy.sparse as sp
        from rosenblatt import Perceptron
        model = Perceptron().fit(np.eye(3), [0, 1, 1])
        X = sp.csr_matrix((np.ones(1), np.array([10**6]), np.array([0, 1])), shape=(1, 3))
        X.indices[0] = 10**6  # scipy checks lengths, not the values
        model.predict(X)
    """,
    "csr indptr past the data, fitted": """
        import numpy as np, scipy.sparse as sp
        from rosenblatt import Perceptron
        X = sp.csr_matrix(np.eye(3))
        X.indptr[-1] = 10**6
        Perceptron().fit(X, [0, 1, 1])
    """,
    "negative csr index, fitted": """
        import numpy as np, scipy.sparse as sp
        from rosenblatt import AveragedPerceptron
        X = sp.csr_matrix(np.eye(3))
        X.indices[1] = -5
        AveragedPerceptron().fit(X, [0, 1, 1])
    """,
    "model file with out-of-range support vector indices": """
        import numpy as np, scipy.sparse as sp, tempfile, pathlib
        from rosenblatt import KernelPerceptron
        from rosenblatt.io import load, save
        path = pathlib.Path(tempfile.mkdtemp()) / "m.npz"
        save(KernelPerceptron(max_iter=2).fit(sp.csr_matrix(np.eye(4)), [0, 1, 1, 0]), path)
        with np.load(path) as stored:
            arrays = {key: stored[key] for key in stored.files}
        key = next(k for k in arrays if k.endswith("support.indices"))
        arrays[key] = arrays[key] + 10**6
        np.savez(path, **arrays)
        load(path).predict(np.eye(4))
    """,
    "model file whose intercept_ is shorter than coef_": """
        import numpy as np, tempfile, pathlib
        from rosenblatt import Perceptron
        from rosenblatt.io import load, save
        path = pathlib.Path(tempfile.mkdtemp()) / "m.npz"
        save(Perceptron(max_iter=3).fit(np.random.RandomState(0).randn(30, 3),
                                        np.arange(30) % 3), path)
        with np.load(path) as stored:
            arrays = {key: stored[key] for key in stored.files}
        arrays["intercept_"] = arrays["intercept_"][:1]
        np.savez(path, **arrays)
        load(path).predict(np.zeros((5, 3)))
    """,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_once_a_crash_now_a_value_error(name):
    script = textwrap.dedent(CASES[name]) + "\n"
    wrapped = ("import sys\ntry:\n" + textwrap.indent(script, "    ")
               + "except ValueError as error:\n    print('refused:', error)\n    sys.exit(0)\n"
               "sys.exit(3)\n")
    done = subprocess.run([sys.executable, "-c", wrapped], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])  # not -11 (SIGSEGV)
    assert done.stdout.startswith("refused:")
