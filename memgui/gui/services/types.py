"""The core's types the GUI annotates with: results, reports, decisions, progress, documents and the store
handle. Widgets import them from here (never from `memgui.core`), to name what a service hands back; they still
reach the core's behaviour only through `Services`. Re-exported, not re-defined: one definition, in the core."""
from __future__ import annotations

from ...core.curation.types import Candidate, CurationDecision, Decider, DeciderResult, DecisionKind, Proposal
from ...core.decide.ahead import ModelTurns, YieldingToken
from ...core.decide.cache import DecisionCache
from ...core.decide.discovery import DiscoveredModel
from ...core.decide.groups import FactGroups, PairVerdict, Preselection
from ...core.decide.reader import ReaderReport
from ...core.decide.review import Badge, ClusterReview
from ...core.decide.selftest import SelfTestReport
from ...core.decide.supersede_reader import SupersedeReader
from ...core.decide.supersession import SupersedeReading
from ...core.forensics.calibrate import Calibration, CosineLookup, LabelledPair
from ...core.forensics.daemon_logs import DaemonEvent, DaemonTimeline
from ...core.forensics.history import DocumentHistory
from ...core.forensics.model_quality import Agreement, ModelQuality
from ...core.forensics.recheck import RecheckedMerge, RecheckReport
from ...core.merge.align import Alignment, BodySentence, Fate, SentenceFate, Verdict
from ...core.merge.conflicts import Conflict, DifferentFactsMark, PairEvidence
from ...core.merge.diff import DiffSpan, WordDiff
from ...core.merge.facts.report import Direction, FactAtRisk
from ...core.merge.guard import GuardToken, MergeGuardReport
from ...core.merge.keep_draft import KeptBack, ProvedDraft
from ...core.merge.read_pairs import ConfirmedRestatement, Mark, MarkedText, PairRow
from ...core.merge.strict import StrictReport
from ...core.merge.supersede import Historied, Reading
from ...core.netfx import StrEnum
from ...core.ops.apply import MergePlan
from ...core.ops.batch import BatchPlan, BatchResult, BatchUndoResult, PlannedWrite
from ...core.ops.changes import Changes, Effect, Written
from ...core.ops.history import History, HistoryScope, HistoryStep
from ...core.ops.stamps import SourceStamp
from ...core.ops.supersede import SupersessionPlan
from ...core.store.audit_log import AuditEntry, AuditState, Operation
from ...core.store.exemptions import Exemption
from ...core.store.locate import LocatedStore
from ...core.store.review_marks import ReviewMark
from ...core.store.store import Store
from ...core.store.values import Document
from ...core.tasks import CancelToken, Progress, Step, Work
from ...core.vectors.embed import EmbedderInfo, VectorSource
from ...core.vectors.embedder_choice import EmbedderChoice
from ...core.vectors.nominate import Cluster, Pair, ScanResult

__all__ = [
    "Agreement",
    "Alignment",
    "AuditEntry",
    "AuditState",
    "Badge",
    "BatchPlan",
    "BatchResult",
    "BatchUndoResult",
    "BodySentence",
    "Calibration",
    "CancelToken",
    "Candidate",
    "Changes",
    "Cluster",
    "ClusterReview",
    "ConfirmedRestatement",
    "Conflict",
    "CosineLookup",
    "CurationDecision",
    "DaemonEvent",
    "DaemonTimeline",
    "Decider",
    "DeciderResult",
    "DecisionCache",
    "DecisionKind",
    "DiffSpan",
    "DifferentFactsMark",
    "Direction",
    "DiscoveredModel",
    "Document",
    "DocumentHistory",
    "Effect",
    "EmbedderChoice",
    "EmbedderInfo",
    "Exemption",
    "FactAtRisk",
    "FactGroups",
    "Fate",
    "GuardToken",
    "Historied",
    "History",
    "HistoryScope",
    "HistoryStep",
    "KeptBack",
    "LabelledPair",
    "LocatedStore",
    "Mark",
    "MarkedText",
    "MergeGuardReport",
    "MergePlan",
    "ModelQuality",
    "ModelTurns",
    "Operation",
    "Pair",
    "PairEvidence",
    "PairRow",
    "PairVerdict",
    "PlannedWrite",
    "Preselection",
    "Progress",
    "Proposal",
    "ProvedDraft",
    "ReaderReport",
    "Reading",
    "RecheckReport",
    "RecheckedMerge",
    "ReviewMark",
    "ScanResult",
    "SelfTestReport",
    "SentenceFate",
    "SourceStamp",
    "Step",
    "Store",
    "StrEnum",
    "StrictReport",
    "SupersedeReader",
    "SupersedeReading",
    "SupersessionPlan",
    "VectorSource",
    "Verdict",
    "WordDiff",
    "Work",
    "Written",
    "YieldingToken",
]
