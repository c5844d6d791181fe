"""``rosenblatt train``: fit an estimator on a data file and save the model, or
go on training a saved one (``--resume``)."""

import argparse
import contextlib
import sys
import time
from dataclasses import dataclass

import numpy as np

from .._validation import encode_labels, row_weights, validate_X_y
from ..base import MistakeStop, Shard
from ..base._registry import estimator_class, families, short_names
from ..datasets import ChunkedFile
from ..engine import make_estimator, on_epoch
from ..io import save
from ..streaming import fit_chunks
from ._common import (
    DataOptions,
    TooWide,
    add_data_arguments,
    add_format_arguments,
    check_label,
    check_output,
    file_kind,
    load_classifier,
    parse_settings,
    positive_whole_number,
    read_data,
    show_progress,
    too_wide_message,
)


@dataclass(frozen=True)
class Training:
    """A fitted model, with its accuracy on the training file (in memory) or the
    rows and block size it streamed (with a chunk size)."""

    model: object
    accuracy: float = None
    n_rows: int = None
    chunk_size: int = None

    def lines(self, output):
        model = self.model
        inner = getattr(model, "estimator_", model)
        lines = [f"model      {type(inner).__name__} -> {output}",
                 f"classes    {', '.join(map(str, model.classes_))}"]
        if "max_updates" in inner.get_params():  # PLA: its n_iter_ counts updates, not epochs
            lines.append(f"updates    {count(model.n_updates_)}   converged {model.converged_}")
        else:
            lines.append(f"epochs     {count(model.n_iter_)}   updates {count(model.n_updates_)}"
                         f"   converged {model.converged_}")
        reason = getattr(inner, "stop_reason_", None)
        if reason is not None:
            lines.append(f"stopped    {STOP_DESCRIPTIONS.get(reason, reason)}")
        if hasattr(model, "n_shards_"):
            # sum of mu * mistakes: a fraction with uniform mixing, shown to the whole mistake
            lines.append(f"shards     {model.n_shards_} ({model.backend_}), mixed mistakes "
                         f"{', '.join(count(m) for m in model.mixed_mistakes_)}")
        if self.chunk_size is None:
            lines.append(f"accuracy   {self.accuracy:.4f} (training data)")
        else:
            lines.append(f"rows       {count(self.n_rows)} in blocks of {count(self.chunk_size)}")
        return lines


#: ``stop_reason_`` as the command prints it
STOP_DESCRIPTIONS = {
    "mistake_free": "at an epoch without a mistake",
    "tol": "when the mistakes stopped falling (tol; the rows cannot be separated, or are "
           "too many to check)",
    "early_stopping": "when the held-out accuracy stopped improving (early stopping)",
    "diverged": "when the loss diverged (the weights of least loss kept)",
    "max_iter": "at max_iter, before meeting its rule",
    "partial_fit": "after its epochs, before meeting its rule",
}


def count(n):
    """A count as the command prints it: a whole number with thousands separators
    (``%g`` printed 7014670 as ``7.01467e+06``).

    >>> count(7014670), count(34650.5), count(3)
    ('7,014,670', '34,650', '3')
    """
    return f"{round(float(n)):,}"


def train(model, path, *, label=None, chunk_size=None, epochs=None, show_progress=False,
          shards=None, scheduler=None, options=DataOptions(), report=None):
    """Fit ``model`` on the data file ``path``: in memory, or with ``chunk_size``
    block by block with ``partial_fit`` (``epochs`` passes, default ``max_iter``),
    or with ``shards`` by iterative parameter mixing on that many shards, on
    threads of this machine or on the Dask cluster whose scheduler is at
    ``scheduler`` (see :class:`~rosenblatt.distributed.ParameterMixing`).
    ``options`` (:class:`~rosenblatt.cli._common.DataOptions`) gives the file's
    format and the width of the feature space; a VW file's importance weights
    are the rows' ``sample_weight``. ``report``, a file (standard output), gets
    a line per pass (see :class:`PassReport`).

    >>> import pathlib, tempfile
    >>> from rosenblatt import Perceptron
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "and.csv"
    >>> _ = path.write_text("x1,x2,y\\n0,0,0\\n0,1,0\\n1,0,0\\n1,1,1\\n")
    >>> training = train(Perceptron(shuffle="none"), path)
    >>> training.model.coef_.tolist(), training.accuracy
    ([[3.0, 2.0]], 1.0)
    """
    if shards is not None:
        if chunk_size is not None:
            raise ValueError("--shards and --chunk-size do not go together: with --shards the "
                             "shards are held in the memory of the workers")
        if epochs is not None:
            raise ValueError("--epochs counts passes over a file read with --chunk-size; on "
                             "shards, set the model's epochs with --set max_iter=N")
        return _train_on_shards(model, path, label, shards, scheduler, options)
    if scheduler is not None:
        raise ValueError("--scheduler needs --shards (the number of shards to train on)")
    if epochs is not None and chunk_size is None:
        raise ValueError("--epochs counts passes over a file read with --chunk-size; in "
                         "memory, set the model's epochs with --set max_iter=N")
    if chunk_size is not None:
        return _train_in_chunks(model, path, label, chunk_size, epochs, show_progress,
                                options, report)
    X, y, sample_weight = read_data(path, label, options=options, weights=True)
    params = model.get_params()
    total = params.get("max_updates") or params.get("max_iter")
    with watched(model, total, show_progress, f"training {type(model).__name__}",
                 X.shape[0], report):
        model.fit(X, y, **weights_of(sample_weight))
    return Training(model, accuracy=model.score(X, y))


def weights_of(sample_weight):
    """``fit``'s keyword for a file's importance weights, when any is not 1."""
    if sample_weight is None or np.all(sample_weight == 1.0):
        return {}
    return {"sample_weight": sample_weight}


class PassReport:
    """A line per pass (epoch) of a training run, as Vowpal Wabbit reports its
    progress: the rows, the seconds and rows per second, and the progressive
    validation of the pass, each row judged by the weights *before* its update
    (a fair estimate of the error on new rows, without held-out data):

    - ``mistakes``: the mistakes the training loop counts per epoch (rows with
      ``y·a <= 0`` before their update; for passive-aggressive and a perceptron
      with ``margin > 0``, the rows inside the margin, which its stopping rule
      counts), over the rows (the mean over the one-vs-rest problems);
    - ``log-loss``: the mean logistic loss of the rows before their update, for a
      model with probabilities whose rule reports it (the epoch's loss of a rule
      with ``loss="logistic"``).

    A rule whose epochs do not count mistakes (the linear unit) shows its epoch's
    mean loss instead. Lines are printed when the next pass starts, or at the end.
    """

    def __init__(self, model, n_rows, out):
        self.model, self.n_rows, self.out = model, n_rows, out
        self.started = time.perf_counter()
        self.epoch, self.seconds, self.parts = None, 0.0, []
        # the updates each problem had made before this run (a resumed model)
        self.before = {problem.classes: problem.n_updates
                       for problem in getattr(model, "_problems", None) or []}
        self.learner = None

    def __call__(self, problem):
        if problem.n_iter != self.epoch:
            self.flush()
            now = time.perf_counter()
            self.epoch, self.seconds, self.started = problem.n_iter, now - self.started, now
        self.parts.append(self._measure(problem))

    def _measure(self, problem):
        """``(name, value, log-loss or None)`` of one problem's epoch."""
        updates = problem.n_updates - self.before.get(problem.classes, 0)
        self.before[problem.classes] = problem.n_updates
        if self.learner is None:
            self.learner = self.model._learner()
        log_loss = problem.epoch_loss if self._reports_log_loss() else None
        if hasattr(self.learner, "_epoch_mistakes"):
            return "mistakes", self.learner._epoch_mistakes(problem, updates), log_loss
        return "loss", problem.epoch_loss, log_loss

    def _reports_log_loss(self):
        # a rule whose epoch loss is its progressive loss (OGD, FTRL) and whose model
        # is a probability: that loss is the log-loss (OGD has predict_proba only
        # with loss="logistic")
        from ..linear_model._first_order import ProgressiveLoss
        return hasattr(self.model, "predict_proba") and \
            issubclass(self.model._learner_class, ProgressiveLoss)

    def flush(self):
        if self.epoch is None or not self.parts:
            return
        name, _, _ = self.parts[0]
        values = [value for _, value, _ in self.parts if value is not None]
        if callable(self.n_rows):  # a file read in one pass: known once a pass is made
            self.n_rows = self.n_rows()
        line = (f"pass {self.epoch:<4d} {count(self.n_rows):>12} rows  {self.seconds:8.2f} s  "
                f"{count(self.n_rows / max(self.seconds, 1e-9)):>12} rows/s")
        if values:
            mean = sum(values) / len(values)
            line += f"  progressive {name} " + (f"{mean / max(self.n_rows, 1):.4f}"
                                                 if name == "mistakes" else f"{mean:.4g}")
        losses = [loss for _, _, loss in self.parts if loss is not None]
        if losses:
            line += f"  log-loss {sum(losses) / len(losses):.4f}"
        print(line, file=self.out, flush=True)
        self.parts = []


@contextlib.contextmanager
def watched(model, total, show, description, n_rows, report):
    """The fit watched after every epoch: a tqdm bar advanced (``show``) and a
    :class:`PassReport` line per pass written to ``report`` (a file, or ``None``).
    PLA, which calls back after each update, gets the bar only."""
    callbacks = []
    if show:
        from tqdm.auto import tqdm

        bar = tqdm(total=total, desc=description, leave=False)
        callbacks.append(lambda problem: bar.update(1))
    passes = None
    if report is not None and model._learner_class._reports_epochs:
        passes = PassReport(model, n_rows, report)
        callbacks.append(passes)
    if not callbacks:
        yield
        return
    try:
        with on_epoch(model, lambda problem: [call(problem) for call in callbacks]):
            yield
        if passes is not None:
            passes.flush()
    finally:
        if show:
            bar.close()


def _train_in_chunks(model, path, label, chunk_size, epochs, show_progress, options,
                     report):
    if not hasattr(model, "partial_fit"):
        raise ValueError(f"--chunk-size trains with partial_fit, which "
                         f"{type(model).__name__} does not have")
    # one pass: a VW file, or a LIBSVM file of a known width, is read once for the first
    # epoch (the pass that opening made before is made by that epoch; ChunkedFile's
    # one_pass); a progress bar needs the number of blocks first
    chunks = chunked_file(path, chunk_size, label, options=options,
                          one_pass=not show_progress)
    try:
        _fit_in_chunks(model, chunks, epochs, show_progress, report=report)
    except TooWide as error:  # found by the pass, now made while training
        raise ValueError(too_wide_message(error, None, "the model", options)) from None
    return Training(model, n_rows=chunks.n_rows, chunk_size=chunks.chunk_size)


def _fit_in_chunks(model, chunks, epochs, show_progress, resume=False, report=None):
    """:func:`~rosenblatt.streaming.fit_chunks`, with a bar of epochs × blocks and a
    line per pass."""
    # the rows are known after the first epoch of a file read in one pass
    passes = PassReport(model, lambda: chunks.n_rows, report) if report is not None else None
    watch = on_epoch(model, passes) if passes is not None else contextlib.nullcontext()
    with watch:
        if not show_progress:
            fit_chunks(model, chunks, n_epochs=epochs, resume=resume)
        else:
            from tqdm.auto import tqdm

            total = (epochs or model.get_params().get("max_iter", 1)) * chunks.n_blocks
            with tqdm(total=total, desc="training (blocks)", leave=False) as bar:
                fit_chunks(model, chunks, n_epochs=epochs, on_chunk=lambda: bar.update(1),
                           resume=resume)
    if passes is not None:
        passes.flush()
    return model


def chunked_file(path, chunk_size, label=None, n_features=None, options=DataOptions(),
                 model=None, source="the model", one_pass=False):
    """The :class:`~rosenblatt.datasets.ChunkedFile` of ``path``, its ``--label``
    checked first: a LIBSVM or ``.npz`` file ignored it silently in blocks, as it
    raised a TypeError (a traceback) read whole. ``options`` gives the format and
    the width (``n_features``, a model's, wins)."""
    kind = file_kind(path, options.file_format)
    label = check_label(path, label, kind)
    width = n_features if n_features is not None else options.width_for(path, kind, model,
                                                                         source)
    try:
        return ChunkedFile(path, chunk_size, label=label, n_features=width, file_format=kind,
                           one_pass=one_pass)
    except TooWide as error:
        raise ValueError(too_wide_message(error, model, source, options)) from None


def _train_on_shards(model, path, label, shards, scheduler, options=DataOptions()):
    from ..distributed import ParameterMixing

    X, y, sample_weight = read_data(path, label, options=options, weights=True)
    if scheduler is None:
        mixed = ParameterMixing(model, n_shards=shards, client="threads").fit(
            X, y, **weights_of(sample_weight))
        return Training(mixed, accuracy=mixed.score(X, y))
    try:
        from distributed import Client
    except ImportError as error:
        raise ValueError("--scheduler needs Dask: pip install 'rosenblatt[dask]'") from error
    with Client(scheduler, timeout=30) as client:
        mixed = ParameterMixing(model, n_shards=shards, client=client).fit(
            X, y, **weights_of(sample_weight))
    return Training(mixed, accuracy=mixed.score(X, y))


def resume(model, path, *, label=None, chunk_size=None, epochs=None, source="the model",
           options=DataOptions(), report=None):
    """Go on training ``model``, read from a model file with its training state, on
    the data file ``path``, where the saved run stopped.

    An estimator with ``partial_fit`` continues exactly as if it had never been
    saved: the training loop goes on for up to ``epochs`` (default: its
    ``max_iter``) more epochs over the data (block by block with
    ``chunk_size``), stopped by the learner's own rule, as ``fit`` stops; its
    counters, sums, stopping rule, examples seen and random streams go on. One without (``PLA``,
    ``BatchPerceptron``, ``PocketPerceptron``) runs ``fit`` with
    ``warm_start=True``: a new run of ``max_iter`` epochs from the saved weights.
    The data must have the model's width and only labels it knows (``source``
    names the model in the message).

    >>> import pathlib, tempfile
    >>> from rosenblatt import Perceptron
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "and.csv"
    >>> _ = path.write_text("x1,x2,y\\n0,0,0\\n0,1,0\\n1,0,0\\n1,1,1\\n")
    >>> model = Perceptron(shuffle="none", tol=None).partial_fit([[0, 0]], [0], classes=[0, 1])
    >>> training = resume(model, path)
    >>> training.model.coef_.tolist(), training.model.n_iter_, training.accuracy
    ([[3.0, 2.0]], 10, 1.0)
    """
    if not hasattr(model, "partial_fit"):
        if chunk_size is not None or epochs is not None:
            raise ValueError(f"{type(model).__name__} has no partial_fit: --resume runs a "
                             "warm-start fit in memory, of max_iter epochs (--set max_iter=N)")
        X, y, sample_weight = read_data(path, label, model=model, source=source,
                                        options=options, weights=True)
        _check_fits(model, X.shape[1], np.unique(y), path, source)
        model.set_params(warm_start=True).fit(X, y, **weights_of(sample_weight))
        return Training(model, accuracy=model.score(X, y))
    if chunk_size is None:
        X, y, sample_weight = read_data(path, label, model=model, source=source,
                                        options=options, weights=True)
        _check_fits(model, X.shape[1], np.unique(y), path, source)
        X, y = validate_X_y(model, X, y, reset=False)
        codes = encode_labels(y, model.classes_)
        importance = weights_of(sample_weight).get("sample_weight")
        weights = row_weights(X, codes, model.classes_, importance, model.class_weight)
        with watched(model, None, False, "", X.shape[0], report):
            model._train_on([Shard(X, codes, weights)], model.classes_, X.shape[1],
                            resume=True, epochs=epochs,
                            weighted=importance is not None and bool(np.ptp(weights) > 0))
        return Training(model, accuracy=model.score(X, y))
    chunks = chunked_file(path, chunk_size, label, options=options, model=model, source=source)
    _check_fits(model, chunks.n_features, chunks.classes, path, source)
    _fit_in_chunks(model, chunks, epochs, False, resume=True, report=report)
    return Training(model, n_rows=chunks.n_rows, chunk_size=chunks.chunk_size)


def set_checked(model, settings):
    """``model.set_params(**settings)``, checked as :func:`~rosenblatt.engine.make_estimator`
    checks a new model's (``--resume --set max_iter=abc`` was set unchecked, and
    ``range('abc')`` raised a TypeError: a traceback).

    >>> from rosenblatt import Perceptron
    >>> set_checked(Perceptron(), {"max_iter": "abc"})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    sklearn.utils._param_validation.InvalidParameterError: The 'max_iter' parameter of ...
    """
    known = model.get_params()
    unknown = sorted(set(settings) - set(known))
    if unknown:
        raise ValueError(f"{type(model).__name__} does not take {', '.join(map(repr, unknown))}; "
                         f"its parameters are {', '.join(sorted(known))}")
    model.set_params(**settings)
    model._validate_params()
    return model


def _check_fits(model, n_features, labels, path, source):
    """Refuse data the model cannot go on learning from, in one line."""
    if n_features != model.n_features_in_:
        raise ValueError(f"{path} has {n_features} features; {source} was trained on "
                         f"{model.n_features_in_}")
    unknown = sorted(set(np.asarray(labels).tolist()) - set(model.classes_.tolist()), key=str)
    if unknown:
        raise ValueError(f"{path} holds labels {', '.join(map(str, unknown))} that {source} "
                         f"does not know (its classes: "
                         f"{', '.join(map(str, model.classes_))})")


def model_help():
    """The ``--model`` help: the short names, the list itself is the epilog
    (:func:`models_epilog`).

    >>> model_help()  # doctest: +ELLIPSIS
    'the estimator (default: perceptron): one of the models listed below, ...'
    """
    return ("the estimator (default: perceptron): one of the models listed below, by its "
            "name (or its class name); its parameters with --set NAME=VALUE")


def models_epilog():
    """Every estimator the command line trains, by family, one line each (name and
    what it is: the first sentence of its docstring), from the registry
    (:mod:`rosenblatt.base._registry`): a new rule appears here by registering.

    >>> print(models_epilog())  # doctest: +ELLIPSIS
    models (--model NAME), by family:
      classic
        perceptron           The classic perceptron: an update on every mistake, epoch after epoch.
    ...
    """
    by_class = {short: name for short, name in short_names().items()}
    lines = ["models (--model NAME), by family:"]
    width = max(map(len, by_class)) + 2
    for family, names in families().items():
        lines.append(f"  {family}")
        for short in names:
            lines.append(f"    {short:<{width}} {summary(estimator_class(by_class[short]))}")
    lines.append("  (sequence models, which label sentences: rosenblatt tag train)")
    return "\n".join(lines)


def summary(cls):
    """The first paragraph of a class's docstring (its summary), on one line, without
    reStructuredText's literal marks."""
    first = " ".join((cls.__doc__ or cls.__name__).strip().split("\n\n")[0].split())
    return first.replace("``", "")


def add_arguments(parser):
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = models_epilog()
    add_data_arguments(parser)
    add_format_arguments(parser)
    parser.add_argument("--model", default=None, help=model_help())
    parser.add_argument("--resume", metavar="MODEL",
                        help="go on training the model file MODEL (written with its training "
                             "state) on DATA, where its run stopped, and write the result to "
                             "--output. A model with partial_fit continues exactly as if it had "
                             "never been saved: up to --epochs more epochs (default: its "
                             "max_iter), stopped by its own rule; pla, batch and pocket run "
                             "a warm-start fit instead (a new run of max_iter epochs from the "
                             "saved weights). --set and "
                             "--tol change its parameters; DATA must have the model's features "
                             "and labels")
    parser.add_argument("--tol", type=_tol, default=None, metavar="TOL",
                        help="the stopping rule of the mistake-driven models (perceptron, "
                             "averaged, voted, pocket, multiclass, kernel, passive_aggressive "
                             "and the online family): after an epoch without a mistake, or "
                             "when the epoch's mistakes have not fallen by TOL x the rows for "
                             "n_iter_no_change epochs (unless the rows can be separated); "
                             "'none' for the textbook rule only. For linear_unit its own "
                             "rule: stop when an epoch changes the loss by at most TOL "
                             "relative; 'none' runs every epoch without computing the loss. "
                             "Default: the estimator's own tol, as fit() in Python. --set "
                             "tol=... does the same (None, not 'none', there)")
    parser.add_argument("--set", action="append", metavar="NAME=VALUE", default=[],
                        help="an estimator parameter, e.g. --set eta=0.5 --set shuffle=none")
    parser.add_argument("-o", "--output", required=True, help="model file to write (.npz)")
    parser.add_argument("--chunk-size", type=positive_whole_number, metavar="ROWS",
                        help="read the file ROWS rows at a time (for files larger than "
                             "memory; online models only): the same training loop and "
                             "stopping rule, and with --set shuffle=none the same model as "
                             "in memory; shuffled, each epoch reads the blocks in a random "
                             "order and permutes each block's rows")
    parser.add_argument("--epochs", type=positive_whole_number, default=None,
                        help="at most this many epochs with --chunk-size or --resume "
                             "(default: max_iter); the model's stopping rule may end sooner")
    parser.add_argument("--shards", type=positive_whole_number, metavar="S",
                        help="train on S shards by iterative parameter mixing (threads of "
                             "this machine, or the Dask cluster of --scheduler)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="Dask scheduler address for --shards, e.g. tcp://host:8786")
    parser.add_argument("--quiet", action="store_true",
                        help="no progress bar, and no line per pass (rows/s and progressive "
                             "validation: each row judged before its update)")


def _stops_by_tol(model):
    """Whether the model's rule takes scikit-learn's stopping rule."""
    return issubclass(model._learner_class, MistakeStop)


def _tol(text):
    if text.lower() == "none":
        return "none"
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"expected a number >= 0 or 'none', got {text!r}")
    return value


def with_tol(model, settings, tol):
    """``model`` with ``--tol`` set when it is given (and ``--set tol=`` is not, which
    wins); otherwise the estimator's own default, so that the command line trains the
    model that ``fit`` in Python trains with the same parameters (the command line
    used to put ``tol=1e-3`` on the models without one). Parameter mixing carries
    ``tol`` to its shards, so ``--shards`` does not change the stopping rule.

    >>> from rosenblatt import LinearUnit, PLA, Perceptron
    >>> with_tol(Perceptron(), {}, None).tol == Perceptron().tol
    True
    >>> with_tol(Perceptron(), {}, 0.01).tol, with_tol(LinearUnit(), {}, "none").tol
    (0.01, None)
    >>> with_tol(PLA(), {}, 0.1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: --tol applies to ... PLA stops by its own rule
    """
    if tol is None or "tol" in settings:
        return model
    if "tol" not in model.get_params():
        raise ValueError("--tol applies to perceptron, averaged, voted, pocket, "
                         "multiclass, kernel, passive_aggressive and linear_unit; "
                         f"{type(model).__name__} stops by its own rule")
    return model.set_params(tol=None if tol == "none" else tol)


def run(args):
    settings = parse_settings(args.set)
    check_output(args.output)
    options = DataOptions.of(args)
    report = None if args.quiet else sys.stdout
    if args.resume is not None:
        return _run_resumed(args, settings, options, report)
    model = with_tol(make_estimator(args.model or "perceptron", **settings), settings,
                     args.tol)
    training = train(model, args.data, label=args.label, chunk_size=args.chunk_size,
                     epochs=args.epochs, show_progress=show_progress(args), shards=args.shards,
                     scheduler=args.scheduler, options=options, report=report)
    _save(training.model, args.output)
    print("\n".join(training.lines(args.output)))
    return 0


def _run_resumed(args, settings, options, report):
    if args.model is not None:
        raise ValueError("--model does not go with --resume: the model file says which "
                         "estimator it holds")
    if args.shards is not None or args.scheduler is not None:
        raise ValueError("--shards does not go with --resume: parameter mixing trains anew")
    model = load_classifier(args.resume, "train --resume")
    if model._model_file is not None:  # a file without training state (format version 1)
        raise ValueError(f"{args.resume} holds no training state (it was written by an older "
                         "rosenblatt, or with training_state=False): train afresh instead")
    model = with_tol(set_checked(model, settings), settings, args.tol)  # its own tol unless asked
    training = resume(model, args.data, label=args.label, chunk_size=args.chunk_size,
                      epochs=args.epochs, source=args.resume, options=options, report=report)
    _save(training.model, args.output)
    print("\n".join([f"resumed    {args.resume}"] + training.lines(args.output)))
    return 0


def _save(model, path):
    """Write the model file; a failure (the disk full after the fit, say) names the
    file asked for, not the temporary file that :func:`~rosenblatt.io.save` writes
    first."""
    try:
        save(model, path)
    except OSError as error:
        raise OSError(f"-o {path}: cannot write the model ({error.strerror or error})") from None
