"""The residual: what the online rules of the family disagree on.

Every online rule updates ``w += eta * sw * e * x`` and ``b += eta * sw * e``;
the rules differ only in the residual ``e`` of a row ``x`` with label ``y``
(±1) and activation ``a``, and in the loss they report:

- perceptron (CISC 271 eq. 30.1): ``e = y − q``, ``q`` the quantised output.
  With ±1 labels that is ``y`` on a mistake and 0 otherwise; a mistake is
  ``y a <= margin`` (0 for the textbook rule). Loss ``max(0, margin − y a)``.
- linear unit (Ahmed & Pavlu §3): ``e = y − o`` with the raw output ``o = a``.
  Loss ``(y − a)² / 2``.
- passive-aggressive (Crammer et al. 2006, Fig. 1): ``e = τ y`` with the hinge
  loss ``ℓ = max(0, 1 − y a)`` and ``τ = ℓ/‖x‖²`` (PA), ``min(C, ℓ/‖x‖²)``
  (PA-I) or ``ℓ/(‖x‖² + 1/(2C))`` (PA-II). A row with ``x = 0`` gives PA and
  PA-I no direction to move in: it is skipped as if absent, as scikit-learn's
  ``SGDClassifier(learning_rate="pa1")`` skips it.

A :class:`Residual` is passed to the training kernels as an argument, like
pynndescent passes its distance function. numba gives it a type of its own per
rule, so each kernel is specialised (and cached on disk) once per rule, and the
residual is inlined into the loop; its parameters (``margin``, ``C``) are
values carried with it. (A jitted function passed as an argument would also
specialise the kernel but defeats numba's disk cache, which keys it by address.)
"""

import functools
import math

from numba import types
from numba.core import cgutils
from numba.extending import (
    NativeValue,
    make_attribute_wrapper,
    models,
    overload_method,
    register_jitable,
    register_model,
    typeof_impl,
    unbox,
)

from ._rows import row_sqnorm


@register_jitable
def perceptron_residual(y, activation, margin, C, h0, sqnorm):
    """``e = y − q``: the label on a mistake (``y a <= margin``, Daumé's ≤), else 0."""
    return y if y * activation <= margin else 0.0


@register_jitable
def heaviside_residual(y, activation, margin, C, h0, sqnorm):
    """CISC 271 eq. 30.1 with labels coded 0/1: ``e = y − H(a)``, ``H`` the step
    function with ``H(0) = h0`` (``numpy.heaviside``'s second argument). Equal to
    the perceptron's residual except at ``a = 0`` exactly, where the text leaves
    ``H(0)`` open: 0 makes a point on the boundary a mistake for the positive
    class only, 1 for the negative only, 0.5 a half step for both."""
    target = 1.0 if y > 0.0 else 0.0
    output = 1.0 if activation > 0.0 else (0.0 if activation < 0.0 else h0)
    return target - output


@register_jitable
def perceptron_loss(y, activation, margin):
    """scikit-learn's ``Hinge(margin)``: ``margin − y a`` on a mistake, else 0 (NaN for
    a NaN activation, so that an overflow shows in the epoch's loss)."""
    z = y * activation
    return 0.0 if z > margin else margin - z


@register_jitable
def linear_unit_residual(y, activation, margin, C, h0, sqnorm):
    """``e = y − o``: the error of the unthresholded output."""
    return y - activation


@register_jitable
def linear_unit_loss(y, activation, margin):
    return 0.5 * (y - activation) * (y - activation)


@register_jitable
def pa_residual(y, activation, margin, C, h0, sqnorm):
    """PA: the smallest step that gives ``x`` a hinge loss of 0."""
    loss = perceptron_loss(y, activation, 1.0)
    return y * (loss / sqnorm) if loss > 0.0 else 0.0


@register_jitable
def pa1_residual(y, activation, margin, C, h0, sqnorm):
    """PA-I: the PA step, at most ``C``."""
    loss = perceptron_loss(y, activation, 1.0)
    return y * min(C, loss / sqnorm) if loss > 0.0 else 0.0


@register_jitable
def pa2_residual(y, activation, margin, C, h0, sqnorm):
    """PA-II: the PA step with ``‖x‖²`` softened by ``1/(2C)``."""
    loss = perceptron_loss(y, activation, 1.0)
    return y * (loss / (sqnorm + 0.5 / C)) if loss > 0.0 else 0.0


@register_jitable
def hinge_loss(y, activation, margin):
    return perceptron_loss(y, activation, 1.0)


#: name -> (residual, loss, whether the step needs ‖x‖², whether x = 0 is skipped)
_RULES = {
    "perceptron": (perceptron_residual, perceptron_loss, False, False),
    "heaviside": (heaviside_residual, perceptron_loss, False, False),
    "linear_unit": (linear_unit_residual, linear_unit_loss, False, False),
    "pa": (pa_residual, hinge_loss, True, True),
    "pa1": (pa1_residual, hinge_loss, True, True),
    "pa2": (pa2_residual, hinge_loss, True, False),
}


class Residual:
    """An online rule for the training kernels, with its parameters.

    ``rule.sqnorm(X, i)`` is ``‖x_i‖²`` when the rule needs it (else 0, and the
    compiled loop reads nothing); ``rule.skips(sqnorm)`` says whether the row is
    skipped; ``rule.residual(y, a, sqnorm)`` and ``rule.loss(y, a)`` as above.

    >>> PERCEPTRON.residual(1.0, -0.5, 0.0), PERCEPTRON.residual(1.0, 2.0, 0.0)
    (1.0, 0.0)
    >>> Residual("perceptron", margin=3.0).residual(1.0, 2.0, 0.0)
    1.0
    >>> LINEAR_UNIT.residual(1.0, 0.25, 0.0)
    0.75
    >>> Residual("pa1", C=0.1).residual(1.0, 0.5, 2.0)   # min(0.1, 0.5 / 2)
    0.1
    """

    def __init__(self, name, *, margin=0.0, C=math.inf, h0=0.0):
        self.name = name
        self.margin = float(margin)
        self.C = float(C)
        self.h0 = float(h0)

    # the plain-Python path (NUMBA_DISABLE_JIT=1 and the doctests)
    def sqnorm(self, X, i):
        return row_sqnorm(X, i) if _RULES[self.name][2] else 0.0

    def skips(self, sqnorm):
        return _RULES[self.name][3] and sqnorm == 0.0

    def residual(self, y, activation, sqnorm):
        return _RULES[self.name][0](y, activation, self.margin, self.C, self.h0, sqnorm)

    def loss(self, y, activation):
        return _RULES[self.name][1](y, activation, self.margin)

    def __repr__(self):
        return f"Residual({self.name!r}, margin={self.margin}, C={self.C}, h0={self.h0})"


PERCEPTRON = Residual("perceptron")
LINEAR_UNIT = Residual("linear_unit")


class ResidualType(types.Type):
    """numba's type of a :class:`Residual`: one type per rule, so one specialisation;
    the parameters are values of the type."""

    def __init__(self, name):
        self.rule = name
        super().__init__(name=f"Residual({name})")


@register_model(ResidualType)
class _ResidualModel(models.StructModel):
    def __init__(self, dmm, fe_type):
        super().__init__(dmm, fe_type, [("margin", types.float64), ("C", types.float64),
                                         ("h0", types.float64)])


make_attribute_wrapper(ResidualType, "margin", "margin")
make_attribute_wrapper(ResidualType, "C", "C")
make_attribute_wrapper(ResidualType, "h0", "h0")


@typeof_impl.register(Residual)
def _typeof_residual(value, context):
    return _residual_type(value.name)


@functools.cache
def _residual_type(name):
    # numba interns types, but building one to look it up costs 16 µs, on every
    # kernel call (a few percent of a small epoch)
    return ResidualType(name)


@unbox(ResidualType)
def _unbox_residual(typ, obj, c):
    rule = cgutils.create_struct_proxy(typ)(c.context, c.builder)
    for name in ("margin", "C", "h0"):
        attribute = c.pyapi.object_getattr_string(obj, name)
        setattr(rule, name, c.pyapi.float_as_double(attribute))
        c.pyapi.decref(attribute)
    return NativeValue(rule._getvalue())


@overload_method(ResidualType, "sqnorm")
def _sqnorm_method(rule, X, i):
    if _RULES[rule.rule][2]:
        return lambda rule, X, i: row_sqnorm(X, i)
    return lambda rule, X, i: 0.0


@overload_method(ResidualType, "skips")
def _skips_method(rule, sqnorm):
    if _RULES[rule.rule][3]:
        return lambda rule, sqnorm: sqnorm == 0.0
    return lambda rule, sqnorm: False


@overload_method(ResidualType, "residual")
def _residual_method(rule, y, activation, sqnorm):
    function = _RULES[rule.rule][0]
    return lambda rule, y, activation, sqnorm: function(y, activation, rule.margin, rule.C,
                                                        rule.h0, sqnorm)


@overload_method(ResidualType, "loss")
def _loss_method(rule, y, activation):
    function = _RULES[rule.rule][1]
    return lambda rule, y, activation: function(y, activation, rule.margin)
