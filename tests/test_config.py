"""Settings: Netclaw's Memory.Curation from $NETCLAW_HOME/config/netclaw.json, with Netclaw's defaults."""
from __future__ import annotations

import dataclasses
import json
import os
from dataclasses import replace

import pytest

from memgui.config import (
    CurationSettings,
    load_curation_settings,
    netclaw_home,
    user_cache_dir,
    user_data_dir,
)

DEFAULTS = (0.86, 5, 4096, 10.0)


def values(s: CurationSettings):
    return (s.nominator_similarity_threshold, s.nominator_k, s.llm_max_output_tokens, s.llm_timeout_seconds)


def write_config(home, text):
    path = home / "config" / "netclaw.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def home():
    return netclaw_home()  # isolated per test by conftest


def test_defaults_without_a_config_file(home):
    settings = load_curation_settings()
    assert values(settings) == DEFAULTS
    assert settings.source == "defaults" and settings.embedding_model_id is None


def test_values_come_from_netclaw_json(home):
    path = write_config(home, json.dumps({"Memory": {
        "Curation": {"NominatorSimilarityThreshold": 0.9, "NominatorK": 8, "LlmMaxOutputTokens": 2048,
                     "LlmTimeoutSeconds": 60},
        "Embeddings": {"ModelId": "snowflake-arctic-embed-m-int8"}}}))
    settings = load_curation_settings()
    assert values(settings) == (0.9, 8, 2048, 60.0)
    assert settings.embedding_model_id == "snowflake-arctic-embed-m-int8"
    assert settings.source == str(path)


def test_an_explicit_home_is_honoured(tmp_path):
    write_config(tmp_path, '{"Memory": {"Curation": {"NominatorK": 3}}}')
    assert load_curation_settings(tmp_path).nominator_k == 3
    assert load_curation_settings().nominator_k == 5


def test_keys_are_case_insensitive(home):
    write_config(home, '{"memory": {"CURATION": {"nominatorsimilaritythreshold": 0.8, "NOMINATORK": 2}}}')
    assert values(load_curation_settings())[:2] == (0.8, 2)


def test_missing_keys_keep_their_defaults(home):
    write_config(home, '{"Memory": {"Curation": {"NominatorK": 7}}}')
    assert values(load_curation_settings()) == (0.86, 7, 4096, 10.0)


@pytest.mark.parametrize("text", [
    "{not json", "", "[1, 2, 3]", '"just a string"', "null", '{"Memory": 5}', '{"Memory": {"Curation": []}}',
    "\x00\x01binary", '{"Memory": {"Curation": {"NominatorK": 3}}',
])
def test_malformed_files_fall_back_to_defaults(home, text):
    write_config(home, text)
    assert values(load_curation_settings()) == DEFAULTS


def test_undecodable_file_falls_back_to_defaults(home):
    path = home / "config" / "netclaw.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"Memory": {"Curation": {"NominatorK": 3}}}\xff\xfe')
    assert values(load_curation_settings()) == DEFAULTS


def test_config_path_that_is_a_directory_falls_back_to_defaults(home):
    (home / "config" / "netclaw.json").mkdir(parents=True)
    assert values(load_curation_settings()) == DEFAULTS


@pytest.mark.parametrize("bad", [
    {"NominatorSimilarityThreshold": "high"}, {"NominatorSimilarityThreshold": 1.5},
    {"NominatorSimilarityThreshold": 0}, {"NominatorSimilarityThreshold": True},
    {"NominatorK": 0}, {"NominatorK": -3}, {"NominatorK": 2.5}, {"NominatorK": "many"}, {"NominatorK": True},
    {"NominatorK": None}, {"NominatorK": [5]}, {"LlmMaxOutputTokens": {"x": 1}},
    {"LlmTimeoutSeconds": -1}, {"LlmTimeoutSeconds": "NaN"}, {"LlmTimeoutSeconds": "Infinity"},
])
def test_a_bad_value_keeps_only_that_default(home, bad):
    curation = {"NominatorSimilarityThreshold": 0.91, "NominatorK": 6, "LlmMaxOutputTokens": 1000, "LlmTimeoutSeconds": 30}
    curation.update(bad)
    write_config(home, json.dumps({"Memory": {"Curation": curation}}))
    got = dict(zip(["NominatorSimilarityThreshold", "NominatorK", "LlmMaxOutputTokens", "LlmTimeoutSeconds"],
                   values(load_curation_settings())))
    default = dict(zip(got, DEFAULTS))
    for key in curation:
        expected = default[key] if key in bad else curation[key]
        assert got[key] == expected, key


def test_numeric_strings_are_accepted_like_dotnet_configuration(home):
    write_config(home, '{"Memory": {"Curation": {"NominatorSimilarityThreshold": "0.75", "NominatorK": " 4 ", '
                       '"LlmMaxOutputTokens": 512.0}}}')
    assert values(load_curation_settings())[:3] == (0.75, 4, 512)


def test_comments_trailing_commas_and_bom_are_accepted(home):
    path = home / "config" / "netclaw.json"
    path.parent.mkdir(parents=True)
    text = """{
      // Netclaw's own config may carry comments
      "Memory": {
        /* curation knobs */
        "Curation": { "NominatorK": 9, "LlmTimeoutSeconds": 45, },
        "Note": "a // inside a string is not a comment, nor is /* this */",
      },
    }"""
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    settings = load_curation_settings()
    assert (settings.nominator_k, settings.llm_timeout_seconds) == (9, 45.0)


def test_settings_are_frozen_and_overridable_with_replace():
    settings = CurationSettings()
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.nominator_k = 1  # type: ignore[misc]
    assert replace(settings, nominator_k=2).nominator_k == 2 and settings.nominator_k == 5


def test_user_dirs_follow_their_environment_overrides(tmp_path, monkeypatch):
    monkeypatch.setenv("MEMGUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MEMGUI_CACHE_DIR", str(tmp_path / "cache"))
    assert user_data_dir() == tmp_path / "data" and user_data_dir().is_dir()
    assert user_cache_dir() == tmp_path / "cache" and user_cache_dir().is_dir()
    assert os.environ["NETCLAW_HOME"] == str(netclaw_home())


@pytest.mark.parametrize("env, command", [
    ("MEMGUI_CACHE_DIR", ["scan"]),
    ("MEMGUI_DATA_DIR", ["demo"]),
])
def test_an_unusable_memgui_folder_is_a_one_line_refusal(tmp_path, monkeypatch, capsys, env, command):
    from memgui.__main__ import main
    from memgui.core.store.demo import build_demo_store

    store = build_demo_store(tmp_path / "netclaw.db")
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(env, str(blocker / "sub"))  # a folder below a file cannot be created
    argv = [*command, "--store", str(store)] if command == ["scan"] else command  # demo: into the data folder
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    messages = [line for line in err.splitlines() if line.startswith("memgui:")]
    assert len(messages) == 1 and env in messages[0] and "cannot be created" in messages[0]
    assert "Traceback" not in err
