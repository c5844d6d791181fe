"""Model files: JSON metadata and NumPy arrays in one ``.npz``, never a pickle.

A model file holds an array ``__meta__`` (a JSON text: format and version, the
library version, the estimator's class and parameters, its scalar fitted
attributes) and one array per fitted array. Loading uses
``numpy.load(..., allow_pickle=False)``, re-validates every parameter through
the estimator's own checks, and checks the arrays against each other, so a
truncated, tampered or foreign file is refused with a ``ValueError`` and no
code in it is ever run. Files are written to a temporary name and renamed, so
a crash never leaves half a model behind.
"""

import inspect
import json
import os
import pathlib
import re
import tempfile
import zipfile

import numpy as np
import scipy.sparse as sp

from . import __version__, linear_model
from ._validation import check_csr_structure

FORMAT = "rosenblatt-model"
FORMAT_VERSION = 1
ESTIMATORS = {name: getattr(linear_model, name) for name in linear_model.__all__}


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

def save(model, path):
    """Write a fitted estimator to ``path`` (a ``.npz`` file).

    >>> import tempfile, pathlib
    >>> from rosenblatt import Perceptron
    >>> model = Perceptron(shuffle="none").fit([[0, 0], [1, 1]], ["no", "yes"])
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "model.npz"
    >>> save(model, path)
    >>> load(path).predict([[2, 2]]).tolist()
    ['yes']

    A model trained by :class:`~rosenblatt.distributed.ParameterMixing` is saved
    as the estimator it trained (its ``estimator_``).
    """
    if type(model).__name__ == "ParameterMixing" and hasattr(model, "estimator_"):
        model = model.estimator_
    name = type(model).__name__
    if ESTIMATORS.get(name) is not type(model):
        raise ValueError(f"save writes rosenblatt estimators; got {name}.")
    if not hasattr(model, "classes_"):
        raise ValueError(f"This {name} is not fitted yet: call fit before save.")
    arrays, attributes = {}, {}
    for key, value in vars(model).items():
        if key.endswith("_") and not key.startswith("_") and key != "trace_":
            _put(key, value, arrays, attributes)
    for key, value in model._prediction_state().items():
        _put(f"state:{key}", value, arrays, attributes)
    meta = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "library_version": __version__,
        "estimator": name,
        "params": {key: _encode(key, value) for key, value in model.get_params().items()},
        "attributes": attributes,
    }
    arrays["__meta__"] = np.array(json.dumps(meta))
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
        The fitted estimator, ready to predict. It refuses ``partial_fit`` and a
        warm-start ``fit``: the file holds no training state.

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
    attributes = _attributes(path, meta, cls, arrays)
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
    try:
        model._restore_prediction_state(state)
        # every part of the file is read by this: a wrong one fails here, not later
        model.decision_function(np.zeros((1, model.n_features_in_)))
    except Exception as error:  # noqa: BLE001 - whatever a forged file breaks is its fault
        raise ModelFileError(f"{path}: inconsistent model state: {error}") from error
    # what the file holds is enough to predict, not to go on training (see partial_fit)
    model._model_file = str(path)
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
    """The fitted attributes the class documents: the only ones a file may set."""
    doc = inspect.getdoc(cls) or ""
    section = re.search(r"^Attributes\n-+\n(.*?)(?:\n\S[^\n]*\n-+\n|\Z)", doc, re.S | re.M)
    return set(re.findall(r"^(\w+) :", section.group(1), re.M)) if section else set()


def _attributes(path, meta, cls, arrays):
    """The file's attribute descriptions, checked: known names, known tags, and
    every array they name present (and no other array)."""
    attributes = meta.get("attributes", {})
    if not isinstance(attributes, dict):
        raise ModelFileError(f"{path}: the metadata's attributes are not a mapping.")
    allowed = _documented_attributes(cls)
    named = set()
    for key, spec in attributes.items():
        base = re.split(r"[#.]", key, maxsplit=1)[0]
        if not key.startswith("state:") and base not in allowed:
            raise ModelFileError(f"{path}: {cls.__name__} has no attribute {key!r}.")
        if isinstance(spec, dict):
            if len(spec) != 1 or not set(spec) <= _SPECS:
                raise ModelFileError(f"{path}: attribute {key!r} has an unknown description.")
            if "array" in spec:
                named.add(key)
            elif "csr" in spec:
                named.update(f"{key}.{part}" for part in ("data", "indices", "indptr"))
        elif not (spec is None or isinstance(spec, (bool, int, float, str))):
            raise ModelFileError(f"{path}: attribute {key!r} has a value of an unknown kind.")
    extra = set(arrays) - named - {"__meta__"}
    if extra:
        raise ModelFileError(f"{path}: arrays {sorted(extra)} belong to no attribute.")
    return attributes


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
            return tuple(_get(path, f"{key}#{k}", arrays, attributes)
                         for k in range(int(spec["tuple"])))
        if isinstance(spec, dict) and "csr" in spec:
            parts = [arrays[f"{key}.{part}"] for part in ("data", "indices", "indptr")]
            matrix = sp.csr_matrix(tuple(parts), shape=tuple(int(n) for n in spec["csr"]))
            check_csr_structure(matrix)  # indices within the shape: the kernels trust them
            return matrix
        if isinstance(spec, dict) and spec.get("array"):
            return arrays[key]
    except KeyError as error:
        raise ModelFileError(f"{path}: array {error} is missing (truncated file?).") from None
    except (ValueError, TypeError, OverflowError) as error:
        raise ModelFileError(f"{path}: array {key} is damaged: {error}") from None
    return spec


def _check_consistency(path, model):
    """The arrays must fit each other: a mismatch means a damaged or edited file."""
    n_features = getattr(model, "n_features_in_", None)
    classes = getattr(model, "classes_", None)
    if isinstance(n_features, bool) or not isinstance(n_features, int) or n_features < 1 \
            or not isinstance(classes, np.ndarray) or classes.ndim != 1 or len(classes) < 2 \
            or len(np.unique(classes)) != len(classes):
        raise ModelFileError(f"{path}: n_features_in_ or classes_ is missing or invalid.")
    problems = 1 if len(classes) == 2 else len(classes)
    for name in ("n_iter_", "n_updates_", "n_examples_"):
        value = getattr(model, name, 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ModelFileError(f"{path}: {name} must be a whole number >= 0; got {value!r}.")
    if not isinstance(getattr(model, "converged_", False), bool):
        raise ModelFileError(f"{path}: converged_ must be true or false.")
    names = getattr(model, "feature_names_in_", None)
    if names is not None and (not isinstance(names, np.ndarray) or names.shape != (n_features,)):
        raise ModelFileError(f"{path}: feature_names_in_ does not name {n_features} features.")
    intercept = getattr(model, "intercept_", None)
    coef = getattr(model, "coef_", None)
    rows = coef.shape[0] if isinstance(coef, np.ndarray) and coef.ndim == 2 else problems
    if not _float_array(intercept) or intercept.shape != (rows,):
        raise ModelFileError(f"{path}: intercept_ must hold {rows} numbers.")
    if coef is not None:
        if not _float_array(coef) or coef.ndim != 2 or coef.shape[1] != n_features or \
                coef.shape[0] not in {problems, len(classes)}:
            raise ModelFileError(
                f"{path}: coef_ has shape {getattr(coef, 'shape', None)}, which does not "
                f"match {n_features} features and {len(classes)} classes."
            )
        if not np.all(np.isfinite(coef)) or not np.all(np.isfinite(intercept)):
            raise ModelFileError(f"{path}: the weights hold NaN or infinity.")


def _float_array(value):
    return isinstance(value, np.ndarray) and value.dtype.kind == "f"
