"""The expressions of a dataset spec's ``derive`` and ``filters``: data, never code.

A spec is data, so its expressions may only combine columns and literals: comparisons,
arithmetic, boolean operators and membership tests against a list (``age >= 25``,
``c_charge_degree != 'O'``, ``Race in ['W', 'B']``, `` `income-per-year` == '>50K' ``).
Calls, attribute access, subscripts, lambdas, comprehensions and pandas' ``@`` references are
refused before anything is evaluated, so a spec from elsewhere cannot run code; what passes is
evaluated by :meth:`pandas.DataFrame.eval`. Its cost is bounded too: an expression is at most
:data:`MAX_LENGTH` characters, a number literal at most :data:`MAX_LITERAL` in size, an exponent
a literal of at most :data:`MAX_EXPONENT` or a column, no string or list is repeated with ``*``,
and evaluation stops after :data:`MAX_SECONDS` (``2**10**10`` would take minutes and gigabytes,
``'abcdefgh' * 500000000`` 4 GB).
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

from faircompare._timeout import RunTimeoutError, time_limit
from faircompare.exceptions import SpecError

if TYPE_CHECKING:
    import pandas as pd

MAX_LENGTH = 2_000  # characters; 200,000 terms made ast.parse recurse past Python's limit
MAX_LITERAL = 2**53  # a number literal's size: every integer up to it is exact as a float
MAX_EXPONENT = 64  # a literal exponent's size
MAX_SECONDS = 60.0  # evaluation of one expression on the data
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
    if len(expression) > MAX_LENGTH:
        raise SpecError(
            f"expression {expression[:40]!r}... has {len(expression):,} characters; a dataset "
            f"spec's expression may have at most {MAX_LENGTH:,} (derive a column in the data)"
        )
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
        problem = _costly(node)
        if problem:
            raise SpecError(f"expression {expression!r} {problem}")


def columns_in(expression: str) -> set[str]:
    """Return the names an expression reads: its plain names and its backticked ones.

    Parameters
    ----------
    expression
        A checked expression (:func:`check_expression`).

    Returns
    -------
    set of str
        The column names it refers to.
    """
    quoted = {match.group()[1:-1] for match in _BACKTICKED.finditer(expression)}
    plain = _BACKTICKED.sub(" 0 ", expression)
    names = {node.id for node in ast.walk(ast.parse(plain.strip(), mode="eval"))
             if isinstance(node, ast.Name)}  # fmt: skip
    return quoted | names


def _costly(node: ast.AST) -> str | None:
    """Say why a node could cost unbounded time or memory: a huge literal, power or repetition."""
    size = _size(node)
    if size is not None and size > MAX_LITERAL:
        return f"has a number literal of size {size:.3g}, larger than {MAX_LITERAL:.3g}"
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
        if any(_is_sequence(operand) for operand in (node.left, node.right)):
            return (
                "repeats a string or a list with '*', which a dataset spec may not (its size "
                "would have no bound); write the value out"
            )
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
        exponent = node.right
        if isinstance(exponent, ast.UnaryOp) and isinstance(exponent.op, ast.USub | ast.UAdd):
            exponent = exponent.operand
        size = _size(exponent)
        if isinstance(exponent, ast.Name) or (size is not None and size <= MAX_EXPONENT):
            return None
        return f"raises to a power other than a column or a number up to {MAX_EXPONENT}"
    return None


def _is_sequence(node: ast.AST) -> bool:
    """Whether a node is a string, bytes, list or tuple literal (what ``*`` repeats)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str | bytes)
    return isinstance(node, ast.List | ast.Tuple)


def _size(node: ast.AST) -> float | None:
    """Return the absolute value of a number literal; None for anything else."""
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float | complex):
        return None if isinstance(node.value, bool) else float(abs(node.value))
    return None


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
        with time_limit(MAX_SECONDS):
            return frame.eval(expression)
    except RunTimeoutError as error:
        raise SpecError(
            f"{where}: evaluating {expression!r} took longer than {MAX_SECONDS:g} s and was stopped"
        ) from error
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
