"""The README's two commands are the ones CI runs."""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[1]


def readme_commands():
    return re.findall(r"```bash\n(.+?)\n```", (ROOT / "README.md").read_text())


def test_readme_has_exactly_two_commands():
    demo, tests = readme_commands()
    assert demo.endswith("rosenblatt demo")
    assert tests.endswith("python -m pytest")


def test_ci_runs_the_readme_test_command_verbatim():
    _, tests = readme_commands()
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert tests in ci_lines
    assert ci_lines[-1] == tests  # the last step: its exit code is CI's


def test_ci_runs_the_demo_and_the_documentation_commands_first():
    demo, tests = readme_commands()
    docs = re.findall(r"```sh\n(.+?)\n```", (ROOT / "README.md").read_text())
    assert len(docs) == 1 and "sphinx -W" in docs[0]
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert ci_lines[-3:] == [demo, docs[0], tests]
