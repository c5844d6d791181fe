"""The kernels' plain-Python bodies (what runs under NUMBA_DISABLE_JIT=1) agree
with the compiled ones; coverage tools see these lines only this way."""

import json
import os
import subprocess
import sys

import numpy as np

SCRIPT = """
import json, warnings
import numpy as np, scipy.sparse as sp
from rosenblatt import BatchPerceptron, Perceptron, PLA, PocketPerceptron
warnings.simplefilter("ignore")
rng = np.random.RandomState(0)
X = rng.randint(-4, 5, size=(40, 3)).astype(float)
y = np.where(X @ [1.0, -2.0, 1.0] + rng.randint(-2, 3, size=40) > 0, 1, -1)
out = {}
for cls in (Perceptron, PLA, BatchPerceptron, PocketPerceptron):
    for name, data in (("dense", X), ("csr", sp.csr_matrix(X))):
        limit = {"max_updates": 200} if cls is PLA else {"max_iter": 8}
        m = cls(random_state=1, record=True, **limit).fit(data, y)
        out[cls.__name__ + name] = [m.intercept_.tolist(), m.coef_.tolist(),
                                    m.decision_function(data).tolist()]
print(json.dumps(out))
"""


def run(disable_jit):
    env = dict(os.environ, NUMBA_DISABLE_JIT="1" if disable_jit else "0")
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


def test_python_kernels_equal_compiled_kernels():
    python, compiled = run(True), run(False)
    assert python.keys() == compiled.keys() and len(python) == 8
    for key in python:
        for a, b in zip(python[key], compiled[key]):
            np.testing.assert_allclose(a, b, rtol=0, atol=1e-12, err_msg=key)
