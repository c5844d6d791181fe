"""The kernels' plain-Python bodies (what runs under NUMBA_DISABLE_JIT=1) agree
with the compiled ones, for every rule; coverage tools see these lines only this way."""

import json
import os
import subprocess
import sys

import numpy as np

SCRIPT = """
import json, warnings
import numpy as np, scipy.sparse as sp
from rosenblatt import (PLA, AveragedPerceptron, BatchPerceptron, KernelPerceptron,
                        LinearUnit, MulticlassPerceptron, PassiveAggressiveClassifier,
                        Perceptron, PocketPerceptron, VotedPerceptron)
warnings.simplefilter("ignore")
rng = np.random.RandomState(0)
X = rng.randint(-4, 5, size=(40, 3)).astype(float)
y = np.where(X @ [1.0, -2.0, 1.0] + rng.randint(-2, 3, size=40) > 0, 1, -1)
y3 = rng.randint(0, 3, size=40)
models = {
    "Perceptron": (Perceptron(random_state=1, record=True, max_iter=8), y),
    "PLA": (PLA(random_state=1, record=True, max_updates=200), y),
    "BatchPerceptron": (BatchPerceptron(random_state=1, record=True, max_iter=8), y),
    "PocketPerceptron": (PocketPerceptron(random_state=1, record=True, max_iter=8), y),
    "AveragedPerceptron": (AveragedPerceptron(random_state=1, max_iter=8), y),
    "VotedPerceptron": (VotedPerceptron(random_state=1, max_iter=8), y),
    "LinearUnitBatch": (LinearUnit(random_state=1, max_iter=8), y),
    "LinearUnitSGD": (LinearUnit(solver="sgd", random_state=1, max_iter=8), y),
    "Multiclass": (MulticlassPerceptron(random_state=1, record=True, max_iter=8), y3),
    "MulticlassAveraged": (MulticlassPerceptron(average=True, random_state=1, max_iter=8), y3),
    "KernelPerceptron": (KernelPerceptron(kernel="poly", degree=2, random_state=1,
                                          max_iter=3), y),
    "PassiveAggressive": (PassiveAggressiveClassifier(variant="pa2", average=True,
                                                      random_state=1, max_iter=8), y),
    "PerceptronPenalty": (Perceptron(penalty="elasticnet", alpha=0.01, margin=1.0, tol=1e-3,
                                     random_state=1, max_iter=8), y),
    "AveragedPenalty": (AveragedPerceptron(penalty="l1", alpha=0.02, random_state=1,
                                           max_iter=8), y),
    "MulticlassMargin": (MulticlassPerceptron(margin=2.0, random_state=1, max_iter=8), y3),
    "KernelBudget": (KernelPerceptron(budget=4, random_state=1, max_iter=3), y),
    "PerceptronHeaviside": (Perceptron(h0=0.5, random_state=1, max_iter=8), y),
}
out = {}
for name, (model, labels) in models.items():
    for layout, data in (("dense", X), ("csr", sp.csr_matrix(X))):
        model.fit(data, labels)
        out[name + layout] = [np.ravel(model.intercept_).tolist(),
                              np.ravel(model.decision_function(data)).tolist()]
for layout, data in (("dense", X), ("csr", sp.csr_matrix(X))):
    model = LinearUnit(solver="sgd", eta=0.01, init="zeros", tol=None, max_iter=3,
                       random_state=1).fit(data, y)
    out["linear unit sgd" + layout] = [model.intercept_.tolist(), model.coef_.tolist()]
# a wide CSR matrix (weights beyond the L2 cache)
wide = sp.csr_matrix((np.ones(120), rng.randint(0, 2**18, size=120), np.arange(0, 121, 3)),
                     shape=(40, 2**18))
model = Perceptron(shuffle="none", max_iter=4).fit(wide, y)
out["wide csr"] = [model.intercept_.tolist(), model.decision_function(wide).tolist()]
# columns renumbered by frequency (the counting and renumbering kernels)
from rosenblatt import config_context
with config_context(renumber_columns=True):
    model = AveragedPerceptron(shuffle="none", max_iter=4).fit(wide, y)
out["renumbered"] = [model.intercept_.tolist(), model.decision_function(wide).tolist()]
print(json.dumps(out))
"""


def run(disable_jit):
    env = dict(os.environ, NUMBA_DISABLE_JIT="1" if disable_jit else "0")
    done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, capture_output=True,
                          text=True, check=True)
    return json.loads(done.stdout)


def test_python_kernels_equal_compiled_kernels():
    python, compiled = run(True), run(False)
    assert python.keys() == compiled.keys() and len(python) == 38
    for key in python:
        for a, b in zip(python[key], compiled[key]):
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12, err_msg=key)
