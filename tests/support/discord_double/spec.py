"""Request-body validation against Discord's official OpenAPI spec (read once, validators cached per route)."""

from __future__ import annotations

import copy
import json
import os
from collections import OrderedDict
from collections.abc import Iterable
from functools import lru_cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC_ENV = "CHARLESTON_DISCORD_SPEC"
SPEC_URI = "urn:discord-openapi"
# Repository root is three levels above this package (tests/support/discord_double).
DEFAULT_SPEC = Path(__file__).resolve().parents[3].parent / "shared" / "discord-openapi.json"

# Discord's error codes for the JSON-schema keywords that can fail.
_CODES = {
    "maxLength": "BASE_TYPE_BAD_LENGTH",
    "minLength": "BASE_TYPE_BAD_LENGTH",
    "maxItems": "BASE_TYPE_MAX_LENGTH",
    "minItems": "BASE_TYPE_MIN_LENGTH",
    "required": "BASE_TYPE_REQUIRED",
    "maximum": "NUMBER_TYPE_MAX",
    "minimum": "NUMBER_TYPE_MIN",
    "enum": "BASE_TYPE_CHOICES",
    "const": "BASE_TYPE_CHOICES",
    "pattern": "STRING_TYPE_REGEX",
    "type": "BASE_TYPE_BAD_TYPE",
    "maxProperties": "BASE_TYPE_MAX_LENGTH",
    "uniqueItems": "BASE_TYPE_UNIQUE",
}


class SpecMissing(RuntimeError):
    """The OpenAPI file is not where the environment (or the default) says."""


def spec_path() -> Path:
    """Where the spec is read from: $CHARLESTON_DISCORD_SPEC, else <repo>/../shared/discord-openapi.json."""
    env = os.environ.get(SPEC_ENV)
    return Path(env) if env else DEFAULT_SPEC


def _relax(spec: dict[str, Any]) -> dict[str, Any]:
    """Loosen the few places where the spec is stricter than what Discord accepts (and discord.py sends)."""
    spec = copy.deepcopy(spec)
    schemas = spec["components"]["schemas"]
    # Discord parses snowflakes given as JSON integers too; discord.py sends attachment ids and some
    # ids as ints.
    snowflake = schemas["SnowflakeType"]
    schemas["SnowflakeType"] = {"anyOf": [snowflake, {"type": "integer", "minimum": 0}]}
    # Permission bit sets are documented as strings ("default_member_permissions": "?string") and
    # discord.py sends them as strings; the spec types them as integers.
    for name in ("ApplicationCommandCreateRequest", "ApplicationCommandUpdateRequest",
                 "ApplicationCommandPatchRequestPartial"):
        props = schemas.get(name, {}).get("properties", {})
        if "default_member_permissions" in props:
            props["default_member_permissions"] = {
                "anyOf": [props["default_member_permissions"], {"type": "string", "pattern": "^[0-9]+$"}]
            }
    # The spec allows 4,000 characters (a Nitro user's limit); a bot is held to 2,000.
    for name in ("MessageCreateRequest", "MessageEditRequestPartial"):
        schemas[name]["properties"]["content"]["maxLength"] = 2000
    return spec


class SpecValidator:
    """Validators for every request body the spec describes, compiled lazily and cached per (method, path)."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.spec = _relax(spec)
        resource = Resource.from_contents(self.spec, default_specification=DRAFT202012)
        self._registry: Registry[Any] = Registry().with_resource(SPEC_URI, resource)
        self._cache: dict[tuple[str, str], Draft202012Validator | None] = {}
        # Bots send the same bodies again and again (a view's components); a body is checked once.
        self._verdicts: OrderedDict[tuple[str, str, str], dict[str, Any] | None] = OrderedDict()

    def has_path(self, path: str) -> bool:
        """True when the spec documents this path template (e.g. ``/channels/{channel_id}/messages``)."""
        return path in self.spec["paths"]

    def validator(self, method: str, path: str) -> Draft202012Validator | None:
        """The validator for a route's JSON body, or None when the route takes no body."""
        key = (method.lower(), path)
        if key not in self._cache:
            self._cache[key] = self._compile(*key)
        return self._cache[key]

    def _compile(self, method: str, path: str) -> Draft202012Validator | None:
        operation = self.spec["paths"].get(path, {}).get(method)
        if not operation or "requestBody" not in operation:
            return None
        content = operation["requestBody"]["content"]
        if "application/json" not in content:
            return None
        pointer = "/".join(_escape(p) for p in ("paths", path, method, "requestBody", "content", "application/json",
                                                   "schema"))
        return Draft202012Validator({"$ref": f"{SPEC_URI}#/{pointer}"}, registry=self._registry)

    def errors(self, method: str, path: str, body: Any) -> dict[str, Any] | None:
        """Discord's ``errors`` tree for an invalid body, or None when the body is valid."""
        key = (method.lower(), path, json.dumps(body, sort_keys=True))
        if key in self._verdicts:
            self._verdicts.move_to_end(key)
            return copy.deepcopy(self._verdicts[key])
        verdict = self._check(method, path, body)
        self._verdicts[key] = verdict
        if len(self._verdicts) > 4096:
            self._verdicts.popitem(last=False)
        return copy.deepcopy(verdict)

    def _check(self, method: str, path: str, body: Any) -> dict[str, Any] | None:
        validator = self.validator(method, path)
        if validator is None:
            return None
        found = list(validator.iter_errors(body))
        tree = error_tree(found) if found else {}
        for where, message in beyond_schema(body):
            _add(tree, where, "BASE_TYPE_INVALID", message)
        return tree or None


def _escape(part: str) -> str:
    return part.replace("~", "~0").replace("/", "~1")


def _leaves(error: ValidationError) -> list[ValidationError]:
    """The errors that explain a failure; for oneOf/anyOf, those of the branch the body meant to match."""
    if error.validator not in ("oneOf", "anyOf") or not error.context:
        return [error]
    branches: dict[int, list[ValidationError]] = {}
    for sub in error.context:
        branches.setdefault(int(sub.relative_schema_path[0]), []).append(sub)
    # A branch whose "type" discriminator (or whole type) does not match is not the one meant.
    meant = [errs for errs in branches.values() if not any(_is_mismatch(e) for e in errs)]
    if not meant:
        return [error]
    best = min(meant, key=len)
    return [leaf for sub in best for leaf in _leaves(sub)]


def _is_mismatch(error: ValidationError) -> bool:
    rel = list(error.relative_path)
    if error.validator in ("enum", "const") and rel == ["type"]:
        return True
    return error.validator == "type" and not rel


def error_tree(errors: Iterable[ValidationError]) -> dict[str, Any]:
    """Turn schema errors into Discord's nested ``errors`` object with ``_errors`` lists at the leaves."""
    tree: dict[str, Any] = {}
    for top in errors:
        for leaf in _leaves(top):
            _add(tree, list(leaf.absolute_path), _CODES.get(str(leaf.validator), "BASE_TYPE_INVALID"),
                 leaf.message[:300])
    return tree


def _add(tree: dict[str, Any], where: list[Any], code: str, message: str) -> None:
    node = tree
    for part in where:
        node = node.setdefault(str(part), {})
    node.setdefault("_errors", []).append({"code": code, "message": message})


def _message_bodies(body: Any) -> list[tuple[list[Any], dict[str, Any]]]:
    """The message-shaped parts of a body: the body itself, or an interaction callback's ``data``."""
    if not isinstance(body, dict):
        return []
    if isinstance(body.get("data"), dict) and "type" in body:
        return [(["data"], body["data"])]
    return [([], body)]


def beyond_schema(body: Any) -> list[tuple[list[Any], str]]:
    """Limits Discord enforces that the schema cannot say: custom_ids unique per message, 6,000 embed chars."""
    problems: list[tuple[list[Any], str]] = []
    for prefix, message in _message_bodies(body):
        seen: set[str] = set()
        for where, custom_id in _custom_ids(message.get("components") or [], [*prefix, "components"]):
            if custom_id in seen:
                problems.append((where, f"custom_id {custom_id!r} is used twice in one message"))
            seen.add(custom_id)
        total = sum(_embed_chars(e) for e in message.get("embeds") or [] if isinstance(e, dict))
        if total > 6000:
            problems.append(([*prefix, "embeds"], f"embeds hold {total} characters; the limit is 6000"))
    return problems


def _custom_ids(components: list[Any], where: list[Any]) -> list[tuple[list[Any], str]]:
    found: list[tuple[list[Any], str]] = []
    for i, comp in enumerate(components):
        found += _custom_ids_in(comp, [*where, i])
    return found


def _custom_ids_in(comp: Any, where: list[Any]) -> list[tuple[list[Any], str]]:
    if not isinstance(comp, dict):
        return []
    found: list[tuple[list[Any], str]] = []
    if isinstance(comp.get("custom_id"), str):
        found.append(([*where, "custom_id"], comp["custom_id"]))
    if isinstance(comp.get("components"), list):
        found += _custom_ids(comp["components"], [*where, "components"])
    for key in ("accessory", "component"):
        found += _custom_ids_in(comp.get(key), [*where, key])
    return found


def _embed_chars(embed: dict[str, Any]) -> int:
    total = len(embed.get("title") or "") + len(embed.get("description") or "")
    total += len((embed.get("footer") or {}).get("text") or "") + len((embed.get("author") or {}).get("name") or "")
    for field in embed.get("fields") or []:
        total += len(field.get("name") or "") + len(field.get("value") or "")
    return total


@lru_cache(maxsize=1)
def load_validator(path: str) -> SpecValidator:
    """Read and prepare the spec once per process (it is over a megabyte)."""
    file = Path(path)
    if not file.is_file():
        raise SpecMissing(
            f"Discord OpenAPI spec not found at {file}: set {SPEC_ENV} to the path of discord-openapi.json"
        )
    return SpecValidator(json.loads(file.read_text(encoding="utf-8")))
