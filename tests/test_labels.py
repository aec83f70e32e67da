"""labels.py: short configuration labels keep the backend and the option values that vary."""

from __future__ import annotations

from typing import Any

from sudoku_cp.labels import LONGEST, ShortLabel, canonical, short_labels
from sudoku_cp.results_log.records import ConfigurationEntry


def short_labels_of(described: list[Any], labels: list[str]) -> dict[str, ShortLabel]:
    """`short_labels` of configurations described as a results header writes them."""
    return short_labels(map(ConfigurationEntry.from_json, described), labels)


def grid_of(**values: list[str]) -> list[dict[str, Any]]:
    """The configurations of a grid of `sat` options, as a results header describes them."""
    import itertools

    names = list(values)
    found = []
    for combination in itertools.product(*values.values()):
        options = dict(zip(names, combination, strict=True))
        found.append({"label": canonical("sat", options), "backend": "sat", "options": options})
    return found


def test_only_the_options_that_vary_are_kept() -> None:
    described = grid_of(encoding=["extended"], amo=["pairwise", "ladder"], solver=["glucose3"])
    described.append({"label": "dfs", "backend": "dfs", "options": {}})
    labels = [item["label"] for item in described]
    shorts = short_labels_of(described, labels)
    assert [shorts[label].text for label in labels] == ["sat pairwise", "sat ladder", "dfs"]
    first = shorts["sat[encoding=extended,amo=pairwise,solver=glucose3]"]
    assert first.full == "sat[encoding=extended,amo=pairwise,solver=glucose3]"
    assert (first.backend, first.values) == ("sat", ("pairwise",))


def test_a_grid_of_every_option_keeps_every_value() -> None:
    described = grid_of(
        encoding=["minimal", "extended"], amo=["pairwise"], solver=["glucose3", "cadical195"]
    )
    shorts = short_labels_of(described, [item["label"] for item in described])
    assert [short.text for short in shorts.values()] == [
        "sat minimal/glucose3",
        "sat minimal/cadical195",
        "sat extended/glucose3",
        "sat extended/cadical195",
    ]


def test_a_lone_configuration_keeps_its_option_values() -> None:
    described = [
        {"label": "sat[solver=cadical195]", "backend": "sat", "options": {"solver": "cadical195"}},
        {"label": "dfs", "backend": "dfs", "options": {}},
    ]
    shorts = short_labels_of(described, ["sat[solver=cadical195]", "dfs"])
    assert shorts["sat[solver=cadical195]"].text == "sat cadical195"


def test_legacy_option_names_and_any_order_are_the_configuration_written_out() -> None:
    described = [
        {
            "label": "sat[amo=ladder,solver=glucose3]",
            "backend": "sat",
            "options": {"sat_solver": "glucose3", "amo": "ladder"},  # an older header's keyword
        }
    ]
    short = short_labels_of(described, ["sat[amo=ladder,solver=glucose3]"])[
        "sat[amo=ladder,solver=glucose3]"
    ]
    assert short.text == "sat glucose3/ladder"


def test_a_label_the_user_chose_is_kept_and_cut() -> None:
    long_name = "my-very-own-configuration-name"
    described = [
        {"label": "glu4", "backend": "sat", "options": {"solver": "glucose4"}},
        {"label": long_name, "backend": "sat", "options": {"solver": "cadical195"}},
    ]
    shorts = short_labels_of(described, ["glu4", long_name])
    assert shorts["glu4"].text == "glu4"
    assert shorts["glu4"].full == "glu4 = sat[solver=glucose4]"
    assert len(shorts[long_name].text) == LONGEST and shorts[long_name].text.endswith("\u2026")


def test_an_undescribed_label_is_shown_as_written_and_a_clash_falls_back_to_labels() -> None:
    described = [
        {"label": "a", "backend": "sat", "options": {"solver": "x"}},
        {"label": "sat[solver=x]", "backend": "sat", "options": {"solver": "x"}},
    ]
    shorts = short_labels_of(described, ["a", "sat[solver=x]", "nameless"])
    assert shorts["nameless"].text == "nameless"
    assert shorts["sat[solver=x]"].text == "sat x"  # 'a' is the user's: not a sibling
    twins = ["a-very-long-configuration-name-1", "a-very-long-configuration-name-2"]
    clash = short_labels_of(
        [{"label": name, "backend": "dfs", "options": {}} for name in twins], twins
    )
    assert [short.text for short in clash.values()] == twins  # cut alike: shown in full
