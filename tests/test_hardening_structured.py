"""Issue 35, items 1-7: the structured perceptron and the tagger refuse bad input with a
ValueError that says what was wrong and what to do."""

import numpy as np
import pytest

from rosenblatt.cli import main
from rosenblatt.io import save
from rosenblatt.structured import SequencePerceptron, SequenceTagger


# item 7: a tagger (or sequence model) file given to the commands of row models
@pytest.mark.parametrize("command", [["predict"], ["evaluate"], ["plot"],
                                     ["train", "--resume"]])
@pytest.mark.parametrize("kind", ["tagger", "sequence"])
def test_a_sequence_model_file_given_to_a_row_command_exits_2_with_one_line(
        command, kind, tmp_path, capsys):
    if kind == "tagger":
        model = SequenceTagger().fit([["a", "b"], ["c"]], [["X", "Y"], ["Y"]])
    else:
        model = SequencePerceptron(max_iter=2).fit(np.eye(3), [0, 1, 0], [2, 1])
    path = tmp_path / "model.npz"
    save(model, path)
    data = tmp_path / "data.csv"
    data.write_text("x1,x2,x3,y\n1,0,0,0\n0,1,0,1\n")
    if command[0] == "train":
        argv = ["train", str(data), "--resume", str(path), "-o", str(tmp_path / "out.npz")]
    else:
        argv = [command[0], str(path), str(data)]
    assert main(argv) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1, lines
    assert f"a {type(model).__name__} model, which labels sentences" in lines[0]
    if kind == "tagger":
        assert "'rosenblatt tag " in lines[0]
