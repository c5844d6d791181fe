"""Sphinx configuration: numpydoc API reference and an executed sphinx-gallery.

Build (from the repository root, see README.md)::

    python -m sphinx -W --keep-going -b html docs docs/_build/html
"""

import os
import pathlib
import sys

import matplotlib

matplotlib.use("agg")  # the gallery draws without a display
os.environ.setdefault("TQDM_DISABLE", "1")  # no progress bars in the executed examples

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "docs"))  # gallery_order

import rosenblatt  # noqa: E402

project = "rosenblatt"
copyright = "2026, the rosenblatt developers"
release = version = rosenblatt.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.viewcode",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]

templates_path = ["_templates"]
exclude_patterns = ["_build", "**/*.ipynb", "**.md5", "**.py"]
root_doc = "index"
default_role = "code"  # `name` in prose is code, as in the README

autosummary_generate = True
autodoc_default_options = {"members": True, "inherited-members": False}
numpydoc_show_class_members = False  # the class template lists the methods once
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = True

sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "examples"),
    "gallery_dirs": "auto_examples",
    # the scripts that need the shared data or a cluster are shown, not run
    "filename_pattern": r"/plot_",
    "within_subsection_order": "gallery_order.TextsFirst",
    "download_all_examples": False,
    "remove_config_comments": True,
    "capture_repr": ("_repr_html_", "__repr__"),
    "image_scrapers": ("matplotlib",),
    "matplotlib_animations": False,
    "abort_on_example_error": True,
    "min_reported_time": 5,
    "show_memory": False,
    "show_signature": False,
}

html_theme = "pydata_sphinx_theme"
html_title = f"rosenblatt {version}"
html_static_path = []
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
}
html_show_sourcelink = False


def _skip_metadata_routing(app, what, name, obj, skip, options):
    """scikit-learn's generated ``set_*_request`` methods and ``get_metadata_routing``
    point into scikit-learn's own glossary; its documentation describes them."""
    if name == "get_metadata_routing" or (name.startswith("set_") and name.endswith("_request")):
        return True
    return None


def setup(app):
    app.connect("autodoc-skip-member", _skip_metadata_routing)
