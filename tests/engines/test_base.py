"""The one engine vocabulary: every engine takes the same Limit, answers a SearchResult, and
fails with an EngineError; the layers below the engines never import them."""
import ast
import pathlib

import pytest

from shogicore.position import Position
from shogicore.variants import YARI

from yariboard.engines.base import EngineError, Limit, SearchResult
from yariboard.engines.builtin.search import Engine
from yariboard.engines.fsf import EngineMissing
from yariboard.engines.players import GreedyPlayer, RandomPlayer
from yariboard.engines.usi import UsiError, go_command
from yariboard.engines.xboard import EngineDied, XBoardEngine, XBoardError, find_crazywa

pytestmark = [pytest.mark.engine]

HOST = pathlib.Path(__file__).resolve().parents[2] / "host" / "yariboard"


@pytest.mark.parametrize("error", [UsiError, XBoardError, EngineDied, EngineMissing])
def test_every_engine_error_is_an_engine_error(error):
    with pytest.raises(EngineError):
        raise error("broken")


@pytest.mark.parametrize("make", [lambda: Engine(seed=1), lambda: RandomPlayer(seed=1),
                                  lambda: GreedyPlayer(seed=1)])
def test_in_process_engines_take_a_limit_and_answer_a_legal_move(make):
    position = Position(YARI)
    engine = make()
    engine.new_game()
    result = engine.search(position, Limit(depth=1, nodes=500))
    engine.close()
    assert isinstance(result, SearchResult)
    assert position.is_legal(result.move)


def test_a_node_budget_holds_the_built_in_engine_to_it():
    result = Engine().search(Position(YARI), Limit(nodes=700))
    assert result.nodes == 700


@pytest.mark.skipif(find_crazywa() is None, reason="needs crazywa (apt-get install crazywa)")
def test_the_xboard_engine_takes_a_node_budget():
    position = Position("wa")
    with XBoardEngine(variant="wa") as engine:
        small = engine.search(position, Limit(nodes=10))
        large = engine.search(position, Limit(nodes=5000))
    assert position.is_legal(small.move) and position.is_legal(large.move)
    # its first iteration takes about 50 nodes: 10 stop it there, 5000 let it finish the
    # second (every search is capped at depth 2)
    assert (small.depth, large.depth) == (1, 2)
    assert 0 < small.nodes < large.nodes


def test_go_commands_for_each_kind_of_limit():
    assert go_command(Limit(nodes=5000), 0)[0] == "go nodes 5000"
    assert go_command(Limit(depth=4), 0)[0] == "go depth 4"
    assert go_command(Limit(time=1.5), 0)[0] == "go btime 0 wtime 0 byoyomi 1500"
    assert go_command(Limit(), 0, default_nodes=800)[0] == "go nodes 800"
    clock = Limit(black_clock=60, white_clock=30, black_increment=2, white_increment=3)
    assert go_command(clock, 0)[0] == "go btime 60000 wtime 30000 binc 2000 winc 3000"
    assert go_command(Limit(black_clock=0, white_clock=0, byoyomi=10), 0)[0] == \
        "go btime 0 wtime 0 byoyomi 10000"


def _imports(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            yield node.module
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


@pytest.mark.parametrize("package", ["board", "records"])
def test_the_layers_below_the_engines_never_import_them(package):
    offending = [(str(path.relative_to(HOST)), module)
                 for path in (HOST / package).rglob("*.py") for module in _imports(path)
                 if module.startswith("yariboard.engines")]
    assert offending == []


@pytest.mark.parametrize("module", ["usi.py", "xboard.py", "players.py"])
def test_the_protocol_clients_do_not_import_the_search(module):
    assert "yariboard.engines.builtin.search" not in set(_imports(HOST / "engines" / module))
