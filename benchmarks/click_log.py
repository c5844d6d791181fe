"""A click log's shape, seeded: sparse binary rows of hashed features, written as
LIBSVM and Vowpal Wabbit text (train and test files).

Each row holds about ``per_row`` distinct features of ``2**hash_bits`` (duplicates
of a draw are dropped), drawn with Zipf-like popularity (rank r has probability
∝ r^-zipf, the ranks spread over the hash space by a permutation); the label is
the sign of a dense Gaussian target ``x·w``, flipped for ``noise`` of the rows.
The VW files name the features by their column in the default namespace
(``-1 | 17 4051 ...``), which VW and rosenblatt read as those very columns, so
the LIBSVM file (``-1 18:1 4052:1 ...``, indices from 1) holds the same matrix;
``vw_strings=True`` names them ``f17`` in a namespace ``c`` instead, to measure
the hashing too.

    python benchmarks/click_log.py --rows 1000000 --out /tmp/click
"""

import argparse
import pathlib

import numpy as np


def make_click_log(n_rows=1_000_000, hash_bits=20, per_row=40, zipf=1.1, noise=0.08, seed=0):
    """``(columns, labels)``: each row's sorted distinct columns (a list of arrays) and its
    label in {-1, 1}."""
    rng = np.random.default_rng(seed)
    n_features = 2 ** hash_bits
    popularity = np.arange(1, n_features + 1, dtype=np.float64) ** -zipf
    cdf = np.cumsum(popularity / popularity.sum())
    spread = rng.permutation(n_features)
    draws = spread[np.minimum(np.searchsorted(cdf, rng.random((n_rows, per_row))),
                              n_features - 1)]
    draws.sort(axis=1)
    keep = np.ones_like(draws, dtype=bool)
    keep[:, 1:] = draws[:, 1:] != draws[:, :-1]
    weights = rng.standard_normal(n_features)
    scores = np.where(keep, weights[draws], 0.0).sum(axis=1)
    labels = np.where(scores > 0, 1, -1)
    labels[rng.random(n_rows) < noise] *= -1
    return [row[mask] for row, mask in zip(draws, keep)], labels


def write_click_log(folder, n_rows=1_000_000, test_fraction=0.2, vw_strings=False, **options):
    """Write ``train``/``test`` ``.svm`` and ``.vw`` files into ``folder``; returns their
    paths as a dict (``"train.svm"``, ...)."""
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    columns, labels = make_click_log(n_rows, **options)
    n_train = n_rows - int(round(n_rows * test_fraction))
    paths = {}
    for part, rows in (("train", range(n_train)), ("test", range(n_train, n_rows))):
        paths[f"{part}.svm"], paths[f"{part}.vw"] = folder / f"{part}.svm", folder / f"{part}.vw"
        with paths[f"{part}.svm"].open("w") as svm, paths[f"{part}.vw"].open("w") as vw:
            for i in rows:
                names = columns[i].tolist()
                svm.write(f"{labels[i]} " + " ".join(f"{j + 1}:1" for j in names) + "\n")
                vw.write(f"{labels[i]} |c " + " ".join(f"f{j}" for j in names) + "\n"
                         if vw_strings else f"{labels[i]} | " + " ".join(map(str, names)) + "\n")
    return paths


def click_files(rows, folder):
    """The click log (seed 0, ``rows`` rows) in ``folder``, written when missing: the
    paths of ``train.vw``, ``test.vw``, ``train.svm`` and ``test.svm`` by name."""
    folder = pathlib.Path(folder)
    if not (folder / "test.vw").exists():
        write_click_log(folder, rows)
    return {name: folder / name for name in ("train.vw", "test.vw", "train.svm", "test.svm")}


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--out", default="click_log")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--vw-strings", action="store_true",
                        help="VW features named f<column> in namespace c (hashed when read)")
    args = parser.parse_args()
    for name, path in write_click_log(args.out, args.rows, vw_strings=args.vw_strings,
                                      seed=args.seed).items():
        print(f"{name:10s} {path}  {path.stat().st_size / 1e6:.1f} MB")
