"""setuptools entry point: the extension declarations live in build.py."""
import runpy
from pathlib import Path

from setuptools import setup

setup(**runpy.run_path(str(Path(__file__).with_name("build.py")))["setup_kwargs"]())
