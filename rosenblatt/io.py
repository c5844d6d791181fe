"""Model files: JSON metadata and NumPy arrays in one ``.npz``, never a pickle.

A model file holds an array ``__meta__`` (a JSON text: format and version, the
library version, the estimator's class and parameters, its scalar fitted
attributes) and one array per fitted array. Loading uses
``numpy.load(..., allow_pickle=False)``, re-validates every parameter through
the estimator's own checks, and checks the arrays against each other, so a
truncated, tampered or foreign file is refused with a ``ValueError`` and no
code in it is ever run. Files are written to a temporary name and renamed, so
a crash never leaves half a model behind.

Since format version 2 a file also holds the **training state**: every field
of each :class:`~rosenblatt.base.Problem` and of its rule's state (the running
weights, the averaging sums, the examples seen, the counters, the random
generator), so that ``load`` then ``partial_fit`` continues the run exactly
as if it had never been saved. The fields are found with
:func:`dataclasses.fields`, not listed here (see :func:`_pack`). A file without
it (version 1, or ``save(..., training_state=False)``) still loads and
predicts; its model refuses ``partial_fit`` and a warm-start ``fit``.

A :class:`~rosenblatt.structured.SequenceTagger` is saved as two parts (the
metadata's ``parts``, see :func:`_tagger_meta`): its ``SequencePerceptron``, stored
as a model file of that estimator stores it, under the prefix ``model:``, and its
``SentenceFeatures``: the template as its entry strings (a template with a Python
callable is refused by ``save``), the vocabulary as arrays of strings and columns.
Loading parses the template's strings; it runs nothing the file holds.
"""

import dataclasses
import inspect
import json
import math
import os
import pathlib
import re
import tempfile
import warnings
import zipfile

import numpy as np
import scipy.sparse as sp
from sklearn.base import clone

from . import __version__, linear_model
from ._validation import check_csr_structure
from .base import Problem
from .structured._features import SentenceFeatures, default_template
from .structured._sequence import SequencePerceptron
from .structured._tagger import SequenceTagger

FORMAT = "rosenblatt-model"
#: the newest format this version reads and writes: 2 holds the training state
FORMAT_VERSION = 2
#: the format of a file without training state, which rosenblatt before 2 reads too
PREDICTION_ONLY_VERSION = 1
ESTIMATORS = {name: getattr(linear_model, name) for name in linear_model.__all__}
ESTIMATORS["SequencePerceptron"] = SequencePerceptron


class ModelFileError(ValueError):
    """A model file that cannot be loaded: what is wrong with it, and why.

    A ``ValueError``, so ``except ValueError`` catches it too.

    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "not-a-model.npz"
    >>> _ = path.write_bytes(b"hello")
    >>> try:
    ...     load(path)
    ... except ModelFileError as error:
    ...     print(type(error).__name__, "not a readable model file" in str(error))
    ModelFileError True
    """


# ----------------------------------------------------------------------- saving

def save(model, path, *, training_state=True):
    """Write a fitted estimator to ``path`` (a ``.npz`` file).

    With ``training_state`` (the default) the file also holds what training
    needs to go on (format version 2): ``load(path).partial_fit(...)`` then
    continues the run bit for bit. ``training_state=False`` writes only what
    prediction needs (format version 1, smaller, readable by rosenblatt 1.x).

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
    if isinstance(model, SequenceTagger):
        arrays = {}
        meta = _tagger_meta(model, arrays, training_state)
    else:
        arrays = {}
        meta = _estimator_meta(model, arrays, training_state)
    meta = {"format": FORMAT, "library_version": __version__, **meta}
    arrays["__meta__"] = np.array(json.dumps(meta))
    _write(path, arrays)


def _estimator_meta(model, arrays, training_state):
    """The metadata of an estimator, its arrays added to ``arrays``: what
    :func:`_load_estimator` reads back."""
    if type(model).__name__ == "ParameterMixing" and hasattr(model, "estimator_"):
        model = model.estimator_
    name = type(model).__name__
    if ESTIMATORS.get(name) is not type(model):
        last = model.steps[-1][1] if name == "Pipeline" and getattr(model, "steps", None) \
            else None
        step = "; or save its last step alone, save(pipeline[-1], path), and rebuild the rest" \
            if ESTIMATORS.get(type(last).__name__) is type(last) else ""
        raise ValueError(
            f"save writes rosenblatt estimators (arrays and JSON, read back without running "
            f"code); got a {name}. To save a scikit-learn Pipeline or any other object, use "
            "joblib.dump (a pickle: load only files you trust) or skops.io.dump (whose "
            f"skops.io.load lists the types it would create and asks you to trust them){step}."
        )
    if not hasattr(model, "classes_"):
        raise ValueError(f"This {name} is not fitted yet: call fit before save.")
    attributes = {}
    for key, value in vars(model).items():
        if key.endswith("_") and not key.startswith("_") and key != "trace_":
            _put(key, value, arrays, attributes)
    for key, value in model._prediction_state().items():
        _put(f"state:{key}", value, arrays, attributes)
    meta = {
        "format_version": PREDICTION_ONLY_VERSION,
        "estimator": name,
        "params": {key: _encode(key, value) for key, value in model.get_params().items()},
        "attributes": attributes,
    }
    if training_state and _holds_training_state(model):
        meta["training"] = [_pack_problem(k, problem, arrays)
                            for k, problem in enumerate(model._problems)]
        meta["format_version"] = FORMAT_VERSION
    return meta


def _write(path, arrays):
    """Write ``arrays`` to ``path`` through a temporary file renamed at the end."""
    path = pathlib.Path(path)
    handle, temporary = tempfile.mkstemp(dir=path.parent or ".", suffix=".tmp")
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(temporary, 0o666 & ~umask)  # mkstemp's 0600 would outlive the rename
    try:
        with os.fdopen(handle, "wb") as stream:
            np.savez(stream, **arrays)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.remove(temporary)
        raise


def _put(key, value, arrays, attributes):
    """Store one attribute: arrays (and sparse matrices, tuples) in ``arrays``,
    JSON-able scalars in ``attributes``."""
    if isinstance(value, tuple):
        attributes[key] = {"tuple": len(value)}
        for k, item in enumerate(value):
            _put(f"{key}#{k}", item, arrays, attributes)
    elif sp.issparse(value):
        value = sp.csr_matrix(value)
        attributes[key] = {"csr": list(value.shape)}
        for part in ("data", "indices", "indptr"):
            arrays[f"{key}.{part}"] = getattr(value, part)
    elif isinstance(value, np.ndarray):
        if value.dtype == object:
            value = value.astype(str)  # feature names, string labels
        arrays[key] = value
        attributes[key] = {"array": True}
    elif isinstance(value, (bool, np.bool_)):
        attributes[key] = bool(value)
    elif isinstance(value, (int, np.integer)):
        attributes[key] = int(value)
    elif isinstance(value, (float, np.floating)):
        attributes[key] = float(value)
    elif value is None or isinstance(value, str):
        attributes[key] = value
    else:
        raise ValueError(f"Cannot save attribute {key} of type {type(value).__name__}.")


def _encode(key, value):
    """A parameter as JSON, with arrays and dicts tagged."""
    if callable(value):
        raise ValueError(
            f"Parameter {key} is a Python callable, which a model file cannot hold safely; "
            "use a named kernel (\"linear\", \"poly\", \"rbf\") to save this model."
        )
    if isinstance(value, (np.random.RandomState, np.random.Generator)):
        return None  # a generator's state is not part of the model
    if isinstance(value, np.ndarray) or (isinstance(value, list)):
        return {"array": np.asarray(value, dtype=np.float64).tolist()}
    if isinstance(value, dict):
        return {"dict": [[_plain(k), _plain(v)] for k, v in value.items()]}
    return _plain(value)


def _plain(value):
    return value.item() if isinstance(value, np.generic) else value


# ---------------------------------------------------------------------- loading

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
        arrays = _read_arrays(path)
    except ModelFileError:
        raise
    except Exception as error:  # noqa: BLE001 - zipfile and numpy raise many kinds on damage:
        # BadZipFile, EOFError, ValueError, and zipfile's "unsupported version" error
        # (a built-in exception class) when the version field is damaged
        raise ModelFileError(
            f"{path}: not a readable model file (truncated, damaged, or holding pickled "
            f"objects, which are refused): {error}"
        ) from error
    meta = _meta(path, arrays)
    if meta.get("estimator") == "SequenceTagger":
        return _load_tagger(path, meta, arrays)
    return _load_estimator(path, meta, arrays)


def _load_estimator(path, meta, arrays):
    """The estimator that ``meta`` (checked by :func:`_meta`, or a tagger's part)
    describes, from ``arrays``, every one of which it must use."""
    cls = ESTIMATORS.get(meta.get("estimator"))
    if cls is None:
        raise ModelFileError(f"{path}: unknown estimator {meta.get('estimator')!r}.")
    try:
        params = {key: _decode(value) for key, value in meta["params"].items()}
        model = cls(**params)
        model._validate_params()
    except (TypeError, ValueError, AttributeError, KeyError) as error:
        raise ModelFileError(f"{path}: invalid parameters for {cls.__name__}: {error}") \
            from error
    attributes, named = _attributes(path, meta, cls, arrays)
    state = {}
    for key in attributes:
        if "#" in key or "." in key:
            continue
        value = _get(path, key, arrays, attributes)
        if key.startswith("state:"):
            state[key[len("state:"):]] = value
        else:
            setattr(model, key, value)
    _check_consistency(path, model)
    _check_prediction_state(path, model, state)
    try:
        model._restore_prediction_state(state)
        # every part of the file is read by this: a wrong one fails here, not later
        with warnings.catch_warnings():  # the probe has no column names; the model may
            warnings.filterwarnings("ignore", "X does not have valid feature names")
            model.decision_function(sp.csr_matrix((1, model.n_features_in_)))
    except Exception as error:  # noqa: BLE001 - whatever a forged file breaks is its fault
        raise ModelFileError(f"{path}: inconsistent model state: {error}") from error
    training = meta.get("training")
    if training is None:
        # what the file holds is enough to predict, not to go on training: partial_fit
        # and a warm-start fit refuse while this is set (a fresh fit clears it)
        model._model_file = str(path)
        named_by_training = set()
    else:
        named_by_training = _restore_training(path, model, training, arrays)
    extra = set(arrays) - named - named_by_training - {"__meta__"}
    if extra:
        raise ModelFileError(f"{path}: arrays {sorted(extra)} belong to no attribute.")
    return model


def _read_arrays(path):
    """Every array of the file, after checking each member's header against its size.

    Only members written as :func:`save` writes them are read: uncompressed ``.npy``
    files of plain (not object) dtype whose stored size is exactly what their
    header announces, so a small forged file cannot make the reader allocate more
    than the file holds.
    """
    arrays = {}
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            name = info.filename[:-4] if info.filename.endswith(".npy") else None
            if name is None or info.compress_type != zipfile.ZIP_STORED:
                raise ModelFileError(f"{path}: member {info.filename!r} is not an uncompressed "
                                     ".npy array; this is not a file written by save.")
            with archive.open(info) as member:
                version = np.lib.format.read_magic(member)
                read_header = (np.lib.format.read_array_header_1_0 if version == (1, 0)
                               else np.lib.format.read_array_header_2_0)
                shape, _, dtype = read_header(member)
                size = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
                if dtype.hasobject:
                    raise ModelFileError(f"{path}: member {name!r} holds pickled objects, "
                                         "which are refused.")
                if dtype.kind not in "fiubU":
                    raise ModelFileError(f"{path}: member {name!r} holds {dtype} values; model "
                                         "files hold numbers, booleans and labels only.")
                if member.tell() + size != info.file_size:
                    raise ModelFileError(
                        f"{path}: member {name!r} announces {shape} of {dtype}, which does not "
                        f"match its {info.file_size} bytes."
                    )
            with archive.open(info) as member:
                arrays[name] = np.lib.format.read_array(member, allow_pickle=False)
    return arrays


#: the tags a stored attribute's description may carry
_SPECS = {"tuple", "csr", "array"}


def _documented_attributes(cls):
    """The fitted attributes the class documents, and scikit-learn's
    ``feature_names_in_`` (set by a fit on a DataFrame): the only ones a file may set."""
    doc = inspect.getdoc(cls) or ""
    section = re.search(r"^Attributes\n-+\n(.*?)(?:\n\S[^\n]*\n-+\n|\Z)", doc, re.S | re.M)
    documented = set(re.findall(r"^(\w+) :", section.group(1), re.M)) if section else set()
    return documented | {"feature_names_in_"}


def _attributes(path, meta, cls, arrays):
    """The file's attribute descriptions, checked (known names, known tags), and
    the arrays they name (the caller checks that no other array is there)."""
    attributes = meta.get("attributes", {})
    if not isinstance(attributes, dict):
        raise ModelFileError(f"{path}: the metadata's attributes are not a mapping.")
    allowed = _documented_attributes(cls) - _NOT_STORED
    named = set()
    for key, spec in attributes.items():
        base = re.split(r"[#.]", key, maxsplit=1)[0]
        if not key.startswith("state:") and base not in allowed:
            raise ModelFileError(f"{path}: {cls.__name__} has no attribute {key!r}.")
        if not key.startswith("state:") and isinstance(inspect.getattr_static(cls, base, None),
                                                        property):
            raise ModelFileError(f"{path}: {key}: is computed from the model's state, not "
                                 "read from a file; a file written by save does not hold it.")
        if "." in key or ("#" in key and not _in_tuple(key, attributes)):
            raise ModelFileError(f"{path}: {key}: belongs to no stored tuple; a file written "
                                 "by save does not hold it.")
        if isinstance(spec, dict):
            if len(spec) != 1 or not set(spec) <= _SPECS:
                raise ModelFileError(f"{path}: attribute {key!r} has an unknown description.")
            if "array" in spec:
                named.add(key)
            elif "csr" in spec:
                named.update(f"{key}.{part}" for part in ("data", "indices", "indptr"))
        elif not (spec is None or isinstance(spec, (bool, int, float, str))):
            raise ModelFileError(f"{path}: attribute {key!r} has a value of an unknown kind.")
    return attributes, named


#: documented attributes a file never holds: the trace is not saved
_NOT_STORED = frozenset({"trace_"})


def _in_tuple(key, attributes):
    """Whether ``key`` (``name#k``) is item ``k`` of a tuple the attributes describe."""
    parent, _, index = key.rpartition("#")
    spec = attributes.get(parent)
    return index.isdigit() and str(int(index)) == index and isinstance(spec, dict) and \
        "tuple" in spec and _whole(spec["tuple"], int(index) + 1, _LARGEST_COUNT)


def _meta(path, arrays):
    if "__meta__" not in arrays:
        raise ModelFileError(f"{path}: no metadata; this is not a rosenblatt model file.")
    try:
        meta = json.loads(str(arrays["__meta__"]))
    except (json.JSONDecodeError, UnicodeError) as error:
        raise ModelFileError(f"{path}: the metadata is not valid JSON: {error}") from error
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ModelFileError(f"{path}: not a rosenblatt model file.")
    version = meta.get("format_version")
    if not isinstance(version, int) or version > FORMAT_VERSION:
        raise ModelFileError(
            f"{path}: model file format {version!r} is newer than this rosenblatt "
            f"{__version__} reads ({FORMAT_VERSION}); upgrade rosenblatt to load it."
        )
    return meta


def _decode(value):
    if isinstance(value, dict) and set(value) == {"array"}:
        return np.array(value["array"], dtype=np.float64)
    if isinstance(value, dict) and set(value) == {"dict"}:
        return {k: v for k, v in value["dict"]}
    return value


def _get(path, key, arrays, attributes):
    spec = attributes[key]
    try:
        if isinstance(spec, dict) and "tuple" in spec:
            if not _whole(spec["tuple"], 0, _LARGEST_COUNT):
                _fail(path, key, f"is described as a tuple of {spec['tuple']!r} items; "
                                 "expected a whole number of items")
            return tuple(_get(path, f"{key}#{k}", arrays, attributes)
                         for k in range(spec["tuple"]))
        if isinstance(spec, dict) and "csr" in spec:
            shape = spec["csr"]
            if not (isinstance(shape, list) and len(shape) == 2 and
                    all(_whole(n, 0, _LARGEST_COUNT) for n in shape)):
                _fail(path, key, f"is described as a sparse matrix of shape {shape!r}; "
                                 "expected [rows, columns], two whole numbers >= 0")
            parts = [arrays[f"{key}.{part}"] for part in ("data", "indices", "indptr")]
            if parts[0].dtype not in _WEIGHT_DTYPES or parts[0].ndim != 1:
                _fail(path, f"{key}.data", f"holds {_describe(parts[0])}; expected a 1-D "
                                           "array of float64 or float32 values")
            if not np.all(np.isfinite(parts[0])):
                _fail(path, f"{key}.data", "holds NaN or infinity; expected finite values")
            for name, part in zip(("indices", "indptr"), parts[1:]):
                if part.dtype.kind != "i" or part.ndim != 1:
                    _fail(path, f"{key}.{name}", f"holds {_describe(part)}; expected a 1-D "
                                                 "array of integers")
            matrix = sp.csr_matrix(tuple(parts), shape=tuple(shape))
            check_csr_structure(matrix)  # indices within the shape: the kernels trust them
            return matrix
        if isinstance(spec, dict) and "array" in spec:
            if spec["array"] is not True:
                _fail(path, key, f"is described as {spec!r}; expected {{'array': true}}")
            return arrays[key]
    except ModelFileError:
        raise
    except KeyError as error:
        raise ModelFileError(f"{path}: array {error} is missing (truncated file?).") from None
    except (ValueError, TypeError, OverflowError) as error:
        raise ModelFileError(f"{path}: array {key} is damaged: {error}") from None
    return spec


def _fail(path, field, why):
    raise ModelFileError(f"{path}: {field}: {why}.")


#: the largest count a file may hold: what an int64 holds
_LARGEST_COUNT = 2**63 - 1
#: the most features a model may have (scipy's CSR column indices are int32 below it)
_LARGEST_WIDTH = 2**31 - 1
#: the dtypes of stored weights (``weights_dtype``) and of stored rows
_WEIGHT_DTYPES = {np.dtype(np.float64), np.dtype(np.float32)}


def _count(path, field, value, low=0, high=_LARGEST_COUNT):
    if not _whole(value, low, high):
        _fail(path, field, f"must be a whole number from {low} to {high}; got {value!r}")
    return value


def _floats(path, field, value, shape, finite=True, low=None, against="",
            dtypes=(np.dtype(np.float64),)):
    """``value`` must be an array of ``shape`` (``None`` entries: any length) and one
    of ``dtypes`` (float64: what fit publishes), finite unless told otherwise, and
    ``>= low`` when given; ``against`` names what the shape comes from."""
    if not isinstance(value, np.ndarray) or value.dtype not in dtypes or \
            value.ndim != len(shape) or any(n is not None and n != m
                                            for n, m in zip(shape, value.shape)):
        wanted = tuple("any" if n is None else n for n in shape)
        kinds = " or ".join(str(dtype) for dtype in dtypes)
        _fail(path, field, f"must be an array of shape {wanted} of {kinds} values{against}; "
                           f"got {_describe(value)}")
    if finite and not np.all(np.isfinite(value)):
        _fail(path, field, "holds NaN or infinity; expected finite numbers")
    if not finite and np.any(np.isnan(value)):
        _fail(path, field, "holds NaN")
    if low is not None and value.size and value.min() < low:
        _fail(path, field, f"holds {value.min()!r}, below {low}")
    return value


def _ints(path, field, value, length, low=0, high=None, against=""):
    """``value`` must be a 1-D integer array of ``length`` (``None``: any) within
    ``[low, high]``."""
    if not isinstance(value, np.ndarray) or value.dtype.kind not in "iu" or value.ndim != 1 \
            or (length is not None and len(value) != length):
        wanted = "any length" if length is None else f"length {length}"
        _fail(path, field, f"must be a 1-D array of whole numbers of {wanted}{against}; "
                           f"got {_describe(value)}")
    if value.size and (value.min() < low or (high is not None and value.max() > high)):
        bad = value.min() if value.min() < low else value.max()
        _fail(path, field, f"holds {bad}, outside [{low}, {'any' if high is None else high}]"
                           f"{against}")
    return value


def _number(path, field, value, low=None, strictly=False, kinds=(int, float)):
    if isinstance(value, bool) or not isinstance(value, kinds) or \
            not math.isfinite(value) or abs(value) > float(np.finfo(np.float64).max) or \
            (low is not None and (value <= low if strictly else value < low)):
        bound = "" if low is None else f" {'>' if strictly else '>='} {low}"
        _fail(path, field, f"must be a finite number{bound}; got {value!r}")
    return value


def _expected_rows(model):
    """The rows of ``coef_`` (and the length of ``intercept_``): one per problem, and
    one per class for the multiclass perceptron's single problem."""
    if isinstance(model, (linear_model.MulticlassPerceptron, SequencePerceptron,
                          linear_model.MulticlassAROW, linear_model.MulticlassSCW,
                          linear_model.MulticlassPassiveAggressive)):
        return len(model.classes_)
    return len(model._learner()._problem_classes())


def _check_consistency(path, model):
    """The arrays must fit each other: a mismatch means a damaged or edited file."""
    n_features = getattr(model, "n_features_in_", None)
    classes = getattr(model, "classes_", None)
    if n_features is None or classes is None:
        missing = "n_features_in_" if n_features is None else "classes_"
        _fail(path, missing, "is missing; n_features_in_ or classes_ is missing or invalid")
    _count(path, "n_features_in_", n_features, 1, _LARGEST_WIDTH)
    if not isinstance(classes, np.ndarray) or classes.ndim != 1 or len(classes) < 2 or \
            classes.dtype.kind not in "iubfU":
        _fail(path, "classes_", f"must be a 1-D array of at least 2 labels (numbers, booleans "
                                f"or strings); got {_describe(classes)}")
    if classes.dtype.kind == "f" and not np.all(np.isfinite(classes)):
        _fail(path, "classes_", "holds NaN or infinity; labels are finite")
    if not np.all(classes[1:] > classes[:-1]):
        _fail(path, "classes_", "is not sorted without repeats, as fit leaves it (n_features_in_"
                                " or classes_ is missing or invalid)")
    problems = len(model._learner()._problem_classes())
    for name in ("n_iter_", "n_updates_", "n_examples_"):
        if hasattr(model, name):
            _count(path, name, getattr(model, name))
    if not isinstance(getattr(model, "converged_", False), bool):
        _fail(path, "converged_", f"must be true or false; got {model.converged_!r}")
    names = getattr(model, "feature_names_in_", None)
    if names is not None and (not isinstance(names, np.ndarray) or names.dtype.kind != "U" or
                              names.shape != (n_features,)):
        _fail(path, "feature_names_in_", f"does not name {n_features} features with strings; "
                                         f"got {_describe(names)}")
    rows = _expected_rows(model)
    is_kernel = isinstance(model, linear_model.KernelPerceptron)
    if isinstance(model, SequencePerceptron):  # transitions instead of biases
        for name, shape in (("transitions_", (rows, rows)), ("start_transitions_", (rows,))):
            if getattr(model, name, None) is None:
                _fail(path, name, "is missing; prediction needs it")
            _floats(path, name, getattr(model, name), shape, against=" (one per label)")
    for name in (() if isinstance(model, SequencePerceptron) else ("intercept_",)) + \
            (() if is_kernel else ("coef_",)):
        if getattr(model, name, None) is None:
            _fail(path, name, "is missing; prediction needs it")
    intercept, coef = getattr(model, "intercept_", None), getattr(model, "coef_", None)
    if is_kernel and coef is not None:
        _fail(path, "coef_", "is no attribute of KernelPerceptron")
    if coef is not None:
        if not _float_array(coef) or coef.ndim != 2 or coef.shape != (rows, n_features):
            _fail(path, "coef_", f"coef_ has shape {getattr(coef, 'shape', None)}, which does "
                                 f"not match n_features_in_={n_features} and the "
                                 f"{len(classes)} labels of classes_ (expected ({rows}, "
                                 f"{n_features}))")
        if coef.dtype != np.float64:
            _fail(path, "coef_", f"holds {coef.dtype} values; expected float64, as fit "
                                 "publishes them")
        if not np.all(np.isfinite(coef)):
            _fail(path, "coef_", "the weights hold NaN or infinity")
    if not isinstance(model, SequencePerceptron):
        _floats(path, "intercept_", intercept, (rows,), against=(
            f" (one per {'class' if rows == len(classes) else 'problem'} of classes_)"))
    if hasattr(model, "pocket_errors_"):
        _floats(path, "pocket_errors_", model.pocket_errors_, (problems,), low=0)
    if hasattr(model, "covariance_"):  # the second-order rules: Σ per problem, no bias
        shape = (n_features, n_features) if model.covariance == "full" else (n_features,)
        _floats(path, "covariance_", model.covariance_,
                shape if problems == 1 else (problems,) + shape,
                against=f" (covariance={model.covariance!r}, {problems} problem(s))")
    if hasattr(model, "n_mistakes_"):
        _ints(path, "n_mistakes_", model.n_mistakes_, None)  # one count per epoch
    if hasattr(model, "eta_"):
        _number(path, "eta_", model.eta_, low=0, strictly=True, kinds=float)
    if hasattr(model, "loss_curve_"):  # one curve, or a tuple of one per problem
        curves = model.loss_curve_
        if problems == 1 or not isinstance(curves, tuple):
            _floats(path, "loss_curve_", curves, (None,), finite=False)
        elif len(curves) != problems:
            _fail(path, "loss_curve_", f"holds {len(curves)} curves; expected {problems}, "
                                       "one per problem")
        for k, curve in enumerate(curves if isinstance(curves, tuple) else ()):
            _floats(path, f"loss_curve_#{k}", curve, (None,), finite=False)


def _state_keys(model):
    """The keys of ``model``'s prediction state, by the fields its class stores."""
    problems = range(len(model._learner()._problem_classes()))
    if isinstance(model, linear_model.VotedPerceptron):
        return [f"vote{k}_{name}" for k in problems for name in _VOTE_FIELDS]
    if isinstance(model, linear_model.KernelPerceptron):
        return [f"problem{k}_{name}" for k in problems for name in _DUAL_FIELDS]
    return []


_VOTE_FIELDS = ("coef_start", "intercept_start", "updates", "intercept_updates", "counts")
_DUAL_FIELDS = ("support", "dual", "sequence", "steps", "positions", "seen")


def _check_prediction_state(path, model, state):
    """The prediction state (``state:`` entries) against the class's fields, the
    public attributes and each other: every length, dtype and range, in one pass over
    each array (no quadratic check), before the estimator reads any of it."""
    expected = _state_keys(model)
    for key in sorted(set(state) - set(expected)):
        _fail(path, f"state:{key}", f"is not part of a {type(model).__name__} model with "
                                    f"{len(model.classes_)} classes")
    for key in expected:
        if key not in state:
            _fail(path, f"state:{key}", "is missing; prediction needs it")
    if isinstance(model, linear_model.VotedPerceptron):
        for k in range(len(model._learner()._problem_classes())):
            _check_vote(path, model, k, {name: state[f"vote{k}_{name}"] for name in
                                         _VOTE_FIELDS})
    elif isinstance(model, linear_model.KernelPerceptron):
        _check_dual_problems(path, model, state)


def _close(a, b):
    """Equal up to rounding: the same sums taken in another order."""
    scale = max(float(np.max(np.abs(a), initial=0.0)), float(np.max(np.abs(b), initial=0.0)),
                1.0)
    return np.allclose(a, b, rtol=1e-6, atol=1e-6 * scale)


def _check_vote(path, model, k, vote):
    d = model.n_features_in_
    field = f"state:vote{k}_"
    start = _floats(path, field + "coef_start", vote["coef_start"], (d,))
    intercept_start = _number(path, field + "intercept_start", vote["intercept_start"])
    updates = vote["updates"]
    if not sp.issparse(updates) or updates.shape[1] != d:
        _fail(path, field + "updates", f"must be a sparse matrix of {d} columns, a row per "
                                       f"update; got {_describe(updates)}")
    m = updates.shape[0]
    rows = f" (one per row of {field}updates)"
    intercepts = _floats(path, field + "intercept_updates", vote["intercept_updates"], (m,),
                         against=rows)
    counts = vote["counts"]
    # one per vector: the start and each update
    _ints(path, field + "counts", counts, m + 1, against=f" (the start and one per row of "
                                                         f"{field}updates)")
    if counts.dtype.kind == "u" or counts.dtype.itemsize != 8:
        _fail(path, field + "counts", f"holds {counts.dtype} values; expected int64")
    if not model.fit_intercept and (intercept_start != 0 or np.any(intercepts != 0)):
        _fail(path, field + "intercept_updates", "moves the bias, which fit_intercept=False "
                                                 "keeps at 0")
    # the last vector met is the running one, published as coef_ and intercept_
    last = start + np.asarray(updates.sum(axis=0)).ravel()
    if not _close(last, model.coef_[k]):
        _fail(path, "coef_", f"row {k} is not the last weight vector of the vote: "
                             f"{field}coef_start plus the rows of {field}updates")
    if not _close(intercept_start + intercepts.sum(), model.intercept_[k]):
        _fail(path, "intercept_", f"value {k} is not the last bias of the vote: "
                                  f"{field}intercept_start plus {field}intercept_updates")


def _check_dual_problems(path, model, state):
    d, problems = model.n_features_in_, len(model._learner()._problem_classes())
    supports, duals = [], []
    for k in range(problems):
        field = f"state:problem{k}_"
        support = state[field[6:] + "support"]
        if sp.issparse(support):
            if support.shape[1] != d:
                _fail(path, field + "support", f"has rows of {support.shape[1]} features; "
                                               f"expected {d}")
        else:
            _floats(path, field + "support", support, (None, d), dtypes=_WEIGHT_DTYPES)
        s = support.shape[0]
        dual = _floats(path, field + "dual", state[field[6:] + "dual"], (s,),
                       against=f" (one per row of {field}support)")
        sequence = _ints(path, field + "sequence", state[field[6:] + "sequence"], None,
                         0, s - 1, against=f" (a row of {field}support)")
        m, per_mistake = len(sequence), f" (one per mistake of {field}sequence)"
        steps = _floats(path, field + "steps", state[field[6:] + "steps"], (m,),
                        against=per_mistake)
        seen = _count(path, field + "seen", state[field[6:] + "seen"])
        positions = _ints(path, field + "positions", state[field[6:] + "positions"], m,
                          1, seen, against=per_mistake + f", at most {field}seen")
        if m and np.any(positions[1:] < positions[:-1]):
            _fail(path, field + "positions", "is not in the order of the examples (the "
                                             "example number of each mistake, non-decreasing)")
        if m or model.voting is not None:
            # every support vector came from a mistake, in the order of the first ones,
            # and its coefficient is the sum of its mistakes' steps
            if m and (sequence[0] != 0 or np.any(
                    sequence[1:] > np.maximum.accumulate(sequence)[:-1] + 1)):
                _fail(path, field + "sequence", "does not number the support vectors in the "
                                                "order of their first mistake")
            made = np.bincount(sequence, minlength=s) if m else np.zeros(s, dtype=np.int64)
            if np.any(made == 0):
                _fail(path, field + "support", f"holds {s} support vectors, of which "
                                               f"{int(np.sum(made == 0))} had no mistake in "
                                               f"{field}sequence")
            if not _close(np.bincount(sequence, weights=steps, minlength=s) if m else
                          np.zeros(s), dual):
                _fail(path, field + "dual", f"is not the sum of the steps of each support "
                                            f"vector's mistakes ({field}steps)")
        supports.append(support)
        duals.append(dual)
    # the public attributes are the state, as fit publishes them
    for name, values in (("support_vectors_", supports), ("dual_coef_", duals)):
        stored = getattr(model, name, None)
        published = values[0] if problems == 1 else tuple(values)
        if stored is None:
            _fail(path, name, "is missing; it is what the model's state publishes")
        if not _same_values(stored, published):
            _fail(path, name, f"differs from the model's state (state:problem<k>_"
                              f"{'support' if name == 'support_vectors_' else 'dual'}), "
                              "which prediction uses")


def _same_values(a, b):
    """:func:`_same`, but a dense and a sparse matrix of equal values are the same."""
    if isinstance(a, tuple) or isinstance(b, tuple):
        return isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) and \
            all(_same_values(x, y) for x, y in zip(a, b))
    if sp.issparse(a) != sp.issparse(b):
        return False
    return _same(a, b)


def _float_array(value):
    return isinstance(value, np.ndarray) and value.dtype.kind == "f"


# ----------------------------------------------------------------------- taggers
#
# A SequenceTagger is saved as two parts, in the metadata's "parts": "model", the
# metadata of its SequencePerceptron exactly as a model file of that estimator holds
# it (its arrays stored under the prefix "model:"), and "features", its
# SentenceFeatures: the parameters (the template as its entry strings, the kind of
# vocabulary, n_features) and the fitted n_columns_, template_ and n_features_, with
# the vocabulary as three arrays, "features:strings" (the feature strings in UTF-8,
# one after another, uint8), "features:offsets" (int64, where each string starts and,
# last, where the final one ends) and "features:columns" (int64, each string's
# column). A hashing vocabulary stores no arrays.

#: the most token columns a stored template may read
_MOST_COLUMNS = 10_000
_FEATURES_KEYS = {"template", "template_", "vocabulary", "n_features", "n_columns_",
                  "n_features_"}
_VOCABULARY_ARRAYS = ("features:strings", "features:offsets", "features:columns")


def _tagger_meta(tagger, arrays, training_state):
    """A tagger's metadata, its arrays added to ``arrays`` (see above)."""
    if not hasattr(tagger, "model_"):
        raise ValueError("This SequenceTagger is not fitted yet: call fit before save.")
    model_arrays = {}
    model = _estimator_meta(tagger.model_, model_arrays, training_state)
    if model["estimator"] != "SequencePerceptron":
        raise ValueError(f"A tagger's model must be a SequencePerceptron to be saved; got "
                         f"{model['estimator']}.")
    arrays.update({f"model:{key}": value for key, value in model_arrays.items()})
    version = model.pop("format_version")
    parts = {"features": _pack_features(tagger.features_, arrays), "model": model}
    return {"format_version": version, "estimator": "SequenceTagger", "parts": parts}


def _pack_features(features, arrays):
    entries = list(features.template_)
    for entry in entries:
        if not isinstance(entry, str):
            name = getattr(entry, "__name__", type(entry).__name__)
            raise ValueError(
                f"The tagger's feature template holds the Python callable {name!r}, which a "
                "model file cannot hold safely (loading it would run code); write its "
                "features as template strings (see rosenblatt.structured.default_template)"
                " to save this tagger.")
    template = features.template
    template = "default" if isinstance(template, str) and template == "default" else entries
    vocabulary = features.vocabulary
    kind = vocabulary if isinstance(vocabulary, str) else "dict"
    if features.vocabulary_ is not None:
        names = list(features.vocabulary_)
        if not all(isinstance(name, str) for name in names):
            raise ValueError("The tagger's vocabulary has keys that are not strings; a model "
                             "file holds feature strings only.")
        encoded = [name.encode("utf-8", "surrogatepass") for name in names]
        offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
        np.cumsum([len(item) for item in encoded], out=offsets[1:])
        arrays["features:strings"] = np.frombuffer(b"".join(encoded), dtype=np.uint8)
        arrays["features:offsets"] = offsets
        arrays["features:columns"] = np.fromiter(features.vocabulary_.values(), dtype=np.int64,
                                                 count=len(names))
    return {"template": template, "template_": entries, "vocabulary": kind,
            "n_features": int(features.n_features), "n_columns_": int(features.n_columns_),
            "n_features_": int(features.n_features_), "min_count": int(features.min_count)}


def _load_tagger(path, meta, arrays):
    """A :class:`~rosenblatt.structured.SequenceTagger` from its two parts; every
    array must belong to one."""
    parts = meta.get("parts")
    if not isinstance(parts, dict) or set(parts) != {"features", "model"}:
        _fail(path, "parts", "must hold the tagger's two parts, 'features' and 'model'")
    model_meta = parts["model"]
    if not isinstance(model_meta, dict) or model_meta.get("estimator") != "SequencePerceptron":
        found = model_meta.get("estimator") if isinstance(model_meta, dict) else model_meta
        _fail(path, "parts.model", f"must be a SequencePerceptron; got {found!r}")
    model_arrays, feature_arrays = {}, {}
    for key, value in arrays.items():
        if key.startswith("model:"):
            model_arrays[key[len("model:"):]] = value
        elif key in _VOCABULARY_ARRAYS:
            feature_arrays[key] = value
        elif key != "__meta__":
            raise ModelFileError(f"{path}: array {key!r} belongs to no part of the tagger.")
    model = _load_estimator(path, model_meta, model_arrays)
    features, parameters = _unpack_features(path, parts["features"], feature_arrays)
    if model.n_features_in_ != features.n_features_:
        _fail(path, "parts.model", f"reads {model.n_features_in_} features, but the tagger's "
                                   f"features make {features.n_features_}")
    tagger = SequenceTagger(features=SentenceFeatures(**parameters), model=clone(model))
    tagger.features_, tagger.model_ = features, model
    return tagger


def _unpack_features(path, spec, arrays):
    """The fitted SentenceFeatures ``spec`` and ``arrays`` describe, checked, and its
    parameters."""
    if not isinstance(spec, dict) or set(spec) - {"min_count"} != _FEATURES_KEYS:
        _fail(path, "parts.features", f"must be a mapping of {sorted(_FEATURES_KEYS)} (and "
                                      "min_count)")
    kind = spec["vocabulary"]
    if kind not in ("fit", "hash", "dict"):
        _fail(path, "parts.features.vocabulary", f"must be 'fit', 'hash' or 'dict'; got "
                                                 f"{kind!r}")
    n_features = _count(path, "parts.features.n_features", spec["n_features"], 1,
                        _LARGEST_WIDTH)
    n_columns = _count(path, "parts.features.n_columns_", spec["n_columns_"], 1,
                       _MOST_COLUMNS)
    n_features_ = _count(path, "parts.features.n_features_", spec["n_features_"], 0,
                         _LARGEST_WIDTH)
    entries, template = spec["template_"], spec["template"]
    if not (isinstance(entries, list) and entries and all(isinstance(e, str) for e in entries)):
        _fail(path, "parts.features.template_", "must be a list of template strings")
    if template == "default":
        if entries != default_template(n_columns):
            _fail(path, "parts.features.template_", f"is not the default template of tokens "
                                                    f"of {n_columns} column(s)")
    elif template != entries:
        _fail(path, "parts.features.template", "must be 'default' or the entries of "
                                               "template_")
    stored = set(arrays)
    expected = set() if kind == "hash" else set(_VOCABULARY_ARRAYS)
    if stored != expected:
        missing, extra = sorted(expected - stored), sorted(stored - expected)
        _fail(path, "parts.features", f"a {kind!r} vocabulary is stored as "
                                      f"{sorted(expected) or 'no arrays'}; "
                                      + (f"missing {missing}" if missing else f"extra {extra}"))
    vocabulary = None
    if kind == "hash":
        if n_features_ != n_features:
            _fail(path, "parts.features.n_features_", f"must be n_features, {n_features}, when "
                                                      "hashing")
    else:
        names = _strings(path, arrays["features:strings"], arrays["features:offsets"])
        columns = _ints(path, "features:columns", arrays["features:columns"], len(names), 0,
                        max(n_features_ - 1, 0), against=f" (a column of the {n_features_} "
                                                         "features, one per string)")
        if names and n_features_ == 0:
            _fail(path, "features:columns", "names columns of a vocabulary of 0 features")
        if kind == "fit":  # fit numbers the strings in sorted order
            if any(a >= b for a, b in zip(names, names[1:])):
                _fail(path, "features:strings", "is not sorted without repeats, as fit "
                                                "leaves a vocabulary")
            if n_features_ != len(names) or not np.array_equal(columns, np.arange(len(names))):
                _fail(path, "features:columns", "does not number the sorted strings 0, 1, ..., "
                                                "as fit does")
        else:
            if len(set(names)) != len(names):
                seen = set()
                twice = next(name for name in names if name in seen or seen.add(name))
                _fail(path, "features:strings", f"holds the feature string {twice!r} twice")
            if n_features_ != (int(columns.max()) + 1 if len(columns) else 0):
                _fail(path, "parts.features.n_features_", "is not the largest column of the "
                                                          "vocabulary plus one")
        vocabulary = dict(zip(names, columns.tolist()))
    # files written before min_count existed kept every string: 1
    min_count = _count(path, "parts.features.min_count", spec.get("min_count", 1), 1,
                       _LARGEST_COUNT)
    parameters = {"template": template, "n_features": n_features,
                  "vocabulary": dict(vocabulary) if kind == "dict" else kind,
                  "min_count": min_count}
    features = SentenceFeatures(**parameters)
    try:
        features._setup(n_columns)  # the template parsed: strings, never code
    except ValueError as error:
        raise ModelFileError(f"{path}: parts.features: {error}") from None
    if kind == "fit":
        features.vocabulary_, features.n_features_ = vocabulary, n_features_
    if kind == "dict":
        parameters["vocabulary"] = dict(vocabulary)
    return features, parameters


def _strings(path, strings, offsets):
    """The feature strings: UTF-8 bytes cut at ``offsets``."""
    if strings.dtype != np.uint8 or strings.ndim != 1:
        _fail(path, "features:strings", f"must be a 1-D array of bytes (uint8); got "
                                        f"{_describe(strings)}")
    if offsets.dtype != np.int64 or offsets.ndim != 1 or len(offsets) < 1 or offsets[0] != 0 \
            or offsets[-1] != len(strings) or np.any(offsets[1:] < offsets[:-1]):
        _fail(path, "features:offsets", "must start at 0, never decrease and end at the length "
                                        "of features:strings")
    data, cuts = strings.tobytes(), offsets.tolist()
    try:
        return [data[start:stop].decode("utf-8", "surrogatepass")
                for start, stop in zip(cuts, cuts[1:])]
    except UnicodeDecodeError as error:
        raise ModelFileError(f"{path}: features:strings: not UTF-8 text ({error})") from None


# ---------------------------------------------------------------- training state
#
# A problem is stored as {"fields": {name: packed}, "state": {"type": name,
# "fields": {name: packed}}}, over dataclasses.fields of Problem and of its rule
# state, so a field added to either is saved and restored without a change here.
# A packed value is a JSON literal (None, bool, int, float, str) or a dict with one
# tag: {"array": member}, {"csr": member, "shape": [n, d]}, {"tuple": [packed]},
# {"list": [packed]}, {"numbers": member} (a list of ints or floats),
# {"pieces": member, "lengths": [...]} (a list of 1-D arrays),
# {"blocks": packed matrix, "rows": [...]} (a list of matrices of one width),
# {"random_state": member, "pos": ..., "has_gauss": ..., "cached_gaussian": ...},
# {"generator": state} or {"rng": "problem"} (the problem's own generator).

#: Problem fields a file does not hold: the trace recorder (``trace_`` is not
#: saved either), the renumbering and the penalty's arrays (rebuilt by every
#: call), the labels (rebuilt from ``classes_``) and the state (stored apart).
SKIPPED_FIELDS = frozenset({"recorder", "columns", "penalty", "classes", "state"})

#: Rule-state fields rebuilt from others instead of stored: a budget's support
#: vectors as one-row matrices are the rows of its ``support``.
REBUILT_FIELDS = {
    "BudgetState": {
        "rows": lambda state: [] if state.support is None else
        [state.support[i:i + 1].copy() for i in range(state.support.shape[0])],
    },
}
REBUILT_FIELDS["ForgetronState"] = REBUILT_FIELDS["ProjectronState"] = \
    REBUILT_FIELDS["BudgetState"]

#: The dtypes an array of the training state may have (weights in float32 with
#: ``weights_dtype="float32"``; CSR indices may be int32).
_TRAINING_DTYPES = {np.dtype(t) for t in ("float64", "float32", "int64", "int32")}

#: Bit generators a file may name (numpy.random's own), by class name.
_BIT_GENERATORS = ("PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64")


def _holds_training_state(model):
    """Whether ``model`` has a training state worth saving: its own problems, not
    the placeholders of a model read from a file without them."""
    return hasattr(model, "_problems") and getattr(model, "_model_file", None) is None


def _stored_fields(obj):
    """The dataclass fields of a problem or rule state that a file holds: public,
    neither skipped nor rebuilt."""
    skipped = SKIPPED_FIELDS if isinstance(obj, Problem) else \
        set(REBUILT_FIELDS.get(type(obj).__name__, ()))
    if not dataclasses.is_dataclass(obj):
        return []
    return [f.name for f in dataclasses.fields(obj)
            if not f.name.startswith("_") and f.name not in skipped]


def _pack_problem(k, problem, arrays):
    """One problem's training state as JSON, its arrays added to ``arrays``."""
    name = f"training{k}"
    fields = {field: _pack(getattr(problem, field), f"{name}.{field}", arrays)
              for field in _stored_fields(problem)}
    state = problem.state
    state_fields = {
        field: _pack(getattr(state, field), f"{name}.state.{field}", arrays, problem.rng)
        for field in _stored_fields(state)
    }
    return {"fields": fields, "state": {"type": type(state).__name__, "fields": state_fields}}


def _pack(value, name, arrays, problem_rng=None):
    """``value`` as JSON, its arrays stored in ``arrays`` under names from ``name``.

    >>> arrays = {}
    >>> _pack((1.5, np.zeros(2), [3, 4]), "x", arrays)
    {'tuple': [1.5, {'array': 'x#1'}, {'numbers': 'x#2'}]}
    >>> sorted(arrays)
    ['x#1', 'x#2']
    """
    if problem_rng is not None and value is problem_rng:
        return {"rng": "problem"}  # the state draws from the problem's generator
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, np.generic) and not isinstance(value, np.ndarray):
        value = value.item()
        if isinstance(value, (bool, int, float, str)):
            return value
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, np.random.RandomState):
        _, key, pos, has_gauss, cached = value.get_state()
        arrays[name] = np.asarray(key, dtype=np.uint32)
        return {"random_state": name, "pos": int(pos), "has_gauss": int(has_gauss),
                "cached_gaussian": float(cached)}
    if isinstance(value, np.random.Generator):
        return {"generator": _json_state(value.bit_generator.state)}
    if sp.issparse(value):
        value = sp.csr_matrix(value)
        name = _stored_before(value, arrays) or name
        for part in ("data", "indices", "indptr"):
            arrays[f"{name}.{part}"] = getattr(value, part)
        return {"csr": name, "shape": list(value.shape)}
    if isinstance(value, np.ndarray):
        return {"array": _store(value, name, arrays)}
    if isinstance(value, tuple):
        return {"tuple": [_pack(v, f"{name}#{k}", arrays, problem_rng)
                          for k, v in enumerate(value)]}
    if isinstance(value, list):
        return _pack_list(value, name, arrays, problem_rng)
    raise ValueError(f"Cannot save the training state {name} of type {type(value).__name__}; "
                     "save(..., training_state=False) writes what prediction needs.")


def _store(array, name, arrays):
    """Store ``array`` under ``name``, unless it is stored already: the name it has."""
    name = _stored_before(array, arrays) or name
    arrays[name] = array
    return name


def _stored_before(value, arrays):
    """The name under which the prediction state (or a fitted attribute) already
    stores an array or CSR matrix equal to ``value``, or None: the training state
    names it instead of storing it twice (a voted perceptron's update rows). Only
    names outside the training state qualify: the training state reads each of its
    own arrays once, and copies of the others (see :class:`_Reader`)."""
    for key, stored in arrays.items():
        if key.startswith("training") or key == "__meta__":
            continue
        if sp.issparse(value):
            base, _, part = key.rpartition(".")
            parts = [arrays.get(f"{base}.{p}") for p in ("data", "indices", "indptr")]
            if part == "data" and all(p is not None for p in parts) and all(
                    _equal_arrays(a, b) for a, b in
                    zip(parts, (value.data, value.indices, value.indptr))):
                return base
        elif _equal_arrays(stored, value):
            return key
    return None


def _equal_arrays(a, b):
    return a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b)


def _pack_list(value, name, arrays, problem_rng):
    """A list in one array where its items allow (numbers, 1-D arrays, matrices of
    one width), else item by item: a state logs one item per mistake or epoch."""
    if value and all(_is_number(v) for v in value):
        ints = all(isinstance(v, (int, np.integer)) for v in value)
        return {"numbers": _store(np.array(value, dtype=np.int64 if ints else np.float64),
                                  name, arrays)}
    if value and all(isinstance(v, np.ndarray) and v.ndim == 1 for v in value) and \
            len({v.dtype for v in value}) == 1:
        return {"pieces": _store(np.concatenate(value), name, arrays),
                "lengths": [len(v) for v in value]}
    matrices = value and all(sp.issparse(v) or (isinstance(v, np.ndarray) and v.ndim == 2)
                             for v in value)
    if matrices and len({v.shape[1] for v in value}) == 1 and \
            len({sp.issparse(v) for v in value}) == 1 and len({v.dtype for v in value}) == 1:
        stacked = sp.vstack(value, format="csr") if sp.issparse(value[0]) else np.vstack(value)
        return {"blocks": _pack(stacked, name, arrays), "rows": [v.shape[0] for v in value]}
    return {"list": [_pack(v, f"{name}#{k}", arrays, problem_rng) for k, v in enumerate(value)]}


def _is_number(value):
    return isinstance(value, (int, float, np.integer, np.floating)) and \
        not isinstance(value, (bool, np.bool_))


def _json_state(value):
    """A bit generator's state as JSON: its arrays tagged with their dtype."""
    if isinstance(value, dict):
        return {key: _json_state(item) for key, item in value.items()}
    if isinstance(value, np.ndarray):
        return {"ndarray": value.tolist(), "dtype": value.dtype.name}
    return value.item() if isinstance(value, np.generic) else value


def _restore_training(path, model, training, arrays):
    """Rebuild ``model._problems`` from the file's training state; returns the
    names of the arrays it read.

    Every field is checked against the problems the estimator itself would start
    for ``classes_`` and ``n_features_in_`` (the same fields, rule state, shapes
    and dtypes), every array for finite values and counts >= 0, every generator
    for a state of its kind; then the weights the problems publish must be, bit
    for bit, the ``coef_``/``intercept_`` (and prediction state) the file holds.
    """
    templates = _template_problems(path, model)
    if not isinstance(training, list) or len(training) != len(templates):
        count = len(training) if isinstance(training, list) else "no list of"
        raise ModelFileError(
            f"{path}: training state: {count} problems, where {len(model.classes_)} classes "
            f"make {len(templates)}.")
    reader = _Reader(path, arrays, model.n_features_in_)
    problems = [_restore_problem(reader, k, stored, template)
                for k, (stored, template) in enumerate(zip(training, templates))]
    _check_published(path, model, problems)
    return reader.used


def _template_problems(path, model):
    """The problems ``model`` would start with: what a stored problem must look like."""
    try:
        return model._learner().start_problems(np.zeros((1, model.n_features_in_)),
                                               np.random.RandomState(0))
    except (ValueError, TypeError) as error:
        raise ModelFileError(f"{path}: training state: {type(model).__name__} cannot start "
                             f"training with these parameters: {error}") from error


def _restore_problem(reader, k, stored, template):
    where = f"problem{k}"
    if not isinstance(stored, dict) or set(stored) != {"fields", "state"} or \
            not isinstance(stored["state"], dict) or \
            set(stored["state"]) != {"type", "fields"}:
        reader.fail(where, "is not a stored problem")
    problem, shapes = template, {template.coef.shape, template.intercept.shape}
    problem.recorder = None  # trace_ is not saved: a loaded model records no trace
    _restore_fields(reader, where, problem, stored["fields"], shapes, None)
    state, kind = problem.state, type(problem.state).__name__
    if stored["state"]["type"] != kind:
        reader.fail(f"{where}.state", f"is a {stored['state']['type']!r}; this estimator "
                                      f"keeps a {kind!r}")
    _restore_fields(reader, f"{where}.state", state, stored["state"]["fields"], shapes,
                    problem.rng)
    for name, rebuild in REBUILT_FIELDS.get(kind, {}).items():
        setattr(state, name, rebuild(state))
    if isinstance(state, linear_model._kernel_perceptron.BudgetState):
        _check_budget_state(reader, f"{where}.state", state)
    return problem


def _check_budget_state(reader, where, state):
    """A budget's bookkeeping: an example number per support vector (the oldest
    is removed by it), and the Forgetron's damage ``Q`` within [0, 15/32 M] (its
    shrinking factor exists only then)."""
    n = 0 if state.support is None else state.support.shape[0]
    if len(state.born) != n:
        reader.fail(f"{where}.born", f"holds {len(state.born)} example numbers for {n} "
                                     "support vectors")
    if isinstance(state, linear_model._kernel_perceptron.ForgetronState) and not \
            0 <= state.damage <= state.SHARE * state.mistakes * (1 + 1e-9):
        reader.fail(f"{where}.damage", f"is {state.damage!r}, outside [0, 15/32 × "
                                       f"{state.mistakes} mistakes]")


def _restore_fields(reader, where, obj, stored, shapes, problem_rng):
    """Set the stored fields of ``obj`` (a fresh problem or state), each checked
    against the value ``obj`` starts with."""
    expected = _stored_fields(obj)
    types = {f.name: f.type for f in dataclasses.fields(obj)} if expected else {}
    if not isinstance(stored, dict):
        reader.fail(where, "is not a mapping of fields")
    for name in set(stored) - set(expected) - RETIRED_FIELDS:
        reader.fail(f"{where}.{name}", f"is no field of {type(obj).__name__}")
    for name in expected:
        field = f"{where}.{name}"
        if name not in stored and name in ADDED_FIELDS:
            continue  # a file from before the field: its fresh value stands
        if name not in stored:
            reader.fail(field, "is missing")
        value = reader.unpack(stored[name], field, problem_rng)
        if isinstance(value, float) and math.isnan(value):
            reader.fail(field, "is NaN")
        start = getattr(obj, name)
        if start is None and value is not None:  # drawn later (a seed): the annotation says
            start = _ANNOTATED.get(types.get(name), start)
        _check_like(reader, field, value, start, shapes)
        setattr(obj, name, value)


#: a value standing for a field's annotation, for fields that start as None
_ANNOTATED = {int: 0, "int": 0, float: 0.0, "float": 0.0, bool: False, "bool": False}

#: Problem fields that files written before them lack (the stopping rule's, issue
#: 31): such a file resumes with their fresh values, as a run that never stalled.
ADDED_FIELDS = frozenset({"fewest_mistakes", "certified", "separable", "stop_reason"})
#: fields earlier files hold that no longer exist: read and ignored (the loss the
#: stopping rule watched before it watched the mistakes)
RETIRED_FIELDS = frozenset({"best_loss"})


def _check_like(reader, field, value, start, shapes):
    """``value`` must be of the kind of ``start``, the field's value in a fresh problem."""
    if isinstance(start, np.ndarray):
        if not isinstance(value, np.ndarray) or value.shape != start.shape or \
                value.dtype != start.dtype:
            reader.fail(field, f"must be an array of shape {start.shape} and dtype {start.dtype};"
                               f" got {_describe(value)}")
    elif isinstance(start, bool):
        if not isinstance(value, bool):
            reader.fail(field, f"must be true or false; got {value!r}")
    elif isinstance(start, int):
        if isinstance(value, bool) or not isinstance(value, int):
            reader.fail(field, f"must be a whole number >= 0; got {value!r}")
    elif isinstance(start, float):
        if not isinstance(value, float):
            reader.fail(field, f"must be a number; got {value!r}")
    elif isinstance(start, str):
        if value != start:
            reader.fail(field, f"must be {start!r}, as the parameters say; got {value!r}")
    elif isinstance(start, (np.random.RandomState, np.random.Generator)):
        if not isinstance(value, (np.random.RandomState, np.random.Generator)):
            reader.fail(field, f"must be a random generator; got {_describe(value)}")
    elif isinstance(start, (list, tuple)) and type(value) is not type(start):
        reader.fail(field, f"must be a {type(start).__name__}; got {_describe(value)}")
    else:
        _check_free(reader, field, value, shapes, top=True)


def _check_free(reader, field, value, shapes, top=False):
    """A value a fresh problem does not show (``None`` there): float arrays have the
    shape of the weights or are rows of ``n_features_in_`` values; an integer array
    in a field of its own is a row order, which the kernels index ``X`` with."""
    if isinstance(value, np.ndarray):
        if value.dtype.kind == "f" and value.shape not in shapes and not (
                value.ndim == 2 and value.shape[1] == reader.n_features):
            reader.fail(field, f"has shape {value.shape}, which fits neither the weights "
                               f"{sorted(shapes)} nor rows of {reader.n_features} features")
        if value.dtype.kind == "i" and top and not (value.ndim == 1 and np.array_equal(
                np.sort(value), np.arange(len(value)))):
            reader.fail(field, "is not an order of the rows (a permutation of 0, ..., n-1)")
    elif sp.issparse(value):
        if value.shape[1] != reader.n_features:
            reader.fail(field, f"has rows of {value.shape[1]} features, not "
                               f"{reader.n_features}")
    elif isinstance(value, (list, tuple)):
        for k, item in enumerate(value):
            if isinstance(item, np.ndarray) and item.ndim == 1 and item.dtype.kind == "f":
                continue  # a logged block of steps: any length
            _check_free(reader, f"{field}#{k}", item, shapes)


def _describe(value):
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape} and dtype {value.dtype}"
    return repr(value) if value is None or isinstance(value, (bool, int, float, str)) \
        else type(value).__name__


def _check_published(path, model, problems):
    """The restored problems must publish the weights (and prediction state) the
    file holds, bit for bit; the file's other attributes (counters that
    :func:`~rosenblatt.streaming.fit_chunks` sets, say) are kept as they are."""
    compared = ("coef_", "intercept_", "n_updates_", "n_examples_", "covariance_",
                "n_mistakes_")

    def published():
        values = {key: getattr(model, key) for key in compared if hasattr(model, key)}
        values.update({f"state:{key}": value
                       for key, value in model._prediction_state().items()})
        return values

    before, attributes = published(), dict(vars(model))
    model._problems = problems
    try:
        with np.errstate(all="ignore"):
            model._publish(model._learner())
            after = published()
        unsound = [k for k, p in enumerate(problems) if not p.state.is_finite(p)]
    except Exception as error:  # noqa: BLE001 - whatever a forged state breaks is its fault
        raise ModelFileError(f"{path}: training state does not rebuild the model: "
                             f"{type(error).__name__}: {error}") from error
    for key, value in attributes.items():
        if key != "_problems":
            setattr(model, key, value)
    if unsound:  # the rule's own test: the weights, and what it publishes from its state
        raise ModelFileError(f"{path}: training state problem{unsound[0]}.state holds NaN or "
                             "infinite weights.")
    for key in before:
        if key not in after or not _same(before[key], after[key]):
            raise ModelFileError(f"{path}: training state does not give the stored {key} "
                                 "(a field was edited, or belongs to another model).")


def _same(a, b):
    """Equal bit for bit: arrays of one shape and dtype, sparse matrices, tuples."""
    if isinstance(a, tuple) or isinstance(b, tuple):
        return isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) and \
            all(_same(x, y) for x, y in zip(a, b))
    if sp.issparse(a) or sp.issparse(b):
        return sp.issparse(a) and sp.issparse(b) and a.shape == b.shape and \
            a.dtype == b.dtype and (a != b).nnz == 0
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        return a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b)
    return type(a) is type(b) and a == b


class _Reader:
    """Turns the packed values of one file back into values (see :func:`_pack`),
    checking each array as it is read: its dtype, finite values, counts >= 0, and
    that each array of the training state is read once (an array of the prediction
    state it names is read as a copy). Errors name the file and the field."""

    def __init__(self, path, arrays, n_features):
        self.path, self.arrays, self.n_features = path, arrays, n_features
        self.used = set()

    def fail(self, field, why):
        raise ModelFileError(f"{self.path}: training state {field} {why}.")

    def member(self, field, key):
        if not isinstance(key, str) or key not in self.arrays:
            self.fail(field, f"names array {key!r}, which the file does not hold")
        if not key.startswith("training"):
            # the prediction state's array, named rather than stored twice: read as a
            # copy, so that training on never writes into coef_ or the vote
            self.used.add(key)
            return self.arrays[key].copy()
        if key in self.used:
            self.fail(field, f"names array {key!r} a second time")
        self.used.add(key)
        return self.arrays[key]

    def array(self, field, key, dtypes=_TRAINING_DTYPES, finite=True):
        array = self.member(field, key)
        if array.dtype not in dtypes:
            self.fail(field, f"holds {array.dtype} values")
        if finite and array.dtype.kind == "f" and not np.all(np.isfinite(array)):
            self.fail(field, "holds NaN or infinity")
        if array.dtype.kind == "i" and array.size and array.min() < 0:
            self.fail(field, "holds a negative count")
        return array

    def unpack(self, spec, field, problem_rng=None):
        if spec is None or isinstance(spec, (bool, str, float)):
            return spec
        if isinstance(spec, int):
            if spec < 0:
                self.fail(field, f"must be >= 0; got {spec}")
            return spec
        if not isinstance(spec, dict) or not spec:
            self.fail(field, "has a value of an unknown kind")
        tag = next(iter(spec))
        unpack = getattr(self, f"_{tag}", None) if tag in _TAGS else None
        if unpack is None or set(spec) != _TAGS[tag]:
            self.fail(field, "has an unknown description")
        try:
            return unpack(spec, field, problem_rng)
        except ModelFileError:
            raise
        except (ValueError, TypeError, KeyError, IndexError, OverflowError) as error:
            self.fail(field, f"is damaged: {error}")

    def _array(self, spec, field, problem_rng):
        return self.array(field, spec["array"])

    def _csr(self, spec, field, problem_rng):
        parts = [self.array(field, f"{spec['csr']}.{part}")
                 for part in ("data", "indices", "indptr")]
        shape = spec["shape"]
        if not (isinstance(shape, list) and len(shape) == 2 and
                all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape)):
            self.fail(field, f"has an invalid shape {shape!r}")
        if parts[0].dtype.kind != "f" or parts[1].dtype.kind != "i":
            self.fail(field, "is not a matrix of numbers")
        matrix = sp.csr_matrix(tuple(parts), shape=tuple(shape))
        check_csr_structure(matrix)
        return matrix

    def _tuple(self, spec, field, problem_rng):
        return tuple(self._items(spec["tuple"], field, problem_rng))

    def _list(self, spec, field, problem_rng):
        return list(self._items(spec["list"], field, problem_rng))

    def _items(self, specs, field, problem_rng):
        if not isinstance(specs, list):
            self.fail(field, "is not a list")
        return [self.unpack(item, f"{field}#{k}", problem_rng) for k, item in enumerate(specs)]

    def _numbers(self, spec, field, problem_rng):
        # a log of numbers may hold the loss of a diverged run: NaN or infinity
        numbers = self.array(field, spec["numbers"], _NUMBER_DTYPES, finite=False)
        if numbers.ndim != 1:
            self.fail(field, "is not a list of numbers")
        return numbers.tolist()

    def _pieces(self, spec, field, problem_rng):
        joined = self.array(field, spec["pieces"])
        return [piece.copy() for piece in self._split(joined, spec["lengths"], field)]

    def _blocks(self, spec, field, problem_rng):
        matrix = self.unpack(spec["blocks"], field)
        if not (sp.issparse(matrix) or (isinstance(matrix, np.ndarray) and matrix.ndim == 2)):
            self.fail(field, "is not a list of matrices")
        return [block.copy() for block in self._split(matrix, spec["rows"], field)]

    def _split(self, joined, lengths, field):
        if not (isinstance(lengths, list) and all(
                isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in lengths)
                and sum(lengths) == joined.shape[0] and joined.ndim >= 1):
            self.fail(field, "has lengths that do not add up to its values")
        ends = np.cumsum(lengths)
        return [joined[end - n:end] for n, end in zip(lengths, ends)]

    def _random_state(self, spec, field, problem_rng):
        key = self.array(field, spec["random_state"], {np.dtype(np.uint32)})
        pos, has_gauss, cached = spec["pos"], spec["has_gauss"], spec["cached_gaussian"]
        if key.shape != (624,) or not _whole(pos, 0, 624) or not _whole(has_gauss, 0, 1) or \
                not isinstance(cached, (int, float)) or not math.isfinite(cached):
            self.fail(field, "is not the state of a RandomState (624 keys, a position <= 624)")
        rng = np.random.RandomState()
        rng.set_state(("MT19937", key, pos, has_gauss, float(cached)))
        return rng

    def _generator(self, spec, field, problem_rng):
        state = spec["generator"]
        name = state.get("bit_generator") if isinstance(state, dict) else None
        if name not in _BIT_GENERATORS:
            self.fail(field, f"names the bit generator {name!r}; known: {_BIT_GENERATORS}")
        bit_generator = getattr(np.random, name)()
        state = _state_like(state, bit_generator.state)
        if state is None or not _within_bounds(name, state):
            self.fail(field, f"is not the state of a {name} generator")
        bit_generator.state = state
        return np.random.Generator(bit_generator)

    def _rng(self, spec, field, problem_rng):
        if spec["rng"] != "problem" or problem_rng is None:
            self.fail(field, "names a generator the problem does not have")
        return problem_rng


#: the tags of a packed value and the keys each one has (see :func:`_pack`)
_TAGS = {
    "array": {"array"}, "csr": {"csr", "shape"}, "tuple": {"tuple"}, "list": {"list"},
    "numbers": {"numbers"}, "pieces": {"pieces", "lengths"}, "blocks": {"blocks", "rows"},
    "random_state": {"random_state", "pos", "has_gauss", "cached_gaussian"},
    "generator": {"generator"}, "rng": {"rng"},
}

_NUMBER_DTYPES = {np.dtype(np.int64), np.dtype(np.float64)}


def _whole(value, low, high):
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _state_like(stored, fresh):
    """``stored`` (JSON) as a bit generator state of the form of ``fresh``: the same
    keys, whole numbers where it has them (>= 0, < 2**128), arrays of its shapes
    and dtypes; ``None`` when it does not fit."""
    if isinstance(fresh, dict):
        if not isinstance(stored, dict) or set(stored) != set(fresh):
            return None
        items = {key: _state_like(stored[key], fresh[key]) for key in fresh}
        return None if any(v is None for v in items.values()) else items
    if isinstance(fresh, np.ndarray):
        if not (isinstance(stored, dict) and set(stored) == {"ndarray", "dtype"}
                and stored["dtype"] == fresh.dtype.name and isinstance(stored["ndarray"], list)
                and all(_whole(v, 0, np.iinfo(fresh.dtype).max) for v in stored["ndarray"])):
            return None
        array = np.array(stored["ndarray"], dtype=fresh.dtype)
        return array if array.shape == fresh.shape else None
    if isinstance(fresh, str):
        return stored if stored == fresh else None
    if isinstance(fresh, (int, np.integer)):
        return stored if _whole(stored, 0, 2**128 - 1) else None
    return None


def _within_bounds(name, state):
    """What numpy's setters take without checking: positions within their buffers."""
    if name == "MT19937":
        return state["state"]["pos"] <= 624
    if name == "Philox":
        return state["buffer_pos"] <= 4 and state["has_uint32"] <= 1 and \
            state["uinteger"] < 2**32
    return state.get("has_uint32", 0) <= 1 and state.get("uinteger", 0) < 2**32
