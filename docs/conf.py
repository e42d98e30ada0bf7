"""Sphinx configuration: the docs pages (Markdown, through MyST) and the API reference (autodoc, docs/api).

Build with ``pip install -e '.[docs]'`` then ``sphinx-build -W -b html docs build/docs``."""

project = "rummykit"
author = "the rummykit authors"
extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.viewcode"]
root_doc = "site"
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["images", "conf.py"]
myst_heading_anchors = 4
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "show-inheritance": True}
nitpicky = False
html_title = "rummykit"
# A class's own docstring or none: those inherited from Gymnasium or PettingZoo describe their bases.
autodoc_inherit_docstrings = False
