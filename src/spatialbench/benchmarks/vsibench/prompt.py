"""VSI-Bench prompts: ``[frames][pre-prompt][question][options][post-prompt]`` (App. C.1, Table 9).

Text and layout come from ``prompt.json`` beside this module; the builder suits any video QA benchmark
without a layout of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from spatialbench.media.video import SampledFrames
from spatialbench.prompting.builders import PromptBuilder, arrange, image_parts
from spatialbench.prompting.config import ModelFamily, PromptConfig
from spatialbench.prompting.templates import fill, fill_lines, read_json
from spatialbench.records.item import AnswerKind, Item
from spatialbench.records.messages import Request


class VideoQABuilder(PromptBuilder):
    """Frames, then one text block; post-prompt by model family and answer kind (Table 9)."""

    template = "prompt.json"
    #: the package holding ``template``: a benchmark with other post-prompts subclasses with its own file
    package: ClassVar[str] = __package__ or ""
    known_overrides = frozenset(
        {
            "pre_prompt",
            "post_prompt",
            "post_prompt.numerical",
            "post_prompt.multiple_choice",
            "system",
            "repetition_system",
        }
    )

    def __init__(self, config: PromptConfig) -> None:
        super().__init__(config)
        self.data = read_json(self.package, self.template)

    def _field(self, key: str, default: str) -> str:
        return self.config.overrides.get(key, default)

    def text(self, item: Item, post_prompt: bool = True) -> str:
        """Return the question block: pre-prompt, question, options (multiple choice), post-prompt.

        ``post_prompt`` False leaves the post-prompt out (its line dropped): the start of a chain of thought.
        """
        kind = item.answer_kind.value
        family = self.config.model_family or ModelFamily.OPEN
        default_post = self.data["post_prompt"][family.value][kind]
        values = {
            "pre_prompt": self._field("pre_prompt", self.data["pre_prompt"]),
            "question": item.question,
            "post_prompt": self._field(f"post_prompt.{kind}", self._field("post_prompt", default_post)),
        }
        if not post_prompt:
            values["post_prompt"] = ""
        if item.answer_kind is AnswerKind.MULTIPLE_CHOICE:
            values["options"] = "\n".join(item.options)
        return fill_lines(self.data["layout"][kind], values)

    def build(self, item: Item, media: Sequence[SampledFrames]) -> Request:
        """Frames (none when blind), then the text; repeated video as ``[video][text][video]``."""
        return self._request(item, media, post_prompt=True)

    def build_reasoning(self, item: Item, media: Sequence[SampledFrames]) -> Request:
        """:meth:`build` without the post-prompt (App. B.3: the question, then "Let's think step by step.").

        Table 9's post-prompts ("Answer with the option's letter from the given choices directly.", "Do not
        respond with anything other than a single number!") tell a model not to reason; under
        zero-shot-cot, self-consistency and tree-of-thought the answer format comes from the extraction turn.
        """
        return self._request(item, media, post_prompt=False)

    def _request(self, item: Item, media: Sequence[SampledFrames], post_prompt: bool) -> Request:
        video = () if self.config.blind else image_parts(media)
        repeats = self.config.video_repeats
        system = self.config.overrides.get("system")
        if video and repeats > 1:
            note = fill(
                self._field("repetition_system", self.data["repetition_system"]), {"repeats": str(repeats)}
            )
            system = f"{system}\n{note}" if system else note
        parts = arrange(video, self.text(item, post_prompt), self.config.order, repeats)
        return Request(parts=parts, system=system)

    def max_new_tokens(self, item: Item) -> int | None:
        """16, as the official VSI-Bench task config."""
        return int(self.data["max_new_tokens"])

    def fingerprint(self) -> dict[str, Any]:
        """Config plus the template data."""
        return {**super().fingerprint(), "template": self.data}

