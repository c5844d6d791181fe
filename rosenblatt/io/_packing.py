"""Any value of a problem or rule state as JSON plus arrays, and back.

A packed value is a JSON literal (None, bool, int, float, str) or a dict with one
tag: ``{"array": member}``, ``{"csr": member, "shape": [n, d]}``, ``{"tuple":
[packed]}``, ``{"list": [packed]}``, ``{"numbers": member}`` (a list of ints or
floats), ``{"nonzeros": name, "shape": [...], "dtype": ...}`` (a float array of at
least ``_SPARSE_FROM`` values by its nonzeros, ``name.index`` and ``name.values``,
as :func:`~._format.put` stores them; format 3), ``{"pieces": member, "lengths":
[...]}`` (a list of 1-D arrays), ``{"blocks": packed matrix, "rows": [...]}`` (a list of matrices of one width),
``{"random_state": member, "pos": ..., "has_gauss": ..., "cached_gaussian":
...}``, ``{"generator": state}`` or ``{"rng": "problem"}`` (the problem's own
generator). Nothing here knows a rule: the fields are found by
:func:`dataclasses.fields` (see :mod:`._training`).

:class:`Reader` unpacks, checking each array as it is read (its dtype, finite
values, counts >= 0, each array of the training state read once) and every
generator's state for one of its kind.

>>> arrays = {}
>>> pack((1.5, np.zeros(2), [3, 4]), "x", arrays)
{'tuple': [1.5, {'array': 'x#1'}, {'numbers': 'x#2'}]}
>>> sorted(arrays)
['x#1', 'x#2']
>>> Reader("m.npz", arrays).unpack({'numbers': 'x#2'}, "problem0.state.mistakes")
[3, 4]
"""

import math

import numpy as np
import scipy.sparse as sp

from .._validation import check_csr_structure
from ..base._file_form import FileContext, ModelFileError, whole
from ._format import expand_nonzeros, nonzeros

#: The dtypes an array of the training state may have (weights in float32 with
#: ``weights_dtype="float32"``; CSR indices may be int32).
_TRAINING_DTYPES = {np.dtype(t) for t in ("float64", "float32", "int64", "int32")}

#: Float arrays of at least this many values are stored by their nonzeros when that
#: is smaller (format 3): a tagger's running weights and averaging sums.
_SPARSE_FROM = 4096

#: Bit generators a file may name (numpy.random's own), by class name.
_BIT_GENERATORS = ("PCG64", "PCG64DXSM", "MT19937", "Philox", "SFC64")


def pack(value, name, arrays, problem_rng=None):
    """``value`` as JSON, its arrays stored in ``arrays`` under names from ``name``;
    ``problem_rng``, when the value is it, is named rather than stored twice."""
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
        if value.size >= _SPARSE_FROM and value.dtype.kind == "f" and \
                _stored_before(value, arrays) is None and (parts := nonzeros(value)):
            arrays[f"{name}.index"], arrays[f"{name}.values"] = parts
            return {"nonzeros": name, "shape": list(value.shape), "dtype": value.dtype.name}
        return {"array": _store(value, name, arrays)}
    if isinstance(value, tuple):
        return {"tuple": [pack(v, f"{name}#{k}", arrays, problem_rng)
                          for k, v in enumerate(value)]}
    if isinstance(value, list):
        return _pack_list(value, name, arrays, problem_rng)
    raise ValueError(f"Cannot save the training state {name} of type {type(value).__name__}; "
                     "save(..., training_state=False) writes what prediction needs.")


def holds_nonzeros(packed):
    """Whether a packed value stores an array by its nonzeros (format 3).

    >>> holds_nonzeros({"tuple": [1, {"nonzeros": "x", "shape": [9], "dtype": "float64"}]})
    True
    """
    if isinstance(packed, dict):
        return "nonzeros" in packed or any(holds_nonzeros(v) for v in packed.values())
    if isinstance(packed, list):
        return any(holds_nonzeros(v) for v in packed)
    return False


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
        return {"blocks": pack(stacked, name, arrays), "rows": [v.shape[0] for v in value]}
    return {"list": [pack(v, f"{name}#{k}", arrays, problem_rng) for k, v in enumerate(value)]}


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


class Reader(FileContext):
    """Turns the packed values of one file back into values (see :func:`pack`),
    checking each array as it is read: its dtype, finite values, counts >= 0, and
    that each array of the training state is read once (an array of the prediction
    state it names is read as a copy). Errors name the file and the field; as a
    :class:`~rosenblatt.base._file_form.FileContext` it is what the rule states'
    declarations check their fields with."""

    message = "{path}: training state {field} {why}."

    def __init__(self, path, arrays, *, model=None, **sizes):
        super().__init__(path, model=model, **sizes)
        self.arrays, self.used = arrays, set()

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

    def _nonzeros(self, spec, field, problem_rng):
        name = spec["nonzeros"]
        index = self.array(field, f"{name}.index", _INDEX_DTYPES)
        values = self.array(field, f"{name}.values")

        def refuse(part, why):
            self.fail(f"{field}{part}", why)

        return expand_nonzeros(spec["shape"], spec["dtype"], index, values, refuse)

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
        if key.shape != (624,) or not whole(pos, 0, 624) or not whole(has_gauss, 0, 1) or \
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
    "array": {"array"}, "csr": {"csr", "shape"}, "nonzeros": {"nonzeros", "shape", "dtype"}, "tuple": {"tuple"}, "list": {"list"},
    "numbers": {"numbers"}, "pieces": {"pieces", "lengths"}, "blocks": {"blocks", "rows"},
    "random_state": {"random_state", "pos", "has_gauss", "cached_gaussian"},
    "generator": {"generator"}, "rng": {"rng"},
}

_NUMBER_DTYPES = {np.dtype(np.int64), np.dtype(np.float64)}
_INDEX_DTYPES = {np.dtype(np.int32), np.dtype(np.int64)}


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
                and all(whole(v, 0, np.iinfo(fresh.dtype).max) for v in stored["ndarray"])):
            return None
        array = np.array(stored["ndarray"], dtype=fresh.dtype)
        return array if array.shape == fresh.shape else None
    if isinstance(fresh, str):
        return stored if stored == fresh else None
    if isinstance(fresh, (int, np.integer)):
        return stored if whole(stored, 0, 2**128 - 1) else None
    return None


def _within_bounds(name, state):
    """What numpy's setters take without checking: positions within their buffers."""
    if name == "MT19937":
        return state["state"]["pos"] <= 624
    if name == "Philox":
        return state["buffer_pos"] <= 4 and state["has_uint32"] <= 1 and \
            state["uinteger"] < 2**32
    return state.get("has_uint32", 0) <= 1 and state.get("uinteger", 0) < 2**32
