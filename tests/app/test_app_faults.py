"""The app under faults: any crash exits non-zero with its traceback in the log folder and one
line naming it (never exit 0 with a traceback on the terminal); a keymap that cannot be read,
or lines of it that bind nothing, are said in one line and never crash the arcade."""

from __future__ import annotations

from pathlib import Path

import pytest

from kaeru.tui.app import KaeruApp
from kaeru.tui.cli.commands import play
from tests.app.conftest import SIZE, settle


@pytest.fixture
def log_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KAERU_LOG_DIR", str(tmp_path / "log"))
    return tmp_path / "log"


@pytest.fixture
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "config"
    folder.mkdir()
    monkeypatch.setenv("KAERU_CONFIG_DIR", str(folder))
    return folder


def notices(app: KaeruApp) -> list[str]:
    return [str(n.message) for n in app._notifications]


def boom() -> None:
    raise ZeroDivisionError("a bug")


async def test_a_crash_in_a_handler_is_logged_and_not_exit_zero(log_dir: Path):
    app = KaeruApp(resume=False)
    with pytest.raises(ZeroDivisionError):
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            app.call_later(boom)
            await pilot.pause()
    assert app.return_code not in (None, 0)
    assert app.crash_report is not None and "ZeroDivisionError" in app.crash_report
    log = (log_dir / "kaeru-errors.log").read_text()
    assert str(log_dir / "kaeru-errors.log") in app.crash_report
    assert "Traceback" in log and "ZeroDivisionError: a bug" in log
    assert app._exit_renderables == []  # no full traceback printed on the terminal


def test_kaeru_exits_4_with_one_line_when_the_arcade_crashes(
    log_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
):
    run = KaeruApp.run

    async def crash_then_quit(pilot) -> None:
        await pilot.pause()
        pilot.app.call_later(boom)
        await pilot.pause(2)
        pilot.app.exit()  # reached only when the crash did not end the app

    monkeypatch.setattr(
        KaeruApp, "run", lambda self: run(self, headless=True, auto_pilot=crash_then_quit)
    )
    assert play.open_arcade(None) == 4
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("kaeru: internal error ZeroDivisionError")
    assert "ZeroDivisionError: a bug" in (log_dir / "kaeru-errors.log").read_text()


async def test_a_deeply_nested_keymap_is_ignored_with_a_notice(config_dir: Path, log_dir: Path):
    (config_dir / "keymap.toml").write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")
    app = KaeruApp(resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert any("nested too deeply" in line for line in notices(app))
    assert app.crash_report is None and not (log_dir / "kaeru-errors.log").exists()


async def test_keymap_lines_binding_nothing_are_named(config_dir: Path):
    (config_dir / "keymap.toml").write_text(
        '[keys]\n"play.undo" = "z"\n"play.undoo" = "x"\n"play.hint" = "no_such_key_name"\n'
    )
    app = KaeruApp(resume=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        said = [line for line in notices(app) if "Keymap" in line]
        assert len(said) == 1, notices(app)
        assert "line 3: no binding 'play.undoo'" in said[0]
        assert "line 4: bad key 'no_such_key_name'" in said[0]
        assert app._keymap == {"play.undo": "z"}
