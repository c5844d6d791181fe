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


def test_a_damaged_cache_entry_is_compiled_again_with_a_warning(tmp_path):
    """A garbled .nbc or a truncated .nbi (a full disk, a killed process) made every
    later fit fail with UnpicklingError or EOFError; the folder is ours: the kernel
    is compiled again, its entry written anew, and a warning says so once."""
    env = {"XDG_CACHE_HOME": str(tmp_path)}
    assert run(env).returncode == 0  # the kernels compiled into the cache
    folder = tmp_path / "rosenblatt" / "numba"
    data, = folder.rglob("*online_epoch*.nbc")
    index, = folder.rglob("*online_epoch*.nbi")
    for spoil in (lambda: data.write_bytes(b"not a pickle at all"),
                  lambda: index.write_bytes(index.read_bytes()[:20])):
        spoil()
        done = run(env)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == "[[3.0, 2.0]]"
        assert done.stderr.count("RuntimeWarning: rosenblatt's cache of compiled kernels") == 1
        assert "held a damaged entry for online_epoch" in done.stderr
        again = run(env)  # written anew: read as it is, without a word
        assert again.returncode == 0 and again.stderr == "", again.stderr
