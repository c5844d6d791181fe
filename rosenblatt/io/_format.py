"""The container: one ``.npz`` of plain arrays and a JSON text, ``__meta__``.

Writing goes through a temporary file renamed at the end (a crash never leaves
half a model behind); reading checks each member's header against its size
before reading it, refuses object arrays (pickles), and turns the metadata's
attribute descriptions back into values: JSON scalars, arrays, CSR matrices
(``name.data``/``.indices``/``.indptr``) and tuples (``name#k``).

>>> arrays, attributes = {}, {}
>>> put("coef_", np.zeros((1, 2)), arrays, attributes); put("n_iter_", 3, arrays, attributes)
>>> attributes
{'coef_': {'array': True}, 'n_iter_': 3}
>>> get("m.npz", "coef_", arrays, attributes).shape
(1, 2)
"""

import json
import math
import os
import pathlib
import tempfile
import zipfile

import numpy as np
import scipy.sparse as sp

from .. import __version__
from .._config import physical_memory
from .._validation import check_csr_structure
from ..base._file_form import (
    LARGEST_COUNT,
    WEIGHT_DTYPES,
    ModelFileError,
    describe,
    whole,
)

FORMAT = "rosenblatt-model"
#: the newest format this version reads and writes: 3 stores some arrays by their
#: nonzero values (see :func:`put`); a file is written in the oldest format that
#: holds what it holds, so that older versions read every file they can
FORMAT_VERSION = 3
#: the format of a file with the training state and no array stored by its nonzeros
TRAINING_STATE_VERSION = 2
#: the format of a file without training state, which rosenblatt before 2 reads too
PREDICTION_ONLY_VERSION = 1


def fail(path, field, why):
    raise ModelFileError(f"{path}: {field}: {why}.")


# ----------------------------------------------------------------------- writing

def write(path, meta, arrays):
    """Write ``arrays`` and ``meta`` (as ``__meta__``) to ``path`` through a
    temporary file renamed at the end."""
    meta = {"format": FORMAT, "library_version": __version__, **meta}
    arrays = {**arrays, "__meta__": np.array(json.dumps(meta))}
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


def put(key, value, arrays, attributes, *, nonzeros=False, float32=False):
    """Store one attribute: arrays (and sparse matrices, tuples) in ``arrays``,
    JSON-able scalars in ``attributes``.

    With ``nonzeros``, a float array is stored by its nonzero values when that is
    smaller (format 3): ``key.index``, the positions of the nonzero values in the
    flattened array (int32 below 2**31 entries, else int64; strictly increasing),
    and ``key.values``, the values there, described as ``{"nonzeros": shape,
    "dtype": dtype}``. The values are float32 when every one of them is a float32
    exactly (nothing is lost), or when ``float32`` asks for them rounded.
    """
    if nonzeros and isinstance(value, np.ndarray) and value.dtype in WEIGHT_DTYPES \
            and _put_nonzeros(key, value, arrays, attributes, float32):
        return
    if isinstance(value, tuple):
        attributes[key] = {"tuple": len(value)}
        for k, item in enumerate(value):
            put(f"{key}#{k}", item, arrays, attributes)
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


def _put_nonzeros(key, value, arrays, attributes, float32):
    """Store ``value`` by its nonzero values if that is smaller; whether it did."""
    parts = nonzeros(value, float32)
    if parts is None:
        return False
    arrays[f"{key}.index"], arrays[f"{key}.values"] = parts
    attributes[key] = {"nonzeros": list(value.shape), "dtype": value.dtype.name}
    return True


def nonzeros(value, float32=False):
    """``(index, values)``: the positions of the nonzero values (and of any ``-0.0``)
    of the float array ``value`` in its flattened form (int32 below 2**31 entries,
    else int64) and the values there (float32 when that loses nothing, or when
    ``float32`` asks for them rounded); ``None`` when they would not be smaller than
    ``value``.

    >>> nonzeros(np.array([[0.0, 1.5, 0.0, 0.0], [0.0, 0.0, 0.1, 0.0]]))
    (array([1, 6], dtype=int32), array([1.5, 0.1]))
    >>> nonzeros(np.ones(3)) is None
    True

    A negative zero is kept, so that the array comes back bit for bit:

    >>> index, values = nonzeros(np.array([0.0, -0.0, 0.0, 0.0, 0.0, 2.0]))
    >>> index.tolist(), values.tolist()
    ([1, 5], [-0.0, 2.0])
    """
    flat = value.reshape(-1)
    index = np.flatnonzero((flat != 0) | np.signbit(flat))  # -0.0 kept: bit for bit
    index = index.astype(np.int32 if flat.size < 2**31 else np.int64)
    values = flat[index]
    if float32 or np.array_equal(values.astype(np.float32), values):
        values = values.astype(np.float32)
    if index.nbytes + values.nbytes >= value.nbytes:
        return None
    return index, values


def expand_nonzeros(shape, dtype, index, values, fail):
    """The dense array of ``shape`` and ``dtype`` (its JSON description) whose
    nonzeros :func:`nonzeros` gave, every part checked before the array is made;
    ``fail(part, why)`` refuses, ``part`` being ``""``, ``".index"`` or ``".values"``."""
    if not (isinstance(shape, list) and all(whole(n, 0, LARGEST_COUNT) for n in shape)):
        fail("", f"has the shape {shape!r}; expected a list of sizes")
    if dtype not in ("float64", "float32"):
        fail("", f"has dtype {dtype!r}; expected 'float64' or 'float32'")
    size = math.prod(shape)
    need, have = size * np.dtype(dtype).itemsize, physical_memory()
    if have is not None and need > have // 2:
        fail("", f"would be an array of {need / 1e9:.1f} GB (shape {tuple(shape)}), more "
                 f"than half of this machine's {have / 1e9:.1f} GB")
    if index.dtype not in (np.dtype(np.int32), np.dtype(np.int64)) or index.ndim != 1:
        fail(".index", f"holds {describe(index)}; expected a 1-D array of int32 or int64 "
                       "positions")
    if values.dtype not in WEIGHT_DTYPES or values.shape != index.shape:
        fail(".values", f"holds {describe(values)}; expected float64 or float32 values, one "
                        f"per position of the index ({len(index)})")
    if len(index) and (index.min() < 0 or index.max() >= size):
        bad = index.min() if index.min() < 0 else index.max()
        fail(".index", f"holds the position {bad}, outside an array of {size} values (shape "
                       f"{tuple(shape)})")
    if np.any(index[1:] <= index[:-1]):
        fail(".index", "is not strictly increasing (positions unsorted or repeated)")
    if not np.all(np.isfinite(values)):
        fail(".values", "holds NaN or infinity; expected finite values")
    if dtype == "float32" and values.dtype != np.float32:
        fail(".values", "holds float64 values for a float32 array")
    dense = np.zeros(size, dtype=dtype)
    dense[index] = values
    return dense.reshape(shape)


def encode(key, value):
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


# ----------------------------------------------------------------------- reading

def read_arrays(path):
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



def read_meta(path, arrays):
    """The metadata, checked to be a rosenblatt model file of a format this reads."""
    if "__meta__" not in arrays:
        raise ModelFileError(f"{path}: no metadata; this is not a rosenblatt model file.")
    try:
        meta = json.loads(str(arrays["__meta__"]))
    except (json.JSONDecodeError, UnicodeError) as error:
        raise ModelFileError(f"{path}: the metadata is not valid JSON: {error}") from error
    if not isinstance(meta, dict) or meta.get("format") != FORMAT:
        raise ModelFileError(f"{path}: not a rosenblatt model file.")
    version = meta.get("format_version")
    if whole(version, FORMAT_VERSION + 1, float("inf")):
        raise ModelFileError(
            f"{path}: model file format {version!r} is newer than this rosenblatt "
            f"{__version__} reads ({FORMAT_VERSION}); upgrade rosenblatt to load it."
        )
    if not whole(version, PREDICTION_ONLY_VERSION, FORMAT_VERSION):
        fail(path, "format_version", f"must be a whole number from {PREDICTION_ONLY_VERSION} "
                                     f"to {FORMAT_VERSION}; got {version!r}")
    if version == PREDICTION_ONLY_VERSION and meta.get("training") is not None:
        fail(path, "training", f"holds a training state, which format {version} files do not "
                               f"hold (save writes them as format {TRAINING_STATE_VERSION} or "
                               f"{FORMAT_VERSION})")
    return meta



def decode(value):
    """A parameter from its JSON (see :func:`encode`)."""
    if isinstance(value, dict) and set(value) == {"array"}:
        return np.array(value["array"], dtype=np.float64)
    if isinstance(value, dict) and set(value) == {"dict"}:
        return {k: v for k, v in value["dict"]}
    return value


def get(path, key, arrays, attributes):
    """The value of the attribute ``key`` that ``attributes`` describes."""
    spec = attributes[key]
    try:
        if isinstance(spec, dict) and "tuple" in spec:
            if not whole(spec["tuple"], 0, LARGEST_COUNT):
                fail(path, key, f"is described as a tuple of {spec['tuple']!r} items; "
                                 "expected a whole number of items")
            return tuple(get(path, f"{key}#{k}", arrays, attributes)
                         for k in range(spec["tuple"]))
        if isinstance(spec, dict) and "csr" in spec:
            shape = spec["csr"]
            if not (isinstance(shape, list) and len(shape) == 2 and
                    all(whole(n, 0, LARGEST_COUNT) for n in shape)):
                fail(path, key, f"is described as a sparse matrix of shape {shape!r}; "
                                 "expected [rows, columns], two whole numbers >= 0")
            parts = [arrays[f"{key}.{part}"] for part in ("data", "indices", "indptr")]
            if parts[0].dtype not in WEIGHT_DTYPES or parts[0].ndim != 1:
                fail(path, f"{key}.data", f"holds {describe(parts[0])}; expected a 1-D "
                                           "array of float64 or float32 values")
            if not np.all(np.isfinite(parts[0])):
                fail(path, f"{key}.data", "holds NaN or infinity; expected finite values")
            for name, part in zip(("indices", "indptr"), parts[1:]):
                if part.dtype.kind != "i" or part.ndim != 1:
                    fail(path, f"{key}.{name}", f"holds {describe(part)}; expected a 1-D "
                                                 "array of integers")
            matrix = sp.csr_matrix(tuple(parts), shape=tuple(shape))
            check_csr_structure(matrix)  # indices within the shape: the kernels trust them
            return matrix
        if isinstance(spec, dict) and "nonzeros" in spec:
            return _nonzeros(path, key, spec, arrays)
        if isinstance(spec, dict) and "array" in spec:
            if spec["array"] is not True:
                fail(path, key, f"is described as {spec!r}; expected {{'array': true}}")
            return arrays[key]
    except ModelFileError:
        raise
    except KeyError as error:
        raise ModelFileError(f"{path}: array {error} is missing (truncated file?).") from None
    except (ValueError, TypeError, OverflowError) as error:
        raise ModelFileError(f"{path}: array {key} is damaged: {error}") from None
    return spec


def _nonzeros(path, key, spec, arrays):
    """The dense array that ``key.index`` and ``key.values`` hold the nonzeros of
    (see :func:`put`)."""
    if set(spec) != {"nonzeros", "dtype"}:
        fail(path, key, f"is described as {spec!r}; expected {{'nonzeros': [sizes], "
                         "'dtype': 'float64' or 'float32'}")

    def refuse(part, why):
        fail(path, key + part, why)

    return expand_nonzeros(spec["nonzeros"], spec["dtype"], arrays[f"{key}.index"],
                           arrays[f"{key}.values"], refuse)
