"""A scripted scoring engine for second-reader tests (no model): it answers the reader's YES/NO question by
logits from a script, and records every question it was asked."""
from decider_fakes import ScriptedEngine
from memgui.core.decide import prompts as dp
from memgui.core.decide.reader import NO, YES


def question_of(prompt: str) -> tuple[str, str]:
    """(source, merged body) of the last question in a rendered reader prompt."""
    last = prompt.rsplit("SOURCE: ", 1)[1]
    source, _, rest = last.partition("\nMERGED: ")
    return source, rest.split("\n<|", 1)[0]


class ScoringEngine(ScriptedEngine):
    """`lossy(source, body) -> bool` scripts the reader (lossy → logits favour NO by `margin`); classifier
    questions (`SAME`/`DIFFERENT`) are answered from the decider script, as `generate` would."""

    def __init__(self, lossy=lambda source, body: False, margin=2.0, **kw):
        super().__init__(**kw)
        self.lossy = lossy
        self.margin = margin
        self.questions: list[tuple[str, str]] = []
        self.stable_prefixes: list[int] = []

    def score_words(self, prompt_tokens, *, stable_prefix, words):
        prompt = "".join(chr(t) for t in prompt_tokens)
        yield ""  # one prompt chunk read
        if tuple(words) == (YES, NO):
            source, body = question_of(prompt)
            self.questions.append((source, body))
            self.stable_prefixes.append(stable_prefix)
            no = self.lossy(source, body)
            return {YES: 0.0, NO: self.margin} if no else {YES: self.margin, NO: 0.0}
        _kind, verdict = self._reply(prompt)
        return {dp.SAME: 5.0 if verdict == dp.SAME else 0.0, dp.DIFFERENT: 0.0 if verdict == dp.SAME else 5.0}
