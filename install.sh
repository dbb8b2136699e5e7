#!/bin/sh
# install.sh: build credence and credence-hook from this checkout, install
# them, wire them into Claude Code (`credence install`) and show the demo.
#
#   ./install.sh                 # into ~/.local/bin
#   PREFIX=/opt/credence ./install.sh   # into /opt/credence/bin
#   ./install.sh --no-install    # build and copy only (or CREDENCE_NO_INSTALL=1)
#   ./install.sh --no-demo       # skip the demo at the end
#
# Needs Go 1.26 or newer and a C compiler (go-libsql links SQLite's C code
# through cgo). Apart from Go modules fetched through the module proxy it
# works offline.
set -eu

MIN_GO_MAJOR=1
MIN_GO_MINOR=26

say() { printf '%s\n' "$*"; }
step() { printf '\n==> %s\n' "$*"; }
die() {
	printf '\ninstall.sh: %s\n' "$*" >&2
	exit 1
}

usage() {
	sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
}

no_install=${CREDENCE_NO_INSTALL:-0}
no_demo=0
for arg in "$@"; do
	case "$arg" in
	--no-install) no_install=1 ;;
	--no-demo) no_demo=1 ;;
	-h | --help)
		usage
		exit 0
		;;
	*) die "unknown option $arg (try --help)" ;;
	esac
done

# Run from the checkout whatever the caller's directory.
cd "$(dirname "$0")"
[ -f go.mod ] && [ -d cmd/credence ] || die "run install.sh from a credence checkout"

os=$(uname -s)
hint_go() {
	case "$os" in
	Darwin) say "  install it with: brew install go   (or from https://go.dev/dl/)" ;;
	*) say "  install it from https://go.dev/dl/ (distribution packages are often older than $MIN_GO_MAJOR.$MIN_GO_MINOR)" ;;
	esac
}
hint_cc() {
	if [ "$os" = Darwin ]; then
		say "  install one with: xcode-select --install"
	elif [ -f /etc/alpine-release ]; then
		say "  install one with: apk add build-base"
	elif command -v apt-get >/dev/null 2>&1; then
		say "  install one with: sudo apt-get install build-essential"
	elif command -v dnf >/dev/null 2>&1; then
		say "  install one with: sudo dnf install gcc"
	elif command -v pacman >/dev/null 2>&1; then
		say "  install one with: sudo pacman -S base-devel"
	else
		say "  install gcc or clang with your package manager"
	fi
}

step "Checking the build tools"
missing=0
if ! command -v go >/dev/null 2>&1; then
	say "✗ Go is not installed (credence needs Go $MIN_GO_MAJOR.$MIN_GO_MINOR or newer)."
	hint_go
	missing=1
else
	goversion=$(go env GOVERSION 2>/dev/null || true)
	ver=${goversion#go}
	major=${ver%%.*}
	rest=${ver#*.}
	minor=${rest%%[!0-9]*}
	case "$major$minor" in
	*[!0-9]* | "")
		say "? could not read the Go version from '$goversion'; trying anyway"
		;;
	*)
		if [ "$major" -gt "$MIN_GO_MAJOR" ] || { [ "$major" -eq "$MIN_GO_MAJOR" ] && [ "$minor" -ge "$MIN_GO_MINOR" ]; }; then
			say "✓ $goversion"
		elif [ "$major" -eq 1 ] && [ "$minor" -ge 21 ] && [ "$(go env GOTOOLCHAIN)" != local ]; then
			say "✓ $goversion is older than $MIN_GO_MAJOR.$MIN_GO_MINOR; the go command will fetch the toolchain go.mod asks for through the module proxy"
		else
			say "✗ $goversion is too old: credence needs Go $MIN_GO_MAJOR.$MIN_GO_MINOR or newer."
			hint_go
			missing=1
		fi
		;;
	esac
fi

# The compiler cgo will use: $CC, else the go command's default. Passing
# CC only when the caller set it keeps the build cache shared with go test.
cc=${CC:-}
if [ -z "$cc" ] && command -v go >/dev/null 2>&1; then
	cc=$(go env CC 2>/dev/null || true)
fi
if [ -z "$cc" ] || ! command -v "$cc" >/dev/null 2>&1; then
	for c in cc gcc clang; do
		if command -v "$c" >/dev/null 2>&1; then
			cc=$c
			break
		fi
	done
fi
if [ -z "$cc" ] || ! command -v "$cc" >/dev/null 2>&1; then
	say "✗ no C compiler found: go-libsql builds SQLite's C code with cgo."
	hint_cc
	missing=1
else
	probe=$(mktemp -d "${TMPDIR:-/tmp}/credence-cc.XXXXXX")
	printf 'int main(void) { return 0; }\n' >"$probe/probe.c"
	if "$cc" "$probe/probe.c" -o "$probe/probe" >/dev/null 2>&1; then
		say "✓ C compiler: $cc"
	else
		say "✗ $cc is installed but cannot build a C program (missing C library headers?)."
		hint_cc
		missing=1
	fi
	rm -rf "$probe"
fi

case "$os/$(uname -m)" in
Linux/x86_64 | Linux/aarch64 | Linux/arm64 | Darwin/x86_64 | Darwin/arm64) ;;
*) say "! go-libsql ships prebuilt libraries for Linux and macOS on amd64 and arm64 only; $os/$(uname -m) may not build" ;;
esac
[ "$missing" -eq 0 ] || die "install the missing tools above, then run ./install.sh again"

prefix=${PREFIX:-$HOME/.local}
bindir=$prefix/bin
mkdir -p "$bindir"

step "Building credence and credence-hook (cgo)"
if [ "$cc" != "$(go env CC 2>/dev/null || true)" ]; then
	export CC="$cc"
fi
build_dir=$(mktemp -d "${TMPDIR:-/tmp}/credence-build.XXXXXX")
trap 'rm -rf "$build_dir"' EXIT
CGO_ENABLED=1 go build -o "$build_dir/credence" ./cmd/credence ||
	die "building credence failed (see the compiler output above)"
CGO_ENABLED=1 go build -o "$build_dir/credence-hook" ./cmd/credence-hook ||
	die "building credence-hook failed (see the compiler output above)"
# The in-process hook handler alone: credence-hook execs it when no agent
# answers (it starts faster than credence; docs/BENCHMARKS.md, Speed).
CGO_ENABLED=1 go build -o "$build_dir/credence-hook-local" ./cmd/credence-hook-local ||
	die "building credence-hook-local failed (see the compiler output above)"
say "✓ built"

step "Installing into $bindir"
# Copy beside the target, then rename, so a running agent or hook keeps its
# old binary and the next start gets the new one.
for b in credence credence-hook credence-hook-local; do
	cp "$build_dir/$b" "$bindir/.$b.new"
	chmod 0755 "$bindir/.$b.new"
	mv -f "$bindir/.$b.new" "$bindir/$b"
	say "✓ $bindir/$b"
done
case ":${PATH}:" in
*":$bindir:"*) ;;
*) say "! $bindir is not on your PATH; add this to your shell profile:  export PATH=\"$bindir:\$PATH\"" ;;
esac

if [ "$no_install" = 1 ]; then
	step "Skipping credence install (--no-install); run $bindir/credence install to wire it into Claude Code"
else
	step "Wiring credence into Claude Code"
	"$bindir/credence" install || die "credence install reported a problem (above); fix it and run $bindir/credence install"
fi

if [ "$no_demo" = 0 ]; then
	step "A first look: credence demo"
	"$bindir/credence" demo || die "the demo failed; run $bindir/credence doctor"
fi

say ""
say "Done. Next: start Claude Code in a project; run 'credence doctor' if anything looks off."
