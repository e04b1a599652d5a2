"""Peewee models of Netclaw's memory tables (spec §2) and memgui's own tables.

Models are built per database (`build_models`) instead of bound globally, so several stores can be open
at once (the GUI's worker threads, a test's second connection) without peewee's global binding racing.
Only the columns memgui reads or writes are declared; extra legacy columns (`domain`) are tolerated and
filled on insert when the table demands them.
"""
from __future__ import annotations

from dataclasses import dataclass

from peewee import BlobField, FloatField, IntegerField, Model, TextField
from playhouse.sqlite_ext import FTS5Model, SearchField


@dataclass(frozen=True)
class StoreModels:
    Anchor: type[Model]
    Document: type[Model]
    Record: type[Model]
    Checkpoint: type[Model]
    Embedding: type[Model]
    DocumentFts: type[Model]
    RecordFts: type[Model]
    Meta: type[Model]
    Audit: type[Model]
    Exemption: type[Model]


def build_models(db, legacy_domain: bool = False) -> StoreModels:
    class Base(Model):
        class Meta:
            database = db

    class Anchor(Base):
        anchor_id = TextField(primary_key=True)
        anchor_type = TextField()
        canonical_name = TextField()
        parent_anchor_id = TextField(null=True)
        sensitivity = TextField()
        recall_mode = TextField()
        confidence = FloatField()
        freshness_at = IntegerField(null=True)
        status = TextField()
        created_at = IntegerField()
        updated_at = IntegerField()
        if legacy_domain:
            domain = TextField(null=True)

        class Meta:
            table_name = "memory_anchors"

    class Document(Base):
        document_id = TextField(primary_key=True)
        anchor_id = TextField()
        memory_class = TextField(default="durable_fact")
        title = TextField()
        markdown_body = TextField()
        aliases_json = TextField(null=True)
        facets_json = TextField(null=True)
        slots_json = TextField(null=True)
        update_semantics = TextField()
        boundary = TextField(null=True)
        audience = TextField(null=True)
        sensitivity = TextField()
        recall_mode = TextField()
        confidence = FloatField()
        freshness_at = IntegerField(null=True)
        expires_at = IntegerField(null=True)
        created_at = IntegerField()
        updated_at = IntegerField()
        if legacy_domain:
            domain = TextField(null=True)

        class Meta:
            table_name = "memory_documents"

    class Record(Base):
        record_id = TextField(primary_key=True)
        anchor_id = TextField()
        memory_class = TextField(default="evidence")
        record_type = TextField()
        payload_json = TextField()
        aliases_json = TextField(null=True)
        facets_json = TextField(null=True)
        slots_json = TextField(null=True)
        supersedes_record_id = TextField(null=True)
        update_semantics = TextField()
        boundary = TextField(null=True)
        audience = TextField(null=True)
        sensitivity = TextField()
        recall_mode = TextField()
        confidence = FloatField()
        freshness_at = IntegerField(null=True)
        expires_at = IntegerField(null=True)
        created_at = IntegerField()
        if legacy_domain:
            domain = TextField(null=True)

        class Meta:
            table_name = "memory_records"

    class Checkpoint(Base):
        checkpoint_id = TextField(primary_key=True)
        session_id = TextField()
        turn_id = TextField(null=True)
        trigger_type = TextField()
        priority = IntegerField()
        status = TextField()
        payload_json = TextField()
        retry_count = IntegerField(default=0)
        created_at = IntegerField()
        updated_at = IntegerField()

        class Meta:
            table_name = "memory_checkpoints"

    class Embedding(Base):
        item_id = TextField()
        item_kind = TextField()
        model_id = TextField()
        content_hash = TextField()
        dims = IntegerField()
        vector = BlobField()
        created_at = IntegerField()

        class Meta:
            table_name = "memory_embeddings"
            primary_key = False

    class DocumentFts(FTS5Model):
        document_id = SearchField(unindexed=True)
        title = SearchField()
        body = SearchField()
        aliases = SearchField()
        facets = SearchField()

        class Meta:
            database = db
            table_name = "memory_documents_fts"

    class RecordFts(FTS5Model):
        record_id = SearchField(unindexed=True)
        title = SearchField()
        body = SearchField()
        aliases = SearchField()
        facets = SearchField()

        class Meta:
            database = db
            table_name = "memory_records_fts"

    # memgui's own tables (schema in memgui_schema.py).
    class Meta_(Base):
        key = TextField(primary_key=True)
        value = TextField()

        class Meta:
            table_name = "memgui_meta"

    class Audit(Base):
        audit_id = IntegerField(primary_key=True)
        created_at = IntegerField()
        operation = TextField()
        target_id = TextField(null=True)
        source_ids_json = TextField()
        decided_by = TextField(null=True)
        model_id = TextField(null=True)
        prompt_hash = TextField(null=True)
        guard_passed = IntegerField(null=True)
        state = TextField()
        reverts_audit_id = IntegerField(null=True)
        details_json = TextField()
        before_json = TextField()
        after_json = TextField()

        class Meta:
            table_name = "memgui_audit"

    class Exemption(Base):
        first_id = TextField()
        second_id = TextField()
        created_at = IntegerField()
        note = TextField(null=True)

        class Meta:
            table_name = "memgui_exemptions"
            primary_key = False

    return StoreModels(Anchor, Document, Record, Checkpoint, Embedding, DocumentFts, RecordFts, Meta_, Audit, Exemption)
