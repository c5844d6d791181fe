"""Data sets of the texts and loaders for data files.

Truth tables (Ahmed & Pavlu), the random target line (the blog), the *SVM
Succinctly* toy set (Kowalczyk), Iris as binary problems (CISC 271), and
loaders for CSV, LIBSVM/svmlight, Vowpal Wabbit text, NumPy, CoNLL column
and CoNLL-U files.
"""

from ._chunks import ChunkedFile
from ._conll import load_conll
from ._conllu import ConlluFormatError, ConlluSentence, load_conllu, write_conllu
from ._generators import label_by, make_boolean, make_target_line
from ._iris import load_iris_binary
from ._loaders import load_csv, load_data, load_libsvm, load_numpy
from ._textbook import load_svm_succinctly
from ._vw import load_vw

__all__ = [
    "ChunkedFile",
    "ConlluFormatError",
    "ConlluSentence",
    "label_by",
    "load_conll",
    "load_conllu",
    "load_csv",
    "load_data",
    "load_iris_binary",
    "load_libsvm",
    "load_numpy",
    "load_svm_succinctly",
    "load_vw",
    "make_boolean",
    "make_target_line",
    "write_conllu",
]
