"""Prompt text and GBNF grammars of the local decider (pure; no llama.cpp import).

Two prompts, measured on the 1.5B default model (docs/decider.md, design/measured/decider-models.md):
- the **classifier** (stage 1): a system prompt plus six few-shot turns (three same-fact, three
  different-fact), `EXISTING: …\\nNEW: …` → `SAME` | `DIFFERENT`, under a two-word grammar. "Same" means the
  same fact with the same values, possibly with extra details on one side (those get merged, not skipped);
- the **editor** (stage 2, same-fact only): "write ONE shorter note, every fact once, copy numbers/URLs
  exactly" — it merges; "merge the two notes" made the model copy both verbatim.
The texts live in `resources/prompts/decider_*` so they can be read and reviewed without code.

The chat shapes every local-model prompt is built from live here once, for the decider and the second reader
(reader.py): `chat` (a system prompt and one user turn), `few_shot_chat` (a system prompt, the shots as
user/assistant turns, then the question), `prompt_path`/`prompt_text` (the texts under resources/prompts),
`clip` (a text cut to a length) and `StablePrefix` (the tokens every prompt of one shape shares, kept in
llama.cpp's cache between prompts).

The Netclaw **protocol grammar** (single-stage pipeline) only admits a keyword line naming candidate ids that
exist, an optional `REASON:` line, and `---` plus a body for UPDATE/CONSOLIDATE (netclaw-compat §8.2/§8.4).
"""
from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from ...config import resources_dir
from ..netfx import StrEnum

SAME, DIFFERENT = "SAME", "DIFFERENT"  # the classifier's two answers


class Pipeline(StrEnum):
    """Which prompts the decider asks (`llm.LlamaDecider.pipeline`; part of the self-test's cache key)."""

    TWO_STAGE = "two-stage"  # the classifier, then the editor (the default)
    SINGLE = "single"  # Netclaw's curator prompt in one call

CLASSIFY_GRAMMAR = 'root ::= "SAME" | "DIFFERENT"\n'
CLASSIFY_WITH_REASON_GRAMMAR = 'root ::= ("SAME" | "DIFFERENT") "\\nREASON: " [^\\n]{1,240}\n'
CLASSIFY_MAX_TOKENS = 4
# Stage-1 contents longer than this are cut (the classifier judges facts; its context is shared with the shots).
CLASSIFY_MAX_CHARS = 2000


# ---- the chat shapes of every prompt (the decider's and the second reader's) -----------------------------------

ChatMessage = dict[str, Any]  # {"role": "system" | "user" | "assistant", "content": str}, as llama.cpp takes it


def prompt_path(name: str) -> Path:
    """A prompt file under resources/prompts."""
    return resources_dir() / "prompts" / name


def prompt_text(name: str) -> str:
    """A prompt text under resources/prompts, stripped."""
    return prompt_path(name).read_text(encoding="utf-8").strip()


def chat(system: str, user: str) -> list[ChatMessage]:
    """A system prompt and one user turn."""
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def few_shot_chat(system: str, shots: Iterable[tuple[str, str]], question: str) -> list[ChatMessage]:
    """A system prompt, each (question, answer) shot as a user and an assistant turn, then the question asked.
    Every prompt of one kind shares all but its last turn (`StablePrefix`)."""
    messages = [{"role": "system", "content": system}]
    for asked, answer in shots:
        messages.append({"role": "user", "content": asked})
        messages.append({"role": "assistant", "content": answer})
    messages.append({"role": "user", "content": question})
    return messages


class Clipped(NamedTuple):
    text: str
    cut: bool  # the text was longer than the limit


def clip(text: str | None, limit: int) -> Clipped:
    """`text` stripped (`(empty)` when nothing is left), cut to `limit` characters with `...`; whether it was cut."""
    text = (text or "").strip() or "(empty)"
    return Clipped(text, False) if len(text) <= limit else Clipped(text[:limit] + "...", True)


class RendersChat(Protocol):
    """What `StablePrefix` needs of an engine (engine.Engine has it)."""

    def render(self, messages: list[ChatMessage]) -> str: ...

    def tokenize(self, text: str) -> list[int]: ...


def common_prefix(a: Sequence[int], b: Sequence[int]) -> int:
    """How many leading tokens two token lists share."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n


@dataclass
class StablePrefix:
    """The tokens every prompt of one shape shares (system prompt, shots), which llama.cpp keeps cached between
    prompts: found once per key by rendering the prompt with two different last user turns."""

    _seen: dict[Hashable, tuple[int, list[int]]] = field(default_factory=dict, repr=False)

    def __call__(self, engine: RendersChat, key: Hashable, messages: list[ChatMessage], tokens: list[int]) -> int:
        if key not in self._seen:
            a = engine.tokenize(engine.render(messages[:-1] + [{"role": "user", "content": "A"}]))
            b = engine.tokenize(engine.render(messages[:-1] + [{"role": "user", "content": "B"}]))
            self._seen[key] = (common_prefix(a, b), a)
        stable, reference = self._seen[key]
        return min(stable, common_prefix(reference, tokens))


# ---- the decider's prompts -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shot:
    existing: str
    new: str
    answer: str


@functools.cache
def classify_system_prompt() -> str:
    return prompt_text("decider_classify_system.txt")


@functools.cache
def classify_shots() -> tuple[Shot, ...]:
    data = json.loads(prompt_path("decider_shots.json").read_text(encoding="utf-8"))
    shots = tuple(Shot(s["existing"], s["new"], s["answer"]) for s in data["shots"])
    if not shots or any(s.answer not in (SAME, DIFFERENT) for s in shots):
        raise ValueError("decider_shots.json: every shot needs an answer of SAME or DIFFERENT")
    return shots


@functools.cache
def editor_system_prompt() -> str:
    return prompt_text("decider_editor_system.txt")


def prompt_version() -> str:
    """A short hash of every prompt text and shot; part of the self-test cache key."""
    h = hashlib.sha256()
    for part in (classify_system_prompt(), editor_system_prompt(), CLASSIFY_GRAMMAR):
        h.update(part.encode("utf-8") + b"\x00")
    for s in classify_shots():
        h.update(f"{s.existing}\x1f{s.new}\x1f{s.answer}\x00".encode())
    return h.hexdigest()[:16]


def pair_text(existing: str, new: str, *, max_chars: int = CLASSIFY_MAX_CHARS) -> str:
    return f"EXISTING: {clip(existing, max_chars).text}\nNEW: {clip(new, max_chars).text}"


def classify_messages(existing: str, new: str, *, max_chars: int = CLASSIFY_MAX_CHARS) -> list[ChatMessage]:
    """System prompt, the six shots as user/assistant turns, then the pair to judge."""
    return few_shot_chat(classify_system_prompt(), ((pair_text(s.existing, s.new), s.answer) for s in classify_shots()),
                         pair_text(existing, new, max_chars=max_chars))


def editor_target_words(bodies: Sequence[str]) -> int:
    """Roughly how long the merged note should be: at least the longest note, about 80% of all of them."""
    counts = [len(b.split()) for b in bodies if b and b.strip()]
    if not counts:
        return 10
    return max(max(counts), int(0.8 * sum(counts)))


def must_keep_tokens(bodies: Sequence[str], limit: int = 60) -> list[str]:
    """The load-bearing tokens MergeGuard will look for (netclaw-compat §10), longest spellings only (a token inside
    another listed token is dropped), in first-seen order — listed in the editor prompt so the model copies them."""
    from ..merge.guard import extract_tokens
    from ..netfx import fold_case

    tokens: dict[str, str] = {}
    for body in bodies:
        for token, _kind in extract_tokens(body):
            tokens.setdefault(fold_case(token), token)
    keys = list(tokens)
    kept = [tokens[k] for k in keys if not any(k != other and k in other for other in keys)]
    return kept[:limit]


def editor_messages(bodies: Sequence[str]) -> list[ChatMessage]:
    """The editor prompt over the notes to merge (newest first), with the exact tokens to keep."""
    notes = "\n\n".join(f"NOTE {i}:\n{(b or '').strip()}" for i, b in enumerate(bodies, 1))
    keep = must_keep_tokens(bodies)
    user = notes + "\n\n"
    if keep:
        user += "The note must contain each of these exactly as written: " + ", ".join(keep) + "\n"
    user += f"Write the single note (about {editor_target_words(bodies)} words)."
    return chat(editor_system_prompt(), user)


def gbnf_literal(text: str) -> str:
    """A GBNF string literal for `text` (quotes, backslashes and control characters escaped)."""
    out = []
    for ch in text:
        if ch in '"\\':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 0x20:
            out.append(f"\\x{ord(ch):02x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


BODY_RULES = (
    'body ::= [^ \\t\\r\\n] bodychar*\n'
    'bodychar ::= [^\\x00]\n'
)


def protocol_grammar(candidate_ids: Sequence[str], *, allow_reason: bool = True) -> str:
    """GBNF that admits exactly the Netclaw protocol for these candidates:
    `SKIP` | `CREATE` | `UPDATE <id>` | `CONSOLIDATE <id> [<id>…]`, an optional `REASON: …` line,
    and for UPDATE/CONSOLIDATE a `---` line then a non-empty body. Without candidates only SKIP/CREATE."""
    ids = list(dict.fromkeys(i for i in candidate_ids if i))
    reason = ' reason?' if allow_reason else ''
    lines = [f'root ::= plain{" | merge" if ids else ""}', f'plain ::= ("SKIP" | "CREATE"){reason}']
    if ids:
        lines.append(f'merge ::= ("UPDATE " id | "CONSOLIDATE " id (" " id)*){reason} "\\n---\\n" body')
        lines.append("id ::= " + " | ".join(gbnf_literal(i) for i in ids))
    if allow_reason:
        lines.append('reason ::= "\\nREASON: " [^\\n]{1,240}')
    text = "\n".join(lines) + "\n"
    return text + (BODY_RULES if ids else "")


def assemble_reply(keyword_line: str, *, reason: str | None = None, body: str | None = None) -> str:
    """The protocol reply the two-stage pipeline produces, in the exact shape `parse_reply` reads."""
    parts = [keyword_line]
    if reason:
        parts.append("REASON: " + " ".join(reason.split()))
    if body is not None and body.strip():
        parts += ["---", body.strip()]
    return "\n".join(parts)


# A documented plain chat template for GGUF files without one (llama.cpp would otherwise guess):
#   <|system|>\n{system}\n<|user|>\n{user}\n<|assistant|>\n{assistant}\n … <|assistant|>\n
PLAIN_TEMPLATE_STOP = ("<|user|>", "<|system|>", "<|assistant|>")


def render_plain(messages: Sequence[dict[str, Any]]) -> str:
    parts = [f"<|{m['role']}|>\n{m['content']}\n" for m in messages]
    return "".join(parts) + "<|assistant|>\n"
