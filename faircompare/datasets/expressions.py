"""The expressions of a dataset spec's ``derive`` and ``filters``: data, never code.

A spec is data, so its expressions may only combine columns and literals: comparisons,
arithmetic, boolean operators and membership tests against a list (``age >= 25``,
``c_charge_degree != 'O'``, ``Race in ['W', 'B']``, `` `income-per-year` == '>50K' ``).
Calls, attribute access, subscripts, lambdas, comprehensions and pandas' ``@`` references are
refused before anything is evaluated, so a spec from elsewhere cannot run code; what passes is
evaluated by :meth:`pandas.DataFrame.eval`.
"""

from __future__ import annotations

import ast
import re

import pandas as pd

from faircompare.exceptions import SpecError

_BACKTICKED = re.compile(r"`[^`]*`")
_ALLOWED = (
    ast.Expression, ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Compare, ast.Name, ast.Constant,
    ast.List, ast.Tuple, ast.Load,
    ast.And, ast.Or, ast.Not, ast.Invert, ast.USub, ast.UAdd,
    ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod, ast.Pow,
    ast.BitAnd, ast.BitOr, ast.BitXor,
    ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn,
)  # fmt: skip


def check_expression(expression: str) -> None:
    """Refuse an expression that is anything but columns and literals combined by operators.

    Parameters
    ----------
    expression
        A pandas expression from a spec; column names that are not identifiers are quoted in
        backticks, as :meth:`pandas.DataFrame.eval` expects.

    Raises
    ------
    SpecError
        If the expression is not a string, does not parse, or holds a construct other than a
        comparison, an arithmetic or boolean operator, a column name, a literal or a list of
        literals; the message names the construct.
    """
    if not isinstance(expression, str):
        raise SpecError(f"an expression must be a string, got {expression!r}")
    plain = _BACKTICKED.sub(lambda match: f"_column{match.start()}", expression)
    try:
        tree = ast.parse(plain.strip(), mode="eval")
    except SyntaxError as error:
        raise SpecError(f"cannot parse expression {expression!r}: {error.msg}") from error
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED):
            raise SpecError(
                f"expression {expression!r} uses {_describe(node)}, which a dataset spec may "
                "not: only column names, literals, comparisons, 'in' lists, arithmetic and "
                "boolean operators are allowed"
            )
        if isinstance(node, ast.Name) and node.id.startswith("__"):
            raise SpecError(f"expression {expression!r} names {node.id!r}, which is not a column")


def evaluate(frame: pd.DataFrame, expression: str, *, where: str) -> pd.Series:
    """Evaluate a checked expression on ``frame``.

    Parameters
    ----------
    frame
        The table whose columns the expression names.
    expression
        The expression (see :func:`check_expression`).
    where
        How to name the dataset in error messages.

    Returns
    -------
    pandas.Series
        The expression's value for every row.

    Raises
    ------
    SpecError
        If the expression is refused by :func:`check_expression` or fails on the data (an
        unknown column, incompatible types).
    """
    try:
        check_expression(expression)
    except SpecError as error:
        raise SpecError(f"{where}: {error}") from error
    try:
        return frame.eval(expression)
    except Exception as error:  # pandas raises many types for a bad expression
        raise SpecError(f"{where}: cannot evaluate {expression!r}: {error}") from error


def _describe(node: ast.AST) -> str:
    names = {
        ast.Call: "a function call",
        ast.Attribute: "attribute access",
        ast.Subscript: "a subscript",
        ast.Lambda: "a lambda",
        ast.NamedExpr: "an assignment",
    }
    return names.get(type(node), f"a {type(node).__name__} construct")
