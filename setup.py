"""Builds the solver's compiled search, core/ai/_search.c; everything else is pyproject.toml.

Optional by default (websockets' speedups pattern): without a C compiler the install goes on
and the solver runs its pure-Python twin (core/ai/speedups.py). With
TICTACTOE_BUILD_EXTENSION=required (the Dockerfile sets it) a failed build fails the install.
"""

import os

from setuptools import Extension, setup

REQUIRED = os.environ.get("TICTACTOE_BUILD_EXTENSION") == "required"

setup(
    ext_modules=[
        Extension(
            "core.ai._search",
            sources=["core/ai/_search.c"],
            extra_compile_args=["-O3", "-Wall"],
            optional=not REQUIRED,
        )
    ]
)
