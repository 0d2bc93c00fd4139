"""The two formulas as text for fixed values (``teaching/formula_text.py``): the seed's numbers,
the floor that wins, the minimize direction, the ddof contrast and the refusals.
"""

from __future__ import annotations

import math

import pytest

from tcsexam_lib import teaching

# --- Reports (the widgets' static fallbacks) -----------------------------------------------


def test_solver_report_of_the_seed():
    text = teaching.solver_score_report()
    assert "mu = 12, s = 2 (sample std, ddof 1)" in text
    assert "sample_std                  2  <- sets the scale" in text
    assert text.endswith("z = (A - mu)/scale = 0\ninstance score Phi(z) = 0.5000")


def test_solver_report_names_the_floor_that_wins():
    tight = teaching.solver_score_report([999, 1000, 1001], 1001)
    assert "relative_floor 0.02*|mu|    20  <- sets the scale" in tight
    assert "z = (A - mu)/scale = 0.05" in tight
    constant = teaching.solver_score_report([0, 0, 0], 0)
    assert "absolute_floor              1e-09  <- sets the scale" in constant
    assert "Phi(z) = 0.5000" in constant


def test_solver_report_minimise_flips_z():
    text = teaching.solver_score_report([10, 12, 14], 14, direction="minimize")
    assert "z = (mu - A)/scale = -1" in text and "Phi(z) = 0.1587" in text


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"direction": "up"}, r"direction must be one of maximize, minimize; got 'up'"),
        ({"values": [5]}, r"fewer than two usable values"),
        ({"values": [5, None]}, r"fewer than two usable values"),
        ({"a": math.nan}, r"A must be a finite number"),
        ({"rel_floor": -0.1}, r"rel_floor must be >= 0"),
        ({"abs_floor": 0}, r"abs_floor must be > 0"),
    ],
)
def test_solver_report_refuses_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        teaching.solver_score_report(**kwargs)


def test_track_means_report_of_the_seed_gives_55_5():
    text = teaching.track_means_report(teaching.SEED_MEANS)
    assert "C (construction)  1.2    x 30 = 36 points" in text
    assert text.endswith("index = 30*P + 30*S + 30*C + 10*O = 55.5 points")


@pytest.mark.parametrize(
    ("change", "match"),
    [
        ({"theorem": 1.5}, r"the theorem mean must be in \[0, 1\]; got 1\.5"),
        ({"solver": -0.1}, r"the solver mean must be in \[0, 1\]"),
        ({"construction": -1}, r"the construction mean must be >= 0"),
        ({"conjecture": math.nan}, r"the conjecture mean must be a finite number"),
        ({"model": 1}, r"unknown \['model'\]"),
    ],
)
def test_track_means_report_refuses_impossible_means(change, match):
    with pytest.raises(ValueError, match=match):
        teaching.track_means_report({**teaching.SEED_MEANS, **change})


def test_track_means_report_refuses_missing_tracks():
    with pytest.raises(ValueError, match=r"missing \['conjecture'\]"):
        teaching.track_means_report({"theorem": 0, "solver": 0, "construction": 0})


def test_track_means_report_allows_a_construction_bonus_above_100_points():
    text = teaching.track_means_report(
        {"theorem": 1, "solver": 1, "construction": 1.5, "conjecture": 1}
    )
    assert text.endswith("= 115 points")


def test_ddof_contrast_labels_ddof_0_as_a_contrast():
    text = teaching.ddof_contrast_report([10, 12, 14], 14)
    assert "ddof 1 (the rule)          2          2          1          0.8413" in text
    assert "ddof 0 (contrast only)     1.63299" in text
    two = teaching.ddof_contrast_report([5, 7], 7)
    assert "ddof 0 spread / ddof 1 spread = 0.707107" in two


@pytest.mark.parametrize(
    "view",
    ["formula_text.solver_score_report", "formula_text.ddof_contrast_report",
     "plots.plot_phi_curve", "plots.plot_solver_instance", "widgets.solver_score_widget"],
)  # fmt: skip
def test_a_view_of_one_instance_shows_the_settings_it_hands_on(view):
    import importlib
    import inspect

    from tcsexam_lib.teaching.formula_text import solver_case

    module, name = view.split(".")
    shown = inspect.signature(
        getattr(importlib.import_module(f"tcsexam_lib.teaching.{module}"), name)
    )
    keywords = [p for p in shown.parameters.values() if p.kind is inspect.Parameter.KEYWORD_ONLY]
    case = inspect.signature(solver_case).parameters
    assert [(p.name, p.default) for p in keywords] == [
        (k, p.default) for k, p in case.items() if p.kind is inspect.Parameter.KEYWORD_ONLY
    ]
    assert not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in shown.parameters.values())
