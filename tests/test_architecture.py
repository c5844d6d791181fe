"""The shape the engine was given (ARCHITECTURE.md), kept by tests: an estimator is
parameters, a docstring and the learner it builds; a learner is the base pieces
plus a handful of hooks; a rule's state is typed."""

import dataclasses
import inspect
import pathlib
import re

import pytest

from rosenblatt.base import Learner, PerceptronClassifier, Problem, RuleState
from rosenblatt.base._loop import train
from rosenblatt.base._shard import shard_epoch

from ._estimators import ALL

#: the most hooks a learner overrides (KernelLearner: its dual weights, their
#: start, epochs with and without a budget, decision, publishing)
MOST_OVERRIDES = 11

#: what an estimator's own class body may define besides its parameters: the
#: prediction from its fitted attributes, their file state, read-only views of them
ESTIMATOR_MEMBERS = {
    "__init__", "decision_function", "_prediction_state", "_restore_prediction_state",
    "_validate_params", "_learner_class", "_PARAMETERS", "_parameter_constraints", "_per_vote",
    "_state_form",
}


def overrides(cls):
    """Methods (and settings) in the class body that replace one of a base piece."""
    return sorted(
        name for name, value in vars(cls).items()
        if not name.startswith("__") and (callable(value) or isinstance(value, property))
        and any(name in vars(base) for base in cls.__mro__[1:])
    )


@pytest.mark.parametrize("cls", ALL, ids=lambda cls: cls.__name__)
def test_an_estimator_is_parameters_a_docstring_and_its_learner(cls):
    assert issubclass(cls._learner_class, Learner)
    assert cls.__doc__ and "Parameters" in cls.__doc__
    own = {name for name, value in vars(cls).items()
           if not (name.startswith("__") and name != "__init__")
           and not isinstance(value, property) and not name.endswith("_request")}
    assert own <= ESTIMATOR_MEMBERS, sorted(own - ESTIMATOR_MEMBERS)
    # nothing of training on the estimator: its learner has it
    for hook in ("_epoch", "_stop", "_mix", "_start_problems", "publish"):
        assert not hasattr(cls, hook), hook


@pytest.mark.parametrize("cls", ALL, ids=lambda cls: cls.__name__)
def test_a_learner_overrides_only_a_handful_of_hooks(cls):
    assert len(overrides(cls._learner_class)) <= MOST_OVERRIDES, overrides(cls._learner_class)


def test_the_learner_is_built_from_the_estimators_current_parameters():
    from rosenblatt import Perceptron

    model = Perceptron(eta=0.5, shuffle="none").fit([[0, 0], [1, 1]], [0, 1])
    model.set_params(eta=2.0)
    learner = model._learner()
    assert learner.eta == 2.0 and learner.shuffle == "none" and learner.name == "Perceptron"
    assert list(learner.classes_) == [0, 1]


def test_the_loop_and_the_shard_task_take_a_learner_not_an_estimator():
    assert list(inspect.signature(train).parameters)[0] == "learner"
    assert list(inspect.signature(shard_epoch).parameters)[1] == "learner"
    assert not issubclass(Learner, PerceptronClassifier)


def test_a_problem_holds_typed_state_not_a_dict():
    fields = {field.name: field.type for field in dataclasses.fields(Problem)}
    assert "extra" not in fields and fields["state"] is RuleState


def test_every_name_architecture_md_gives_exists_in_the_code():
    """ARCHITECTURE.md names only what exists: each code name in backticks (a
    class, function, method, attribute or module) is found in the sources."""
    root = pathlib.Path(__file__).resolve().parents[1]
    text = (root / "ARCHITECTURE.md").read_text(encoding="utf-8")
    sources = "\n".join(path.read_text(encoding="utf-8")
                        for folder in ("rosenblatt", "tests", "benchmarks")
                        for path in (root / folder).rglob("*.py"))
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", sources))
    names = set()
    for code in re.findall(r"`([^`\n]+)`", text):
        head = re.match(r"[A-Za-z_][A-Za-z0-9_.]*", code)
        if head and "_" in head.group() or head and re.match(r"[A-Z][a-z]+[A-Z]", head.group()):
            names.update(part for part in head.group().split(".") if part)
    external = {"NRT_incref"}  # numba's runtime, named where the LLVM is read
    missing = sorted(name for name in names - external if name not in words)
    assert not missing, missing


# ------------------------------------------------- ARCHITECTURE.md read against the code

ROOT = pathlib.Path(__file__).resolve().parents[1]
ARCHITECTURE = (ROOT / "ARCHITECTURE.md").read_text(encoding="utf-8")


def _tables():
    """Every table of ARCHITECTURE.md: a list of rows, each a dict by header."""
    tables, rows, header = [], None, None
    for line in ARCHITECTURE.splitlines() + [""]:
        if not line.startswith("|"):
            if rows:
                tables.append(rows)
            rows, header = None, None
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if header is None:
            header, rows = cells, []
        elif not set("".join(cells)) <= set("-: "):
            rows.append(dict(zip(header, cells)))
    return tables


def _modules(cell):
    """The files a "module" cell names: ``base/_loop.py``; a bare ``_penalty.py``
    is in the folder of the file named before it."""
    paths, folder = [], None
    for name in re.findall(r"`([\w/]+\.py)`", cell):
        if "/" in name:
            folder = name.rsplit("/", 1)[0]
        elif folder is not None:
            name = f"{folder}/{name}"
        paths.append(ROOT / "rosenblatt" / name)
    return paths


def _defines(source, name):
    return re.search(rf"^\s*(def|class)\s+{name}\b|^\s*{name}\s*[:=]", source, re.M)


def test_every_table_row_names_a_module_that_defines_its_pieces():
    checked = 0
    for rows in _tables():
        for row in rows:
            module = next((row[key] for key in row if key == "module"), None)
            if module is None:
                continue
            paths = _modules(module)
            assert paths, row
            assert all(path.is_file() for path in paths), (row, paths)
            piece = next((value for key, value in row.items() if "piece" in key), "")
            sources = "\n".join(path.read_text(encoding="utf-8") for path in paths)
            for code in re.findall(r"`([^`]+)`", piece):
                for name in re.findall(r"[A-Za-z_]\w*", code):
                    assert _defines(sources, name), (name, [p.name for p in paths])
                    checked += 1
    assert checked >= 20


def test_every_test_architecture_md_cites_exists():
    cited = re.findall(r"`(tests/\w+\.py)(?:::(\w+))?`", ARCHITECTURE)
    assert cited
    for path, function in cited:
        source = (ROOT / path).read_text(encoding="utf-8")
        assert not function or re.search(rf"^def {function}\b", source, re.M), (path, function)


def test_every_kernel_file_is_described():
    section = ARCHITECTURE.split("## The kernel layer", 1)[1].split("\n## ", 1)[0]
    for path in sorted((ROOT / "rosenblatt" / "_kernels").glob("_[!_]*.py")):
        assert f"`{path.name}`" in section, path.name


def test_the_recipe_for_a_rule_is_the_registry_s():
    """"Adding a rule" shows the one line a rule registers itself with."""
    section = ARCHITECTURE.split("## Adding a rule", 1)[1].split("\n## ", 1)[0]
    assert "@register(" in section and "linear_model/__init__.py" in section
