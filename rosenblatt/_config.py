"""Numerical choices in one place: numba flags and the disk cache.

Every compiled kernel in :mod:`rosenblatt._kernels` is built with :func:`jit`, so a
change of policy here reaches all of them.

Fast-math: we allow only ``reassoc`` (sums may be reordered, which lets LLVM
vectorise dot products) and ``nsz`` (the sign of a zero may be ignored). We never
allow ``nnan``/``ninf`` (they would let the compiler assume away the NaN/inf that
validation is there to catch) nor ``contract`` (fused multiply-add would make a
kernel's ``w += step * x`` round differently from the replayed trace and the NumPy
oracles).
"""

import contextlib
import functools
import hashlib
import os
import tempfile
import warnings

import numba
from numba.core import caching

FASTMATH = frozenset({"reassoc", "nsz"})

#: Options shared by every kernel: compiled once and cached on disk (see
#: :func:`cache_folder`), and free of the GIL so that one-vs-rest can train its
#: binary problems on several threads.
JIT_OPTIONS = dict(nopython=True, nogil=True, cache=True, fastmath=set(FASTMATH))

_PACKAGE = os.path.dirname(os.path.abspath(__file__))


def cache_folder():
    """Where the compiled kernels are kept: ``NUMBA_CACHE_DIR`` when set, else
    ``$XDG_CACHE_HOME/rosenblatt/numba`` (``~/.cache/rosenblatt/numba``).

    Never inside the package: a cache written into ``site-packages`` shadows an
    editable install of the same clone, and fails where the package is read-only.

    >>> folder = cache_folder()
    >>> folder == numba.config.CACHE_DIR or folder.endswith(os.path.join("rosenblatt", "numba"))
    True
    """
    if numba.config.CACHE_DIR:
        return numba.config.CACHE_DIR
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "rosenblatt", "numba")


@functools.lru_cache(maxsize=None)
def _kernel_sources_hash():
    """One stamp for every kernel: a hash of all the compiled code's sources.

    numba stamps a cached function with its own file only, so a change to a
    shared primitive (``_kernels/_rows.py``) would leave the kernels of the other
    files stale in the cache; hashing them all invalidates every kernel at once.
    """
    digest = hashlib.sha256()
    folder = os.path.join(_PACKAGE, "_kernels")
    # the structured perceptron's and the parser's kernels live beside their estimators,
    # on the same primitives, and call one another (the parser's epoch, the decoders):
    # every file of that folder counts, so that no new kernel file can be forgotten here
    structured = os.path.join(_PACKAGE, "structured")
    structured = ["../structured/" + name for name in sorted(os.listdir(structured))]
    for name in sorted(os.listdir(folder)) + ["../_config.py"] + structured:
        if name.endswith(".py"):
            with open(os.path.join(folder, name), "rb") as source:
                digest.update(name.encode() + source.read())
    return digest.hexdigest()


# numba names these without the leading underscore since 0.61
_UserProvidedCacheLocator = getattr(caching, "UserProvidedCacheLocator", None) or \
    caching._UserProvidedCacheLocator
_CacheImpl = getattr(caching, "CacheImpl", None) or caching._CacheImpl


class KernelCacheLocator(_UserProvidedCacheLocator):
    """numba's cache locator for rosenblatt's kernels (and only those): the
    cache in :func:`cache_folder`, stamped with :func:`_kernel_sources_hash`."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(cache_folder(), self.get_suitable_cache_subpath(py_file))

    def get_source_stamp(self):
        return _kernel_sources_hash()

    @classmethod
    def from_function(cls, py_func, py_file):
        if numba.config.CACHE_DIR or not os.path.abspath(py_file).startswith(_PACKAGE):
            return None  # NUMBA_CACHE_DIR is numba's own business; other code too
        locator = cls(py_func, py_file)
        locator.ensure_cache_path()
        return locator


_CacheImpl._locator_classes.insert(0, KernelCacheLocator)


class KernelCache(caching.FunctionCache):
    """numba's per-kernel disk cache, made to survive a damaged entry.

    numba reads a kernel's index (``.nbi``) and compiled code (``.nbc``) with
    ``pickle`` and lets any failure through, so one truncated or garbled file (a
    full disk, a killed process, a copied-over cache) made every later fit of that
    kernel fail with ``EOFError`` or ``UnpicklingError``. The entries are only a
    saving of time and the folder is ours: a kernel whose entry cannot be read is
    compiled again, its index removed first (numba reads it again to save the new
    entry), and a warning says so, once per process.
    """

    def load_overload(self, sig, target_context):
        try:
            return super().load_overload(sig, target_context)
        except Exception as error:  # noqa: BLE001 - whatever unpickling garbage raises
            self._discard(error)
            return None  # numba then compiles the kernel, and saves it anew

    def _discard(self, error):
        with contextlib.suppress(OSError):
            os.remove(self._cache_file._index_path)
        _warn_damaged_cache(self._py_func.__name__, self._cache_path, error)


#: the damaged entries met in this process: the first is told (a damaged folder would
#: otherwise warn once for every kernel in it)
_DAMAGED = []


def _warn_damaged_cache(kernel, folder, error):
    _DAMAGED.append(kernel)
    if len(_DAMAGED) > 1:
        return
    warnings.warn(
        f"rosenblatt's cache of compiled kernels in {folder} held a damaged entry for "
        f"{kernel} ({type(error).__name__}: {error}); it was removed, and the kernel is "
        "compiled again and saved.", RuntimeWarning, stacklevel=2,
    )


@functools.lru_cache(maxsize=None)
def caching_possible():
    """Whether the cache folder can be written; if not, warn once and compile the
    kernels in every process instead (a read-only container, say)."""
    folder = cache_folder()
    try:
        os.makedirs(folder, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as error:
        warnings.warn(
            f"rosenblatt cannot write its compiled kernels to {folder} ({error}); they will "
            "be compiled again in every process. Set NUMBA_CACHE_DIR to a writable folder "
            "to keep them.", RuntimeWarning, stacklevel=2,
        )
        return False
    return True


def jit(function=None, **overrides):
    """``numba.njit`` with the project's options; usable bare or with overrides."""
    options = {**JIT_OPTIONS, **overrides}
    options["cache"] = options["cache"] and caching_possible()

    def compiled(f):
        dispatcher = numba.jit(**options)(f)
        if options["cache"] and hasattr(dispatcher, "_cache"):  # not with NUMBA_DISABLE_JIT
            dispatcher._cache = KernelCache(dispatcher.py_func)  # as enable_caching, ours
        return dispatcher

    return compiled if function is None else compiled(function)


def physical_memory():
    """Bytes of memory this machine has, or None where the system does not say.

    >>> physical_memory() is None or physical_memory() > 0
    True
    """
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # not a POSIX system that tells
        return None


def check_weights_fit(owner, n_values, copies, layout, average, advice, n_shards=1):
    """Refuse weights that cannot fit in this machine's memory, with what to do,
    rather than let the system kill the process midway: ``copies`` float64 arrays of
    ``n_values`` each (``layout`` says what they are, ``advice`` how to shrink them).

    >>> check_weights_fit("Model", 10, 3, "10 weights", True, "Use fewer features")
    >>> check_weights_fit("Model", 2**50, 3, "2**50 weights", True,
    ...                   "Use fewer features")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: Model would need 27021597.8 GB for its weights (2**50 weights, 8 bytes each, 3 ...
    """
    need = copies * 8 * n_values
    have = physical_memory()
    if have is not None and need > have:
        shards = f" for {n_shards} shards of parameter mixing" if n_shards > 1 else ""
        raise ValueError(
            f"{owner} would need {need / 1e9:.1f} GB for its weights{shards} ({layout}, "
            f"8 bytes each, {copies} arrays of that size{' while averaging' if average else ''}"
            f"), more than this machine's {have / 1e9:.1f} GB. {advice}"
            f"{'; or use fewer shards' if n_shards > 1 else ''}.")
