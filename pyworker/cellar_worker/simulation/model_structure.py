"""What a PyBaMM model reveals about itself: the parameters its geometry uses, its variables
that vary in space, the parameters an initial state sets."""

from __future__ import annotations

import pybamm

NON_PARAMETER_KEYS = frozenset({"citations", "chemistry"})


def symbol_parameter_names(tree) -> set[str]:
    names: set[str] = set()
    if isinstance(tree, dict):
        for value in tree.values():
            names |= symbol_parameter_names(value)
    elif isinstance(tree, pybamm.Symbol):
        for node in tree.pre_order():
            if isinstance(node, (pybamm.Parameter, pybamm.FunctionParameter)):
                names.add(node.name)
    return names


# Nodes whose values span the same points as their children's (PyBaMM gives them their
# children's domains).
_ELEMENTWISE = (
    pybamm.BinaryOperator,
    pybamm.Function,
    pybamm.Negate,
    pybamm.AbsoluteValue,
    pybamm.Sign,
    pybamm.Floor,
    pybamm.Ceiling,
)


def spatial_variable_names(model: pybamm.BaseModel) -> frozenset[str]:
    """The model's variables that vary in space, read from their expressions' domains.

    Two corrections to the domains PyBaMM states: ``Min``/``Max`` reduce over space, yet keep
    their argument's domains (and pass them on, e.g. to "Minimum negative particle
    concentration", a ``Min`` divided by a parameter); and the current collector is a single
    point unless the model is a pouch cell (``dimensionality`` 1 or 2).
    """
    single_point_collector = model.options["dimensionality"] == 0 if "dimensionality" in model.options else True
    memo: dict[int, tuple[str, ...]] = {}

    def domains(symbol: pybamm.Symbol) -> tuple[str, ...]:
        key = id(symbol)
        if key not in memo:
            if isinstance(symbol, (pybamm.Min, pybamm.Max)):
                found: tuple[str, ...] = ()
            elif isinstance(symbol, _ELEMENTWISE):
                found = next((d for d in map(domains, symbol.children) if d), ())
            else:
                found = tuple(domain for level in symbol.domains.values() for domain in level)
            memo[key] = found
        return memo[key]

    return frozenset(
        name
        for name, symbol in model.variables.items()
        if any(not (domain == "current collector" and single_point_collector) for domain in domains(symbol))
    )


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def initial_state_parameters(values: pybamm.ParameterValues, options) -> tuple[str, ...]:
    """The parameters ``ParameterValues.set_initial_state`` writes for a model with these options."""
    try:
        low = values.set_initial_state(0.3, inplace=False, options=options)
        high = values.set_initial_state(0.7, inplace=False, options=options)
    except Exception:  # noqa: BLE001 - a model without an initial-state rule has none
        return ()
    return tuple(
        sorted(
            name
            for name in high.keys()
            if name not in NON_PARAMETER_KEYS
            and name in low.keys()
            and _is_number(high[name])
            and _is_number(low[name])
            and float(high[name]) != float(low[name])
        )
    )
