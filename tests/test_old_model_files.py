"""Files written by an earlier rosenblatt still load, to the same predictions.

``tests/data/model_files`` holds files that the rosenblatt of commit 5c5fb0f (io
as one module, before each rule declared its file form) wrote with
``write.py`` there: every kind of rule state, with and without the training
state (format versions 2 and 1), and a tagger. Loading them must give the
scores that version computed, and resuming one the scores that version's
``partial_fit`` went on to.
"""

import pathlib
import warnings

import numpy as np
import pytest

from rosenblatt.io import load

HERE = pathlib.Path(__file__).resolve().parent / "data" / "model_files"
EXPECTED = dict(np.load(HERE / "expected.npz", allow_pickle=False))
NAMES = sorted(key.split(":")[0] for key in EXPECTED if key.endswith(":scores"))


def _rows(name):
    X, Y = EXPECTED["X"], EXPECTED["Y"]
    if "csr" in name:
        import scipy.sparse as sp
        X = sp.csr_matrix(X)
    if name.startswith("balanced_winnow"):
        X = np.abs(X)
    classes = int(name.split("-")[1])
    return X, Y % classes


@pytest.mark.parametrize("name", NAMES)
def test_an_old_file_loads_to_the_same_scores(name):
    model = load(HERE / f"{name}.npz")
    X, _ = _rows(name)
    np.testing.assert_array_equal(model.decision_function(X), EXPECTED[f"{name}:scores"])


@pytest.mark.parametrize("name", sorted(key.split(":")[0] for key in EXPECTED
                                        if key.endswith(":resumed")))
def test_an_old_file_resumes_as_that_version_did(name):
    model = load(HERE / f"{name}.npz")
    X, y = _rows(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model.partial_fit(X, y)
    np.testing.assert_array_equal(model.decision_function(X), EXPECTED[f"{name}:resumed"])


def test_an_old_tagger_file_tags_the_same():
    from rosenblatt.structured._tagger import SequenceTagger  # noqa: F401 - the loaded type

    tagger = load(HERE / "tagger.npz")
    sentences = [["the", "dog", "runs"], ["a", "cat", "sleeps"], ["the", "cat", "runs"]]
    tags = [tag for row in tagger.predict(sentences) for tag in row]
    assert tags == EXPECTED["tagger:tags"].tolist()
