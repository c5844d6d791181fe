"""Each estimator declares its parameters once: the ``_PARAMETERS`` tuple, the
``__init__`` signature, ``_parameter_constraints`` and the docstring agree."""

import inspect

import numpydoc.validate
import pytest
from numpydoc.docscrape import ClassDoc

from ._estimators import ALL

#: numpydoc's checks of the Parameters section (missing, unknown, wrong order,
#: no type, no description) and of the docstring's form.
PARAMETER_CHECKS = {"PR01", "PR02", "PR03", "PR04", "PR07", "GL01", "GL02", "GL03", "GL08"}


def signature_names(cls):
    return [name for name in inspect.signature(cls.__init__).parameters if name != "self"]


@pytest.mark.parametrize("cls", ALL, ids=lambda cls: cls.__name__)
def test_parameter_tuple_equals_signature_and_constraints(cls):
    assert list(cls._PARAMETERS) == signature_names(cls)
    assert list(cls._parameter_constraints) == list(cls._PARAMETERS)
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY
               for name, p in inspect.signature(cls.__init__).parameters.items()
               if name != "self")


@pytest.mark.parametrize("cls", ALL, ids=lambda cls: cls.__name__)
def test_docstring_documents_exactly_the_parameters(cls):
    documented = [parameter.name for parameter in ClassDoc(cls)["Parameters"]]
    assert documented == list(cls._PARAMETERS)
    errors = numpydoc.validate.validate(f"{cls.__module__}.{cls.__name__}")["errors"]
    assert [error for error in errors if error[0] in PARAMETER_CHECKS] == []


@pytest.mark.parametrize("cls", ALL, ids=lambda cls: cls.__name__)
def test_docstring_is_literal(cls):
    """Written in the class body, so editors and static tools can show it."""
    source = inspect.getsource(cls)
    assert cls.__doc__ and '"""' + cls.__doc__.splitlines()[0] in source
    assert "__doc__" not in source


@pytest.mark.parametrize("cls", ALL, ids=lambda cls: cls.__name__)
def test_no_parameter_is_faked_on_the_class(cls):
    """A parameter is an instance attribute set by ``__init__``, never a class
    attribute standing in for one the estimator does not take."""
    from rosenblatt.base import CONSTRAINTS

    faked = [name for name in CONSTRAINTS if name not in cls._PARAMETERS
             and any(name in vars(klass) for klass in cls.__mro__)]
    assert faked == []
