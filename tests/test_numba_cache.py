"""The compiled kernels are cached outside the package (a user cache folder, or
NUMBA_CACHE_DIR), and a folder that cannot be written only costs a warning."""

import os
import pathlib
import subprocess
import sys

import rosenblatt

PACKAGE = pathlib.Path(rosenblatt.__file__).parent
FIT = ("import numpy as np; from rosenblatt import Perceptron; "
       "m = Perceptron(shuffle='none').fit([[0., 0], [0, 1], [1, 0], [1, 1]], [0, 0, 0, 1]); "
       "print(m.coef_.tolist())")


def run(env_changes):
    env = {key: value for key, value in os.environ.items() if key != "NUMBA_CACHE_DIR"}
    env.update(env_changes)
    return subprocess.run([sys.executable, "-c", FIT], env=env, capture_output=True,
                          text=True, timeout=300)


def in_package():
    return sorted(PACKAGE.rglob("*.nbi")) + sorted(PACKAGE.rglob("*.nbc"))


def test_the_cache_goes_to_the_user_cache_folder_not_the_package(tmp_path):
    before = in_package()
    done = run({"XDG_CACHE_HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[[3.0, 2.0]]"
    assert list((tmp_path / "rosenblatt" / "numba").rglob("*.nbi"))
    assert in_package() == before


def test_numba_cache_dir_wins(tmp_path):
    done = run({"XDG_CACHE_HOME": str(tmp_path / "unused"),
                "NUMBA_CACHE_DIR": str(tmp_path / "numba")})
    assert done.returncode == 0, done.stderr
    assert list((tmp_path / "numba").rglob("*.nbi"))
    assert not (tmp_path / "unused").exists()


def test_an_unwritable_cache_folder_only_warns(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    done = run({"XDG_CACHE_HOME": str(blocker / "cache")})
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[[3.0, 2.0]]"
    assert done.stderr.count("cannot write its compiled kernels") == 1
    assert "Set NUMBA_CACHE_DIR" in done.stderr
