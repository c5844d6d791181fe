"""The residual: the one thing the perceptron and the linear unit disagree on.

Both rules update ``w += eta * sw * e * x`` and ``b += eta * sw * e``; they differ
only in the residual ``e`` of a row with label ``y`` (±1) and activation ``a``:

- perceptron (CISC 271 eq. 30.1): ``e = y − q``, ``q`` the quantised output.
  With ±1 labels that is ``y`` on a mistake (``y a <= 0``) and 0 otherwise.
- linear unit (Ahmed & Pavlu §3): ``e = y − o`` with the raw output ``o = a``.

A :class:`Residual` is passed to the training kernels as an argument, like
pynndescent passes its distance function. numba gives it a type of its own per
rule, so each kernel is specialised (and cached on disk) once per rule, and the
residual is inlined into the loop. (A jitted function passed as an argument would
do the same but defeats numba's disk cache, which keys it by address.)
"""

from numba import types
from numba.extending import (
    NativeValue,
    models,
    overload_method,
    register_jitable,
    register_model,
    typeof_impl,
    unbox,
)


@register_jitable
def perceptron_residual(y, activation):
    """``e = y − q``: the label on a mistake (``y a <= 0``, Daumé's ≤), else 0."""
    return y if y * activation <= 0.0 else 0.0


@register_jitable
def linear_unit_residual(y, activation):
    """``e = y − o``: the error of the unthresholded output."""
    return y - activation


_FUNCTIONS = {"perceptron": perceptron_residual, "linear_unit": linear_unit_residual}


class Residual:
    """A residual rule for the training kernels: ``rule.residual(y, a)``.

    >>> PERCEPTRON.residual(1.0, -0.5), PERCEPTRON.residual(1.0, 2.0)
    (1.0, 0.0)
    >>> LINEAR_UNIT.residual(1.0, 0.25)
    0.75
    """

    def __init__(self, name):
        self.name = name
        self.residual = _FUNCTIONS[name]  # the plain-Python path (NUMBA_DISABLE_JIT=1)

    def __repr__(self):
        return f"Residual({self.name!r})"


PERCEPTRON = Residual("perceptron")
LINEAR_UNIT = Residual("linear_unit")


class ResidualType(types.Type):
    """numba's type of a :class:`Residual`: one type per rule, so one specialisation."""

    def __init__(self, name):
        self.rule = name
        super().__init__(name=f"Residual({name})")


register_model(ResidualType)(models.OpaqueModel)


@typeof_impl.register(Residual)
def _typeof_residual(value, context):
    return ResidualType(value.name)


@unbox(ResidualType)
def _unbox_residual(typ, obj, context):
    # the rule lives in the type; the value itself carries nothing
    return NativeValue(context.context.get_dummy_value())


@overload_method(ResidualType, "residual")
def _residual_method(rule, y, activation):
    function = _FUNCTIONS[rule.rule]
    return lambda rule, y, activation: function(y, activation)
