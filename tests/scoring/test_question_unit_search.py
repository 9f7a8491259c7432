"""The unit a question asks for, found from each "in" forwards (issue 25 round 2): as the unit-first search.

Before, every unit match was found and the text before it searched for a closing "in"; now each "in" is
found and a unit matched right after it. The two agree because every unit starts with a letter and none
holds "in" before a non-word character (checked here on the unit table itself), and on 30,000 seeded
questions made of unit words, "in"-like words and separators.
"""

import random
import re

from spatialbench.scoring.robust_number import _dimension, _tables, question_unit

_IN_BEFORE = re.compile(r"(?:^|\W)in\W*$", re.IGNORECASE)  # the earlier rule: "in" right before the unit


def unit_first(question):
    """The earlier search, kept here as the reference."""
    tables = _tables()
    for match in tables.question_unit.finditer(question):
        if _IN_BEFORE.search(question, 0, match.start()):
            return _dimension(match.group("unit"), tables)
    return None


def test_no_unit_could_hide_an_in_before_another():
    pattern = _tables().question_unit.pattern
    units = pattern[pattern.index("(?P<unit>") + 9:pattern.rindex(")(?!")].split("|")
    assert len(units) > 40 and all(re.match(r"[a-z]", unit) for unit in units)
    assert [unit for unit in units if re.search(r"in(?:\W|\\ )", unit, re.IGNORECASE)] == []


def test_both_searches_find_the_same_unit():
    words = ["in", "IN", "In", "m", "meters", "inch", "inches", "sq m", "sq. m", "(in", "in:", "within",
             "min", "main", "m^2", "²", "in²", "inm", "feet", "kilometers", "square feet", "cm²", "ft2",
             "the", "", " "]
    seps = ["", " ", "  ", "-", "(", ")", ".", "?"]
    rng = random.Random(25)
    questions = ["How long is the sofa (in meters)?", "What is the room's size in square feet?",
                 "Measuring in inches, how tall is it?", "Is the bin in the main room? Answer in cm."]
    questions += ["".join(rng.choice(words) + rng.choice(seps) for _ in range(rng.randint(1, 8)))
                  for _ in range(30_000)]
    found = [question_unit.__wrapped__(q) for q in questions]
    assert found == [unit_first(q) for q in questions]
    assert found[:4] == [("length", 1.0), ("area", unit_first(questions[1])[1]), ("length", 0.0254),
                         ("length", 0.01)]
