"""A scripted llama.cpp engine for decider tests (no model)."""
import re
import time

from memgui.core.decide import prompts as dp

# a faithful editor: one note and the other's restatement, which the alignment proves (nothing added, nothing lost)
MERGED = "Atlas deploys run at 02:00 UTC with make deploy; the atlas deploy runs at 02:00 UTC using make deploy."


class ScriptedEngine:
    """Engine double: tokens are characters, replies come from a script, pieces are streamed word by word.
    It checks that classifier replies obey the classifier grammar and records every call."""

    model_id = "scripted-model"

    def __init__(self, verdicts=None, merged=MERGED, single_reply=None, delay=0.0, n_ctx=100_000, fail=None):
        self.verdicts = verdicts or {}
        self.merged = merged
        self.single_reply = single_reply
        self.delay = delay
        self.n_ctx = n_ctx
        self.fail = fail
        self.loaded = True
        self.calls = []  # (kind, prompt text, stable prefix, grammar, max_tokens)
        self.pieces_sent = 0

    def render(self, messages):
        return dp.render_plain(messages)

    def tokenize(self, prompt):
        return [ord(c) for c in prompt]

    def count_tokens(self, text):
        return len(text.split())

    def _reply(self, prompt):
        if "NOTE 1:" in prompt:  # `merged` may be a function of the editor prompt (one body per cluster)
            return "merge", self.merged(prompt) if callable(self.merged) else self.merged
        if "EXISTING CANDIDATES" in prompt:
            return "protocol", self.single_reply
        last_pair = prompt.rsplit("EXISTING: ", 1)[1]
        existing, _, new = last_pair.partition("\nNEW:")
        for key, verdict in self.verdicts.items():
            # a key is text of the existing side, or (existing text, new text) for one pair
            if (key[0] in existing and key[1] in new) if isinstance(key, tuple) else key in existing:
                return "classify", verdict
        return "classify", "DIFFERENT"

    def generate(self, prompt_tokens, *, stable_prefix, grammar, max_tokens):
        if self.fail:
            raise self.fail
        prompt = "".join(chr(t) for t in prompt_tokens)
        kind, reply = self._reply(prompt)
        if kind == "classify":
            assert grammar == dp.CLASSIFY_GRAMMAR and reply in ("SAME", "DIFFERENT")
        self.calls.append((kind, prompt, stable_prefix, grammar, max_tokens))
        yield ""  # reading the prompt
        for piece in re.findall(r"\S+\s*|\s+", reply):
            if self.delay:
                time.sleep(self.delay)
            self.pieces_sent += 1
            yield piece
