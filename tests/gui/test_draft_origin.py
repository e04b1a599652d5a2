"""Where the editor's body came from: what the window shows, asks before replacing, and hands to the write."""
from memgui.gui.review.draft_origin import DraftOrigin, DraftSource


def test_an_edit_marks_a_draft_edited_and_an_empty_editor_typed() -> None:
    union = DraftOrigin(DraftSource.UNION)
    assert not union.by_hand and str(union) == "union"
    assert union.after_edit().by_hand and str(union.after_edit()) == "union · edited"
    assert DraftOrigin().empty and DraftOrigin().after_edit() == DraftOrigin(DraftSource.TYPED)


def test_only_a_model_draft_carries_the_models_result_to_the_write() -> None:
    assert DraftOrigin(DraftSource.AHEAD, edited=True).from_model and DraftOrigin(DraftSource.MODEL).from_model
    assert not DraftOrigin(DraftSource.SUPERSESSION).from_model and not DraftOrigin(DraftSource.TYPED).from_model
