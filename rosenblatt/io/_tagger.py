"""A :class:`~rosenblatt.structured.SequenceTagger` file: two parts, its model and
its features.

The metadata's ``parts`` hold "model", the metadata of its sequence model exactly
as a model file of that estimator holds it (its arrays stored under the prefix
``model:``), and "features", its ``SentenceFeatures``: the parameters (the
template as its entry strings, the kind of vocabulary, ``n_features``,
``min_count``) and the fitted ``n_columns_``, ``template_`` and ``n_features_``,
with the vocabulary as arrays, ``features:strings`` (the feature strings in
UTF-8, one after another, uint8), ``features:offsets`` (int32, or int64 past
2 GB of strings: where each string starts and, last, where the final one ends)
and, for a vocabulary given as a dict, ``features:columns`` (int64, each
string's column; a fitted vocabulary numbers its sorted strings 0, 1, …, which
files before format 3 stored too). A hashing vocabulary stores no arrays. The
model's emission weights are stored by their nonzeros (see
:func:`rosenblatt.io.save`). A template
holding a Python callable is refused by ``save``; loading parses the template's
strings and runs nothing the file holds.

>>> from rosenblatt.io import load, save
>>> import pathlib, tempfile
>>> from rosenblatt.structured import SentenceFeatures, SequenceTagger
>>> tagger = SequenceTagger(SentenceFeatures(template=["word"])).fit(
...     [["a", "dog"], ["the", "cat"]], [["D", "N"], ["D", "N"]])
>>> path = pathlib.Path(tempfile.mkdtemp()) / "tagger.npz"
>>> save(tagger, path)
>>> load(path).predict([["a", "cat"]])
[['D', 'N']]
"""

import numpy as np
from sklearn.base import clone

from ..base._file_form import (
    LARGEST_COUNT,
    LARGEST_WIDTH,
    Count,
    FileContext,
    Ints,
    ModelFileError,
    describe,
)
from ..structured._features import SentenceFeatures, default_template
from ..structured._tagger import SequenceTagger
from ._estimator import estimator_meta, load_estimator
from ._format import fail

#: the estimator a tagger's model part is (the tagger's own model class)
_MODEL = SequenceTagger._model_class.__name__



#: the most token columns a stored template may read
_MOST_COLUMNS = 10_000
_FEATURES_KEYS = {"template", "template_", "vocabulary", "n_features", "n_columns_",
                  "n_features_"}
_VOCABULARY_ARRAYS = ("features:strings", "features:offsets", "features:columns")


def tagger_meta(tagger, arrays, training_state, weights_dtype="float64"):
    """A tagger's metadata, its arrays added to ``arrays`` (see above)."""
    if not hasattr(tagger, "model_"):
        raise ValueError("This SequenceTagger is not fitted yet: call fit before save.")
    model_arrays = {}
    model = estimator_meta(tagger.model_, model_arrays, training_state, weights_dtype)
    if model["estimator"] != _MODEL:
        raise ValueError(f"A tagger's model must be a {_MODEL} to be saved; got "
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
        arrays["features:offsets"] = offsets.astype(np.int32) if offsets[-1] < 2**31 \
            else offsets
        columns = np.fromiter(features.vocabulary_.values(), dtype=np.int64, count=len(names))
        if kind != "fit":  # fit numbers the sorted strings 0, 1, ...: nothing to store
            arrays["features:columns"] = columns
    return {"template": template, "template_": entries, "vocabulary": kind,
            "n_features": int(features.n_features), "n_columns_": int(features.n_columns_),
            "n_features_": int(features.n_features_), "min_count": int(features.min_count)}


def load_tagger(path, meta, arrays):
    """A :class:`~rosenblatt.structured.SequenceTagger` from its two parts; every
    array must belong to one."""
    parts = meta.get("parts")
    if not isinstance(parts, dict) or set(parts) != {"features", "model"}:
        fail(path, "parts", "must hold the tagger's two parts, 'features' and 'model'")
    model_meta = parts["model"]
    if not isinstance(model_meta, dict) or model_meta.get("estimator") != _MODEL:
        found = model_meta.get("estimator") if isinstance(model_meta, dict) else model_meta
        fail(path, "parts.model", f"must be a {_MODEL}; got {found!r}")
    model_arrays, feature_arrays = {}, {}
    for key, value in arrays.items():
        if key.startswith("model:"):
            model_arrays[key[len("model:"):]] = value
        elif key in _VOCABULARY_ARRAYS:
            feature_arrays[key] = value
        elif key != "__meta__":
            raise ModelFileError(f"{path}: array {key!r} belongs to no part of the tagger.")
    # the part is read as a file of the tagger's format (tagger_meta moved its version up)
    model = load_estimator(path, {**model_meta, "format_version": meta["format_version"]},
                           model_arrays)
    features, parameters = _unpack_features(path, parts["features"], feature_arrays)
    if model.n_features_in_ != features.n_features_:
        fail(path, "parts.model", f"reads {model.n_features_in_} features, but the tagger's "
                                   f"features make {features.n_features_}")
    tagger = SequenceTagger(features=SentenceFeatures(**parameters), model=clone(model))
    tagger.features_, tagger.model_ = features, model
    return tagger


def _unpack_features(path, spec, arrays):
    """The fitted SentenceFeatures ``spec`` and ``arrays`` describe, checked, and its
    parameters."""
    if not isinstance(spec, dict) or set(spec) - {"min_count"} != _FEATURES_KEYS:
        fail(path, "parts.features", f"must be a mapping of {sorted(_FEATURES_KEYS)} (and "
                                      "min_count)")
    kind = spec["vocabulary"]
    if kind not in ("fit", "hash", "dict"):
        fail(path, "parts.features.vocabulary", f"must be 'fit', 'hash' or 'dict'; got "
                                                 f"{kind!r}")
    file = FileContext(path)
    n_features = Count(1, LARGEST_WIDTH).check(file, "parts.features.n_features",
                                               spec["n_features"])
    n_columns = Count(1, _MOST_COLUMNS).check(file, "parts.features.n_columns_",
                                              spec["n_columns_"])
    n_features_ = Count(0, LARGEST_WIDTH).check(file, "parts.features.n_features_",
                                                spec["n_features_"])
    template = _template(path, spec, n_columns)
    vocabulary = _vocabulary(file, arrays, kind, n_features, n_features_)
    # files written before min_count existed kept every string: 1
    min_count = Count(1, LARGEST_COUNT).check(file, "parts.features.min_count",
                                              spec.get("min_count", 1))
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


def _template(path, spec, n_columns):
    """The template's parameter: ``"default"`` or the entries of ``template_``, which
    must be the default template's when it says so."""
    entries, template = spec["template_"], spec["template"]
    if not (isinstance(entries, list) and entries and all(isinstance(e, str) for e in entries)):
        fail(path, "parts.features.template_", "must be a list of template strings")
    if template == "default":
        if entries != default_template(n_columns):
            fail(path, "parts.features.template_", f"is not the default template of tokens "
                                                    f"of {n_columns} column(s)")
    elif template != entries:
        fail(path, "parts.features.template", "must be 'default' or the entries of "
                                               "template_")
    return template


def _vocabulary(file, arrays, kind, n_features, n_features_):
    """The vocabulary the arrays hold (``None`` when hashing): strings and their
    columns, numbered as a fit numbers them, or as the given dict did."""
    path = file.path
    stored = set(arrays)
    expected = set() if kind == "hash" else set(_VOCABULARY_ARRAYS)
    if kind == "fit" and "features:columns" not in stored:
        expected.discard("features:columns")  # since format 3: 0, 1, ... by sorted strings
    if stored != expected:
        missing, extra = sorted(expected - stored), sorted(stored - expected)
        fail(path, "parts.features", f"a {kind!r} vocabulary is stored as "
                                      f"{sorted(expected) or 'no arrays'}; "
                                      + (f"missing {missing}" if missing else f"extra {extra}"))
    vocabulary = None
    if kind == "hash":
        if n_features_ != n_features:
            fail(path, "parts.features.n_features_", f"must be n_features, {n_features}, when "
                                                      "hashing")
    else:
        names = _strings(path, arrays["features:strings"], arrays["features:offsets"])
        # a column of the n_features_ features, one per string
        columns = Ints(len(names), 0, max(n_features_ - 1, 0)).check(
            file, "features:columns",
            arrays.get("features:columns", np.arange(len(names), dtype=np.int64)))
        if names and n_features_ == 0:
            fail(path, "features:columns", "names columns of a vocabulary of 0 features")
        if kind == "fit":  # fit numbers the strings in sorted order
            if any(a >= b for a, b in zip(names, names[1:])):
                fail(path, "features:strings", "is not sorted without repeats, as fit "
                                                "leaves a vocabulary")
            if n_features_ != len(names) or not np.array_equal(columns, np.arange(len(names))):
                fail(path, "features:columns", "does not number the sorted strings 0, 1, ..., "
                                                "as fit does")
        else:
            if len(set(names)) != len(names):
                seen = set()
                twice = next(name for name in names if name in seen or seen.add(name))
                fail(path, "features:strings", f"holds the feature string {twice!r} twice")
            if n_features_ != (int(columns.max()) + 1 if len(columns) else 0):
                fail(path, "parts.features.n_features_", "is not the largest column of the "
                                                          "vocabulary plus one")
        vocabulary = dict(zip(names, columns.tolist()))
    return vocabulary


def _strings(path, strings, offsets):
    """The feature strings: UTF-8 bytes cut at ``offsets``."""
    if strings.dtype != np.uint8 or strings.ndim != 1:
        fail(path, "features:strings", f"must be a 1-D array of bytes (uint8); got "
                                        f"{describe(strings)}")
    if offsets.dtype not in (np.int32, np.int64) or offsets.ndim != 1 or len(offsets) < 1 \
            or offsets[0] != 0 \
            or offsets[-1] != len(strings) or np.any(offsets[1:] < offsets[:-1]):
        fail(path, "features:offsets", "must be int32 or int64, start at 0, never decrease "
                                        "and end at the length of features:strings")
    data, cuts = strings.tobytes(), offsets.tolist()
    try:
        return [data[start:stop].decode("utf-8", "surrogatepass")
                for start, stop in zip(cuts, cuts[1:])]
    except UnicodeDecodeError as error:
        raise ModelFileError(f"{path}: features:strings: not UTF-8 text ({error})") from None
