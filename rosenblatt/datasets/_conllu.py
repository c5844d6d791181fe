"""CoNLL-U, the format of the Universal Dependencies treebanks, read and written exactly.

A sentence is a block of lines ended by a blank line: comment lines first (``#
sent_id = …``, ``# text = …``), then one line per token with ten tab-separated
columns, ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC, ``_`` for an empty
field (universaldependencies.org/format.html). Three kinds of token line share
the ID column: a syntactic word (``7``, numbered from 1), a multiword token
(``3-4``: the surface form of the words 3 and 4 that follow it) and an empty node
(``5.1``, used by enhanced graphs only).

Learning reads the syntactic words only; a :class:`ConlluSentence` keeps every
line and every comment as it was read, so a predicted column written back leaves
the rest of the file untouched: reading then writing a valid file gives its bytes
back (with ``\\n`` line ends).
"""

import gzip
import pathlib
import re

import numpy as np

from ._conll import ConllFormatError, _text

#: the ten columns of a CoNLL-U token line, by the lower-case names used here
COLUMNS = ("id", "form", "lemma", "upos", "xpos", "feats", "head", "deprel", "deps", "misc")
_INDEX = {name: k for k, name in enumerate(COLUMNS)}
_WORD = re.compile(r"[1-9][0-9]*\Z")
_RANGE = re.compile(r"([1-9][0-9]*)-([1-9][0-9]*)\Z")
_EMPTY_NODE = re.compile(r"(0|[1-9][0-9]*)\.([1-9][0-9]*)\Z")


class ConlluFormatError(ConllFormatError):
    """A CoNLL-U file or sentence that breaks the format; the message names the file
    and the line (a ``ValueError``)."""


class ConlluSentence:
    """One sentence of a CoNLL-U file: its comment lines and its token lines.

    Parameters
    ----------
    comments : sequence of str
        The comment lines, each with its leading ``#``, without the line end.
    lines : sequence of sequence of str
        Every token line's ten fields, in file order: syntactic words, multiword
        tokens and empty nodes.

    Attributes
    ----------
    comments : tuple of str
    lines : tuple of tuple of str

    Examples
    --------
    >>> sentence = ConlluSentence(["# text = Dogs bark."], [
    ...     ["1", "Dogs", "dog", "NOUN", "NNS", "Number=Plur", "2", "nsubj", "_", "_"],
    ...     ["2", "bark", "bark", "VERB", "VBP", "_", "0", "root", "_", "_"],
    ...     ["3", ".", ".", "PUNCT", ".", "_", "2", "punct", "_", "_"]])
    >>> len(sentence), sentence.column("upos")
    (3, ['NOUN', 'VERB', 'PUNCT'])
    >>> sentence.heads
    array([2, 0, 2])
    >>> sentence.replace(upos=["X", "X", "X"]).column("upos")
    ['X', 'X', 'X']
    """

    __slots__ = ("_words", "comments", "lines")

    def __init__(self, comments, lines):
        self.comments = tuple(str(line) for line in comments)
        self.lines = tuple(tuple(fields) for fields in lines)
        for fields in self.lines:
            if len(fields) != len(COLUMNS):
                raise ConlluFormatError(
                    f"a CoNLL-U token line has {len(COLUMNS)} fields; got {len(fields)}: "
                    f"{fields!r}.")
        self._words = tuple(k for k, fields in enumerate(self.lines)
                            if _WORD.match(fields[0]))
        _check_sentence(self, where="")

    @classmethod
    def from_columns(cls, forms, **columns):
        """A sentence of the words ``forms``, numbered from 1, with the columns
        named (``lemma``, ``upos``, ``xpos``, ``feats``, ``head``, ``deprel``,
        ``deps``, ``misc``: one value per word; ``_`` where not given) and no
        comment: a sentence written in code, for examples and tests.

        >>> s = ConlluSentence.from_columns(["Dogs", "bark"], upos=["NOUN", "VERB"],
        ...                                 head=[2, 0])
        >>> len(s), s.column("upos"), s.heads.tolist(), s.column("deprel")
        (2, ['NOUN', 'VERB'], [2, 0], ['_', '_'])
        """
        forms = list(forms)
        blank = cls([], [[str(k), _field("form", form), *"________"]
                         for k, form in enumerate(forms, start=1)])
        return blank.replace(**columns) if columns else blank

    def __len__(self):
        """The number of syntactic words."""
        return len(self._words)

    def __eq__(self, other):
        if not isinstance(other, ConlluSentence):
            return NotImplemented
        return self.comments == other.comments and self.lines == other.lines

    def __hash__(self):
        return hash((self.comments, self.lines))

    def __repr__(self):
        words = " ".join(self.column("form"))
        return f"ConlluSentence({len(self)} words: {words[:60]!r})"

    def column(self, name):
        """The values of the column ``name`` ("form", "upos", "head", …) of every
        syntactic word, as strings, in order."""
        index = _column_index(name)
        return [self.lines[k][index] for k in self._words]

    @property
    def heads(self):
        """HEAD of every syntactic word as an int64 array (0: the root).

        Raises :class:`ConlluFormatError` when a word has no head (``_``), as in a
        file that is yet to be parsed.
        """
        values = self.column("head")
        if "_" in values:
            word = values.index("_") + 1
            raise ConlluFormatError(
                f"word {word} ({self.column('form')[word - 1]!r}) of the sentence "
                f"{self.sent_id or repr(self)} has no HEAD ('_'); training and scoring "
                "a parser need a treebank with every head given.")
        return np.array([int(value) for value in values], dtype=np.int64)

    @property
    def sent_id(self):
        """The value of the ``# sent_id =`` comment, or None."""
        for line in self.comments:
            key, equals, value = line[1:].partition("=")
            if equals and key.strip() == "sent_id":
                return value.strip()
        return None

    def replace(self, **columns):
        """A copy with the named columns of the syntactic words replaced.

        Each keyword is a column name and its value one entry per word (strings;
        whole numbers for ``head``). Comments, multiword tokens, empty nodes and
        every other column stay as they were.
        """
        lines = [list(fields) for fields in self.lines]
        for name, values in columns.items():
            index = _column_index(name)
            if index == 0:
                raise ValueError("the ID column cannot be replaced; it numbers the words.")
            values = list(values)
            if len(values) != len(self):
                raise ValueError(f"{name}: {len(values)} values for a sentence of "
                                 f"{len(self)} words; give one per word.")
            for k, value in zip(self._words, values):
                lines[k][index] = _field(name, value)
        return ConlluSentence(self.comments, lines)


def load_conllu(path, encoding="utf-8"):
    """Read a CoNLL-U file into a list of :class:`ConlluSentence`.

    Parameters
    ----------
    path : str or path-like
        The file; gzip-compressed files (recognised by their first bytes) are read
        transparently.
    encoding : str, default="utf-8"
        The text encoding (UD files are UTF-8); a byte-order mark is dropped.

    Returns
    -------
    sentences : list of ConlluSentence

    Raises
    ------
    ConlluFormatError
        (a ``ValueError``) naming the file and the line: a line without ten
        tab-separated fields, an ID out of sequence, a HEAD that names no word of
        the sentence, an empty field (CoNLL-U writes ``_``), a comment after a
        token line, a file without sentences.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "tiny.conllu"
    >>> _ = path.write_text(
    ...     "# sent_id = 1\\n"
    ...     "1-2\\tdon't\\t_\\t_\\t_\\t_\\t_\\t_\\t_\\t_\\n"
    ...     "1\\tdo\\tdo\\tAUX\\tVBP\\t_\\t0\\troot\\t_\\t_\\n"
    ...     "2\\tn't\\tnot\\tPART\\tRB\\t_\\t1\\tadvmod\\t_\\t_\\n\\n")
    >>> sentence, = load_conllu(path)
    >>> sentence.sent_id, sentence.column("form"), sentence.heads.tolist()
    ('1', ['do', "n't"], [0, 1])
    """
    try:
        text = _text(pathlib.Path(path), encoding)
    except ConllFormatError as error:
        raise ConlluFormatError(str(error)) from None
    return parse_conllu(text, path)


def looks_like_conllu(text):
    """Whether ``text`` reads as CoNLL-U rather than whitespace-separated CoNLL
    columns: its first line that is neither blank nor a comment has ten
    tab-separated fields, the first a CoNLL-U ID (a plain CoNLL token may be
    ``#``, so a comment alone decides nothing).

    >>> looks_like_conllu("# text = Hi\\n1\\tHi\\thi\\tINTJ\\tUH\\t_\\t0\\troot\\t_\\t_\\n")
    True
    >>> looks_like_conllu("# NN O\\nHi UH O\\n")
    False
    """
    for line in text.split("\n", 1000)[:1000]:
        if line.strip() and not line.startswith("#"):
            fields = line.rstrip("\r").split("\t")
            return len(fields) == len(COLUMNS) and any(
                form.match(fields[0]) for form in (_WORD, _RANGE, _EMPTY_NODE))
    return False


def parse_conllu(text, path):
    """:func:`load_conllu` on a file's text (``path`` names it in errors)."""
    sentences = []
    comments, lines, first = [], [], None
    for number, line in enumerate(text.split("\n"), start=1):
        line = line.removesuffix("\r")
        if not line.strip():
            if lines:
                sentences.append(_sentence(path, first, comments, lines))
            elif comments:
                raise ConlluFormatError(
                    f"{path}, line {first}: comment lines without a sentence after them.")
            comments, lines, first = [], [], None
            continue
        if first is None:
            first = number
        if line.startswith("#"):
            if lines:
                raise ConlluFormatError(
                    f"{path}, line {number}: a comment line after the token lines of a "
                    "sentence; comments come before the sentence they belong to (a blank "
                    "line ends a sentence).")
            comments.append(line)
            continue
        fields = line.split("\t")
        if len(fields) != len(COLUMNS):
            hint = (" (this looks like a whitespace-separated CoNLL column file: read it "
                    "with load_conll)" if "\t" not in line else "")
            raise ConlluFormatError(
                f"{path}, line {number}: {len(fields)} tab-separated field"
                f"{'s' * (len(fields) != 1)}, a CoNLL-U token line has 10{hint}.")
        lines.append((number, fields))
    if lines:
        sentences.append(_sentence(path, first, comments, lines))
    elif comments:
        raise ConlluFormatError(
            f"{path}, line {first}: comment lines without a sentence after them.")
    if not sentences:
        raise ConlluFormatError(f"{path}: no sentences (the file is empty or blank).")
    return sentences


def write_conllu(sentences, file):
    """Write sentences as CoNLL-U: comments, token lines, a blank line after each.

    Parameters
    ----------
    sentences : iterable of ConlluSentence
    file : str, path-like or a text file object
        A path is written as UTF-8 (gzip-compressed when it ends in ``.gz``).

    Examples
    --------
    >>> import io
    >>> out = io.StringIO()
    >>> write_conllu([ConlluSentence([], [
    ...     ["1", "Hi", "hi", "INTJ", "UH", "_", "0", "root", "_", "_"]])], out)
    >>> out.getvalue()
    '1\\tHi\\thi\\tINTJ\\tUH\\t_\\t0\\troot\\t_\\t_\\n\\n'
    """
    text = "".join(_sentence_text(sentence) for sentence in sentences)
    if hasattr(file, "write"):
        file.write(text)
        return
    path = pathlib.Path(file)
    if path.suffix == ".gz":
        with gzip.open(path, "wt", encoding="utf-8", newline="") as handle:
            handle.write(text)
    else:
        path.write_text(text, encoding="utf-8", newline="")


def _sentence_text(sentence):
    if not isinstance(sentence, ConlluSentence):
        raise TypeError(f"write_conllu writes ConlluSentence objects; got "
                        f"{type(sentence).__name__}.")
    return "".join(line + "\n" for line in sentence.comments) + "".join(
        "\t".join(fields) + "\n" for fields in sentence.lines) + "\n"


def _sentence(path, first, comments, numbered):
    """A sentence from its numbered lines, each checked where it was read."""
    for number, fields in numbered:
        for name, value in zip(COLUMNS, fields):
            if not value:
                raise ConlluFormatError(
                    f"{path}, line {number}: the {name.upper()} field is empty; CoNLL-U "
                    "writes '_' for an empty field.")
    sentence = ConlluSentence.__new__(ConlluSentence)
    sentence.comments = tuple(comments)
    sentence.lines = tuple(tuple(fields) for _, fields in numbered)
    sentence._words = tuple(k for k, fields in enumerate(sentence.lines)
                            if _WORD.match(fields[0]))
    _check_sentence(sentence, where=f"{path}, line ", numbers=[n for n, _ in numbered],
                    first=first)
    return sentence


def _check_sentence(sentence, where, numbers=None, first=None):
    """IDs in sequence, ranges over the words that follow, HEADs naming words."""
    def place(k):
        return f"{where}{numbers[k]}: " if numbers else f"token line {k + 1}: "

    expected, range_end = 1, 0
    for k, fields in enumerate(sentence.lines):
        ident = fields[0]
        if _WORD.match(ident):
            if int(ident) != expected:
                raise ConlluFormatError(f"{place(k)}word ID {ident} out of sequence; "
                                        f"expected {expected}.")
            expected += 1
            continue
        match = _RANGE.match(ident)
        if match:
            start, end = int(match[1]), int(match[2])
            if start != expected or end <= start or start <= range_end:
                raise ConlluFormatError(
                    f"{place(k)}multiword token {ident} must span the words that follow "
                    f"it, from {expected} on, and end after its start.")
            range_end = end
            continue
        match = _EMPTY_NODE.match(ident)
        if match:
            if int(match[1]) != expected - 1:
                raise ConlluFormatError(f"{place(k)}empty node {ident} must follow word "
                                        f"{match[1]}.")
            continue
        raise ConlluFormatError(f"{place(k)}ID {ident!r} is not a word number (7), a "
                                "multiword token range (3-4) or an empty node (5.1).")
    start = f"{where}{first}: " if numbers else ""
    if not sentence._words:
        raise ConlluFormatError(f"{start}a sentence without a syntactic word (an integer "
                                "ID).")
    if range_end >= expected:
        raise ConlluFormatError(f"{start}a multiword token ends at word {range_end}, past "
                                f"the sentence's {expected - 1} words.")
    n_words = expected - 1
    for k in sentence._words:
        head = sentence.lines[k][6]
        if head == "_":
            continue
        if not _WORD.match(head) and head != "0" or int(head) > n_words:
            raise ConlluFormatError(
                f"{place(k)}HEAD {head!r} names no word of this {n_words}-word sentence "
                "(0 for the root, 1 to the number of words, or '_').")
        if head == sentence.lines[k][0]:
            raise ConlluFormatError(f"{place(k)}word {head} is its own HEAD.")


def _column_index(name):
    if not isinstance(name, str) or name.lower() not in _INDEX:
        raise ValueError(f"unknown CoNLL-U column {name!r}; the columns are "
                         f"{', '.join(COLUMNS)}.")
    return _INDEX[name.lower()]


def _field(name, value):
    if name == "head":
        if isinstance(value, str) and value.isascii() and value.isdigit():
            return str(int(value))  # as column("head") gives them
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            if value == "_":
                return value
            raise ValueError(f"head values are whole numbers (0 for the root); got "
                             f"{value!r}.")
        return str(int(value))
    if not isinstance(value, str):
        raise ValueError(f"{name} values are strings; got {value!r}.")
    if not value or "\t" in value or "\n" in value or "\r" in value:
        raise ValueError(f"{name} value {value!r}: a CoNLL-U field is not empty (write "
                         "'_') and holds no tab or line break.")
    return value
