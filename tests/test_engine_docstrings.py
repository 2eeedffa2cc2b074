"""Every public function, method and class of the engine says in one line what it does (the house standards)."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "bot" / "engine"


def _undocumented(tree: ast.Module, module: str) -> list[str]:
    """Public classes, functions and methods (names without a leading underscore) that have no docstring."""
    missing: list[str] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if child.name.startswith("_"):
                    continue
                if ast.get_docstring(child) is None:
                    missing.append(f"{module}:{child.lineno} {prefix}{child.name}")
                if isinstance(child, ast.ClassDef):
                    visit(child, f"{prefix}{child.name}.")

    visit(tree, "")
    return missing


def test_every_public_engine_name_has_a_docstring() -> None:
    missing: list[str] = []
    for path in sorted(ENGINE.glob("*.py")):
        missing += _undocumented(ast.parse(path.read_text(encoding="utf-8")), path.name)
    assert not missing, "public engine code without a docstring:\n" + "\n".join(missing)


def test_the_check_finds_a_missing_docstring() -> None:
    tree = ast.parse('class A:\n    """Doc."""\n    def f(self):\n        return 1\n\ndef _g():\n    pass\n')
    assert _undocumented(tree, "m.py") == ["m.py:3 A.f"]
