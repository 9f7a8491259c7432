"""Number words read as numerals, not summed (issue 26, item 9).

The failing inputs: ``seven or eight`` → 7 and ``two or three meters`` → 2 (while ``7 or 8`` is no
answer), ``one, two, three`` → 6 and ``between seven and eight`` → 15 (the words were summed), and
``three meters and fifty centimeters`` → 3.0 (the second measure dropped).
"""

import pytest

from spatialbench.scoring.robust_number import robust_number

IN_METERS = "How far apart are the chair and the table, in meters?"


@pytest.mark.parametrize("text", ["seven or eight", "two or three meters", "one, two, three",
                                  "between seven and eight", "seven eight", "7 or 8"])
def test_hedged_or_listed_numbers_are_no_answer(text):
    assert robust_number(text, IN_METERS) == robust_number("7 or 8", IN_METERS)
    assert robust_number(text, IN_METERS).value is None
    assert robust_number(text, IN_METERS).rule == "no_answer:ambiguous_numbers"


@pytest.mark.parametrize(("text", "question", "value"), [
    ("three meters and fifty centimeters", IN_METERS, 3.5),  # 3 m + 0.5 m
    ("three meters and fifty centimeters", "How far is it, in centimeters?", 350.0),
    ("three meters and fifty centimeters", "How far is it?", 3.5),  # in the first unit said
    ("five feet, six inches", "How tall is it in feet?", 5.5),  # 5 ft + 6/12 ft
    ("three meters and two meters", IN_METERS, None),  # not a smaller unit: two lengths
])
def test_a_measure_in_two_units_adds_up(text, question, value):
    assert robust_number(text, question).value == value


@pytest.mark.parametrize(("text", "value"), [
    ("twenty-one", 21.0), ("three hundred and five", 305.0), ("two thousand and six", 2006.0),
    ("one hundred twenty three", 123.0), ("three and a half", 3.5), ("There are three chairs.", 3.0),
])
def test_numerals_in_words_still_join(text, value):
    assert robust_number(text).value == value
