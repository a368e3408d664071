#!/usr/bin/env bash
# Release builds for the ACP registry, on any machine (no CI vendor needed).
#
#   scripts/release.sh [TARGET...]        default: x86_64-unknown-linux-musl
#
# For each target: `cargo build --profile dist --locked --target TARGET` (Cargo.toml's shipping
# profile: release + fat LTO, one codegen unit, opt-level s, stripped), strip again if needed, check it
# (size ≤ 15 MB; a musl build must be static; a binary this machine can run must answer
# --version), pack dist/hermes-acp-<version>-<target>.tar.gz (.zip for Windows) with README.md
# and LICENSE, write <archive>.sha256, and finally rewrite acp_registry/agent.json so that its
# `distribution.binary` lists exactly the targets built and checked here, with their URLs and
# digests. Archives stay out of git (dist/ is ignored); upload them to the GitHub release
# v<version>, then commit the manifest.
#
# Needs: rustup targets (`rustup target add x86_64-unknown-linux-musl`), a C compiler for the
# target (Debian: `apt-get install musl-tools`) for the bundled SQLite and ring, jq, sha256sum
# (or shasum), tar, and zip for Windows targets.
set -euo pipefail

cd "$(dirname "$0")/.."
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(x86_64-unknown-linux-musl)

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n1)
repo_url=$(sed -n 's/^repository = "\(.*\)"/\1/p' Cargo.toml | head -n1)
max_bytes=$((15 * 1024 * 1024))
dist=dist
manifest=acp_registry/agent.json
mkdir -p "$dist"

die() { echo "release: $*" >&2; exit 1; }
sha256() { if command -v sha256sum >/dev/null; then sha256sum "$1"; else shasum -a 256 "$1"; fi | cut -d' ' -f1; }

# The registry's platform key for a Rust target triple.
platform() {
  case "$1" in
    x86_64-unknown-linux-*) echo linux-x86_64 ;;
    aarch64-unknown-linux-*) echo linux-aarch64 ;;
    x86_64-apple-darwin) echo darwin-x86_64 ;;
    aarch64-apple-darwin) echo darwin-aarch64 ;;
    x86_64-pc-windows-*) echo windows-x86_64 ;;
    aarch64-pc-windows-*) echo windows-aarch64 ;;
    *) die "no registry platform for target $1" ;;
  esac
}

entries="{}"
for target in "${targets[@]}"; do
  key=$(platform "$target")
  exe=hermes-acp
  case "$target" in *windows*) exe=hermes-acp.exe ;; esac

  # The cc crate finds the target's C compiler by these names; musl-gcc is Debian's wrapper.
  env_target=${target//-/_}
  if [[ $target == *-linux-musl ]] && command -v musl-gcc >/dev/null; then
    export "CC_${env_target}=${CC:-musl-gcc}"
  fi
  echo "==> building $target"
  cargo build --profile dist --locked --target "$target"

  binary="${CARGO_TARGET_DIR:-target}/$target/dist/$exe"
  [ -f "$binary" ] || die "no binary at $binary"
  stage=$(mktemp -d)
  cp "$binary" "$stage/$exe"
  # The profile strips already; this catches a toolchain that ignored it. PE needs mingw's strip.
  strip_tool=strip
  [[ $target == *windows-gnu ]] && command -v x86_64-w64-mingw32-strip >/dev/null && strip_tool=x86_64-w64-mingw32-strip
  "$strip_tool" "$stage/$exe" 2>/dev/null || echo "release: could not strip $exe for $target; packing it unstripped" >&2

  size=$(wc -c <"$stage/$exe")
  [ "$size" -le "$max_bytes" ] || die "$target binary is $size bytes, over the 15 MB budget"
  if [[ $target == *-linux-musl ]] && command -v readelf >/dev/null; then
    if readelf -d "$stage/$exe" 2>/dev/null | grep -q NEEDED; then die "$target binary is not static"; fi
  fi
  if [[ $target == "$(rustc -vV | sed -n 's/^host: //p')" || ( $target == x86_64-unknown-linux-musl && $(uname -sm) == "Linux x86_64" ) ]]; then
    reported=$("$stage/$exe" --version)
    [ "$reported" = "hermes-acp $version" ] || die "$target binary reports '$reported', expected 'hermes-acp $version'"
  fi

  cp README.md LICENSE "$stage/"
  case "$target" in
    *windows*) archive="hermes-acp-$version-$target.zip"
               rm -f "$dist/$archive"
               (cd "$stage" && zip -q -X "$OLDPWD/$dist/$archive" "$exe" README.md LICENSE) ;;
    *)         archive="hermes-acp-$version-$target.tar.gz"
               tar -C "$stage" --owner=0 --group=0 --numeric-owner -czf "$dist/$archive" "$exe" README.md LICENSE ;;
  esac
  rm -rf "$stage"
  digest=$(sha256 "$dist/$archive")
  echo "$digest  $archive" >"$dist/$archive.sha256"
  echo "    $archive  $((size / 1024)) KiB stripped  sha256 $digest"

  entries=$(jq --arg key "$key" --arg url "$repo_url/releases/download/v$version/$archive" \
               --arg cmd "./$exe" --arg sha "$digest" \
               '. + {($key): {archive: $url, cmd: $cmd, sha256: $sha}}' <<<"$entries")
done

tmp=$(mktemp)
jq --arg version "$version" --argjson binary "$entries" \
   'del(._comment) | .version = $version | .distribution.binary = $binary' "$manifest" >"$tmp"
mv "$tmp" "$manifest"
echo "==> $manifest now lists: $(jq -r '.distribution.binary | keys | join(", ")' "$manifest")"
