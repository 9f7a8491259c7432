"""A scripted chain-of-thought model behind the loopback OpenAI-compatible server (``openai_server``).

It reads each request's whole conversation (not only its text) and answers by what the last user turn
asks, the way a reasoning model would:

- a question ending in "Let's think step by step." → a few "Step k:" lines and "Therefore, the answer is X.";
- the extraction turn → only X, read from its own earlier reply (or, for tags in ``garbled``, a sentence
  with no answer in it);
- "Please explain your answer step by step." → an explanation;
- Tree-of-Thought turns → three plans "Plan K: ..." in one reply, votes "The best choice is N",
  answers following the plan;
- the cognitive-map prompt → a fenced JSON map; a truncated one when the prompt holds one of
  ``malformed_maps`` (e.g. its category list);
- MMSI's three-step prompt → three steps, then ``\\boxed{X}``; the answer-and-reason prompt → a reason,
  then ``\\boxed{X}``;
- anything else → X directly.

X and N come from the test's ``choose(tag, phase, sample)``: ``tag`` is the question's ``[qK]`` tag,
``phase`` one of ``direct``, ``cot``, ``plan_vote``, ``tot_answer``, ``answer_vote``, ``three_step``, and
``sample`` the request's seed (the strategies send seed ``run seed + i`` for sample ``i``; run seed 0).
"""

from __future__ import annotations

import io
import json
import re
import threading
from collections.abc import Callable
from typing import Any

from spatialbench.prompting.strategies.base import texts
from support.openai_server import OpenAIServer, ServerScript, _handler
from support.vsi_data import question_tag

Choose = Callable[[str, str, int], str]
_ANSWER = re.compile(r"the answer is (\S+?)\.?$", re.MULTILINE)


def _text(message: dict[str, Any]) -> str:
    content = message.get("content")
    if isinstance(content, str):
        return content
    return "".join(part.get("text", "") for part in content or [] if part.get("type") == "text")


class CoTModel:
    """The scripted model; ``reply(body)`` answers one chat-completion request body."""

    def __init__(
        self, choose: Choose, garbled: frozenset[str] = frozenset(), malformed_maps: tuple[str, ...] = ()
    ) -> None:
        self.choose = choose
        self.garbled = garbled
        self.malformed_maps = malformed_maps  # a map prompt holding one of these gets a broken map
        t = texts()
        self.markers = [
            (t["extract"]["numerical"][:28], self._extract),
            (t["explain"], lambda tag, i, body: f"Explanation: I counted what I saw for {tag}."),
            (t["tot_plan"][:30], lambda tag, i, body: self._plans(tag)),
            ("plans for answering", lambda tag, i, body: self._vote(tag, "plan_vote", i)),
            ("candidate answers", lambda tag, i, body: self._vote(tag, "answer_vote", i)),
            ("Follow this plan", lambda tag, i, body: self._cot(tag, "tot_answer", i)),
            ("Answer in three steps", self._three_step),
            ("both an answer and a reason", lambda tag, i, body: self._reasoned(tag)),
            ("estimate the center point of each object", self._map),
            (t["cot_trigger"], lambda tag, i, body: self._cot(tag, "cot", i)),
        ]

    def reply(self, body: dict[str, Any]) -> str:
        """Answer ``body`` by the last user turn's request (see the module docstring)."""
        messages = [m for m in body.get("messages", []) if m.get("role") != "system"]
        tag = question_tag("\n".join(map(_text, messages))) or "q?"  # a map turn shows no question
        last, sample = _text(messages[-1]), int(body.get("seed") or 0)
        for marker, answer in self.markers:
            if marker in last:
                return answer(tag, sample, body)
        return self.choose(tag, "direct", sample)

    def _cot(self, tag: str, phase: str, sample: int) -> str:
        x = self.choose(tag, phase, sample)
        return f"Step 1: I look at every frame.\nStep 2: I compare them.\nTherefore, the answer is {x}."

    def _reasoned(self, tag: str) -> str:
        return f"Reason: I counted what I saw for {tag}.\n\\boxed{{{self.choose(tag, 'reasoned', 0)}}}"

    def _plans(self, tag: str) -> str:
        plans = (f"Plan {k}: plan {k} for {tag}: look, then compare." for k in (1, 2, 3))
        return "Here are my plans.\n" + "\n".join(plans)

    def _vote(self, tag: str, phase: str, sample: int) -> str:
        return f"Choice 1 is vague.\nThe best choice is {self.choose(tag, phase, sample)}"

    def _extract(self, tag: str, sample: int, body: dict[str, Any]) -> str:
        earlier = _text(body["messages"][-2])
        found = _ANSWER.findall(earlier)
        if tag in self.garbled or not found:
            return "I would rather not say."
        return found[-1]

    def _three_step(self, tag: str, sample: int, body: dict[str, Any]) -> str:
        x = self.choose(tag, "three_step", sample)
        return f"Step 1: the question asks about {tag}.\nStep 2: frames 1-3.\nStep 3: so \\boxed{{{x}}}"

    def _map(self, tag: str, sample: int, body: dict[str, Any]) -> str:
        prompt = _text(body["messages"][-1])
        if tag in self.garbled or any(marker in prompt for marker in self.malformed_maps):
            return 'Here is my map: {"chair": [(3, 4), (5,'
        return '```json\n{"chair": [(3, 4), (5, 6)], "table": [(4, 4)]}\n```'


class CoTServer(OpenAIServer):
    """The loopback server answering with a :class:`CoTModel`; ``script.log`` records every request."""

    def __init__(self, model: CoTModel, script: ServerScript | None = None) -> None:
        script = script or ServerScript()
        local = threading.local()
        script.answer = lambda text: model.reply(local.body)
        super().__init__(script)
        base = _handler(script)

        class Handler(base):  # type: ignore[misc, valid-type]
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                local.body = json.loads(raw or b"{}")
                socket_file, self.rfile = self.rfile, io.BytesIO(raw)
                try:
                    super().do_POST()
                finally:
                    # The connection's next request is read from the socket again: left as the BytesIO, the
                    # handler ended every keep-alive connection after one request without saying so, and a
                    # client reusing it raced the close (an occasional "Connection error" in the tests).
                    self.rfile = socket_file

        self._server.RequestHandlerClass = Handler
