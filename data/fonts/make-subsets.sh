#!/bin/sh
# Rebuild the font subsets in this folder from Debian's font packages (see README.md here).
#   apt-get update && apt-get install -y fonts-noto-cjk fonts-dejavu-core fonttools
#   sh data/fonts/make-subsets.sh
# The output is byte-for-byte reproducible for the same package versions.
set -eu
here=$(dirname "$0")

# The tile characters only: Chinese numerals 1-9, 萬 (Craks), the winds 東南西北, and the dragons 中 發.
# Font number 3 in the collection is Noto Serif CJK TC (traditional forms, as printed on tiles).
pyftsubset /usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc --font-number=3 \
    --text="一二三四五六七八九萬東南西北中發" \
    --layout-features='' --name-IDs='*' \
    --output-file="$here/NotoSerifCJKtc-Bold-tiles.otf"

# Latin for numerals, labels and player names: ASCII, Latin-1, Latin Extended-A, common punctuation,
# arrows, the minus sign, triangles and a star.
latin="U+0020-007E,U+00A0-017F,U+2010-2027,U+2030-203A,U+2122,U+2190-2193,U+2212,U+25B2,U+25B6,U+25BC,U+25C0,U+2605"
for face in DejaVuSans-Bold DejaVuSans; do
    pyftsubset "/usr/share/fonts/truetype/dejavu/$face.ttf" --unicodes="$latin" \
        --layout-features='kern' --name-IDs='*' --no-hinting \
        --output-file="$here/$face-subset.ttf"
done

# Monospace, for the README's pictures of Discord messages only (tests/support/discord_markdown.py): Discord draws
# ``` code blocks and `inline code` in a monospace font, and a table in a code block only lines up in one.
pyftsubset /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf --unicodes="$latin" \
    --layout-features='kern' --name-IDs='*' --no-hinting \
    --output-file="$here/DejaVuSansMono-subset.ttf"
