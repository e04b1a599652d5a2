"""Which store memgui opens: --store, else $NETCLAW_HOME/netclaw.db, else ~/.netclaw/netclaw.db, else the demo."""
from __future__ import annotations

from pathlib import Path

import pytest

from memgui.config import netclaw_home, user_data_dir
from memgui.core.store import StoreError, create_store, locate_store, open_store


@pytest.fixture
def homes(tmp_path, monkeypatch):
    home = tmp_path / "home"
    netclaw = tmp_path / "netclaw-home"
    home.mkdir()
    netclaw.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("NETCLAW_HOME", str(netclaw))
    return home, netclaw


def test_explicit_path_wins_even_when_others_exist(homes, tmp_path):
    home, netclaw = homes
    create_store(netclaw / "netclaw.db")
    create_store(home / ".netclaw" / "netclaw.db")
    located = locate_store(str(tmp_path / "mine.db"))
    assert (located.path, located.origin, located.is_demo) == (tmp_path / "mine.db", "argument", False)


def test_explicit_path_is_expanded_and_absolute(homes, monkeypatch, tmp_path):
    home, _ = homes
    assert locate_store("~/x/netclaw.db").path == home / "x" / "netclaw.db"
    monkeypatch.chdir(tmp_path)
    assert locate_store("rel.db").path == tmp_path / "rel.db"
    # A path that does not exist is still returned: opening it gives the "no such file" message.
    assert locate_store("/nowhere/netclaw.db").origin == "argument"


def test_netclaw_home_store_comes_next(homes):
    home, netclaw = homes
    create_store(netclaw / "netclaw.db")
    create_store(home / ".netclaw" / "netclaw.db")
    located = locate_store()
    assert (located.path, located.origin) == (netclaw / "netclaw.db", "NETCLAW_HOME")


def test_netclaw_home_is_home_expanded(homes, monkeypatch):
    home, _ = homes
    create_store(home / "nc" / "netclaw.db")
    monkeypatch.setenv("NETCLAW_HOME", "~/nc")
    assert locate_store().path == home / "nc" / "netclaw.db"
    assert netclaw_home() == home / "nc"


def test_a_netclaw_home_with_no_store_yet_opens_the_demo_never_dot_netclaw(homes):
    """Netclaw's agent with $NETCLAW_HOME set writes there, never to ~/.netclaw: that is another agent's store."""
    home, _ = homes
    create_store(home / ".netclaw" / "netclaw.db")
    located = locate_store(demo_path=home / "demo.db")
    assert (located.path, located.origin) == (home / "demo.db", "demo")


def test_home_dot_netclaw_when_netclaw_home_is_unset(homes, monkeypatch):
    home, _ = homes
    monkeypatch.delenv("NETCLAW_HOME")
    create_store(home / ".netclaw" / "netclaw.db")
    assert locate_store().origin == "home"
    assert netclaw_home() == home / ".netclaw"


def test_a_directory_named_netclaw_db_is_not_taken_for_a_store(homes):
    """It is the store the user's $NETCLAW_HOME names: the opener refuses it (a folder), the demo never stands in."""
    _home, netclaw = homes
    (netclaw / "netclaw.db").mkdir()
    assert locate_store().origin == "NETCLAW_HOME"
    with pytest.raises(StoreError, match="is a directory"):
        open_store(locate_store().path)


@pytest.mark.parametrize("kind", ["missing", "a file"])
def test_a_netclaw_home_that_is_not_a_folder_is_refused(homes, tmp_path, monkeypatch, kind):
    home, _ = homes
    create_store(home / ".netclaw" / "netclaw.db")  # neither it nor the demo stands in for the home the user named
    named = tmp_path / "typo"
    if kind == "a file":
        named.write_text("x")
    monkeypatch.setenv("NETCLAW_HOME", str(named))
    with pytest.raises(StoreError, match=r"\$NETCLAW_HOME .* (does not exist|is not a folder)"):
        locate_store()
    assert locate_store(str(home / ".netclaw" / "netclaw.db")).origin == "argument"  # --store still works


def test_demo_store_in_the_user_data_dir_when_nothing_else_exists(homes):
    located = locate_store()
    assert located.is_demo and located.origin == "demo"
    assert located.path == user_data_dir() / "demo" / "netclaw.db"
    import memgui

    assert Path(memgui.__file__).resolve().parent not in located.path.resolve().parents  # never in the package


def test_demo_path_can_be_given(homes, tmp_path):
    assert locate_store(demo_path=tmp_path / "d.db").path == tmp_path / "d.db"
