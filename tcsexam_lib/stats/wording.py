"""The rank claims of ``tcsexam stats`` in words, as the published pages say them.

The landing page and the cohort report say each run set's lead alike, from the stats
document's ``leader_group``. An unseparated pair is "not shown to differ", never "equal";
tie groups are runs of the ranking that may overlap.
"""

from __future__ import annotations

from collections.abc import Sequence

#: How the stats note that no pair can reach Holm's first step begins (the landing page
#: shows that note beside the lead: it qualifies every rank claim).
NO_PAIR_CAN_DIFFER = "no pair can be shown to differ"
#: What "could be first" means, wherever a page shows the column.
COULD_BE_FIRST_TIP = (
    "yes: no model is shown to be ahead of it (paired sign-flip tests over the common tasks, "
    "Holm); no: some model is"
)


def percent(level: float) -> str:
    """A level as the pages write it: ``95%``, ``97.5%``.

    >>> percent(0.95), percent(0.975), percent(0.05)
    ('95%', '97.5%', '5%')
    """
    return f"{level:.0%}" if round(level * 100, 6).is_integer() else f"{level:.1%}"


def name_list(names: Sequence[str], limit: int = 5) -> str:
    """``a``, ``a and b``, ``a, b and c``; past ``limit`` names, how many more.

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


def lead_sentence(
    leaders: Sequence[str], ranked: int, level: float, untested: str | None = None
) -> tuple[str, bool]:
    """One line saying whether the lead is real, and whether it is (``True``: one leader).

    ``leaders``: the stats document's ``leader_group``; ``untested``: its ``pairs_untested``.

    >>> lead_sentence(["a"], 3, 0.95)[1]
    True
    >>> lead_sentence(["a"], 3, 0.95)[0].split(";")[0]
    'The lead is real: only a could be first'
    >>> lead_sentence(["a", "b"], 2, 0.95)[0].split(" (")[0]
    'The lead is not established: a and b could each be first'
    >>> lead_sentence(["a", "b"], 2, 0.95)[0].endswith("Holm, 5% level).")
    True
    >>> lead_sentence(["a", "b"], 2, 0.95, "a track has one task")[0].split(": ", 1)[1]
    'a and b could each be first: the pairs cannot be tested (a track has one task).'
    >>> print(lead_sentence([], 0, 0.95)[0])
    No model has an index yet, so there is no ranking.
    """
    tests = paired_tests_phrase(level)
    if ranked == 0:
        return "No model has an index yet, so there is no ranking.", False
    if ranked == 1:
        only = leaders[0] if leaders else "one model"
        return f"Only {only} has an index: there is no other model to compare it with.", False
    if len(leaders) == 1:
        others = ranked - 1
        return (
            f"The lead is real: only {leaders[0]} could be first; each of the other {others} "
            f"model{'s' if others != 1 else ''} with an index has a model shown to be ahead "
            f"of it ({tests}).",
            True,
        )
    if untested:
        return (
            f"The lead is not established: {name_list(leaders)} could each be first: the "
            f"pairs cannot be tested ({untested}).",
            False,
        )
    everyone = len(leaders) == ranked
    who = f"all {ranked} models with an index" if everyone and ranked > 2 else name_list(leaders)
    if len(leaders) > 5 and not everyone:
        who = f"{len(leaders)} of the {ranked} models with an index ({name_list(leaders)})"
    return (
        f"The lead is not established: {who} could each be first (no model is shown to be "
        f"ahead of them; {tests}).",
        False,
    )


def tie_group_span(groups: Sequence[Sequence[str]], model: str) -> tuple[int, int] | None:
    """The first and last tie group (numbered from 1 down the ranking) that hold ``model``.

    The groups are runs of the ranking, so a model's groups are consecutive; ``None`` for a
    model in no group (no index).

    >>> groups = [["a", "b"], ["b", "c"]]
    >>> tie_group_span(groups, "a"), tie_group_span(groups, "b"), tie_group_span(groups, "x")
    ((1, 1), (1, 2), None)
    """
    held = [k for k, group in enumerate(groups, start=1) if model in group]
    return (held[0], held[-1]) if held else None


def tie_groups_text(groups: Sequence[Sequence[str]], limit: int = 8) -> str:
    """The tie groups in one line, ``|`` between groups (a model may be in two).

    >>> tie_groups_text([["a", "b"], ["b", "c"]])
    'a, b | b, c'
    """
    return " | ".join(name_list(group, limit=limit).replace(" and ", ", ") for group in groups)


def paired_tests_phrase(level: float) -> str:
    """How the pages name the tests behind every rank claim.

    >>> paired_tests_phrase(0.95)
    'paired sign-flip tests over the common tasks, Holm, 5% level'
    """
    return f"paired sign-flip tests over the common tasks, Holm, {percent(1.0 - level)} level"


def pairs_sentence(shown: int, pairs: int, level: float, untested: str | None = None) -> str:
    """How many pairs the tests separate, in words no stronger than the tests.

    >>> pairs_sentence(1, 3, 0.95).split(" (")[0]
    '1 of the 3 pairs shown to differ; the other 2 not shown to differ'
    >>> pairs_sentence(0, 1, 0.95).split(" (")[0]
    'The one pair is not shown to differ'
    >>> pairs_sentence(0, 3, 0.95, "conjecture has one task")
    'The 3 pairs cannot be tested: conjecture has one task.'
    """
    if untested:
        return (
            f"The {'one pair' if pairs == 1 else f'{pairs:,} pairs'} cannot be tested: {untested}."
        )
    if pairs == 1:
        verdict = "shown" if shown else "not shown"
        return f"The one pair is {verdict} to differ ({paired_tests_phrase(level)})."
    rest = pairs - shown
    return (
        f"{shown:,} of the {pairs:,} pairs shown to differ; the other {rest:,} not shown to "
        f"differ ({paired_tests_phrase(level)})."
    )
