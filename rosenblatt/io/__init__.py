"""Model files: JSON metadata and NumPy arrays in one ``.npz``, never a pickle.

A model file holds an array ``__meta__`` (a JSON text: format and version, the
library version, the estimator's class and parameters, its scalar fitted
attributes) and one array per fitted array. Loading uses
``numpy.load(..., allow_pickle=False)``, re-validates every parameter through
the estimator's own checks, and checks the arrays against each other, so a
truncated, tampered or foreign file is refused with a :class:`ModelFileError`
(a ``ValueError``) naming the file and the field, and no code in it is ever run.

Since format version 2 a file also holds the **training state** (every field of
each :class:`~rosenblatt.base.Problem` and of its rule state), so that ``load``
then ``partial_fit`` continues the run exactly as if it had never been saved. A
file without it (version 1, or ``save(..., training_state=False)``) still loads
and predicts; its model refuses ``partial_fit`` and a warm-start ``fit``. Format
version 3 stores mostly-zero float arrays by their nonzero values and positions (a
sequence model's emission weights, declared ``sparse()`` by its learner, and large
arrays of the training state) where that is smaller; a file is written in the
oldest version that holds what it holds.

Nothing here knows a rule: each rule declares what its file holds
(:mod:`rosenblatt.base._file_form`). The modules, one job each:

- :mod:`._format`: the ``.npz`` container, the metadata, the attributes' values;
- :mod:`._estimator`: an estimator's metadata, fitted attributes, prediction state;
- :mod:`._training` and :mod:`._packing`: the training state, packed and restored;
- :mod:`._tagger`: a :class:`~rosenblatt.structured.SequenceTagger`'s two parts.
"""

import pathlib

from ..base._file_form import ModelFileError
from ..structured._tagger import SequenceTagger
from ._estimator import estimator_meta, load_estimator
from ._format import (
    FORMAT,
    FORMAT_VERSION,
    PREDICTION_ONLY_VERSION,
    TRAINING_STATE_VERSION,
    read_arrays,
    read_meta,
    write,
)
from ._tagger import load_tagger, tagger_meta

__all__ = ["FORMAT", "FORMAT_VERSION", "PREDICTION_ONLY_VERSION", "TRAINING_STATE_VERSION",
           "ModelFileError", "load", "save"]


def save(model, path, *, training_state=None, weights_dtype="float64"):
    """Write a fitted estimator to ``path`` (a ``.npz`` file).

    With ``training_state`` (the default for an estimator) the file also holds
    what training needs to go on (format version 2): ``load(path).partial_fit(...)``
    then continues the run bit for bit. ``training_state=False`` writes only what
    prediction needs (format version 1, smaller, readable by rosenblatt 1.x). A
    :class:`~rosenblatt.structured.SequenceTagger` is saved without it unless
    asked (``training_state=True``): a tagger predicts, and its model's state
    (the running weights and averaging sums) is several times the model.

    A sequence model's emission weights are stored by their nonzero values
    (format version 3; a feature string meets few labels, so most of the
    ``n_features × K`` weights are zero): the same weights, bit for bit, in a
    file no larger than crfsuite's for the same features. Their values are
    stored in float32 when that loses nothing (every value a float32 exactly),
    else in float64, unless ``weights_dtype="float32"`` asks for them rounded:
    smaller, and on CoNLL-2000 chunking and EWT part-of-speech tagging no
    predicted label changed (see ``benchmarks/bench_model_size.py``), but a path
    whose score is within rounding of another's could; it is the caller's call,
    checked on held-out data, and refused with ``training_state``.

    >>> import tempfile, pathlib
    >>> from rosenblatt import Perceptron
    >>> model = Perceptron(shuffle="none").fit([[0, 0], [1, 1]], ["no", "yes"])
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "model.npz"
    >>> save(model, path)
    >>> load(path).predict([[2, 2]]).tolist()
    ['yes']

    A model trained by :class:`~rosenblatt.distributed.ParameterMixing` is saved
    as the estimator it trained (its ``estimator_``), with its mixed training
    state. A model read from a file without training state is saved without it.
    """
    arrays = {}
    tagger = isinstance(model, SequenceTagger)
    if training_state is None:
        training_state = not tagger
    meta_of = tagger_meta if tagger else estimator_meta
    write(path, meta_of(model, arrays, training_state, weights_dtype), arrays)


def load(path):
    """Read a model written by :func:`save`; refuses anything else with a
    :class:`ModelFileError` (a ``ValueError``) saying what is wrong.

    Parameters
    ----------
    path : str or path-like
        A ``.npz`` file written by :func:`save`.

    Returns
    -------
    estimator
        The fitted estimator, ready to predict, and to go on training where the
        saved run stopped (``partial_fit``, a warm-start ``fit``) when the file
        holds the training state. A file without it (format version 1) gives a
        model that refuses both, saying so.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> from rosenblatt import Perceptron
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "and.npz"
    >>> save(Perceptron(shuffle="none").fit([[0, 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1]),
    ...      path)
    >>> model = load(path)
    >>> model.coef_.tolist(), model.predict([[1, 1]]).tolist()
    ([[3.0, 2.0]], [1])
    >>> model.partial_fit([[1, 1]], [0]).coef_.tolist()   # one more epoch, from the saved run
    [[2.0, 1.0]]
    """
    path = pathlib.Path(path)
    if not path.is_file():
        raise ModelFileError(f"{path}: no such model file.")
    try:
        arrays = read_arrays(path)
    except ModelFileError:
        raise
    except Exception as error:  # noqa: BLE001 - zipfile and numpy raise many kinds on damage:
        # BadZipFile, EOFError, ValueError, and zipfile's "unsupported version" error
        # (a built-in exception class) when the version field is damaged
        raise ModelFileError(
            f"{path}: not a readable model file (truncated, damaged, or holding pickled "
            f"objects, which are refused): {error}"
        ) from error
    meta = read_meta(path, arrays)
    if meta.get("estimator") == "SequenceTagger":
        return load_tagger(path, meta, arrays)
    return load_estimator(path, meta, arrays)
