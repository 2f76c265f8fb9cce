"""``python -m tapete <command>``: the engine's command-line tools.

``review <record.json> [--seat N]``  judge a seat's decisions (:mod:`tapete.review.cli`)
``lab ...``                          the playtest lab (the same as ``python -m tapete.lab``)
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

COMMANDS = ("review", "lab")


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] not in COMMANDS:
        print(f"usage: python -m tapete {{{','.join(COMMANDS)}}} ...", file=sys.stderr)
        return 2
    if args[0] == "review":
        from .review.cli import main as review_main

        return review_main(args[1:])
    from .lab import main as lab_main

    return lab_main(args[1:])


if __name__ == "__main__":
    sys.exit(main())
