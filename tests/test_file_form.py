"""The learner owns its file form (issue 31): io knows no rule, each rule declares
what its file holds and registers itself in one line."""

import ast
import dataclasses
import json
import pathlib
import re
import warnings

import numpy as np
import pytest

import rosenblatt
from rosenblatt import linear_model
from rosenblatt.base import Problem, RuleState
from rosenblatt.base._file_form import REBUILT, merged
from rosenblatt.base._registry import families, short_names
from rosenblatt.cli.train import models_epilog
from rosenblatt.engine import SHORT_NAMES
from rosenblatt.io import load, save
from rosenblatt.structured import SequencePerceptron

from ._estimators import ALL, limits, make

IO = pathlib.Path(rosenblatt.__file__).parent / "io"


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def _rule_names():
    """Every class a rule is made of: estimators, learners, rule states."""
    estimators = [getattr(linear_model, name) for name in linear_model.__all__]
    estimators.append(SequencePerceptron)
    names = {cls.__name__ for cls in estimators}
    names |= {cls._learner_class.__name__ for cls in estimators}
    names |= {cls.__name__ for cls in _subclasses(RuleState)} | {"RuleState"}
    return names


def _code_words(source):
    """The names and the words of string literals in ``source``'s code, its
    docstrings (whose examples use estimators) and comments left out."""
    tree = ast.parse(source)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    words = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            words.add(node.id)
        elif isinstance(node, ast.Attribute):
            words.add(node.attr)
        elif isinstance(node, (ast.alias,)):
            words.update(node.name.split("."))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                id(node) not in docstrings:
            words.update(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", node.value))
    return words


def test_io_names_no_rule_and_tests_no_type_of_one():
    """No rule class in io's code (so no isinstance against one, no table keyed by
    one): a new rule needs no line there."""
    rules = _rule_names()
    for path in sorted(IO.glob("*.py")):
        named = rules & _code_words(path.read_text(encoding="utf-8"))
        assert not named, (path.name, sorted(named))


def test_the_name_test_sees_a_type_test():
    assert "VoteLog" in _code_words("def f(state):\n    return isinstance(state, VoteLog)\n")
    assert "AROW" in _code_words("KINDS = {'AROW': 1}\n")
    assert "AROW" not in _code_words('"""from rosenblatt import AROW"""\n')


def test_io_is_a_few_small_modules():
    sizes = {path.name: len(path.read_text(encoding="utf-8").splitlines())
             for path in IO.glob("*.py")}
    assert len(sizes) <= 7 and max(sizes.values()) <= 400, sizes


def _variants():
    """One fitted model per kind of rule state."""
    for cls in ALL:
        yield make(cls, random_state=0, **limits(cls))
    yield linear_model.PLA(pocket=True, max_updates=50)
    yield linear_model.AveragedPerceptron(max_iter=3, penalty="l2", alpha=0.01)
    for policy in ("random", "oldest", "forgetron", "projectron++"):
        yield linear_model.KernelPerceptron(budget=4, budget_policy=policy, max_iter=3,
                                            random_state=0)
    yield linear_model.MulticlassPerceptron(average=True, max_iter=3)
    yield SequencePerceptron(average=True, max_iter=2)


def _fitted(model):
    X = np.random.RandomState(0).randn(24, 3)
    y = np.arange(24) % 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if isinstance(model, SequencePerceptron):
            return model.fit(X, y, lengths=[6, 6, 6, 6])
        if isinstance(model, linear_model.BalancedWinnow) or \
                isinstance(model, linear_model.Winnow):
            X = np.abs(X)
        return model.fit(X, y)


@pytest.mark.parametrize("model", list(_variants()), ids=repr)
def test_every_field_a_fresh_problem_does_not_show_is_declared(model):
    """A rule state declares (``file_form``) each field whose fresh value says
    nothing of what it will hold (``None``, an empty list), unless its annotation
    is a plain type or the field is rebuilt; io reads the others as in a fresh
    problem."""
    fitted = _fitted(model)
    fresh = fitted._learner().start_problems(np.zeros((1, fitted.n_features_in_)),
                                             np.random.RandomState(0))
    for problem in fresh:
        state = problem.state
        if not dataclasses.is_dataclass(state):
            continue
        form = merged(type(state), "file_form")
        for f in dataclasses.fields(state):
            start = getattr(state, f.name)
            if f.name.startswith("_") or f.metadata == REBUILT or f.name in form:
                continue
            plain = f.type in (int, float, bool, str)
            empty = start is None or (isinstance(start, list) and not start)
            assert plain or not empty, (type(state).__name__, f.name)


@pytest.mark.parametrize("model", list(_variants()), ids=repr)
def test_every_variant_saves_loads_and_publishes_the_same(model, tmp_path):
    fitted = _fitted(model)
    save(fitted, tmp_path / "m.npz")
    loaded = load(tmp_path / "m.npz")
    name = "coef_" if hasattr(fitted, "coef_") else "intercept_"
    np.testing.assert_array_equal(getattr(loaded, name), getattr(fitted, name))


def test_a_file_older_than_a_plain_problem_field_takes_its_default(tmp_path):
    """The training state stores every dataclass field of Problem; a field added
    later (a plain number, flag or word) is missing from older files, which load
    with its default."""
    model = _fitted(linear_model.Perceptron(max_iter=3, random_state=0, tol=None))
    path = tmp_path / "m.npz"
    save(model, path)
    with np.load(path, allow_pickle=False) as stored:
        arrays = {key: stored[key] for key in stored.files}
    meta = json.loads(str(arrays["__meta__"]))
    plain = [f for f in dataclasses.fields(Problem) if f.default is not dataclasses.MISSING
             and isinstance(f.default, (bool, int, float, str, type(None)))
             and f.name in meta["training"][0]["fields"]
             and f.name != "n_updates"]  # published as n_updates_, which must agree
    assert {"n_iter", "seed", "epoch_loss"} <= {f.name for f in plain}
    for f in plain:
        del meta["training"][0]["fields"][f.name]
    arrays["__meta__"] = np.array(json.dumps(meta))
    np.savez(path, **arrays)
    problem = load(path)._problems[0]
    for f in plain:
        assert getattr(problem, f.name) == f.default, f.name


def test_every_estimator_registers_itself_once_and_everything_derives_from_it():
    public = set(linear_model.__all__)
    assert set(SHORT_NAMES.values()) == public == set(short_names().values())
    assert len(SHORT_NAMES) == len(public)
    listed = [name for names in families().values() for name in names]
    assert sorted(listed) == sorted(SHORT_NAMES)
    help_text = models_epilog()
    assert all(re.search(rf"\b{name}\b", help_text) for name in SHORT_NAMES), help_text
    assert public <= set(rosenblatt.__all__) and public <= set(dir(rosenblatt))
    assert {cls.__name__ for cls in ALL} == public
