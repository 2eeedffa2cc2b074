"""The house's shape (docs/architecture.md): data flows one way, nothing imports upward, no import cycles (imports
inside functions and those for the type checker alone count), no module over 500 lines, the Discord layer in rooms
by role with its parts wired in one place, and no function too tangled to read (cyclomatic complexity)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from radon.complexity import cc_visit
from support.paths import ROOT

PACKAGES = ("bot", "cogs", "renderers")

# What each layer may not import, as module prefixes (its own layer and those below are fine).
FORBIDDEN = {
    "bot.engine": ("bot.ai", "bot.store", "bot.service", "bot.cli", "cogs", "renderers",
                   "asyncio", "aiosqlite", "asyncpg", "discord", "PIL", "sqlite3"),
    "bot.ai": ("bot.store", "bot.service", "bot.cli", "cogs", "renderers", "aiosqlite", "asyncpg", "discord", "PIL"),
    "bot.store": ("bot.service", "bot.cli", "cogs", "discord", "PIL"),
    # The service speaks to the database through bot.store's interface, never a driver of its own.
    "bot.service": ("bot.cli", "cogs", "discord", "aiosqlite", "asyncpg", "sqlite3"),
    "renderers": ("bot.store", "bot.service", "bot.cli", "cogs", "discord", "aiosqlite", "asyncpg"),
    # The cogs talk to the service only: no SQL, no store (its rows reach them under the service's names).
    "cogs": ("bot.store", "bot.cli", "aiosqlite", "asyncpg", "sqlite3"),
}
# `charleston bot` (bot/cli/botcmd.py) is where the program is put together: the one module outside cogs that
# starts the Discord layer.
LAUNCHER = "bot.cli.botcmd"


def _modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node of the tree but those under ``if TYPE_CHECKING:`` (imports for the type checker only)."""
    nodes: list[ast.AST] = []
    stack = [tree]
    while stack:
        node = stack.pop()
        nodes.append(node)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                stack.extend(child.orelse)
            else:
                stack.append(child)
    return nodes


def _imports(name: str, path: Path, *, for_types: bool = False) -> set[str]:
    """Every module this one imports when it runs, at the top or inside a function, as absolute names; with
    ``for_types``, those it imports for the type checker only as well."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in (ast.walk(tree) if for_types else _runtime_nodes(tree)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # `from package import module` imports that module; any other name comes from the package itself
            submodules = {f"{base}.{alias.name}" for alias in node.names} & MODULES.keys()
            found.update(submodules)
            if len(submodules) < len(node.names):
                found.add(base)
    return found


IMPORTS = {name: _imports(name, path) for name, path in MODULES.items()}
# A layer may not name another even for the type checker alone: the cogs know the service, never the store.
ALL_IMPORTS = {name: _imports(name, path, for_types=True) for name, path in MODULES.items()}


def _under(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def test_only_the_launcher_and_the_cogs_import_discord() -> None:
    wrong = sorted(f"{name} imports {target}" for name, targets in IMPORTS.items()
                   if not _under(name, "cogs") and name != LAUNCHER for target in targets if _under(target, "discord"))
    assert wrong == []


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_no_layer_imports_upward(layer: str) -> None:
    wrong = sorted(f"{name} imports {target}" for name, targets in ALL_IMPORTS.items() if _under(name, layer)
                   for target in targets for banned in FORBIDDEN[layer] if _under(target, banned))
    assert wrong == []


def test_nothing_outside_cogs_imports_the_discord_layer() -> None:
    wrong = sorted(f"{name} imports {target}" for name, targets in IMPORTS.items()
                   if not _under(name, "cogs") and name != LAUNCHER for target in targets if _under(target, "cogs"))
    assert wrong == []


def test_there_are_no_import_cycles_not_even_for_the_type_checker() -> None:
    # A module's package __init__ runs before it, so edges to a package are edges to its __init__ module. Imports
    # under `if TYPE_CHECKING:` count too: a circle the type checker needs is a circle a reader must untangle.
    graph = {name: {t for t in targets if t in MODULES and t != name} for name, targets in ALL_IMPORTS.items()}
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1 on the current path, 2 finished

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycles.append([*path[path.index(nxt):], nxt])
            elif nxt not in state:
                visit(nxt, [*path, nxt])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert cycles == []


def test_the_cogs_never_reach_into_the_stores_rows_or_the_services_tables() -> None:
    """The cogs ask the service (``display``, ``view``, ``table_for``...), never a stored row's fields
    (``live.row.created_by``) or the service's ``LiveTable``s (``service.tables``)."""
    wrong: list[str] = []
    for name, path in MODULES.items():
        if not _under(name, "cogs"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and (
                    (isinstance(node.value, ast.Attribute) and node.value.attr == "row")
                    or (node.attr == "tables" and ast.unparse(node.value).endswith("service"))):
                wrong.append(f"{name}:{node.lineno} {ast.unparse(node)}")
            elif isinstance(node, ast.ImportFrom) and any(alias.name == "LiveTable" for alias in node.names):
                wrong.append(f"{name}:{node.lineno} imports LiveTable")
    assert wrong == []


def test_no_module_is_over_500_lines() -> None:
    lines = {name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in MODULES.items()}
    assert {name: n for name, n in lines.items() if n > 500} == {}


def _undocumented(tree: ast.AST, where: str) -> list[str]:
    """The public functions, methods and classes of a module without a docstring, as where:line name."""
    missing: list[str] = []

    def walk(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            public = not getattr(child, "name", "_").startswith("_")
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and public:
                if ast.get_docstring(child) is None:
                    missing.append(f"{where}:{child.lineno} {prefix}{child.name}")
                if isinstance(child, ast.ClassDef):
                    walk(child, f"{prefix}{child.name}.")

    walk(tree, "")
    return missing


def test_every_public_function_and_class_has_a_docstring() -> None:
    """Every public function, method and class of bot/, cogs/ and renderers/ says what it does."""
    assert [line for path in MODULES.values() for line in
            _undocumented(ast.parse(path.read_text(encoding="utf-8")), str(path.relative_to(ROOT)))] == []


def test_the_check_finds_a_missing_docstring() -> None:
    tree = ast.parse('class A:\n    """Doc."""\n    def f(self):\n        return 1\n\ndef _g():\n    pass\n')
    assert _undocumented(tree, "m.py") == ["m.py:3 A.f"]


def test_no_test_module_imports_another_and_helpers_live_in_support() -> None:
    """What tests share is in tests/support; a test module importing another runs that module's tests' setup twice
    and hides where a helper lives."""
    tests = ROOT / "tests"
    names = {p.stem for p in tests.rglob("test_*.py")}
    wrong: list[str] = []
    for path in sorted(tests.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            # any part of the dotted name: `test_x`, `engine.test_x` or `tests.engine.test_x`
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                imported = set(node.module.split("."))
            elif isinstance(node, ast.Import):
                imported = {part for alias in node.names for part in alias.name.split(".")}
            else:
                continue
            wrong += [f"{path.relative_to(ROOT)} imports {m}" for m in sorted(imported & names)]
    strays = sorted(str(p.relative_to(ROOT)) for p in tests.rglob("*.py")
                    if not p.name.startswith("test_") and p.name != "conftest.py"
                    and "support" not in p.relative_to(tests).parts)
    assert wrong == [] and strays == []



# Where a test module lives: the folder of the layer it tests (named as in the Layout of README.md), the offline-Discord
# tests, or the house's own rules (this module, the seam).
TEST_FOLDERS = {"engine": "bot/engine", "ai": "bot/ai", "store": "bot/store", "service": "bot/service",
                "cli": "bot/cli", "cogs": "cogs", "renderers": "renderers", "e2e": None, "house": None}


def test_every_test_module_lives_in_the_folder_of_its_layer() -> None:
    """tests/ mirrors the house: each test module is in tests/<layer>/ (one level, no deeper), in tests/e2e or in
    tests/house, none loose at tests/; each layer's folder is named after a package that exists."""
    tests = ROOT / "tests"
    misplaced = sorted(str(p.relative_to(tests)) for p in tests.rglob("test_*.py")
                       if "support" not in p.relative_to(tests).parts
                       and (len(p.relative_to(tests).parts) != 2 or p.relative_to(tests).parts[0] not in TEST_FOLDERS))
    unknown_layers = sorted(f"{folder} -> {source}" for folder, source in TEST_FOLDERS.items()
                            if source is not None and not (ROOT / source / "__init__.py").is_file())
    assert misplaced == [] and unknown_layers == []

# -- the Discord layer's rooms ----------------------------------------------------------------------------------------
COG_ROOMS = ("cogs.commands", "cogs.press", "cogs.show")
WIRING = "cogs.app"  # the one module that builds the parts and holds them
# What the wiring hands out: no other module of cogs/ reaches one of these through the bot or an interaction's client.
PARTS = frozenset({"door", "drawing", "presenter", "dms", "keeper", "controls", "router", "poster", "cluster",
                   "service", "leagues", "settings"})
# The engine's vocabulary the cogs may use directly (pure values and words); everything else goes through the service.
ENGINE_VOCABULARY = ("bot.engine.tiles", "bot.engine.notation", "bot.engine.errors", "bot.engine.actions",
                     "bot.engine.payloads", "bot.engine.views", "bot.engine.wording", "bot.ai.players")


def test_the_discord_layer_is_in_rooms_by_role() -> None:
    loose = sorted(name for name, path in MODULES.items() if name.count(".") == 1 and name.startswith("cogs.")
                   and path.name != "__init__.py")
    rooms = [room for room in COG_ROOMS if (ROOT / room.replace(".", "/") / "__init__.py").is_file()]
    assert rooms == list(COG_ROOMS) and len(loose) <= 8, loose
    assert not [name for name in MODULES if name.count(".") > 2 and name.startswith("cogs.")], "one level of rooms"


def _reaches_through_the_bot(node: ast.AST) -> bool:
    """``bot.door``, ``self.bot.presenter``, ``interaction.client.service``: a part taken from the bot."""
    if not (isinstance(node, ast.Attribute) and node.attr in PARTS):
        return False
    owner = node.value
    name = owner.attr if isinstance(owner, ast.Attribute) else owner.id if isinstance(owner, ast.Name) else ""
    return name in ("bot", "client", "_client")


def test_no_part_is_reached_through_the_bot_outside_the_wiring() -> None:
    wrong = [f"{name}:{node.lineno} {ast.unparse(node)}" for name, path in MODULES.items()
             if _under(name, "cogs") and name != WIRING
             for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))) if _reaches_through_the_bot(node)]
    assert wrong == []


def test_the_reach_check_sees_what_it_looks_for() -> None:
    caught = [_reaches_through_the_bot(ast.parse(text, mode="eval").body) for text in
              ("self.bot.presenter", "interaction.client.door", "bot.service", "self.door", "bot.user")]
    assert caught == [True, True, True, False, False]


def test_the_cogs_use_only_the_engines_vocabulary_beside_the_service() -> None:
    wrong = sorted(f"{name} imports {target}" for name, targets in ALL_IMPORTS.items() if _under(name, "cogs")
                   for target in targets if (_under(target, "bot.engine") or _under(target, "bot.ai"))
                   and not any(_under(target, allowed) for allowed in ENGINE_VOCABULARY))
    assert wrong == []


# -- complexity -------------------------------------------------------------------------------------------------------
MAX_COMPLEXITY = 25  # radon's cyclomatic complexity of one function (a branch, a loop, a boolean operand: +1 each)
SIMPLE = ("cogs", "bot.service")


@pytest.mark.parametrize("layer", SIMPLE)
def test_no_function_is_too_tangled_to_read(layer: str) -> None:
    tangled = sorted(f"{name}:{block.lineno} {block.name} {block.complexity}" for name, path in MODULES.items()
                     if _under(name, layer) for block in cc_visit(path.read_text(encoding="utf-8"))
                     if block.complexity > MAX_COMPLEXITY)
    assert tangled == []


def test_the_complexity_check_counts_branches() -> None:
    source = "def f(x):\n" + "".join(f"    if x == {n}:\n        return {n}\n" for n in range(30)) + "    return 0\n"
    assert cc_visit(source)[0].complexity == 31
