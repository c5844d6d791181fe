"""What a model file holds of a rule, declared by the rule: a small vocabulary of checks.

A model file is read by :mod:`rosenblatt.io` without knowing any rule. What it
cannot know, each rule declares next to the code that keeps the value:

- a learner piece declares the fitted attributes it publishes, in its class
  attribute ``published_form`` (``{"covariance_": Floats(...)}``);
- an estimator whose prediction needs more than its fitted attributes declares
  that state, ``_state_form = ProblemFields(...)`` (the vote, the dual form);
- a :class:`~._problem.RuleState` declares, in ``file_form``, the fields a fresh
  problem does not show (``None`` or an empty list at the start), and checks
  what binds its fields together in ``check_file``.

A declaration checks one stored value, ``check(file, field, value, known)``,
and returns it, or raises :class:`ModelFileError` naming the file and the
field. Sizes are named (``"features"``, ``"problems"``, ``"classes"``: the
model's, from the :class:`FileContext`), read from a field checked before
(:class:`RowsOf`; ``known`` holds the fields checked so far), or given.

>>> import numpy as np
>>> file = FileContext("m.npz", features=3, problems=1, classes=2)
>>> Floats("problems", "features").check(file, "coef_", np.zeros((1, 3))).shape
(1, 3)
>>> Floats("problems", "features").check(file, "coef_", np.zeros((1, 5)))
Traceback (most recent call last):
...
rosenblatt.io.ModelFileError: m.npz: coef_: coef_ has shape (1, 5), expected (1, 3) (sized by classes_, n_features_in_).
>>> Ints(RowsOf("support"), low=0).check(file, "sequence", np.array([0, 3]),
...                                       {"support": np.zeros((2, 3))})
array([0, 3])
"""

import math
from abc import ABC, abstractmethod

import numpy as np
import scipy.sparse as sp

#: the largest count a file may hold: what an int64 holds
LARGEST_COUNT = 2**63 - 1
#: the most features a model may have (scipy's CSR column indices are int32 below it)
LARGEST_WIDTH = 2**31 - 1
FLOAT64 = (np.dtype(np.float64),)
#: the dtypes of stored weights (``weights_dtype``) and of stored rows
WEIGHT_DTYPES = (np.dtype(np.float64), np.dtype(np.float32))


class ModelFileError(ValueError):
    """A model file that cannot be loaded: what is wrong with it, and why.

    A ``ValueError``, so ``except ValueError`` catches it too.

    >>> import pathlib, tempfile
    >>> from rosenblatt.io import load
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "not-a-model.npz"
    >>> _ = path.write_bytes(b"hello")
    >>> try:
    ...     load(path)
    ... except ModelFileError as error:
    ...     print(type(error).__name__, "not a readable model file" in str(error))
    ModelFileError True
    """

    __module__ = "rosenblatt.io"  # its public home: rules raise it, io is where users meet it


class FileContext:
    """The file being read and the model's sizes that declarations name; the
    one place a refusal is worded (``message``: io's training state words it
    its own way)."""

    message = "{path}: {field}: {why}."

    def __init__(self, path, *, model=None, **sizes):
        self.path, self.model, self.sizes = path, model, sizes

    def fail(self, field, why):
        raise ModelFileError(self.message.format(path=self.path, field=field, why=why))


class RowsOf:
    """A size read from a field checked before: its rows (its length for a list;
    0 for ``None``), plus ``plus``."""

    def __init__(self, name, plus=0):
        self.name, self.plus = name, plus

    def __call__(self, known):
        value = known[self.name]
        rows = 0 if value is None else value.shape[0] if hasattr(value, "shape") \
            else len(value)
        return rows + self.plus


def _size(dim, file, known):
    """``dim`` as a number: given, a model size named, a field's rows, a count checked
    before; ``None`` stays (any size)."""
    if dim is None or isinstance(dim, int):
        return dim
    if isinstance(dim, RowsOf):
        return dim(known)
    return known[dim] if dim in (known or {}) else file.sizes[dim]


#: the fitted attributes the model's sizes are read from, named in messages
_MODEL_SIZES = {"problems": "classes_", "classes": "classes_", "features": "n_features_in_"}


def _from_fields(dims, known):
    """What a message adds when sizes come from other fields: their names in the
    file (``known["_where"]`` is the prefix of the group's fields), and for the
    model's sizes the attributes they come from (a forged ``classes_`` shows as
    another number of rows of ``coef_``)."""
    names = [dim.name if isinstance(dim, RowsOf) else dim for dim in dims
             if isinstance(dim, RowsOf) or (isinstance(dim, str) and dim in (known or {}))]
    where = (known or {}).get("_where", "")
    names = [where + name for name in names]
    for dim in dims:
        if isinstance(dim, str) and dim not in (known or {}) and dim in _MODEL_SIZES and \
                _MODEL_SIZES[dim] not in names:
            names.append(_MODEL_SIZES[dim])
    return f" (sized by {', '.join(names)})" if names else ""


def describe(value):
    """A value as a message shows it: an array by its shape and dtype."""
    if isinstance(value, np.ndarray):
        return f"an array of shape {value.shape} and dtype {value.dtype}"
    return repr(value) if value is None or isinstance(value, (bool, int, float, str)) \
        else type(value).__name__


def whole(value, low, high):
    """Whether ``value`` is a JSON whole number (not a bool) in ``[low, high]``."""
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


class Declared(ABC):
    """A declaration: ``check`` returns the value or refuses it. ``needed()``
    marks a fitted attribute that prediction reads (refused when missing);
    the others are checked when the file holds them."""

    required = False
    #: what a file without the value is told (``needed(missing=...)``)
    missing = "is missing; prediction needs it"
    #: whether a file stores the value by its nonzero values (see :meth:`sparse`)
    stored_sparse = False

    def needed(self, missing=None):
        self.required = True
        if missing is not None:
            self.missing = missing
        return self

    def sparse(self):
        """Mark a float array that is mostly zeros (a tagger's emission weights:
        a feature string meets few labels): a file stores its nonzero values and
        their positions, where that is smaller (``rosenblatt.io``, format 3)."""
        self.stored_sparse = True
        return self

    @abstractmethod
    def check(self, file, field, value, known=None):
        """The value, checked against the declaration (or a ``ModelFileError``)."""


class Floats(Declared):
    """A float array of ``shape`` (entries: sizes as above, ``None`` for any), or of
    the shape and dtype of the field ``like``; finite unless ``finite=False`` (then
    not NaN), ``>= low`` when given, of one of ``dtypes`` (float64: what fit
    publishes). A callable ``shape(file)`` gives the whole shape."""

    def __init__(self, *shape, like=None, finite=True, low=None, dtypes=None):
        self.shape, self.like, self.finite, self.low = shape, like, finite, low
        self.dtypes = dtypes

    def _wanted(self, file, known):
        if self.like is not None:
            start = known[self.like]
            return start.shape, self.dtypes or (start.dtype,)
        if len(self.shape) == 1 and callable(self.shape[0]) and \
                not isinstance(self.shape[0], RowsOf):
            return tuple(self.shape[0](file)), self.dtypes or FLOAT64
        return tuple(_size(n, file, known) for n in self.shape), self.dtypes or FLOAT64

    def check(self, file, field, value, known=None):
        shape, dtypes = self._wanted(file, known)
        kinds = " or ".join(str(dtype) for dtype in dtypes)
        wanted = tuple("any" if n is None else n for n in shape)
        if not isinstance(value, np.ndarray) or value.dtype.kind != "f":
            file.fail(field, f"must be an array of shape {wanted} of {kinds} values; got "
                             f"{describe(value)}")
        if value.ndim != len(shape) or any(n is not None and n != m
                                           for n, m in zip(shape, value.shape)):
            file.fail(field, f"{field} has shape {value.shape}, expected {wanted}"
                             f"{_from_fields(self.shape, known)}")
        if value.dtype not in dtypes:
            file.fail(field, f"holds {value.dtype} values; expected {kinds}")
        if self.finite and not np.all(np.isfinite(value)):
            file.fail(field, "holds NaN or infinity; expected finite numbers")
        if not self.finite and np.any(np.isnan(value)):
            file.fail(field, "holds NaN")
        if self.low is not None and value.size and value.min() < self.low:
            file.fail(field, f"holds {float(value.min())!r}, below {self.low}")
        return value


class Ints(Declared):
    """A 1-D array of whole numbers of ``length`` (``None``: any) within ``[low, high]``
    (``high`` a size as above, or ``None``), of one of ``dtypes`` when given."""

    def __init__(self, length=None, low=0, high=None, dtypes=None):
        self.length, self.low, self.high, self.dtypes = length, low, high, dtypes

    def check(self, file, field, value, known=None):
        length, high = _size(self.length, file, known), _size(self.high, file, known)
        if not isinstance(value, np.ndarray) or value.dtype.kind not in "iu" or \
                value.ndim != 1 or (length is not None and len(value) != length):
            wanted = "any length" if length is None else f"length {length}"
            file.fail(field, f"must be a 1-D array of whole numbers of {wanted}; got "
                             f"{describe(value)}{_from_fields([self.length], known)}")
        if self.dtypes is not None and value.dtype not in self.dtypes:
            file.fail(field, f"holds {value.dtype} values; expected "
                             f"{' or '.join(map(str, self.dtypes))}")
        if value.size and (value.min() < self.low or (high is not None and value.max() > high)):
            bad = value.min() if value.min() < self.low else value.max()
            file.fail(field, f"holds {bad}, outside [{self.low}, "
                             f"{'any' if high is None else high}]"
                             f"{_from_fields([self.high], known)}")
        return value


class Numbers(Declared):
    """A list of numbers (what a rule state logs one by one): of ``length`` when
    given; whole numbers in ``[low, high]`` with ``whole``; else finite numbers,
    or any (a log of losses keeps the NaN of a diverged run) with ``finite=False``."""

    def __init__(self, length=None, *, whole=False, low=0, high=None, finite=True):
        self.length, self.whole, self.low, self.high = length, whole, low, high
        self.finite = finite

    def check(self, file, field, value, known=None):
        if not isinstance(value, list):
            file.fail(field, f"must be a list of numbers; got {describe(value)}")
        kinds = int if self.whole else (int, float)
        if not all(isinstance(v, kinds) and not isinstance(v, bool) for v in value):
            file.fail(field, f"must be a list of {'whole ' if self.whole else ''}numbers")
        length = _size(self.length, file, known)
        if length is not None and len(value) != length:
            file.fail(field, f"holds {len(value)} numbers; expected {length}"
                             f"{_from_fields([self.length], known)}")
        if self.whole:
            Ints(None, self.low, self.high).check(file, field, np.array(value, np.int64), known)
        elif self.finite:
            Floats(None).check(file, field, np.array(value, dtype=np.float64), known)
        return value


class Count(Declared):
    """A JSON whole number in ``[low, high]``."""

    def __init__(self, low=0, high=LARGEST_COUNT):
        self.low, self.high = low, high

    def check(self, file, field, value, known=None):
        if not whole(value, self.low, self.high):
            file.fail(field, f"must be a whole number from {self.low} to {self.high}; "
                             f"got {value!r}")
        return value


class Number(Declared):
    """A JSON number (of ``kinds``), finite unless told (then any: a loss that
    blew up), ``>= low`` (``> low`` when ``strictly``)."""

    def __init__(self, low=None, *, strictly=False, kinds=(int, float), finite=True):
        self.low, self.strictly, self.kinds, self.finite = low, strictly, kinds, finite

    def check(self, file, field, value, known=None):
        bad = isinstance(value, bool) or not isinstance(value, self.kinds)
        if not bad and self.finite:
            bad = not math.isfinite(value) or abs(value) > float(np.finfo(np.float64).max)
        if not bad and self.low is not None:
            bad = value <= self.low if self.strictly else value < self.low
        if bad:
            bound = "" if self.low is None else f" {'>' if self.strictly else '>='} {self.low}"
            file.fail(field, f"must be a {'finite ' if self.finite else ''}number{bound}; "
                             f"got {value!r}")
        return value


class Word(Declared):
    """One of the strings ``words``."""

    def __init__(self, words):
        self.words = tuple(words)

    def check(self, file, field, value, known=None):
        if not isinstance(value, str) or value not in self.words:
            file.fail(field, f"must be one of {', '.join(map(repr, self.words))}; got "
                             f"{value!r}")
        return value


class Flag(Declared):
    """``true`` or ``false``."""

    def check(self, file, field, value, known=None):
        if not isinstance(value, bool):
            file.fail(field, f"must be true or false; got {value!r}")
        return value


class Matrix(Declared):
    """Rows of ``width`` features: a CSR matrix, or (unless ``sparse_only``) a 2-D
    finite float array (float64 or float32)."""

    def __init__(self, width="features", *, sparse_only=False):
        self.width, self.sparse_only = width, sparse_only

    def check(self, file, field, value, known=None):
        width = _size(self.width, file, known)
        if sp.issparse(value):
            if value.shape[1] != width:
                file.fail(field, f"has rows of {value.shape[1]} features; expected {width}")
            return value
        if self.sparse_only:
            file.fail(field, f"must be a sparse matrix of {width} columns, a row per "
                             f"update; got {describe(value)}")
        return Floats(None, width, dtypes=WEIGHT_DTYPES).check(file, field, value, known)


class Optional(Declared):
    """``None``, or what ``declared`` accepts."""

    def __init__(self, declared):
        self.declared = declared

    def check(self, file, field, value, known=None):
        return None if value is None else self.declared.check(file, field, value, known)


class Tuple(Declared):
    """A tuple of the values ``items`` declare, in order."""

    def __init__(self, *items):
        self.items = items

    def check(self, file, field, value, known=None):
        if not isinstance(value, tuple) or len(value) != len(self.items):
            file.fail(field, f"must be a tuple of {len(self.items)} values; got "
                             f"{describe(value)}")
        return tuple(item.check(file, f"{field}#{k}", v, known)
                     for k, (item, v) in enumerate(zip(self.items, value)))


class Each(Declared):
    """A list whose every item is what ``declared`` accepts (blocks logged per epoch)."""

    def __init__(self, declared):
        self.declared = declared

    def check(self, file, field, value, known=None):
        if not isinstance(value, list):
            file.fail(field, f"must be a list; got {describe(value)}")
        return [self.declared.check(file, f"{field}#{k}", v, known)
                for k, v in enumerate(value)]


class OnePerProblem(Declared):
    """What ``declared`` accepts for a model of one problem; for several, a tuple of
    one per problem (how ``loss_curve_``, ``dual_coef_`` are published)."""

    def __init__(self, declared):
        self.declared = declared

    def check(self, file, field, value, known=None):
        problems = file.sizes["problems"]
        if problems == 1 or not isinstance(value, tuple):
            return self.declared.check(file, field, value, known)
        if len(value) != problems:
            file.fail(field, f"holds {len(value)} values; expected {problems}, one per "
                             "problem")
        return tuple(self.declared.check(file, f"{field}#{k}", v, known)
                     for k, v in enumerate(value))


class ProblemFields:
    """An estimator's prediction state, stored per problem ``k`` under the keys
    ``{prefix}{k}_{name}`` (in the file: ``state:{prefix}{k}_{name}``): each field
    as ``fields`` declares it (in order: a size may name an earlier field), then
    ``check(file, k, values, where)``, the invariants of one problem's fields,
    and ``finish(file, problems)`` over every problem's."""

    def __init__(self, prefix, fields, check=None, finish=None):
        self.prefix, self.fields, self._check, self._finish = prefix, fields, check, finish

    def keys(self, n_problems):
        return [f"{self.prefix}{k}_{name}" for k in range(n_problems) for name in self.fields]

    def check(self, file, state):
        """Check every problem's fields of ``state`` (a dict of :meth:`keys`)."""
        problems = []
        for k in range(file.sizes["problems"]):
            where = f"state:{self.prefix}{k}_"
            values = {"_where": where}
            for name, declared in self.fields.items():
                values[name] = declared.check(file, where + name,
                                              state[f"{self.prefix}{k}_{name}"], values)
            if self._check is not None:
                self._check(file, k, values, where)
            problems.append(values)
        if self._finish is not None:
            self._finish(file, problems)


#: Dataclass field metadata: a rule-state field the file does not hold, rebuilt
#: from the others by the state's ``loaded()`` (a budget's rows, from its support).
REBUILT = {"file": "rebuilt"}


def merged(cls, attribute):
    """The dicts named ``attribute`` along ``cls``'s bases, the most specific winning:
    a piece declares what it adds, a subclass what it changes."""
    form = {}
    for base in reversed(cls.__mro__):
        form.update(vars(base).get(attribute, {}))
    return form


def same_values(a, b):
    """Equal bit for bit: arrays of one shape and dtype, sparse matrices, tuples."""
    if isinstance(a, tuple) or isinstance(b, tuple):
        return isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) and \
            all(same_values(x, y) for x, y in zip(a, b))
    if sp.issparse(a) or sp.issparse(b):
        return sp.issparse(a) and sp.issparse(b) and a.shape == b.shape and \
            a.dtype == b.dtype and (a != b).nnz == 0
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        return a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a, b)
    return type(a) is type(b) and a == b


def close(a, b):
    """Equal up to rounding: the same sums taken in another order."""
    scale = max(float(np.max(np.abs(a), initial=0.0)), float(np.max(np.abs(b), initial=0.0)),
                1.0)
    return np.allclose(a, b, rtol=1e-6, atol=1e-6 * scale)
