"""Helpers shared by the command modules."""

from __future__ import annotations

import json
from typing import Any


class UsageProblem(Exception):
    """Bad input from the command line: printed as one line on stderr, exit status 2."""


def print_json(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False))
