"""`memgui PATH` (no command) opens that store in the window: the desktop entry's `Exec=memgui %f`, so "Open with
memgui" on a netclaw.db works. The window itself is tested in tests/gui/test_gui_open_with.py."""
import pytest

from memgui import __main__ as entry

COMMANDS = {"info", "models", "scan"}


@pytest.mark.parametrize("argv, rest, store", [
    (["/x/netclaw.db"], [], "/x/netclaw.db"),
    (["--size", "1366x768", "/x/netclaw.db"], ["--size", "1366x768"], "/x/netclaw.db"),
    (["--screenshot", "out.png", "store.db", "--size", "800x600"], ["--screenshot", "out.png", "--size", "800x600"],
     "store.db"),
    (["info", "--json"], ["info", "--json"], None),
    (["--store", "/x/a.db", "info"], ["--store", "/x/a.db", "info"], None),
    (["--store=/x/a.db"], ["--store=/x/a.db"], None),
    (["scna"], ["scna"], None),  # a misspelt command stays argparse's "invalid choice"
    ([], [], None),
])
def test_the_first_positional_that_is_no_command_is_the_store(argv, rest, store):
    assert entry.split_store_argument(argv, COMMANDS) == (rest, store)


def test_an_existing_file_named_like_a_word_is_a_store(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "memories").write_bytes(b"")
    assert entry.split_store_argument(["memories"], COMMANDS) == ([], "memories")


def test_main_hands_the_path_to_the_window(monkeypatch, tmp_path):
    seen = {}

    def fake_run_main_job(args):
        seen["store"] = args.store
        return 0

    monkeypatch.setattr(entry, "run_main_job", fake_run_main_job)
    store = tmp_path / "netclaw.db"
    assert entry.main([str(store)]) == 0 and seen["store"] == str(store)
    # a Netclaw home folder opens the netclaw.db inside it
    store.write_bytes(b"")
    assert entry.main([str(tmp_path)]) == 0 and seen["store"] == str(store)
    # the same store twice is fine, two different ones are an argument error
    assert entry.main(["--store", str(store), str(store)]) == 0
    with pytest.raises(SystemExit) as exc:
        entry.main(["--store", str(tmp_path / "other.db"), str(store)])
    assert exc.value.code == 2


def test_commands_still_parse_and_a_misspelt_one_is_refused(capsys):
    assert entry.main(["models", "status", "--json"]) == 0
    with pytest.raises(SystemExit) as exc:
        entry.main(["scna"])
    assert exc.value.code == 2 and "invalid choice: 'scna'" in capsys.readouterr().err


def test_help_names_the_store_argument(capsys):
    with pytest.raises(SystemExit):
        entry.main(["--help"])
    out = capsys.readouterr().out
    assert "[STORE | COMMAND ...]" in out and "Open with memgui" in out
