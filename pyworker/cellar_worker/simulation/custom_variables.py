"""Custom variables of a model: named arithmetic expressions over its variables.

An expression names the model's variables exactly as PyBaMM does (``"Voltage [V] * Current
[A]"``), with numbers, ``+ - * / **``, parentheses and the functions below. It becomes a PyBaMM
expression added to ``model.variables``, so a simulation solves it like any other variable: it
can be a result column (``extra_variables``) or a fit target. A custom variable may use the ones
defined before it.
"""

from __future__ import annotations

import ast

import pybamm

from .errors import configuration_error

MAX_VARIABLES = 50
MAX_NAME = 200
MAX_EXPRESSION = 2000

_FUNCTIONS = {
    "exp": pybamm.exp,
    "log": pybamm.log,
    "sqrt": pybamm.sqrt,
    "sin": pybamm.sin,
    "cos": pybamm.cos,
    "tanh": pybamm.tanh,
    "abs": abs,
    "maximum": pybamm.maximum,
    "minimum": pybamm.minimum,
}
_BINARY = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.Pow: lambda a, b: a**b,
}
_PLACEHOLDER = "__v"


def normalize(raw) -> list[dict]:
    """The spec's ``custom_variables``: a list of ``{"name", "expression"}`` with unique names."""
    if raw is None:
        return []
    if not isinstance(raw, list) or len(raw) > MAX_VARIABLES:
        raise configuration_error(f"model.custom_variables: must be a list of at most {MAX_VARIABLES} variables")
    seen: set[str] = set()
    out = []
    for index, item in enumerate(raw):
        path = f"model.custom_variables[{index}]"
        if not isinstance(item, dict) or set(item) != {"name", "expression"}:
            raise configuration_error(f"{path}: must be an object with exactly name and expression")
        name, expression = item["name"], item["expression"]
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise configuration_error(f"{path}.name: must be a non-blank string of at most {MAX_NAME} characters")
        if not isinstance(expression, str) or not expression.strip() or len(expression) > MAX_EXPRESSION:
            raise configuration_error(
                f"{path}.expression: must be a non-blank string of at most {MAX_EXPRESSION} characters"
            )
        if name in seen:
            raise configuration_error(f"{path}.name: {name!r} is defined twice")
        seen.add(name)
        out.append({"name": name, "expression": expression})
    return out


def add_to_model(model: pybamm.BaseModel, custom: list[dict]) -> None:
    """Adds each custom variable to ``model.variables``, in order."""
    for index, item in enumerate(custom):
        path = f"model.custom_variables[{index}]"
        if item["name"] in model.variables:
            raise configuration_error(f"{path}.name: {item['name']!r} is already a variable of the model")
        model.variables[item["name"]] = _expression(model.variables, item["expression"], f"{path}.expression")


def _expression(variables, text: str, path: str) -> pybamm.Symbol:
    source, symbols = _substitute(text, variables)
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError:
        raise configuration_error(
            f"{path}: {text!r} is not an arithmetic expression over the model's variables "
            "(names written as PyBaMM writes them, e.g. 'Voltage [V] * Current [A]')"
        ) from None
    try:
        result = _evaluate(tree.body, symbols, path)
    except (ZeroDivisionError, OverflowError, RecursionError) as error:
        raise configuration_error(f"{path}: cannot be evaluated ({type(error).__name__})") from None
    if not isinstance(result, pybamm.Symbol):
        raise configuration_error(f"{path}: uses none of the model's variables")
    return result


def _substitute(text: str, variables) -> tuple[str, dict[str, pybamm.Symbol]]:
    """Replaces each variable name (the longest that matches) by a placeholder identifier."""
    by_first: dict[str, list[str]] = {}
    for name in variables.keys():
        if name:
            by_first.setdefault(name[0], []).append(name)
    for names in by_first.values():
        names.sort(key=len, reverse=True)
    out: list[str] = []
    symbols: dict[str, pybamm.Symbol] = {}
    placeholders: dict[str, str] = {}
    i = 0
    while i < len(text):
        previous = text[i - 1] if i else " "
        match = None
        if not (previous.isalnum() or previous == "_"):
            match = next((n for n in by_first.get(text[i], ()) if text.startswith(n, i)), None)
        if match is None:
            out.append(text[i])
            i += 1
            continue
        if match not in placeholders:
            placeholders[match] = f"{_PLACEHOLDER}{len(placeholders)}"
            symbols[placeholders[match]] = variables[match]
        out.append(f" {placeholders[match]} ")
        i += len(match)
    return "".join(out), symbols


def _evaluate(node: ast.AST, symbols: dict[str, pybamm.Symbol], path: str):
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return float(node.value)
    if isinstance(node, ast.Name) and node.id in symbols:
        return symbols[node.id]
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        return _BINARY[type(node.op)](_evaluate(node.left, symbols, path), _evaluate(node.right, symbols, path))
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        value = _evaluate(node.operand, symbols, path)
        return -value if isinstance(node.op, ast.USub) else value
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _FUNCTIONS
        and not node.keywords
    ):
        args = [_evaluate(arg, symbols, path) for arg in node.args]
        expected = 2 if node.func.id in ("maximum", "minimum") else 1
        if len(args) != expected:
            raise configuration_error(f"{path}: {node.func.id} takes {expected} argument(s)")
        return _FUNCTIONS[node.func.id](*args)
    if isinstance(node, ast.Name) or isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
        unknown = ast.unparse(node)
        raise configuration_error(f"{path}: unknown name {unknown!r}: not a variable of the model nor a function")
    raise configuration_error(
        f"{path}: only numbers, the model's variables, + - * / **, parentheses and {', '.join(_FUNCTIONS)} are allowed"
    )
