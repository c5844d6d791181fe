"""``rosenblatt train``: fit an estimator on a data file and save the model."""

from ..io import save
from ._common import add_data_arguments, estimator_class, parse_settings, progress_bar, read_data

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
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args):
    X, y = read_data(args.data, args.label)
    model = estimator_class(args.model)(**parse_settings(args.set))
    model._validate_params()
    params = model.get_params()
    total = params.get("max_updates") or params.get("max_iter")
    with progress_bar(model, total, args.quiet, f"training {type(model).__name__}"):
        model.fit(X, y)
    save(model, args.output)
    print(f"model      {type(model).__name__} -> {args.output}")
    print(f"classes    {', '.join(map(str, model.classes_))}")
    print(f"epochs     {model.n_iter_}   updates {model.n_updates_}   "
          f"converged {model.converged_}")
    print(f"accuracy   {model.score(X, y):.4f} (training data)")
    return 0
