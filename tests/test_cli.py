import subprocess
import sys

import pytest

from rosenblatt import PLA, __version__
from rosenblatt.cli import main
from rosenblatt.datasets import make_target_line


def test_demo_prints_the_blog_numbers(capsys):
    assert main(["demo", "-n", "20", "--test-points", "2000", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    X, y, _ = make_target_line(20, random_state=3)
    updates = PLA(random_state=3).fit(X, y).n_updates_
    lines = dict(line.split(None, 1) for line in out.splitlines())
    assert lines["N"] == "20"
    assert lines["updates"] == str(updates)
    assert lines["E_in"] == "0.0000"
    e_out = float(lines["E_out"].split()[0])
    assert 0.0 <= e_out < 0.3


@pytest.mark.parametrize("argv, message", [
    (["demo", "-n", "0"], "expected a positive whole number, got '0'"),
    (["demo", "--seed", "x"], "invalid int value"),
    (["nonsense"], "invalid choice"),
])
def test_bad_usage_exits_2_with_a_reason(argv, message, capsys):
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_no_command_shows_help_and_exits_2(capsys):
    assert main([]) == 2
    assert "demo" in capsys.readouterr().out


def test_real_subprocess_version_and_demo():
    version = subprocess.run([sys.executable, "-m", "rosenblatt", "--version"],
                             capture_output=True, text=True, check=True)
    assert version.stdout.strip() == f"rosenblatt {__version__}"
    demo = subprocess.run([sys.executable, "-m", "rosenblatt", "demo", "--test-points", "500"],
                          capture_output=True, text=True)
    assert demo.returncode == 0, demo.stderr
    assert demo.stdout.startswith("N        20\n")
    bad = subprocess.run([sys.executable, "-m", "rosenblatt", "demo", "-n", "-5"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "positive whole number" in bad.stderr
    assert "Traceback" not in bad.stderr
