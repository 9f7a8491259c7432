"""Cognitive-map prompts (VSI-Bench "Thinking in Space" Sec. 6, App. B.4).

The official map prompt, the categories-of-interest rule and a map written back as text.

The prompt texts are data (``prompting/data/cogmap.json``): ``map_prompt`` is the official prompt of
App. B.4 with the grid size a placeholder (10 in Sec. 6.1; 10 and 20 in Table 2b), line breaks and the
category list as the official code's cogmap branch writes them; ``map_then_answer`` the sentence that
introduces the question after a map (Sec. 6.2): the branch's turn-2 pre-prompt, in the place of "These are
frames of a video.". Parsing a model's map is :mod:`spatialbench.prompting.cogmap_parse`.

Categories of interest (App. B.4): for the locality study every category of the scene (the caller passes
them); for a question only those it names — relative distance: the four choices and the reference object;
relative direction: the positioning, orienting and querying objects; absolute distance: the two objects
(ours: the paper names only the relative tasks).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from spatialbench.errors import SpatialBenchError
from spatialbench.prompting.templates import fill, read_json

DEFAULT_GRID_SIZE = 10  # Sec. 6.1: "a 10 × 10 grid"

_REL_DISTANCE = re.compile(
    r"which of these objects \((?P<choices>[^)]*)\) is the (?:closest|farthest) to the (?P<reference>.+?)\?"
)
_REL_DIRECTION = re.compile(r"standing by the (?P<position>.+?) and facing the (?P<orient>.+?), "
                            r"is the (?P<query>.+?) to ")
_ABS_DISTANCE = re.compile(r"distance between the (?P<first>.+?) and the (?P<second>.+?) \(in meters\)")
_OPTION_LETTER = re.compile(r"^\s*[A-Z][.)]\s*")


class CategoryRuleError(SpatialBenchError, ValueError):
    """A question of a task with a categories-of-interest rule does not follow its official wording."""


def _texts() -> dict[str, str]:
    return dict(read_json(__package__, "data/cogmap.json"))


def map_prompt(categories: Sequence[str], grid_size: int = DEFAULT_GRID_SIZE) -> str:
    """Return the official cognitive-map prompt (App. B.4) for ``categories`` on a ``grid_size`` grid.

    Categories are listed in the given order as a Python list literal (``['chair', 'tv']``): the paper
    prints only the placeholder; the official cogmap branch formats the list of names into it.

    Raises:
        ValueError: no category, or ``grid_size`` below 2.
    """
    if not categories:
        raise ValueError("a cognitive map needs at least one category of interest")
    if grid_size < 2:
        raise ValueError(f"grid_size must be at least 2, got {grid_size}")
    texts = _texts()
    names = repr(list(categories))  # as str.format writes a list (the cogmap branch)
    return fill(texts["map_prompt"], {"grid_size": str(grid_size), "categories_of_interest": names})


def map_then_answer_prefix() -> str:
    """Return the sentence put before the question in the turn after a map (Sec. 6.2, Table 3a).

    The official cogmap branch sends it as the benchmark's pre-prompt: the sentence, the question, the
    options and the post-prompt, one per line.
    """
    return _texts()["map_then_answer"]


def _unique(names: Sequence[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(n.strip() for n in names if n.strip()))


def categories_of_interest(task: str, question: str, options: Sequence[str] = ()) -> tuple[str, ...] | None:
    """Return the categories a question names, in question order (App. B.4); None when ``task`` has no rule.

    ``options`` are the lettered choices (``"A. sofa"``); relative distance reads its choices from them
    when given, else from the question's parenthesis. Names are those the question uses (which may be a
    remapped name of the meta-info category: see :func:`spatialbench.scene.categories.scene_category`).

    Raises:
        CategoryRuleError: the task has a rule but the question does not follow its official wording
            (the message quotes the question).
    """
    if task == "object_rel_distance":
        match = _REL_DISTANCE.search(question)
        if match is None:
            raise CategoryRuleError(f"relative-distance question not in the official wording: {question!r}")
        choices = [_OPTION_LETTER.sub("", o) for o in options] or match["choices"].split(",")
        return _unique([*choices, match["reference"]])
    if task.startswith("object_rel_direction"):
        match = _REL_DIRECTION.search(question)
        if match is None:
            raise CategoryRuleError(f"relative-direction question not in the official wording: {question!r}")
        return _unique([match["position"], match["orient"], match["query"]])
    if task == "object_abs_distance":
        match = _ABS_DISTANCE.search(question)
        if match is None:
            raise CategoryRuleError(f"absolute-distance question not in the official wording: {question!r}")
        return _unique([match["first"], match["second"]])
    return None


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}".rstrip("0")


def format_map(points: Mapping[str, Sequence[Sequence[float]]]) -> str:
    """Write a map in the prompt's output format: ``{"chair": [(3, 4), (5, 6)], "tv": [(1, 2)]}``.

    Used to give a model a map as text (a ground-truth map in map-then-answer, Table 2a). Integral
    coordinates are written without a decimal point, others with two decimals at most.
    """
    entries = []
    for category, pts in points.items():
        cells = ", ".join(f"({_number(p[0])}, {_number(p[1])})" for p in pts)
        entries.append(f'"{category}": [{cells}]')
    return "{" + ", ".join(entries) + "}"
