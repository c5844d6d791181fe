"""A reader for the CoNLL column format of sequence-labelling corpora.

One token per line, its columns separated by whitespace (the word first, then any
features such as a part-of-speech tag, the label usually last); a blank line ends a
sentence. ``-DOCSTART-`` lines (document boundaries in CoNLL-2003) are not tokens
and are skipped. The CoNLL-2000 chunking and CoNLL-2002/2003 named-entity tasks
(Tjong Kim Sang & Buchholz 2000; Tjong Kim Sang 2002; Tjong Kim Sang & De Meulder
2003) distribute their data this way, and so do many POS-tagged corpora.

Like the other loaders of :mod:`rosenblatt.datasets`, it refuses a malformed file
with an error that names the file, the line and the reason, and skips nothing
silently but blank lines and ``-DOCSTART-`` lines.
"""

import gzip
import numbers
import pathlib
import re
import sys
import zlib

#: Columns are split on ASCII whitespace only: a no-break space (U+00A0) or another
#: Unicode space inside a token ("10 000") is part of it, not a separator.
_ASCII_SPACE = re.compile(r"[ \t\n\r\x0b\x0c]+")
#: the ASCII controls (file, group, record and unit separators) that Python's
#: str.split() and str.isspace() take for whitespace as well: part of a token here
_PYTHON_SPACE = re.compile(r"[\x1c-\x1f]")
_GZIP_MAGIC = b"\x1f\x8b"
_DOCSTART = "-DOCSTART-"


class ConllFormatError(ValueError):
    """A CoNLL file that cannot be read; the message names the file and the line."""


def load_conll(path, columns=None, label_column=-1, encoding="utf-8"):
    """Read a CoNLL column file into sentences of token tuples and their labels.

    Parameters
    ----------
    path : str or path-like
        The file; gzip-compressed files (recognised by their first bytes, whatever
        their name) are read transparently.
    columns : sequence of int or None, default=None
        The columns that make up a token, in that order (negative indices count
        from the end). ``None``: every column but the label's, in file order.
    label_column : int or None, default=-1
        The column holding the label (negative from the end). ``None`` for a file
        without labels: ``labels`` is then ``None``.
    encoding : str, default="utf-8"
        The text encoding; a UTF-8 byte-order mark at the start is dropped.

    Returns
    -------
    sentences : list of list of tuple of str
        One list per sentence, one tuple of column values per token.
    labels : list of list of str, or None
        The label of every token, sentence by sentence.

    Raises
    ------
    ConllFormatError
        (a ``ValueError``) naming the file and, where there is one, the line: a
        line with another number of columns than the first token line, a file
        without tokens, bytes that are not text in ``encoding``, a damaged gzip
        stream.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "train.txt"
    >>> _ = path.write_text("-DOCSTART- -X- O\\n\\n"
    ...                     "He PRP B-NP\\nreckons VBZ B-VP\\n\\nOK UH O\\n")
    >>> sentences, labels = load_conll(path)
    >>> sentences
    [[('He', 'PRP'), ('reckons', 'VBZ')], [('OK', 'UH')]]
    >>> labels
    [['B-NP', 'B-VP'], ['O']]
    >>> load_conll(path, columns=[0])[0][0]
    [('He',), ('reckons',)]

    A line that does not fit is refused with its place:

    >>> _ = path.write_text("He PRP B-NP\\nreckons B-VP\\n")
    >>> try:
    ...     load_conll(path)
    ... except ConllFormatError as error:  # a ValueError
    ...     print(str(error).replace(str(path.parent), "folder"))
    folder/train.txt, line 2: 2 columns, expected 3 (as on line 1).
    """
    path = pathlib.Path(path)
    return parse_conll(_text(path, encoding), path, columns, label_column)


def parse_conll(text, path, columns=None, label_column=-1):
    """:func:`load_conll` on a file's text (``path`` names it in errors)."""
    sentences, labels = [], []
    tokens, tags = [], []
    width = first_line = None
    pick = label = None
    for number, line in enumerate(text.split("\n"), start=1):
        # str.split() would also split on Unicode spaces and on \x1c-\x1f; it is exact
        # for ASCII lines without those
        separators = _PYTHON_SPACE.search(line)
        if line.isascii() and not separators:
            parts = line.split()
        else:  # a line of Unicode spaces only is blank too
            parts = ([] if line.isspace() and not separators
                     else _ASCII_SPACE.split(line.strip(" \t\r\x0b\x0c")))
        if not parts:
            if tokens:
                sentences.append(tokens)
                labels.append(tags)
                tokens, tags = [], []
            continue
        if parts[0] == _DOCSTART:
            continue
        if width is None:
            width, first_line = len(parts), number
            pick, label = _layout(path, number, width, columns, label_column)
        elif len(parts) != width:
            raise ConllFormatError(
                f"{path}, line {number}: {len(parts)} column{'s' * (len(parts) != 1)}, "
                f"expected {width} (as on line {first_line}).")
        tokens.append(pick(parts))
        if label is not None:
            tags.append(parts[label])
    if tokens:
        sentences.append(tokens)
        labels.append(tags)
    if not sentences:
        raise ConllFormatError(f"{path}: no tokens (the file is empty or holds only blank "
                               f"and {_DOCSTART} lines).")
    return sentences, (None if label_column is None else labels)


def _text(path, encoding):
    """The file's text, decompressed when it is gzip; errors say where. The path
    ``-`` is standard input (the command line's convention)."""
    try:
        raw = sys.stdin.buffer.read() if str(path) == "-" else path.read_bytes()
    except FileNotFoundError:
        raise ConllFormatError(f"{path}: no such file.") from None
    except IsADirectoryError:
        raise ConllFormatError(f"{path}: a folder, not a file.") from None
    if raw[:2] == _GZIP_MAGIC:
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError, zlib.error) as error:
            raise ConllFormatError(f"{path}: a damaged gzip file ({error}).") from None
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as error:
        line = raw[:error.start].count(b"\n") + 1
        raise ConllFormatError(
            f"{path}, line {line}: not {encoding} text (byte {raw[error.start]:#x}, "
            f"{error.reason}); give the file's encoding, or save it as {encoding}."
        ) from None
    except LookupError:
        raise ValueError(f"{path}: unknown encoding {encoding!r}.") from None
    return text[1:] if text.startswith("\ufeff") else text


def _layout(path, number, width, columns, label_column):
    """Functions picking a token's columns and the label's position, for lines of
    ``width`` columns (checked against the first token line, ``number``)."""
    label = None
    if label_column is not None:
        label = _index(path, label_column, width, "label_column")
    if columns is None:
        keep = [k for k in range(width) if k != label]
        if not keep:
            raise ConllFormatError(
                f"{path}, line {number}: 1 column, the label; a token line needs its "
                "word before the label (or pass label_column=None for a file without "
                "labels).")
    else:
        if isinstance(columns, (str, bytes)) or not hasattr(columns, "__iter__"):
            raise ValueError(f"{path}: columns must be a sequence of column indices or "
                             f"None; got {columns!r}.")
        keep = [_index(path, column, width, "columns") for column in columns]
        if not keep:
            raise ValueError(f"{path}: columns is empty; a token needs at least one column.")
    if label is not None and width - 1 == len(keep) and keep == list(range(width - 1)):
        return (lambda parts: tuple(parts[:-1])), label  # the common case, sliced
    if len(keep) == 1:
        only = keep[0]
        return (lambda parts: (parts[only],)), label
    return (lambda parts: tuple([parts[k] for k in keep])), label


def _index(path, value, width, name):
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{path}: {name} must hold whole numbers (column indices, negative "
                         f"from the end); got {value!r}.")
    if not -width <= value < width:
        raise ValueError(f"{path}: {name} {value} is out of range for lines of {width} "
                         "columns.")
    return int(value) % width
