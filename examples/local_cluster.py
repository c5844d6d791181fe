"""
Parameter mixing on a local Dask cluster
========================================

Train an averaged perceptron on 4 shards held by the 2 worker processes of a
LocalCluster, by iterative parameter mixing (``pip install "rosenblatt[dask]"``)::

    python examples/local_cluster.py
"""

import warnings

import numpy as np
from distributed import Client, LocalCluster
from sklearn.exceptions import ConvergenceWarning

from rosenblatt import AveragedPerceptron
from rosenblatt.distributed import ParameterMixing

if __name__ == "__main__":  # worker processes import this file too
    rng = np.random.RandomState(0)
    X = rng.randn(100_000, 20)
    y = (X @ rng.randn(20) + 0.5 * rng.randn(100_000) > 0).astype(int)
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, \
            Client(cluster) as client, warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)  # noisy labels never separate
        model = ParameterMixing(AveragedPerceptron(max_iter=5, random_state=0), n_shards=4,
                                client=client).fit(X, y)
    print(f"accuracy {model.score(X, y):.4f} after {model.n_iter_} epochs on "
          f"{model.n_shards_} shards ({model.backend_})")
    print("mistakes of each shard, epoch by epoch:")
    print(model.mistakes_[:, :, 0])
