"""``rosenblatt warmup``: compile every kernel into numba's disk cache, once."""

import time
import warnings

import numpy as np
import scipy.sparse as sp

from .._config import cache_folder
from .._validation import PREFETCH_FEATURES
from ..engine import SHORT_NAMES, make_estimator

#: the structured perceptron, warmed under this name beside the classifiers
SEQUENCE = "sequence"
#: the dependency parser, warmed under this name
PARSER = "parser"

#: a two-sentence treebank for the parser's warm-up: one projective tree, one not
TREEBANK = """\
1\tDogs\tdog\tNOUN\tNNS\t_\t2\tnsubj\t_\t_
2\tbark\tbark\tVERB\tVBP\t_\t0\troot\t_\t_
3\tloudly\tloudly\tADV\tRB\t_\t2\tadvmod\t_\t_

1\tA\ta\tDET\tDT\t_\t2\tdet\t_\t_
2\tdog\tdog\tNOUN\tNN\t_\t3\tnsubj\t_\t_
3\tcame\tcome\tVERB\tVBD\t_\t0\troot\t_\t_
4\tthat\tthat\tPRON\tWDT\t_\t5\tnsubj\t_\t_
5\tbarked\tbark\tVERB\tVBD\t_\t2\tacl:relcl\t_\t_

"""


def warmup(models=None):
    """Fit each estimator (all by default, the structured perceptron as
    ``"sequence"`` and the dependency parser as ``"parser"``) once on every kind of data numba compiles a kernel for, so that
    the kernels are cached on disk: a container image or a CI job built with this
    starts training at once (a first fit otherwise compiles for seconds per layout
    and dtype). The kinds: dense and CSR rows in float64 and float32, CSR rows of
    ones only, CSR rows wider than ``PREFETCH_FEATURES`` (the prefetching loops),
    two and three classes, and both covariance forms of the second-order rules;
    the tagger's Viterbi, marginals and n-best, and the parser with every decoder.
    Returns the number of fits and the seconds they took.

    >>> fits, seconds = warmup(["perceptron"])
    >>> fits
    16
    >>> warmup(["parser"])[0]  # one fit and parse per decoder
    5
    """
    start, fits = time.perf_counter(), 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a few epochs on noise never converge
        for name in models or [*sorted(SHORT_NAMES), SEQUENCE, PARSER]:
            warm = {SEQUENCE: _warm_sequences, PARSER: _warm_parser}.get(name)
            fits += warm() if warm else _warm_classifier(name)
    return fits, time.perf_counter() - start


def _layouts():
    """Tiny training sets of each layout and dtype the kernels are compiled for:
    dense and CSR rows in float64 and float32, CSR rows of ones only (binary
    features, read without their data array), each CSR form also wider than the
    prefetching threshold (``wide``)."""
    rng = np.random.RandomState(0)
    X = rng.randn(40, 3)
    yield X, False
    yield X.astype(np.float32), False
    wide = sp.random(40, PREFETCH_FEATURES, density=4 / PREFETCH_FEATURES, format="csr",
                     random_state=rng)
    for rows, is_wide in ((sp.csr_matrix(X), False), (wide, True)):
        yield rows, is_wide
        yield rows.astype(np.float32), is_wide
        ones = rows.copy()
        ones.data[:] = 1.0
        yield ones, is_wide


def _warm_classifier(name):
    """Fit and score estimator ``name`` on every layout, with two and three classes
    (and with each covariance form it has): the number of fits."""
    limit = {"max_updates": 5} if name == "pla" else {"max_iter": 2}
    forms = [{}]
    if "covariance" in make_estimator(name).get_params():
        forms = [{"covariance": "full"}, {"covariance": "diagonal"}]
    fits = 0
    for form in forms:
        for data, wide in _layouts():
            if wide and form.get("covariance") == "full":
                continue  # refused: a full Σ over 2^17 features
            for n_classes in (2, 3):
                model = make_estimator(name, **limit, **form)
                model.fit(data, np.arange(data.shape[0]) % n_classes)
                model.decision_function(data)
                fits += 1
    return fits


def _warm_sequences():
    """Fit and tag with the structured perceptron on dense and CSR token rows, and
    decode on threads as a large corpus is."""
    from .._validation import kernel_view
    from ..structured import SequencePerceptron
    from ..structured._viterbi import viterbi_batch_parallel

    fits = 0
    for data, wide in _layouts():
        lengths = np.full(data.shape[0] // 4, 4)
        model = SequencePerceptron(max_iter=2).fit(data, np.arange(data.shape[0]) % 3, lengths)
        model.predict(data, lengths)
        model.predict_marginals(data, lengths)
        model.predict_nbest(data, lengths, n=2)
        bounds = np.arange(0, data.shape[0] + 1, 4)
        viterbi_batch_parallel(kernel_view(data), bounds, np.ascontiguousarray(model.coef_.T),
                               model.transitions_, model.start_transitions_,
                               np.empty(data.shape[0], dtype=np.intp), 2)
        fits += 1
    return fits


def _warm_parser():
    """Train and parse with the dependency parser once per decoder (a decoder is a
    branch of the same compiled epoch, but each has its own compiled search)."""
    from ..datasets._conllu import parse_conllu
    from ..structured import DependencyParser
    from ..structured._parser import DECODERS

    treebank = parse_conllu(TREEBANK, "warm-up treebank")
    for decoder in DECODERS:
        DependencyParser(decoder=decoder, max_iter=1).fit(treebank).predict(treebank)
    return len(DECODERS)


def add_arguments(parser):
    parser.add_argument("--model", action="append",
                        choices=[*sorted(SHORT_NAMES), SEQUENCE, PARSER],
                        help="only this model (repeatable; default: all, the structured "
                             f"perceptron as {SEQUENCE!r} and the dependency parser as "
                             f"{PARSER!r})")


def run(args):
    fits, seconds = warmup(args.model)
    print(f"compiled and cached: {fits} fits in {seconds:.1f} s, cache in {cache_folder()}")
    return 0
