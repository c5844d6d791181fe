"""Scoring large inputs from several threads at once: the parallel kernel is
used from the main thread only (numba's workqueue layer aborts the process when
two threads run parallel kernels), so concurrent calls neither crash nor differ."""

import subprocess
import sys

SCRIPT = """
import threading
from concurrent.futures import ThreadPoolExecutor
import numpy as np
from rosenblatt import Perceptron
from rosenblatt.base import _linear

rng = np.random.RandomState(0)
X = rng.randn(60_000, 80)
y = np.where(X[:, 0] > 0, 1, -1)
model = Perceptron(max_iter=2, random_state=0).fit(X, y)
assert X.size >= _linear.PARALLEL_SCORING_CELLS  # the main thread goes parallel
expected = model.decision_function(X)
with ThreadPoolExecutor(4) as pool:
    futures = [pool.submit(model.decision_function, X) for _ in range(8)]
    here = [model.decision_function(X) for _ in range(4)]  # main thread, meanwhile
    results = [f.result() for f in futures] + here
assert all(np.array_equal(r, expected) for r in results)
print("ok")
"""


def test_concurrent_scoring_does_not_abort_and_agrees():
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip() == "ok"
