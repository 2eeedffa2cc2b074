"""The learned player's evaluation: per kind of decision, a score for each rack a choice leads to.

Three kinds of decision (*groups*), each scored from its own inputs (see :func:`inputs`):

* ``charleston``: a pass or the courtesy offer, scored on the rack kept and how many unknown tiles come in;
* ``vote``: stopping the second Charleston, scored on the rack as it is (going on scores 0);
* ``play``: a discard, a call (the rack after the exposure and the best discard after it), a joker exchange
  (likewise), scored on the rack after the discard, how far the wall has run, the risk the discard hands an
  opponent Mah Jongg, and whether the choice exposed a group.

A model is a weight vector per group (linear in the inputs), fitted by ``charleston train`` to each choice's
effect on the game's chips (bot/cli/training.py). It is kept as a small JSON file in ``data/models/`` and loaded
once per process.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from .features import LINE_FEATURES
from .outlook import FloatArray

GROUPS = ("charleston", "vote", "play")
NX = len(LINE_FEATURES)
NORMAL_WORTH = LINE_FEATURES.index("normal_worth")
MODEL_PATH = Path(__file__).resolve().parents[2] / "data" / "models" / "learned.json"


def input_names(group: str) -> list[str]:
    """The names of a group's inputs, in order."""
    if group == "charleston":
        return [*LINE_FEATURES, *(f"{n}*incoming" for n in LINE_FEATURES), "incoming"]
    if group == "vote":
        return ["stop", *(f"stop*{n}" for n in LINE_FEATURES)]
    return [*LINE_FEATURES, *(f"{n}*wall" for n in LINE_FEATURES), "risk", "risk*late", "exposed",
            "exposed*wall"]


def inputs(group: str, x: FloatArray, *, incoming: FloatArray | float = 0.0, wall: float = 1.0,
           risk: FloatArray | float = 0.0, exposed: FloatArray | float = 0.0) -> FloatArray:
    """A group's inputs for ``C`` candidate racks with line features ``x`` (``(C, NX)``).

    ``incoming``: unknown tiles the rack will receive (a pass's or offer's), in threes; ``wall``: the share of
    the wall left to draw (about 1 at the first discard); ``risk``: the chance the discard hands an opponent Mah
    Jongg; ``exposed``: groups this seat has exposed (a call adds one).
    """
    rows = x.shape[0]
    if group == "charleston":
        inc = np.broadcast_to(np.asarray(incoming, dtype=np.float64), (rows,))[:, None]
        return np.hstack([x, x * inc, inc])
    if group == "vote":
        return np.hstack([np.ones((rows, 1)), x])
    r = np.broadcast_to(np.asarray(risk, dtype=np.float64), (rows,))[:, None]
    e = np.broadcast_to(np.asarray(exposed, dtype=np.float64), (rows,))[:, None]
    return np.hstack([x, x * wall, r, r * (1.0 - wall), e, e * wall])


@dataclass(frozen=True)
class Model:
    """Weights per rules preset and group; ``info`` says how the model was made."""

    weights: dict[str, dict[str, FloatArray]]
    info: dict[str, object] = field(default_factory=dict)

    def for_preset(self, preset: str) -> dict[str, FloatArray]:
        """The weights for a rules preset (NMJL's for a preset the model was not trained on)."""
        return self.weights.get(preset) or self.weights.get("nmjl") or next(iter(self.weights.values()))

    def to_json(self) -> dict[str, object]:
        """The model as plain JSON."""
        return {"format": 1, "info": self.info, "groups": {g: input_names(g) for g in GROUPS},
                "weights": {p: {g: [round(float(v), 6) for v in w] for g, w in groups.items()}
                            for p, groups in self.weights.items()}}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Model:
        """A model written by :meth:`to_json`; raises ValueError if it does not fit this version's inputs."""
        weights = data.get("weights")
        if data.get("format") != 1 or not isinstance(weights, dict) or not weights:
            raise ValueError("not a learned-player model file")
        loaded: dict[str, dict[str, FloatArray]] = {}
        for preset, groups in weights.items():
            if not isinstance(groups, dict) or set(groups) != set(GROUPS):
                raise ValueError(f"model for {preset!r} lacks a group")
            loaded[str(preset)] = {}
            for group in GROUPS:
                w = np.asarray(groups[group], dtype=np.float64)
                if w.shape != (len(input_names(group)),):
                    raise ValueError(f"model for {preset!r}, {group}: {w.shape[0]} weights, expected "
                                     f"{len(input_names(group))}")
                loaded[str(preset)][group] = w
        info = data.get("info")
        return cls(loaded, dict(info) if isinstance(info, dict) else {})

    def save(self, path: Path) -> None:
        """Write the model as JSON."""
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")


def normal_like(presets: tuple[str, ...] = ("nmjl", "nmjl-1946")) -> Model:
    """The starting model: ``normal``'s own measure (the log of its worth) for passes and play, never a stop. It
    chooses as ``normal`` does, up to ties; training starts its exploration from it."""
    weights: dict[str, dict[str, FloatArray]] = {}
    for preset in presets:
        groups = {g: np.zeros(len(input_names(g))) for g in GROUPS}
        groups["charleston"][NORMAL_WORTH] = 1.0
        groups["play"][NORMAL_WORTH] = 1.0
        groups["vote"][0] = -1.0
        weights[preset] = groups
    return Model(weights, {"made_by": "normal_like"})


@lru_cache(maxsize=4)
def load_model(path: Path = MODEL_PATH) -> Model:
    """The model in ``path``, read once per process."""
    return Model.from_json(json.loads(path.read_text(encoding="utf-8")))
