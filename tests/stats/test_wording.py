"""The rank claims in words (``stats/wording.py``): the landing page's and cohort's lead line."""

from __future__ import annotations

import pytest

from tcsexam_lib.stats.wording import lead_sentence, name_list, percent


@pytest.mark.parametrize(
    ("leaders", "ranked", "start", "real"),
    [
        (["a"], 3, "The lead is real: only a could be first", True),
        (["a", "b"], 3, "The lead is not established: a and b could each be first", False),
        (["a", "b", "c"], 3, "The lead is not established: all 3 models with an index", False),
        ([f"m{k}" for k in range(12)], 200, "The lead is not established: 12 of the 200", False),
        (["a"], 1, "Only a has an index", False),
        ([], 0, "No model has an index yet", False),
    ],
)
def test_the_lead_line_says_whether_the_lead_is_real(leaders, ranked, start, real):
    text, established = lead_sentence(leaders, ranked, 0.95)
    assert text.startswith(start) and established is real
    if ranked > 1:
        assert "Holm, 5% level" in text


def test_names_and_levels_read_plainly():
    assert name_list(["a", "b", "c"]) == "a, b and c"
    assert name_list([str(k) for k in range(9)], limit=2) == "0, 1 and 7 more"
    assert percent(0.9) == "90%" and percent(0.975) == "97.5%"
