"""``rosenblatt train``: fit an estimator on a data file and save the model."""

from ..datasets import ChunkedFile
from ..io import save
from ..streaming import fit_chunks
from ._common import (
    _label_option,
    add_data_arguments,
    estimator_class,
    parse_settings,
    progress_bar,
    read_data,
)

NAME = "train"
HELP = "Fit a model on a data file and save it (JSON + arrays, never a pickle)."


def add_arguments(parser):
    add_data_arguments(parser)
    parser.add_argument("--model", default="perceptron",
                        help="perceptron, pla, batch, pocket, averaged, voted, linear_unit, "
                             "multiclass or kernel (default: perceptron)")
    parser.add_argument("--set", action="append", metavar="NAME=VALUE", default=[],
                        help="an estimator parameter, e.g. --set eta=0.5 --set shuffle=none")
    parser.add_argument("-o", "--output", required=True, help="model file to write (.npz)")
    parser.add_argument("--chunk-size", type=int, metavar="ROWS",
                        help="read the file ROWS rows at a time and train with partial_fit "
                             "(for files larger than memory; online models only)")
    parser.add_argument("--epochs", type=int, default=None,
                        help="passes over the file with --chunk-size (default: max_iter)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args):
    model = estimator_class(args.model)(**parse_settings(args.set))
    model._validate_params()
    if args.chunk_size is not None:
        return _run_chunked(args, model)
    X, y = read_data(args.data, args.label)
    params = model.get_params()
    total = params.get("max_updates") or params.get("max_iter")
    with progress_bar(model, total, args.quiet, f"training {type(model).__name__}"):
        model.fit(X, y)
    _report(args, model)
    print(f"accuracy   {model.score(X, y):.4f} (training data)")
    return 0


def _run_chunked(args, model):
    if not hasattr(model, "partial_fit"):
        raise ValueError(f"--chunk-size trains with partial_fit, which "
                         f"{type(model).__name__} does not have")
    label = None if args.label is None else _label_option(args.label)
    chunks = ChunkedFile(args.data, args.chunk_size, label=label)
    epochs = args.epochs or model.get_params().get("max_iter", 1)
    blocks = -(-chunks.n_rows // chunks.chunk_size)
    if args.quiet:
        fit_chunks(model, chunks, n_epochs=epochs)
    else:
        from tqdm.auto import tqdm

        with tqdm(total=epochs * blocks, desc="training (chunks)", leave=False) as bar:
            fit_chunks(model, chunks, n_epochs=epochs, on_chunk=lambda: bar.update(1))
    _report(args, model)
    print(f"rows       {chunks.n_rows} in blocks of {chunks.chunk_size}")
    return 0


def _report(args, model):
    save(model, args.output)
    print(f"model      {type(model).__name__} -> {args.output}")
    print(f"classes    {', '.join(map(str, model.classes_))}")
    print(f"epochs     {model.n_iter_}   updates {model.n_updates_}   "
          f"converged {model.converged_}")
