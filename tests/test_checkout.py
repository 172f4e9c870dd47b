"""A checkout is its own: the environment imports this folder's mlp_ref and site plugin, not another's.

A copied or moved checkout keeps a ``.venv`` whose editable installs name the folder it was installed
for; the Makefile installs it again when its stamp names another folder. This test fails if that did
not happen (the build would run the other checkout's plugin and mlp_ref).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mlp_site import plugin

ROOT = Path(__file__).resolve().parent.parent


def test_the_build_imports_this_checkouts_packages():
    # In a process of its own, started as the build is (python -m, from the checkout), and for both
    # packages: the plugin is not on the path by the current folder, only by its editable install.
    found = subprocess.run([sys.executable, "-c", "import mlp_ref, mlp_site; print(mlp_ref.__file__); "
                            "print(mlp_site.__file__)"], cwd=ROOT, capture_output=True, text=True, check=True)
    for name, path in zip(("mlp_ref", "mlp_site"), found.stdout.split()):
        assert Path(path).resolve().is_relative_to(ROOT), (
            f"{name} is imported from {path}, not from this checkout ({ROOT}): the environment was installed "
            "for another folder; run make again (it installs it for this one)")


def test_the_plugin_refuses_to_build_another_checkout(tmp_path):
    # What a copy's build meets when its environment still names the original: the copy's mkdocs.yml
    # read by the original's plugin. It must stop and say both folders, not build the other code.
    config = MkDocsConfig(config_file_path=str(tmp_path / "mkdocs.yml"))
    with pytest.raises(PluginError, match=rf"mkdocs.yml is in {tmp_path}.*installed from {ROOT}.*Run `make`"):
        plugin.own_checkout(config)
    plugin.own_checkout(MkDocsConfig(config_file_path=str(ROOT / "mkdocs.yml")))  # its own: no error
