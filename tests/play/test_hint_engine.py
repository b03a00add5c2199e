"""Hints (button A) come from the strongest engine at full strength, never from the weakened
level the person plays against, and the screen says which engine answered. On the real
firmware (MicroPython unix port, virtual clock), with Fairy-Stockfish as a real process."""
import pytest
from rich.console import Console

from shogicore.variants import WHITE
from yariboard.ui.console import SimConsole
from yariboard.engines import fsf, levels
from yariboard.engines.builtin.search import Engine
from yariboard.records.archive import Archive
from yariboard.sim.rig import SimRig

from tests.fsf_support import require_fsf

pytestmark = [pytest.mark.micropython, pytest.mark.engine]


class Counted(Engine):
    """The opponent at level 1, counting the searches it is asked for."""

    def __init__(self):
        super().__init__(level=1)
        self.searches = 0

    def search(self, *args, **kwargs):
        self.searches += 1
        return super().search(*args, **kwargs)


@pytest.fixture
def sim_against_level_1(tmp_path):
    archive = Archive(str(tmp_path / "games.sqlite3"))
    console = Console(width=100, record=True, color_system=None)
    opponent = Counted()
    with SimRig(str(tmp_path / "flash"), clock="virtual", log_dir=str(tmp_path)) as rig:
        sim = SimConsole(rig, archive, console, engines={WHITE: opponent})
        sim.pump(0.2)
        yield sim, opponent
        assert "Traceback" not in rig.board.stderr_text()
    archive.close()


def ask_for_a_hint(sim):
    assert sim.execute("tap A") is True
    for _ in range(10):
        sim.pump(0.05)
    assert sim.execute("wait 50") is True
    sim.console.export_text()
    sim.show()
    return sim.console.export_text()


def test_a_hint_comes_from_fairy_stockfish_at_full_strength_not_the_weak_opponent(
        sim_against_level_1):
    require_fsf()
    sim, opponent = sim_against_level_1
    engine, name = levels.strongest_engine("yari")
    try:
        sim.session.hint_engine, sim.session.hint_name = engine, name
        screen = ask_for_a_hint(sim)
        assert "hint from Fairy-Stockfish %s" % fsf.FSF_VERSION in screen
        assert opponent.searches == 0
        assert engine.progress is not None and engine.progress.depth > 0   # it searched
        assert sorted(sim.rig.led_styles().values()) == ["hint-from", "hint-to"]
        assert sim.state().hint and sim.state().hint in screen
    finally:
        engine.close()


def test_without_a_hint_engine_the_hint_is_the_built_in_engine_not_the_opponent(
        sim_against_level_1):
    sim, opponent = sim_against_level_1
    screen = ask_for_a_hint(sim)
    assert "hint from built-in engine" in screen
    assert opponent.searches == 0
    assert sim.session.hint_engine is not opponent
    assert sim.session.hint_engine.level != opponent.level
