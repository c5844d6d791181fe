"""The documentation's API reference lists every public object, and the gallery
has a page per text."""

import importlib
import pathlib
import re

DOCS = pathlib.Path(__file__).resolve().parents[1] / "docs"
MODULES = ["linear_model", "theory", "datasets", "inspection", "trace", "experiments",
           "distributed", "streaming", "cli", "structured"]
#: public names that are data, not objects with a page of their own
DATA = {"experiments.EXPERIMENTS"}


def _listed():
    text = (DOCS / "api.rst").read_text(encoding="utf-8")
    return set(re.findall(r"^   ([a-z_]+\.[A-Za-z_0-9]+)$", text, re.MULTILINE))


def test_the_api_reference_lists_every_public_object():
    listed = _listed()
    public = {f"{name}.{attribute}" for name in MODULES
              for attribute in importlib.import_module(f"rosenblatt.{name}").__all__}
    assert public - DATA - listed == set()
    for name in ("metrics", "preprocessing", "io"):
        module = importlib.import_module(f"rosenblatt.{name}")
        functions = {f"{name}.{attribute}" for attribute, value in vars(module).items()
                     if callable(value) and not attribute.startswith("_")
                     and getattr(value, "__module__", None) == module.__name__}
        assert functions - listed == set(), name


def test_every_listed_object_exists():
    for entry in _listed():
        module, attribute = entry.rsplit(".", 1)
        assert hasattr(importlib.import_module(f"rosenblatt.{module}"), attribute), entry


def test_the_user_guide_has_a_page_per_family_and_the_gallery_a_page_per_text():
    toc = (DOCS / "user_guide" / "index.rst").read_text(encoding="utf-8")
    pages = re.findall(r"^   (\w+)$", toc, re.MULTILINE)
    assert all((DOCS / "user_guide" / f"{page}.rst").exists() for page in pages)
    assert {"online", "batch", "multiclass", "kernel", "passive_aggressive"} <= set(pages)
    examples = {path.stem for path in (DOCS.parent / "examples").glob("plot_*.py")}
    assert examples == {"plot_kowalczyk", "plot_ahmed_pavlu", "plot_data_science_lab",
                        "plot_cisc271", "plot_daume", "plot_sequence_tagging",
                        "plot_eisner_chart", "plot_dependency_parsing"}
