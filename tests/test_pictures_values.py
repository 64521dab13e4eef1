"""Hint values on pictures: a probability badge never rounds a near-certainty to a certainty (issue 12)."""

from solver.drawing import format_value, percent_text


def test_percentages_keep_near_certainties_apart_from_certainties():
    assert [percent_text(v) for v in (0, 1, 0.5, 0.123)] == ["0%", "100%", "50%", "12%"]
    assert [percent_text(v) for v in (0.996, 0.004)] == ["99.6%", "0.4%"]
    assert [percent_text(v) for v in (0.9996, 0.0004)] == [">99.9%", "<0.1%"]


def test_values_that_are_not_probabilities_are_short_numbers():
    assert format_value(0.996, "estimated probability of a Victory") == "99.6%"
    assert format_value(31.84, "expected final score") == "31.8"
    assert format_value(None) == "?"
