"""The shape the engine was given (ARCHITECTURE.md), kept by tests: every estimator
is made of the base pieces plus a handful of hooks, and a rule's state is typed."""

import dataclasses

import pytest

from rosenblatt.base import Problem, RuleState

from ._estimators import ALL

#: the most hooks an estimator overrides (MulticlassPerceptron: its one-problem
#: layout; LinearUnit: its loss rule; VotedPerceptron: the vote and its file state)
MOST_OVERRIDES = 6


def overrides(cls):
    """Methods (and settings) in the class body that replace one of a base piece."""
    return sorted(
        name for name, value in vars(cls).items()
        if not name.startswith("__") and (callable(value) or isinstance(value, property))
        and any(name in vars(base) for base in cls.__mro__[1:])
    )


@pytest.mark.parametrize("cls", ALL, ids=lambda cls: cls.__name__)
def test_an_estimator_overrides_only_a_handful_of_hooks(cls):
    assert len(overrides(cls)) <= MOST_OVERRIDES, overrides(cls)


def test_a_problem_holds_typed_state_not_a_dict():
    fields = {field.name: field.type for field in dataclasses.fields(Problem)}
    assert "extra" not in fields and fields["state"] is RuleState
