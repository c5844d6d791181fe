"""Random damage and forgery of model files: a ModelFileError, or the very model saved.

Bounded (a few dozen examples each) so that it runs in CI. Byte-level damage is
caught by the zip format's CRC-32 and the members' headers; forgeries (valid zip,
metadata or arrays edited and re-saved) by the schema in ``rosenblatt.io``.
"""

import json
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rosenblatt import AveragedPerceptron, KernelPerceptron, VotedPerceptron
from rosenblatt.io import ModelFileError, load, save

RNG = np.random.RandomState(0)
X = RNG.randn(30, 3)
Y = np.arange(30) % 3


def fitted_models():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {
            "averaged": AveragedPerceptron(max_iter=3, random_state=0).fit(X, Y),
            "voted": VotedPerceptron(max_iter=3, random_state=0).fit(sp.csr_matrix(X), Y),
            "kernel": KernelPerceptron(max_iter=3, random_state=0).fit(sp.csr_matrix(X),
                                                                       Y % 2),
        }


MODELS = fitted_models()


def same_or_refused(path, original):
    """Loading gives a ModelFileError, or a model that predicts as the original."""
    try:
        loaded = load(path)
    except ModelFileError:
        return
    np.testing.assert_array_equal(loaded.decision_function(X), original.decision_function(X))


def working_or_refused(path, original):
    """Loading gives a ModelFileError, or a model that predicts: a forged value the
    schema cannot tell from a real one (a weight of 1e6, a bias start of 1) loads,
    but never crashes, hangs or raises anything else."""
    try:
        loaded = load(path)
    except ModelFileError:
        return
    scores = loaded.decision_function(X)
    assert scores.shape == original.decision_function(X).shape


BOUNDED = {"deadline": None, "derandomize": True,
           "suppress_health_check": [HealthCheck.function_scoped_fixture]}


@settings(max_examples=40, **BOUNDED)
@given(name=st.sampled_from(sorted(MODELS)), data=st.data())
def test_damaged_bytes_are_refused_or_harmless(name, data, tmp_path):
    path = tmp_path / "m.npz"
    save(MODELS[name], path)
    raw = bytearray(path.read_bytes())
    kind = data.draw(st.sampled_from(["flip", "truncate"]))
    if kind == "flip":
        for position in data.draw(st.lists(st.integers(0, len(raw) - 1), min_size=1,
                                           max_size=4)):
            raw[position] ^= data.draw(st.integers(1, 255))
    else:
        raw = raw[:data.draw(st.integers(0, len(raw) - 1))]
    path.write_bytes(bytes(raw))
    same_or_refused(path, MODELS[name])


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=True)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner,
                                                                 max_size=3),
    max_leaves=6,
)


@settings(max_examples=60, **BOUNDED)
@given(name=st.sampled_from(sorted(MODELS)), data=st.data())
def test_forged_metadata_is_refused_or_harmless(name, data, tmp_path):
    path = tmp_path / "m.npz"
    save(MODELS[name], path)
    with np.load(path, allow_pickle=False) as stored:
        arrays = {key: stored[key] for key in stored.files}
    meta = json.loads(str(arrays["__meta__"]))
    section = data.draw(st.sampled_from(["params", "attributes"]))
    key = data.draw(st.sampled_from(sorted(meta[section])))
    meta[section][key] = data.draw(JSON_VALUES)
    arrays["__meta__"] = np.array(json.dumps(meta))
    np.savez(path, **arrays)
    working_or_refused(path, MODELS[name])


@settings(max_examples=60, **BOUNDED)
@given(name=st.sampled_from(sorted(MODELS)), data=st.data())
def test_forged_arrays_are_refused_or_harmless(name, data, tmp_path):
    path = tmp_path / "m.npz"
    save(MODELS[name], path)
    with np.load(path, allow_pickle=False) as stored:
        arrays = {key: stored[key] for key in stored.files}
    key = data.draw(st.sampled_from(sorted(k for k in arrays if k != "__meta__")))
    original = arrays[key]
    how = data.draw(st.sampled_from(["shape", "dtype", "value", "drop", "extra"]))
    if how == "shape":
        arrays[key] = np.resize(original, data.draw(st.integers(0, 5)))
    elif how == "dtype":
        arrays[key] = original.astype(data.draw(st.sampled_from(["int8", "float32", "U3",
                                                                 "complex128", "bool"])))
    elif how == "value" and original.size:
        arrays[key] = original.copy()
        flat = arrays[key].reshape(-1)
        kind = original.dtype.kind
        largest = np.iinfo(original.dtype).max if kind in "iu" else None
        choices = {"f": [-1.0, 2.0**40, np.nan, np.inf, 1e6], "i": [-1, largest, 127],
                   "u": [largest, 127], "b": [True, False]}.get(kind, ["x"])
        flat[data.draw(st.integers(0, flat.size - 1))] = data.draw(st.sampled_from(choices))
    elif how == "drop":
        del arrays[key]
    else:
        arrays["extra_"] = np.zeros(2)
    np.savez(path, **arrays)
    working_or_refused(path, MODELS[name])


def test_a_member_announcing_more_than_it_holds_is_refused_before_reading(tmp_path):
    """A few bytes that announce a 1 GiB array: refused from the header, nothing allocated."""
    import io
    import zipfile

    path, forged = tmp_path / "m.npz", tmp_path / "forged.npz"
    save(MODELS["averaged"], path)
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        header, np.lib.format.header_data_from_array_1_0(np.zeros((2**15, 2**12))))
    with zipfile.ZipFile(path) as source, zipfile.ZipFile(forged, "w") as target:
        for info in source.infolist():
            payload = source.read(info)
            if info.filename == "coef_.npy":
                payload = header.getvalue() + b"\x00" * 64
            target.writestr(info, payload)
    with pytest.raises(ModelFileError, match="announces .* which does not match"):
        load(forged)


@pytest.mark.parametrize("meta", ["[]", "3", '{"format": "rosenblatt-model"}',
                                  '{"format": "rosenblatt-model", "format_version": 1, '
                                  '"estimator": "Perceptron", "params": []}'])
def test_metadata_of_the_wrong_shape_is_refused(meta, tmp_path):
    path = tmp_path / "m.npz"
    save(MODELS["averaged"], path)
    with np.load(path, allow_pickle=False) as stored:
        arrays = {key: stored[key] for key in stored.files}
    arrays["__meta__"] = np.array(meta)
    np.savez(path, **arrays)
    with pytest.raises(ModelFileError):
        load(path)
