"""The training state: every field of each problem and of its rule state, so that
``load`` then ``partial_fit`` goes on exactly as if the model had never been saved.

A problem is stored as ``{"fields": {name: packed}, "state": {"type": name,
"fields": {name: packed}}}`` over :func:`dataclasses.fields` of
:class:`~rosenblatt.base.Problem` and of its rule state (see :mod:`._packing`),
so a field added to either is saved and restored without a change here; a file
written before a plain field (a number, a flag, a word) existed gets the field's
default.

Loading checks every field against the problems the estimator itself starts for
``classes_`` and ``n_features_in_``: a field the rule state declares in its
``file_form`` as the state declares it, any other as its value in a fresh
problem (the same type, shape and dtype). The state then checks what binds its
fields together (``check_file``) and rebuilds what the file does not hold
(``loaded``); and the problems must publish, bit for bit, the fitted attributes
the file holds. Nothing here knows a rule.

>>> from rosenblatt import Perceptron
>>> model = Perceptron(shuffle="none").fit([[0, 1], [1, 0]], [0, 1])
>>> arrays = {}
>>> packed = pack_problems(model, arrays)[0]
>>> packed["fields"]["coef"], packed["fields"]["n_iter"], packed["state"]
({'array': 'training0.coef'}, 2, {'type': 'RuleState', 'fields': {}})
"""

import dataclasses
import math

import numpy as np

from ..base._file_form import REBUILT, ModelFileError, describe, merged, same_values
from ._packing import Reader, pack

#: Problem fields a file does not hold: the trace recorder (``trace_`` is not
#: saved either), the renumbering and the penalty's arrays (rebuilt by every
#: call), the labels (rebuilt from ``classes_``) and the state (stored apart).
SKIPPED_FIELDS = frozenset({"recorder", "columns", "penalty", "classes", "state"})
#: Problem fields that earlier files hold and that no longer exist: read and ignored
#: (the loss the stopping rule watched before it watched the mistakes, issue 31)
RETIRED_FIELDS = frozenset({"best_loss"})

#: a value standing for a field's annotation, for fields that start as None
_ANNOTATED = {int: 0, "int": 0, float: 0.0, "float": 0.0, bool: False, "bool": False}

#: counters the problems publish, compared with the file's besides what the learner
#: declares it publishes (n_iter_ and converged_ are left: fit_chunks sets its own)
_COMPARED = ("n_updates_", "n_examples_")


def holds_training_state(model):
    """Whether ``model`` has a training state worth saving: its own problems, not
    the placeholders of a model read from a file without them."""
    return hasattr(model, "_problems") and getattr(model, "_model_file", None) is None


def _problem_fields(problem):
    return [f for f in dataclasses.fields(problem)
            if not f.name.startswith("_") and f.name not in SKIPPED_FIELDS]


def _state_fields(state):
    if not dataclasses.is_dataclass(state):
        return []
    return [f for f in dataclasses.fields(state)
            if not f.name.startswith("_") and f.metadata.get("file") != REBUILT["file"]]


def pack_problems(model, arrays):
    """Every problem's training state as JSON, its arrays added to ``arrays``."""
    packed = []
    for k, problem in enumerate(model._problems):
        name, state = f"training{k}", problem.state
        fields = {f.name: pack(getattr(problem, f.name), f"{name}.{f.name}", arrays)
                  for f in _problem_fields(problem)}
        state_fields = {f.name: pack(getattr(state, f.name), f"{name}.state.{f.name}", arrays,
                                     problem.rng) for f in _state_fields(state)}
        packed.append({"fields": fields,
                       "state": {"type": type(state).__name__, "fields": state_fields}})
    return packed


def restore_training(path, model, training, arrays):
    """Rebuild ``model._problems`` from the file's training state; returns the
    names of the arrays it read."""
    templates = _template_problems(path, model)
    if not isinstance(training, list) or len(training) != len(templates):
        count = len(training) if isinstance(training, list) else "no list of"
        raise ModelFileError(
            f"{path}: training state: {count} problems, where {len(model.classes_)} classes "
            f"make {len(templates)}.")
    reader = Reader(path, arrays, model=model, features=model.n_features_in_,
                    problems=len(templates), classes=len(model.classes_))
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


def _restore_problem(reader, k, stored, problem):
    """``problem``, a fresh one, with the fields ``stored`` holds."""
    where = f"problem{k}"
    if not isinstance(stored, dict) or set(stored) != {"fields", "state"} or \
            not isinstance(stored["state"], dict) or \
            set(stored["state"]) != {"type", "fields"}:
        reader.fail(where, "is not a stored problem")
    problem.recorder = None  # trace_ is not saved: a loaded model records no trace
    fields = stored["fields"]
    if isinstance(fields, dict):
        fields = {name: value for name, value in fields.items() if name not in RETIRED_FIELDS}
    known = _restore_fields(reader, where, problem, _problem_fields(problem), {}, fields)
    state, kind = problem.state, type(problem.state).__name__
    if stored["state"]["type"] != kind:
        reader.fail(f"{where}.state", f"is a {stored['state']['type']!r}; this estimator "
                                      f"keeps a {kind!r}")
    _restore_fields(reader, f"{where}.state", state, _state_fields(state),
                    merged(type(state), "file_form"), stored["state"]["fields"],
                    problem.rng, known)
    state.loaded()
    state.check_file(reader, f"{where}.state")
    return problem


def _restore_fields(reader, where, obj, fields, form, stored, problem_rng=None, known=None):
    """Set ``fields`` of ``obj`` (a fresh problem or state) from ``stored``, each
    checked as ``form`` declares it or against the value ``obj`` starts with;
    returns the values by name, ``known`` first (what declarations may refer to)."""
    if not isinstance(stored, dict):
        reader.fail(where, "is not a mapping of fields")
    names = {f.name for f in fields}
    for name in set(stored) - names:
        reader.fail(f"{where}.{name}", f"is no field of {type(obj).__name__}")
    known = {**(known or {}), "_where": f"{where}."}
    for f in fields:
        field = f"{where}.{f.name}"
        if f.name not in stored:
            if not _plain_default(f):
                reader.fail(field, "is missing")
            setattr(obj, f.name, f.default)  # a file older than the field
            continue
        value = reader.unpack(stored[f.name], field, problem_rng)
        if isinstance(value, float) and math.isnan(value):
            reader.fail(field, "is NaN")
        if f.name in form:
            value = form[f.name].check(reader, field, value, known)
        else:
            _check_like(reader, field, value, getattr(obj, f.name), f.type)
        setattr(obj, f.name, value)
        known[f.name] = value
    return known


def _plain_default(field):
    """Whether ``field`` has a plain default (a number, flag, word or None), which a
    file written before the field existed is read with."""
    return field.default is not dataclasses.MISSING and (
        field.default is None or isinstance(field.default, (bool, int, float, str)))


def _check_like(reader, field, value, start, annotation):
    """``value`` must be of the kind of ``start``, the field's value in a fresh problem;
    a field that starts as ``None`` (a seed drawn later) holds a plain value, of its
    annotation's type when that is a number or flag."""
    if start is None:
        start = _ANNOTATED.get(annotation, start) if value is not None else None
    if isinstance(start, np.ndarray):
        if not isinstance(value, np.ndarray) or value.shape != start.shape or \
                value.dtype != start.dtype:
            reader.fail(field, f"must be an array of shape {start.shape} and dtype {start.dtype};"
                               f" got {describe(value)}")
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
            reader.fail(field, f"must be a random generator; got {describe(value)}")
    elif isinstance(start, (list, tuple)) and type(value) is not type(start):
        reader.fail(field, f"must be a {type(start).__name__}; got {describe(value)}")
    elif not _plain(value):
        # what a fresh problem does not show, its state must declare (file_form)
        reader.fail(field, f"holds {describe(value)}, which its state does not declare")


def _plain(value):
    if isinstance(value, (list, tuple)):
        return all(_plain(item) for item in value)
    return value is None or isinstance(value, (bool, int, float, str))


def _check_published(path, model, problems):
    """The restored problems must publish the weights (and prediction state) the
    file holds, bit for bit; the file's other attributes (counters that
    :func:`~rosenblatt.streaming.fit_chunks` sets, say) are kept as they are."""

    compared = (*_COMPARED, *merged(model._learner_class, "published_form"))

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
        if key not in after or not same_values(before[key], after[key]):
            raise ModelFileError(f"{path}: training state does not give the stored {key} "
                                 "(a field was edited, or belongs to another model).")
