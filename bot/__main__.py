"""``python -m bot`` and the ``charleston`` command."""

from bot.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
