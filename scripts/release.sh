#!/usr/bin/env bash
# Release archives for every ACP registry platform, built on one Linux x86_64 machine.
#
#   scripts/release.sh [TARGET...]   build, check, pack (default: the five targets below)
#   scripts/release.sh --check       rebuild nothing; verify dist/ (scripts/check-dist.sh)
#
#   target                      registry key     C parts (bundled SQLite, ring, mimalloc) and linker
#   x86_64-unknown-linux-musl   linux-x86_64     Debian's musl-gcc (musl-tools), static
#   aarch64-unknown-linux-musl  linux-aarch64    zig cc through cargo-zigbuild, static
#   x86_64-pc-windows-gnu       windows-x86_64   zig cc (mingw-w64 headers and import libraries)
#   aarch64-apple-darwin        darwin-aarch64   zig cc + framework stubs (scripts/macos_frameworks.py)
#   x86_64-apple-darwin         darwin-x86_64    same
#
# Each target: `--locked` build with the `dist` profile (fat LTO, one codegen unit, opt-level z,
# stripped), size ≤ 15 MB, Linux builds static, a binary this machine runs answers --version;
# packed as dist/hermes-acp-<version>-<target>.tar.gz (.zip for Windows) with README.md and
# LICENSE, plus <archive>.sha256. Then acp_registry/agent.json is rewritten: `distribution.binary`
# lists every archive of this version in dist/ with its URL and digest, `distribution.npx` the
# npm launcher at this version. Start a release from an empty dist/. Then scripts/package.py
# makes the npm packages and wheels from these archives, and `--check` verifies all of it.
# Upload the archives to the GitHub release v<version>, publish the packages, commit the manifest.
#
# Needs: rustup targets (`rustup target add <target>`), `pip install ziglang cargo-zigbuild`,
# Debian's musl-tools, jq, tar, zip, sha256sum and python3. docs/install.md explains the choices.
set -euo pipefail

cd "$(dirname "$0")/.."
if [ "${1:-}" = "--check" ]; then
  shift
  exec scripts/check-dist.sh "$@"
fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(x86_64-unknown-linux-musl aarch64-unknown-linux-musl
  x86_64-pc-windows-gnu aarch64-apple-darwin x86_64-apple-darwin)

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n1)
repo_url=$(sed -n 's/^repository = "\(.*\)"/\1/p' Cargo.toml | head -n1)
max_bytes=$((15 * 1024 * 1024))
dist=dist
manifest=acp_registry/agent.json
target_dir=${CARGO_TARGET_DIR:-target}
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

# Builds one target with the toolchain the table above names.
build() {
  local target=$1 env_target=${1//-/_}
  if [[ $target == x86_64-unknown-linux-musl ]] && command -v musl-gcc >/dev/null; then
    # The cc crate finds the target's C compiler by this name; musl-gcc is Debian's wrapper.
    CC_x86_64_unknown_linux_musl=${CC:-musl-gcc} cargo build --profile dist --locked --target "$target"
    return
  fi
  command -v cargo-zigbuild >/dev/null || die "$target needs cargo-zigbuild and zig: pip install ziglang cargo-zigbuild"
  if [[ $target == *-apple-darwin ]]; then
    local stubs="$target_dir/macos-frameworks"
    python3 scripts/macos_frameworks.py "$stubs" "$target"
    # A variable of its own, so the musl targets' rustflags in .cargo/config.toml still apply.
    export "CARGO_TARGET_${env_target^^}_RUSTFLAGS=-C link-arg=-F$(cd "$stubs" && pwd)"
    # Rust's own minimum for the target; left unset, zig links for the newest macOS it knows.
    local minimum=11.0
    [[ $target == x86_64-* ]] && minimum=10.12
    export MACOSX_DEPLOYMENT_TARGET=$minimum
  fi
  cargo zigbuild --profile dist --locked --target "$target"
}

for target in "${targets[@]}"; do
  platform "$target" >/dev/null
  exe=hermes-acp
  [[ $target == *windows* ]] && exe=hermes-acp.exe
  echo "==> building $target"
  started=$(date +%s)
  build "$target"
  seconds=$(($(date +%s) - started))

  binary="$target_dir/$target/dist/$exe"
  [ -f "$binary" ] || die "no binary at $binary"
  stage=$(mktemp -d)
  cp "$binary" "$stage/$exe"
  info=$(python3 scripts/binary_info.py "$stage/$exe")
  size=$(wc -c <"$stage/$exe")
  [ "$size" -le "$max_bytes" ] || die "$target binary is $size bytes, over the 15 MB budget"
  if [[ $target == *-linux-* ]] && [ "$(jq '.libraries | length' <<<"$info")" != 0 ]; then
    die "$target binary is not static: $(jq -c .libraries <<<"$info")"
  fi
  if [[ $target == x86_64-unknown-linux-* && $(uname -sm) == "Linux x86_64" ]]; then
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
  echo "    $archive  $((size / 1024)) KiB binary, $(($(wc -c <"$dist/$archive") / 1024)) KiB archive, built in ${seconds}s, sha256 $digest"
done

# The manifest lists every archive of this version that dist/ holds, with its digest.
entries="{}"
for checksum in "$dist"/hermes-acp-"$version"-*.sha256; do
  [ -e "$checksum" ] || continue
  archive=$(basename "$checksum" .sha256)
  target=${archive#hermes-acp-"$version"-}
  target=${target%.tar.gz}
  target=${target%.zip}
  exe=hermes-acp
  [[ $target == *windows* ]] && exe=hermes-acp.exe
  entries=$(jq --arg key "$(platform "$target")" --arg url "$repo_url/releases/download/v$version/$archive" \
               --arg cmd "./$exe" --arg sha "$(cut -d' ' -f1 "$checksum")" \
               '. + {($key): {archive: $url, cmd: $cmd, sha256: $sha}}' <<<"$entries")
done

tmp=$(mktemp)
jq --arg version "$version" --argjson binary "$entries" --arg npx "hermes-acp@$version" \
   'del(._comment) | .version = $version | .distribution.binary = $binary
    | .distribution.npx = {package: $npx}' "$manifest" >"$tmp"
mv "$tmp" "$manifest"
echo "==> $manifest now lists: $(jq -r '.distribution.binary | keys | join(", ")' "$manifest"), npx $(jq -r .distribution.npx.package "$manifest")"
