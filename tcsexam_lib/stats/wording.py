"""The rank claims of ``tcsexam stats`` in words, as the published pages say them.

The landing page (written by the report runner) and the cohort report (a notebook) say
the same thing about each run set's lead, from the same fields of the stats document:
``leader_group`` (the models that no model is significantly ahead of: they could be
first) and the number of ranked models. The tie groups are said one way too
(:func:`tie_group_span`, :func:`tie_groups_text`): runs of the ranking that may overlap.
"""

from __future__ import annotations

from collections.abc import Sequence


def percent(level: float) -> str:
    """A level as the pages write it: ``95%``, ``97.5%``.

    Examples
    --------
    >>> percent(0.95), percent(0.975), percent(0.05)
    ('95%', '97.5%', '5%')
    """
    return f"{level:.0%}" if round(level * 100, 6).is_integer() else f"{level:.1%}"


def name_list(names: Sequence[str], limit: int = 5) -> str:
    """``a``, ``a and b``, ``a, b and c``; past ``limit`` names, how many more.

    Examples
    --------
    >>> name_list(["a"]), name_list(["a", "b"]), name_list(["a", "b", "c"])
    ('a', 'a and b', 'a, b and c')
    >>> name_list([f"m{k}" for k in range(8)], limit=3)
    'm0, m1, m2 and 5 more'
    """
    names = list(names)
    if len(names) > limit:
        return f"{', '.join(names[:limit])} and {len(names) - limit} more"
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def lead_sentence(leaders: Sequence[str], ranked: int, level: float) -> tuple[str, bool]:
    """One line saying whether the lead is real, and whether it is (``True``: one leader).

    ``leaders`` is the stats document's ``leader_group`` (rank order), ``ranked`` the
    number of models with an index, ``level`` its confidence level.

    Examples
    --------
    >>> lead_sentence(["a"], 3, 0.95)[1]
    True
    >>> lead_sentence(["a"], 3, 0.95)[0].split(";")[0]
    'The lead is real: only a could be first'
    >>> lead_sentence(["a", "b"], 2, 0.95)[0].split(" (")[0]
    'The lead is not established: a and b could each be first'
    >>> lead_sentence(["a", "b"], 2, 0.95)[0].endswith("Holm, 5% level).")
    True
    >>> print(lead_sentence([], 0, 0.95)[0])
    No model has an index yet, so there is no ranking.
    """
    alpha = percent(1.0 - level)
    tests = f"paired tests over the common tasks, Holm, {alpha} level"
    if ranked == 0:
        return "No model has an index yet, so there is no ranking.", False
    if ranked == 1:
        only = leaders[0] if leaders else "one model"
        return f"Only {only} has an index: there is no other model to compare it with.", False
    if len(leaders) == 1:
        others = ranked - 1
        return (
            f"The lead is real: only {leaders[0]} could be first; each of the other {others} "
            f"model{'s' if others != 1 else ''} with an index has a model significantly ahead "
            f"of it ({tests}).",
            True,
        )
    everyone = len(leaders) == ranked
    who = f"all {ranked} models with an index" if everyone and ranked > 2 else name_list(leaders)
    if len(leaders) > 5 and not everyone:
        who = f"{len(leaders)} of the {ranked} models with an index ({name_list(leaders)})"
    return (
        f"The lead is not established: {who} could each be first (no model is "
        f"significantly ahead of them; {tests}).",
        False,
    )


def tie_group_span(groups: Sequence[Sequence[str]], model: str) -> tuple[int, int] | None:
    """The first and last tie group (numbered from 1 down the ranking) that hold ``model``.

    The groups are runs of the ranking, so a model's groups are consecutive: a model
    between two that differ is in both (``(1, 2)``). ``None`` for a model in no group
    (no index).

    Examples
    --------
    >>> groups = [["a", "b"], ["b", "c"]]
    >>> tie_group_span(groups, "a"), tie_group_span(groups, "b"), tie_group_span(groups, "x")
    ((1, 1), (1, 2), None)
    """
    held = [k for k, group in enumerate(groups, start=1) if model in group]
    return (held[0], held[-1]) if held else None


def tie_groups_text(groups: Sequence[Sequence[str]], limit: int = 8) -> str:
    """The tie groups in one line, ``|`` between groups (a model may be in two).

    Examples
    --------
    >>> tie_groups_text([["a", "b"], ["b", "c"]])
    'a, b | b, c'
    """
    return " | ".join(name_list(group, limit=limit).replace(" and ", ", ") for group in groups)
