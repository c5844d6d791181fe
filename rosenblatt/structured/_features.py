"""Token features for sequence labelling: sentences in, a sparse binary matrix out.

Each token of each sentence becomes a row of binary features described by a
*template*, a list of entries in the style of Ratnaparkhi's (1996) maximum-entropy
tagger and of Collins (2002), "Discriminative Training Methods for Hidden Markov
Models", Section 3: the word itself, its prefixes and suffixes, spelling flags, the
neighbouring words, and the extra columns of the corpus (a part-of-speech tag for
chunking, say) around the token and in pairs. Every entry yields at most one
feature per token, a string such as ``"suffix3=ing"`` or ``"col1[-1]|col1=DT|NN"``;
the strings become columns either through a vocabulary learned in ``fit`` or by
hashing.

Template entries (``default_template`` lists the default, to copy and edit):

============================  ===========================================================
``bias``                      one feature every token has
``word``, ``lower``           the word, the word in lower case
``prefixN``, ``suffixN``      its first / last N characters (none if shorter than N)
``is_title``, ``is_upper``    spelling flags (str.istitle, isupper, isdigit, a ``-`` in
``is_digit``, ``has_hyphen``  it): a feature only where true
``colK``                      the K-th column of the token (``col0`` is ``word``)
``ITEM[o]``                   any of the above at offset ``o`` (``word[-1]``, the previous
                              word; ``col1[+2]``); beyond the sentence a value reads
                              ``<s>`` (before) or ``</s>`` (after), a flag is absent
``ITEM|ITEM…``                a conjunction: one feature from both values (absent if one
                              is), e.g. ``col1[-1]|col1``, the tag bigram
callable ``f(sentence, i)``   a feature ``f.__name__=value`` for the ``i``-th token, from
                              the value returned (a string, or ``None`` for none)
============================  ===========================================================

The strings are made with plain list comprehensions over a batch of sentences, one
comprehension per entry, and turned into columns by dict look-ups mapped in C:
about 200,000 tokens a second with the default template (the 1.05 M tokens of
Brown in some 5 s of CPU time, fit or transform, vocabulary or hashing).
"""

import itertools
import operator
import re
from collections import defaultdict

import numpy as np
import scipy.sparse as sp
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils import murmurhash3_32
from sklearn.utils.validation import check_is_fitted

#: Values of a column read beyond the sentence's ends.
BEFORE, AFTER = "<s>", "</s>"

#: Sentences are turned into features this many tokens at a time: the strings of a
#: batch live only until its columns are known.
_BATCH_TOKENS = 20_000

_ITEM = re.compile(r"^(?P<name>[a-z_]+?)(?P<size>\d*)(?:\[(?P<offset>[+-]?\d+)\])?$")

# The value of each named item for a word (None: no feature). Flags give "1".
_WORD_FUNCTIONS = {
    "word": None,  # the column itself
    "lower": lambda words: [word.lower() for word in words],
    "is_title": lambda words: ["1" if word.istitle() else None for word in words],
    "is_upper": lambda words: ["1" if word.isupper() else None for word in words],
    "is_digit": lambda words: ["1" if word.isdigit() else None for word in words],
    "has_hyphen": lambda words: ["1" if "-" in word else None for word in words],
}
_FLAGS = {"is_title", "is_upper", "is_digit", "has_hyphen"}


def default_template(n_columns=1):
    """The default template for tokens of ``n_columns`` columns (the word first).

    The word, its lower case, prefixes and suffixes of 1 to 4 characters, the four
    spelling flags, the words at offsets -2, -1, +1, +2, and for every further
    column (a POS tag, say) its values at offsets -2 … +2 and its bigrams
    ``[-1]|[0]`` and ``[0]|[+1]``; plus a bias feature. A list: copy it, edit it,
    and pass it as ``SentenceFeatures(template=...)``.

    >>> default_template(2)[-7:]
    ['col1[-2]', 'col1[-1]', 'col1', 'col1[+1]', 'col1[+2]', 'col1[-1]|col1', 'col1|col1[+1]']
    >>> len(default_template(1)), len(default_template(2))
    (19, 26)
    """
    template = ["bias", "word", "lower"]
    template += [f"prefix{n}" for n in range(1, 5)] + [f"suffix{n}" for n in range(1, 5)]
    template += ["is_title", "is_upper", "is_digit", "has_hyphen"]
    template += ["word[-2]", "word[-1]", "word[+1]", "word[+2]"]
    for column in range(1, n_columns):
        name = f"col{column}"
        template += [f"{name}[-2]", f"{name}[-1]", name, f"{name}[+1]", f"{name}[+2]"]
        template += [f"{name}[-1]|{name}", f"{name}|{name}[+1]"]
    return template


class SentenceFeatures(TransformerMixin, BaseEstimator, auto_wrap_output_keys=None):
    """Turn sentences into a sparse binary matrix of token features.

    Parameters
    ----------
    template : "default" or list of str or callable, default="default"
        The feature entries (see the module docstring); ``"default"`` is
        :func:`default_template` for the number of columns the tokens have.
    vocabulary : "fit", "hash" or dict, default="fit"
        ``"fit"``: the columns are the feature strings seen in ``fit``, in sorted
        order (``vocabulary_``); strings unseen then are dropped by ``transform``.
        ``"hash"``: the column of a string is
        ``abs(murmurhash3_32(string)) % n_features``, the column scikit-learn's
        ``FeatureHasher(n_features, input_type="string", alternate_sign=False)``
        gives it; nothing is learned, colliding strings share a column. A dict
        maps strings to columns (a fixed vocabulary).
    n_features : int, default=2**20
        The number of columns when hashing.
    min_count : int, default=1
        With ``vocabulary="fit"``: keep only the feature strings met on at least
        this many tokens of ``fit`` (crfsuite's ``feature.minfreq``). Most strings
        of a corpus occur once (a rare word, its prefixes, its neighbours); a
        structured perceptron holds a weight per string and label, so
        ``min_count=2`` roughly halves its memory at little cost in accuracy.

    ``transform`` returns the matrix *and* the sentence lengths, which a sequence
    model needs to find its sentences again (so it is not a drop-in Pipeline step).

    Attributes
    ----------
    vocabulary_ : dict or None
        Feature string -> column (``None`` when hashing).
    n_features_ : int
        The number of columns of the output.
    n_columns_ : int
        The number of columns of the tokens seen in ``fit`` (1 for plain strings).
    template_ : list
        The template used (``"default"`` resolved).

    Examples
    --------
    >>> sentences = [[("The", "DT"), ("dog", "NN")], [("Dogs", "NNS")]]
    >>> features = SentenceFeatures(template=["bias", "lower", "col1[-1]"])
    >>> X, lengths = features.fit_transform(sentences)
    >>> X.shape, lengths.tolist()
    ((3, 6), [2, 1])
    >>> features.get_feature_names_out().tolist()
    ['bias=1', 'col1[-1]=<s>', 'col1[-1]=DT', 'lower=dog', 'lower=dogs', 'lower=the']
    >>> X.toarray().astype(int).tolist()
    [[1, 1, 0, 0, 0, 1], [1, 0, 1, 1, 0, 0], [1, 1, 0, 0, 1, 0]]

    Unseen strings are dropped, and tokens may be plain strings when there is one
    column:

    >>> X, _ = SentenceFeatures(template=["lower"]).fit([["a", "b"]]).transform([["B", "c"]])
    >>> X.toarray().tolist()
    [[0.0, 1.0], [0.0, 0.0]]

    Strings met on fewer than ``min_count`` tokens are left out of the vocabulary:

    >>> rare = SentenceFeatures(template=["lower"], min_count=2).fit([["a", "b", "A"]])
    >>> rare.vocabulary_
    {'lower=a': 0}
    """

    def __init__(self, template="default", vocabulary="fit", n_features=2**20, min_count=1):
        self.template = template
        self.vocabulary = vocabulary
        self.n_features = n_features
        self.min_count = min_count

    # -- the scikit-learn interface ------------------------------------------------

    def fit(self, sentences, y=None):
        """Learn the number of columns and, with ``vocabulary="fit"``, the feature
        strings of ``sentences`` (a list of lists of tokens)."""
        self.fit_transform(sentences)
        return self

    def fit_transform(self, sentences, y=None):
        """Fit, and return ``(X, lengths)`` as :meth:`transform` does, making the
        strings once."""
        sentences = _sentences(sentences)
        n_columns = _n_columns(sentences)
        self._setup(n_columns)
        if isinstance(self.vocabulary, str) and self.vocabulary == "fit":
            # provisional columns in order of first sight (a dict that numbers each
            # new key as it is looked up, in C), renumbered in sorted order at the end
            provisional = defaultdict(itertools.count().__next__)
            provisional[None] = -1  # no feature (set directly: the count is not used)
            lookup = provisional.__getitem__
            blocks = [self._columns(batch, lambda column: map(lookup, column))
                      for batch in _batches(sentences, n_columns)]
            del provisional[None]
            names = sorted(provisional)
            if self.min_count > 1:  # the tokens each string was met on
                met = np.bincount(np.concatenate([block[block >= 0] for block in blocks]),
                                  minlength=len(provisional))
                names = [name for name in names if met[provisional[name]] >= self.min_count]
                if not names and len(provisional):
                    raise ValueError(
                        f"min_count={self.min_count} keeps none of the {len(provisional)} "
                        f"feature strings: the most frequent is met on {int(met.max())} "
                        "token(s). Lower min_count (or 'rosenblatt tag train --min-count'), "
                        "or fit on more sentences.")
            renumber = np.full(len(provisional) + 1, -1, dtype=np.int64)  # -1 stays -1
            renumber[[provisional[name] for name in names]] = np.arange(len(names))
            self.vocabulary_ = dict(zip(names, range(len(names))))
            self.n_features_ = len(names)
            blocks = [renumber[block] for block in blocks]
        else:
            blocks = [self._block_columns(batch) for batch in _batches(sentences, n_columns)]
        return self._matrix(blocks, sentences)

    def transform(self, sentences):
        """Features of ``sentences``.

        Returns
        -------
        X : scipy.sparse.csr_matrix of shape (n_tokens, n_features)
            One row per token, sentence after sentence; values 1.0; int32 indices,
            sorted, no duplicates in a row.
        lengths : ndarray of intp (n_sentences,)
            The number of tokens of each sentence.
        """
        check_is_fitted(self, "n_features_")
        sentences = _sentences(sentences)
        n_columns = _n_columns(sentences, self.n_columns_)
        blocks = [self._block_columns(batch) for batch in _batches(sentences, n_columns)]
        return self._matrix(blocks, sentences)

    def get_feature_names_out(self, input_features=None):
        """The feature string of each column (with a vocabulary, not when hashing)."""
        check_is_fitted(self, "n_features_")
        if self.vocabulary_ is None:
            raise ValueError("Hashed features have no names: a column stands for every "
                             "string that hashes to it. Use vocabulary='fit' for names.")
        names = np.empty(self.n_features_, dtype=object)  # None for a column without one
        for name, column in self.vocabulary_.items():
            names[column] = name
        return names

    # -- the work ----------------------------------------------------------------

    def _setup(self, n_columns):
        vocabulary, n_features = self.vocabulary, self.n_features
        if isinstance(vocabulary, str):
            if vocabulary not in ("fit", "hash"):
                raise ValueError(f"vocabulary must be 'fit', 'hash' or a dict of feature "
                                 f"strings to columns; got {vocabulary!r}.")
        elif not isinstance(vocabulary, dict):
            raise ValueError(f"vocabulary must be 'fit', 'hash' or a dict of feature "
                             f"strings to columns; got {type(vocabulary).__name__}.")
        min_count = self.min_count
        if isinstance(min_count, bool) or not isinstance(min_count, (int, np.integer)) \
                or min_count < 1:
            raise ValueError(f"min_count must be a whole number >= 1 (the tokens a feature "
                             f"string must be met on to be kept); got {min_count!r}.")
        if min_count > 1 and not (isinstance(vocabulary, str) and vocabulary == "fit"):
            raise ValueError("min_count keeps the strings fit meets often enough; it needs "
                             "vocabulary='fit' (a hashed or given vocabulary learns no "
                             "strings).")
        if vocabulary == "hash" and (isinstance(n_features, bool)
                                     or not isinstance(n_features, (int, np.integer))
                                     or not 1 <= n_features <= 2**31 - 1):
            raise ValueError(f"n_features must be a whole number in [1, 2**31 - 1] "
                             f"(the columns of int32 indices); got {n_features!r}.")
        template = default_template(n_columns) if _is_default(self.template) else self.template
        if isinstance(template, str) or not isinstance(template, (list, tuple)):
            raise ValueError("template must be 'default' or a list of entries (names such "
                             f"as 'word[-1]', or callables f(sentence, i)); got {template!r}.")
        self._entries = _compile(template, n_columns)
        self.template_ = list(template)
        self.n_columns_ = n_columns
        if isinstance(vocabulary, dict):
            columns = list(vocabulary.values())
            if not all(isinstance(column, (int, np.integer)) and not isinstance(column, bool)
                       and 0 <= column < 2**31 - 1 for column in columns):
                raise ValueError("vocabulary columns must be whole numbers in "
                                 "[0, 2**31 - 1).")
            self.vocabulary_ = dict(vocabulary)
            self.n_features_ = int(max(columns)) + 1 if columns else 0
        elif vocabulary == "hash":
            self.vocabulary_ = None
            self.n_features_ = int(n_features)

    def _block_columns(self, batch):
        """The (n_tokens, n_entries) columns of a batch; -1 for no feature."""
        if self.vocabulary_ is not None:
            get, missing = self.vocabulary_.get, itertools.repeat(-1)
            # dict.get(name, -1) mapped in C; None (no feature) is never a key
            return self._columns(batch, lambda column: map(get, column, missing))
        # hash each distinct string of the batch once
        strings = batch.strings(self._entries)
        distinct = dict.fromkeys(itertools.chain.from_iterable(strings))
        distinct.pop(None, None)
        n = self.n_features_
        table = {name: abs(murmurhash3_32(name)) % n for name in distinct}
        table[None] = -1
        return self._columns(batch, lambda column: map(table.__getitem__, column), strings)

    def _columns(self, batch, lookup, strings=None):
        """Column numbers of the batch's strings, ``lookup(strings) -> iterable``, as an
        (n_tokens, n_entries) array."""
        if strings is None:
            strings = batch.strings(self._entries)
        if not strings:
            return np.empty((batch.n_tokens, 0), dtype=np.int64)
        numbers = np.empty((len(strings), batch.n_tokens), dtype=np.int64)
        for row, column in zip(numbers, strings):
            row[:] = np.fromiter(lookup(column), dtype=np.int64, count=batch.n_tokens)
        return numbers.T

    def _matrix(self, blocks, sentences):
        """CSR from the (n_tokens, n_entries) blocks: each row sorted, without -1
        and without repeats."""
        lengths = np.fromiter(map(len, sentences), dtype=np.intp, count=len(sentences))
        if blocks:
            columns = np.concatenate(blocks)
        else:
            columns = np.empty((0, len(self._entries)), dtype=np.int64)
        columns.sort(axis=1)
        keep = columns >= 0
        keep[:, 1:] &= columns[:, 1:] != columns[:, :-1]
        indices = columns[keep]
        counts = keep.sum(axis=1)
        index_type = np.int32 if indices.size < 2**31 else np.int64
        indptr = np.zeros(columns.shape[0] + 1, dtype=index_type)
        np.cumsum(counts, out=indptr[1:])
        X = sp.csr_matrix((np.ones(indices.size), indices.astype(index_type), indptr),
                          shape=(columns.shape[0], self.n_features_))
        return X, lengths


# -- templates -----------------------------------------------------------------------


def _is_default(template):
    return isinstance(template, str) and template == "default"


class _Item:
    """One ``name[offset]`` of an entry: the column it reads, the function of
    the word applied (or None), and whether it may be absent."""

    def __init__(self, text, n_columns):
        match = _ITEM.match(text.strip())
        if match is None:
            raise ValueError(_bad_entry(text))
        name, size, offset = match["name"], match["size"], int(match["offset"] or 0)
        self.column, self.function, self.may_be_none = 0, None, False
        if name == "col" and size:
            self.column = int(size)
            if self.column >= n_columns:
                raise ValueError(f"Template entry {text!r} reads column {self.column}, but "
                                 f"the tokens have {n_columns} column(s).")
            key = f"col{self.column}"
        elif name in ("prefix", "suffix") and size and int(size) > 0:
            width = int(size)
            if name == "prefix":
                self.function = lambda words: [w[:width] if len(w) >= width else None
                                               for w in words]
            else:
                self.function = lambda words: [w[-width:] if len(w) >= width else None
                                               for w in words]
            self.may_be_none = True
            key = f"{name}{width}"
        elif name == "bias" and not size:
            self.function = "bias"
            key = name
        elif name in _WORD_FUNCTIONS and not size:
            self.function = _WORD_FUNCTIONS[name]
            self.may_be_none = name in _FLAGS
            key = name
        else:
            raise ValueError(_bad_entry(text))
        self.flag = key in _FLAGS
        self.key, self.offset = key, offset
        self.name = key if offset == 0 else f"{key}[{offset:+d}]"
        if offset != 0:  # beyond the sentence: a flag is absent, a value is <s> or </s>
            self.may_be_none = self.may_be_none or self.flag


def _bad_entry(text):
    return (f"Unknown template entry {text!r}: expected bias, word, lower, prefixN, "
            "suffixN, is_title, is_upper, is_digit, has_hyphen or colK, optionally at an "
            "offset ([-1], [+2]), joined by '|' for a conjunction; or a callable "
            "f(sentence, i).")


class _Entry:
    def __init__(self, spec, n_columns):
        if callable(spec):
            self.function = spec
            self.name = getattr(spec, "__name__", type(spec).__name__)
            self.items = None
        elif isinstance(spec, str):
            self.function = None
            self.items = [_Item(part, n_columns) for part in spec.split("|")]
            self.name = "|".join(item.name for item in self.items)
        else:
            raise ValueError(f"A template entry must be a string or a callable "
                             f"f(sentence, i); got {spec!r}.")
        self.prefix = self.name + "="


def _compile(template, n_columns):
    entries = [_Entry(spec, n_columns) for spec in template]
    names = [entry.name for entry in entries]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ValueError(f"Template entries must have distinct names (a feature's string "
                         f"starts with its entry's name); repeated: {repeated}. Give "
                         "callables distinct __name__s.")
    if not entries:
        raise ValueError("The template is empty: give at least one entry.")
    return entries


# -- batches of sentences ------------------------------------------------------------


def _sentences(sentences):
    if isinstance(sentences, (str, bytes)) or not hasattr(sentences, "__iter__"):
        raise ValueError("Expected a list of sentences, each a list of tokens; got "
                         f"{type(sentences).__name__}.")
    sentences = list(sentences)
    for number, sentence in enumerate(sentences):
        if isinstance(sentence, (str, bytes)) or not hasattr(sentence, "__len__"):
            raise ValueError(f"Sentence {number} is a {type(sentence).__name__}, not a "
                             "list of tokens (split a text into its tokens first).")
    return sentences


def _strings(kinds):
    """Whether every one of the types ``kinds`` is ``str`` or a subclass of it (NumPy's
    ``np.str_``: the tokens of a NumPy array of strings are such).

    >>> _strings({str, np.str_}), _strings({str, bytes})
    (True, False)
    """
    return all(issubclass(kind, str) for kind in kinds)


def _n_columns(sentences, expected=None):
    """The tokens' number of columns (1 for strings); all tokens must agree."""
    kinds = set()
    widths = set()
    for sentence in sentences:
        kinds.update(map(type, sentence))
    if not kinds:
        return expected or 1
    if _strings(kinds):
        width = 1
    elif kinds <= {tuple, list}:
        for sentence in sentences:
            widths.update(map(len, sentence))
        if len(widths) > 1:
            raise ValueError(f"Tokens must all have the same number of columns; found "
                             f"{sorted(widths)}.")
        width = widths.pop()
        if width == 0:
            raise ValueError("Tokens must have at least one column (the word).")
    else:
        raise ValueError("A token must be a string or a tuple of strings (word, POS, …); "
                         f"found {sorted(kind.__name__ for kind in kinds)}.")
    if expected is not None and width != expected:
        raise ValueError(f"The tokens have {width} column(s); the features were fitted on "
                         f"tokens of {expected}.")
    return width


def _batches(sentences, n_columns):
    batch, size = [], 0
    for sentence in sentences:
        batch.append(sentence)
        size += len(sentence)
        if size >= _BATCH_TOKENS:
            yield _Batch(batch, n_columns)
            batch, size = [], 0
    if batch:
        yield _Batch(batch, n_columns)


class _Batch:
    """Sentences flattened into columns, and the per-item lists made from them."""

    def __init__(self, sentences, n_columns):
        self.sentences = sentences
        self.lengths = [len(sentence) for sentence in sentences]
        tokens = list(itertools.chain.from_iterable(sentences))
        self.n_tokens = len(tokens)
        if n_columns == 1 and (not tokens or isinstance(tokens[0], str)):
            self.table = [tokens]
        else:
            # one column at a time: zip(*tokens) would make an iterator per token
            self.table = [list(map(operator.itemgetter(k), tokens)) for k in range(n_columns)]
        for number, column in enumerate(self.table):
            kinds = set(map(type, column))
            if not _strings(kinds):
                raise ValueError(f"Column {number} of the tokens holds non-strings; every "
                                 "value of a token must be a string.")
            if kinds - {str}:  # NumPy's np.str_ (a str subclass), say: plain strings
                self.table[number] = list(map(str, column))
        self._values = {}

    def strings(self, entries):
        """Per entry, the feature string of every token (None where it has none)."""
        return [self._entry_strings(entry) for entry in entries]

    def _entry_strings(self, entry):
        prefix = entry.prefix
        if entry.items is None:
            values = [entry.function(sentence, i) for sentence in self.sentences
                      for i in range(len(sentence))]
            return [None if value is None else prefix + str(value) for value in values]
        if len(entry.items) == 1:
            item = entry.items[0]
            values = self._shifted(item)
            if item.may_be_none:
                return [None if value is None else prefix + value for value in values]
            return [prefix + value for value in values]
        lists = [self._shifted(item) for item in entry.items]
        if any(item.may_be_none for item in entry.items):
            return [None if None in values else prefix + "|".join(values)
                    for values in zip(*lists)]
        return [prefix + "|".join(values) for values in zip(*lists)]

    def _base(self, item):
        """The item's value at offset 0 for every token."""
        key = item.key
        if key not in self._values:
            column = self.table[item.column]
            if item.function is None:
                values = column
            elif item.function == "bias":
                values = ["1"] * self.n_tokens
            else:
                values = item.function(column)
            self._values[key] = values
        return self._values[key]

    def _shifted(self, item):
        """The item's value at its offset, sentence by sentence: the slice of the
        sentence moved by the offset, and the pad where it runs off an end."""
        base = self._base(item)
        offset = item.offset
        if offset == 0:
            return base
        cache = (item.key, offset)
        if cache in self._values:
            return self._values[cache]
        before, after = (None, None) if item.flag else (BEFORE, AFTER)
        if item.function == "bias":
            before, after = "1", "1"
        shifted = []
        start = 0
        for length in self.lengths:
            stop = start + length
            if offset < 0:
                k = min(-offset, length)
                shifted += [before] * k
                shifted += base[start:stop - k]
            else:
                k = min(offset, length)
                shifted += base[start + k:stop]
                shifted += [after] * k
            start = stop
        self._values[cache] = shifted
        return shifted
