"""An estimator's file: its class and parameters, its fitted attributes, the state
its prediction needs, and (format 2) its training state.

What an estimator's arrays must look like is declared by the rule, not here:
its learner's pieces declare the attributes they publish (``published_form``,
merged along the learner's bases), and an estimator whose prediction reads more
than its fitted attributes declares that state (``_state_form``, a
:class:`~rosenblatt.base._file_form.ProblemFields`). What every model has
(``n_features_in_``, ``classes_``, the counters) is checked here.

>>> from rosenblatt import AROW
>>> form = published_form(AROW)  # LinearLearner's, SecondOrderLearner's, CountsMistakes'
>>> form["coef_"].required, type(form["covariance_"]).__name__, "n_mistakes_" in form
(True, 'Floats', True)
"""

import inspect
import re
import warnings

import numpy as np
import scipy.sparse as sp

from ..base._file_form import (
    LARGEST_COUNT,
    LARGEST_WIDTH,
    Count,
    FileContext,
    Flag,
    ModelFileError,
    Word,
    describe,
    merged,
    whole,
)
from ..base._registry import estimator_class
from ..base._stopping import STOP_REASONS
from ._format import (
    FORMAT_VERSION,
    PREDICTION_ONLY_VERSION,
    TRAINING_STATE_VERSION,
    decode,
    encode,
    fail,
    get,
    put,
)
from ._packing import holds_nonzeros
from ._training import holds_training_state, pack_problems, restore_training

#: the tags a stored attribute's description may carry
_SPECS = {"tuple", "csr", "array", "nonzeros"}

#: documented attributes a file never holds: the trace is not saved
_NOT_STORED = frozenset({"trace_"})

#: what every learner publishes (see :meth:`~rosenblatt.base.Learner.publish`)
_COUNTERS = {"n_iter_": Count(), "n_updates_": Count(), "n_examples_": Count(),
             "converged_": Flag(), "stop_reason_": Word(STOP_REASONS)}


def published_form(cls):
    """The declared fitted attributes of the estimator class ``cls``: its learner's
    ``published_form`` and the counters every learner publishes."""
    return {**_COUNTERS, **merged(cls._learner_class, "published_form")}


# ----------------------------------------------------------------------- saving

def estimator_meta(model, arrays, training_state, weights_dtype="float64"):
    """The metadata of an estimator, its arrays added to ``arrays``: what
    :func:`load_estimator` reads back. The attributes its learner declares
    ``sparse()`` are stored by their nonzeros, their values rounded to float32
    when ``weights_dtype`` is ``"float32"`` (then without the training state,
    which must publish the stored attributes bit for bit)."""
    if type(model).__name__ == "ParameterMixing" and hasattr(model, "estimator_"):
        model = model.estimator_
    name = type(model).__name__
    if estimator_class(name) is not type(model):
        last = model.steps[-1][1] if name == "Pipeline" and getattr(model, "steps", None) \
            else None
        step = "; or save its last step alone, save(pipeline[-1], path), and rebuild the rest" \
            if estimator_class(type(last).__name__) is type(last) else ""
        raise ValueError(
            f"save writes rosenblatt estimators (arrays and JSON, read back without running "
            f"code); got a {name}. To save a scikit-learn Pipeline or any other object, use "
            "joblib.dump (a pickle: load only files you trust) or skops.io.dump (whose "
            f"skops.io.load lists the types it would create and asks you to trust them){step}."
        )
    if not hasattr(model, "classes_"):
        raise ValueError(f"This {name} is not fitted yet: call fit before save.")
    if weights_dtype not in ("float64", "float32"):
        raise ValueError(f"weights_dtype must be 'float64' or 'float32'; got "
                         f"{weights_dtype!r}.")
    keeps_state = training_state and holds_training_state(model)
    if weights_dtype == "float32" and keeps_state:
        raise ValueError("weights_dtype='float32' rounds the weights, which then no longer "
                         "match the training state; save with training_state=False (a model "
                         "to predict with) or keep float64.")
    declared = published_form(type(model))
    if weights_dtype == "float32" and not any(d.stored_sparse for d in declared.values()):
        raise ValueError(f"weights_dtype='float32' rounds a sequence model's emission "
                         f"weights; a {name} file stores its weights as fit left them (fit "
                         "with weights_dtype='float32' where the estimator has that "
                         "parameter).")
    attributes = {}
    for key, value in vars(model).items():
        if key.endswith("_") and not key.startswith("_") and key not in _NOT_STORED:
            put(key, value, arrays, attributes,
                nonzeros=key in declared and declared[key].stored_sparse,
                float32=weights_dtype == "float32")
    for key, value in model._prediction_state().items():
        put(f"state:{key}", value, arrays, attributes)
    meta = {
        "format_version": PREDICTION_ONLY_VERSION,
        "estimator": name,
        "params": {key: encode(key, value) for key, value in model.get_params().items()},
        "attributes": attributes,
    }
    if keeps_state:
        meta["training"] = pack_problems(model, arrays)
        meta["format_version"] = TRAINING_STATE_VERSION
    if holds_nonzeros(attributes) or holds_nonzeros(meta.get("training")):
        meta["format_version"] = FORMAT_VERSION  # older versions cannot read it
    return meta


# ---------------------------------------------------------------------- loading

def load_estimator(path, meta, arrays):
    """The estimator that ``meta`` (checked by :func:`~._format.read_meta`, or a
    tagger's part) describes, from ``arrays``, every one of which it must use."""
    cls = estimator_class(meta.get("estimator"))
    if cls is None:
        raise ModelFileError(f"{path}: unknown estimator {meta.get('estimator')!r}.")
    try:
        params = {key: decode(value) for key, value in meta["params"].items()}
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
        value = get(path, key, arrays, attributes)
        if key.startswith("state:"):
            state[key[len("state:"):]] = value
        else:
            setattr(model, key, value)
    file = _check_fitted(path, model)
    _check_prediction_state(file, model, state)
    try:
        model._restore_prediction_state(state)
        # every part of the file is read by this: a wrong one fails here, not later
        with warnings.catch_warnings():  # the probe has no column names; the model may
            warnings.filterwarnings("ignore", "X does not have valid feature names")
            model.decision_function(sp.csr_matrix((1, model.n_features_in_)))
    except Exception as error:  # noqa: BLE001 - whatever a forged file breaks is its fault
        raise ModelFileError(f"{path}: inconsistent model state: {error}") from error
    training = meta.get("training")
    if holds_nonzeros(training) and meta.get("format_version", 0) < FORMAT_VERSION:
        raise ModelFileError(f"{path}: training: stores arrays by their nonzeros, which "
                             f"format {meta.get('format_version')!r} files do not hold (save "
                             f"writes them as format {FORMAT_VERSION}).")
    if training is None:
        # what the file holds is enough to predict, not to go on training: partial_fit
        # and a warm-start fit refuse while this is set (a fresh fit clears it)
        model._model_file = str(path)
        named_by_training = set()
    else:
        named_by_training = restore_training(path, model, training, arrays)
    extra = set(arrays) - named - named_by_training - {"__meta__"}
    if extra:
        raise ModelFileError(f"{path}: arrays {sorted(extra)} belong to no attribute.")
    return model


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
            sparse = "nonzeros" in spec and set(spec) == {"nonzeros", "dtype"}
            if not sparse and (len(spec) != 1 or not set(spec) <= _SPECS):
                raise ModelFileError(f"{path}: attribute {key!r} has an unknown description.")
            if sparse and meta.get("format_version", 0) < FORMAT_VERSION:
                raise ModelFileError(f"{path}: {key}: is stored by its nonzeros, which format "
                                     f"{meta.get('format_version')!r} files do not hold "
                                     f"(save writes them as format {FORMAT_VERSION}).")
            if sparse:
                named.update((f"{key}.index", f"{key}.values"))
            elif "array" in spec:
                named.add(key)
            elif "csr" in spec:
                named.update(f"{key}.{part}" for part in ("data", "indices", "indptr"))
        elif not (spec is None or isinstance(spec, (bool, int, float, str))):
            raise ModelFileError(f"{path}: attribute {key!r} has a value of an unknown kind.")
    return attributes, named


def _in_tuple(key, attributes):
    """Whether ``key`` (``name#k``) is item ``k`` of a tuple the attributes describe."""
    parent, _, index = key.rpartition("#")
    spec = attributes.get(parent)
    return index.isdigit() and str(int(index)) == index and isinstance(spec, dict) and \
        "tuple" in spec and whole(spec["tuple"], int(index) + 1, LARGEST_COUNT)


def _check_fitted(path, model):
    """The fitted attributes must fit each other (a mismatch means a damaged or
    edited file): what every model has, then what its learner declares it
    publishes. Returns the :class:`FileContext` of the model's sizes."""
    n_features = getattr(model, "n_features_in_", None)
    classes = getattr(model, "classes_", None)
    if n_features is None or classes is None:
        missing = "n_features_in_" if n_features is None else "classes_"
        fail(path, missing, "is missing; n_features_in_ or classes_ is missing or invalid")
    Count(1, LARGEST_WIDTH).check(FileContext(path), "n_features_in_", n_features)
    least = getattr(type(model)._learner_class, "min_classes", 2)
    if not isinstance(classes, np.ndarray) or classes.ndim != 1 or len(classes) < least or \
            classes.dtype.kind not in "iubfU":
        fail(path, "classes_", f"must be a 1-D array of at least {least} label"
                               f"{'s' * (least != 1)} (numbers, booleans or strings); got "
                               f"{describe(classes)}")
    if classes.dtype.kind == "f" and not np.all(np.isfinite(classes)):
        fail(path, "classes_", "holds NaN or infinity; labels are finite")
    if not np.all(classes[1:] > classes[:-1]):
        fail(path, "classes_", "is not sorted without repeats, as fit leaves it (n_features_in_"
                               " or classes_ is missing or invalid)")
    names = getattr(model, "feature_names_in_", None)
    if names is not None and (not isinstance(names, np.ndarray) or names.dtype.kind != "U" or
                              names.shape != (n_features,)):
        fail(path, "feature_names_in_", f"does not name {n_features} features with strings; "
                                        f"got {describe(names)}")
    file = FileContext(path, model=model, features=n_features, classes=len(classes),
                       problems=len(model._learner()._problem_classes()))
    for name, declared in published_form(type(model)).items():
        value = getattr(model, name, None)
        if value is None:
            if declared.required:
                fail(path, name, declared.missing)
            if not hasattr(model, name):
                continue  # an attribute this model publishes only with some parameters
        declared.check(file, name, value)
    return file


def _check_prediction_state(file, model, state):
    """The prediction state (``state:`` entries) against the fields the estimator
    declares (``_state_form``), before the estimator reads any of it."""
    form = type(model)._state_form
    expected = [] if form is None else form.keys(file.sizes["problems"])
    for key in sorted(set(state) - set(expected)):
        fail(file.path, f"state:{key}", f"is not part of a {type(model).__name__} model with "
                                        f"{len(model.classes_)} classes")
    for key in expected:
        if key not in state:
            fail(file.path, f"state:{key}", "is missing; prediction needs it")
    if form is not None:
        form.check(file, state)
