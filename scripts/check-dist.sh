#!/usr/bin/env bash
# Verifies what dist/ holds for this version, rebuilding nothing (`scripts/release.sh --check`).
#
# For every archive: its digest equals its .sha256 file and the manifest's entry; it holds the
# binary, README.md and LICENSE; the binary's object format and architecture are the target's
# (read from its headers by scripts/binary_info.py); the libraries it loads are the system's
# only (Linux: none, it is static; Windows: system DLLs; macOS: libSystem and system frameworks).
# Then it runs what this machine can run, through scripts/probe.py (the registry's probe with an
# empty HOME, then a prompt against a mock provider):
#   linux-x86_64    natively
#   linux-aarch64   under qemu-user (`qemu-aarch64-static`, Debian's qemu-user-static)
#   windows-x86_64  under Wine (Debian's wine), headless, in a throwaway prefix; Wine < 9 lacks
#                   bcryptprimitives.dll, so a shim (scripts/wine/) is built with mingw-w64 gcc
#   darwin-*        not run: nothing here executes Mach-O; the header and library checks only
# An emulator that is missing is reported as not run, not as passed. Finally the npm packages
# and wheels scripts/package.py made, when present: the platform package and the wheel of each
# platform carry the archive's binary byte for byte.
set -euo pipefail

cd "$(dirname "$0")/.."
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n1)
dist=dist
manifest=acp_registry/agent.json
failures=0
checked=0

fail() { echo "    FAIL: $*"; failures=$((failures + 1)); }
sha256() { if command -v sha256sum >/dev/null; then sha256sum "$1"; else shasum -a 256 "$1"; fi | cut -d' ' -f1; }

# target → "format arch registry-key npm-package"
describe() {
  case "$1" in
    x86_64-unknown-linux-musl) echo "elf x86_64 linux-x86_64 linux-x64" ;;
    aarch64-unknown-linux-musl) echo "elf aarch64 linux-aarch64 linux-arm64" ;;
    x86_64-pc-windows-gnu) echo "pe x86_64 windows-x86_64 win32-x64" ;;
    aarch64-apple-darwin) echo "macho aarch64 darwin-aarch64 darwin-arm64" ;;
    x86_64-apple-darwin) echo "macho x86_64 darwin-x86_64 darwin-x64" ;;
    *) echo "" ;;
  esac
}

# Libraries a binary may load on its system: anything else would have to be installed by the user.
system_library() {
  case "$1:$2" in
    elf:*) return 1 ;;
    pe:*) [[ ${2,,} =~ ^(api-ms-win-.*|kernel32|ntdll|ws2_32|advapi32|bcrypt|bcryptprimitives|userenv|msvcrt|ucrtbase|ole32|oleaut32|shell32|user32|crypt32|secur32|iphlpapi|synchronization|dbghelp|psapi|ncrypt|mswsock)\.dll$ ]] ;;
    macho:*) [[ $2 == /usr/lib/libSystem.B.dylib || $2 == /usr/lib/libiconv.2.dylib || $2 == /usr/lib/libcharset.1.dylib || $2 == /usr/lib/libresolv.9.dylib \
                || $2 == /usr/lib/libc++.1.dylib || $2 == /usr/lib/libobjc.A.dylib || $2 == /System/Library/Frameworks/* ]] ;;
  esac
}

run_probe() {
  local label=$1; shift
  if python3 scripts/probe.py "$@"; then echo "    ran: $label"; else fail "$label"; fi
}

shopt -s nullglob
archives=("$dist"/hermes-acp-"$version"-*.tar.gz "$dist"/hermes-acp-"$version"-*.zip)
[ ${#archives[@]} -gt 0 ] || { echo "check: no archives of version $version in $dist/ (scripts/release.sh builds them)"; exit 1; }

for archive in "${archives[@]}"; do
  name=$(basename "$archive")
  target=${name#hermes-acp-"$version"-}
  target=${target%.tar.gz}
  target=${target%.zip}
  read -r format arch key npm_suffix <<<"$(describe "$target")"
  echo "==> $name"
  [ -n "$format" ] || { fail "unknown target $target"; continue; }
  checked=$((checked + 1))
  exe=hermes-acp
  [ "$format" = pe ] && exe=hermes-acp.exe

  digest=$(sha256 "$archive")
  [ "$digest" = "$(cut -d' ' -f1 "$archive.sha256" 2>/dev/null)" ] || fail "digest differs from $name.sha256"
  [ "$digest" = "$(jq -r --arg k "$key" '.distribution.binary[$k].sha256' "$manifest")" ] \
    || fail "the manifest's $key entry does not name this archive's digest"
  [ "$(jq -r --arg k "$key" '.distribution.binary[$k].archive' "$manifest")" = "$(jq -r .repository "$manifest")/releases/download/v$version/$name" ] \
    || fail "the manifest's $key URL is not this archive's"

  unpacked=$(mktemp -d)
  case "$name" in
    *.zip) unzip -q "$archive" -d "$unpacked" ;;
    *) tar -xzf "$archive" -C "$unpacked" ;;
  esac
  for file in "$exe" README.md LICENSE; do [ -f "$unpacked/$file" ] || fail "$name lacks $file"; done
  binary="$unpacked/$exe"
  [ -f "$binary" ] || { rm -rf "$unpacked"; continue; }

  info=$(python3 scripts/binary_info.py "$binary")
  [ "$(jq -r .format <<<"$info")" = "$format" ] || fail "format $(jq -r .format <<<"$info"), expected $format"
  [ "$(jq -r .arch <<<"$info")" = "$arch" ] || fail "architecture $(jq -r .arch <<<"$info"), expected $arch"
  [[ $(jq -r .kind <<<"$info") == executable* ]] || fail "not an executable: $(jq -r .kind <<<"$info")"
  libraries=$(jq -r '.libraries[]' <<<"$info")
  [ "$format" != elf ] || [ "$(jq -r .interpreter <<<"$info")" = null ] || fail "has an ELF interpreter: not static"
  for library in $libraries; do system_library "$format" "$library" || fail "loads $library, not a system library"; done
  echo "    $(file -b "$binary" 2>/dev/null | cut -c1-100 || jq -r '.format + " " + .arch' <<<"$info")"
  echo "    $(($(wc -c <"$binary") / 1024)) KiB; loads: $(jq -r 'if .libraries == [] then "nothing (static)" else .libraries | join(", ") end' <<<"$info")"

  case "$key" in
    linux-x86_64)
      if [ "$(uname -sm)" = "Linux x86_64" ]; then run_probe "natively" "$binary"; else echo "    not run: this is not Linux x86_64"; fi ;;
    linux-aarch64)
      if command -v qemu-aarch64-static >/dev/null; then run_probe "under qemu-aarch64-static" --runner qemu-aarch64-static "$binary"
      else echo "    not run: qemu-aarch64-static is missing (apt-get install qemu-user-static)"; fi ;;
    windows-x86_64)
      if command -v wine >/dev/null; then
        wine_version=$(wine --version 2>/dev/null)
        shim=""
        # Rust's std imports ProcessPrng from bcryptprimitives.dll (Windows 10+); Wine has it
        # from 9.0 on. For an older Wine, a shim built here sits next to the binary under test.
        if [[ $wine_version =~ ^wine-([0-9]+) ]] && [ "${BASH_REMATCH[1]}" -lt 9 ]; then
          x86_64-w64-mingw32-gcc -O2 -shared -o "$unpacked/bcryptprimitives.dll" scripts/wine/bcryptprimitives.c -ladvapi32 \
            && shim=", with scripts/wine/bcryptprimitives.c for its missing bcryptprimitives.dll" \
            || fail "$wine_version lacks bcryptprimitives.dll and x86_64-w64-mingw32-gcc could not build the shim"
        fi
        prefix=$(mktemp -d)
        WINEPREFIX=$prefix WINEDEBUG=-all run_probe "under $wine_version (headless, fresh prefix$shim)" --runner wine --windows-paths "$binary"
        WINEPREFIX=$prefix wineserver -k 2>/dev/null || true
        rm -rf "$prefix"
      else echo "    not run: wine is missing (apt-get install wine)"; fi ;;
    darwin-*)
      minimum=11.0
      [ "$key" = darwin-x86_64 ] && minimum=10.12
      [ "$(jq -r .minimum_macos <<<"$info")" = "$minimum" ] || fail "built for macOS $(jq -r .minimum_macos <<<"$info"), not $minimum"
      [ "$(jq -r .all_symbols_bound <<<"$info")" = true ] || fail "symbols left unbound or for a flat lookup"
      # Apple silicon runs signed code only (an ad-hoc signature will do).
      [ "$key" = darwin-x86_64 ] || [ "$(jq -r .signed <<<"$info")" = true ] || fail "no code signature"
      echo "    minimum macOS $(jq -r .minimum_macos <<<"$info"); not run: nothing here executes Mach-O (headers and load commands checked above)" ;;
  esac

  # The npm platform package and the wheel, when scripts/package.py made them.
  package="$dist/hermes-acp-$npm_suffix-$version.tgz"
  if [ -f "$package" ]; then
    tar -xzf "$package" -C "$unpacked" "package/bin/$exe" && cmp -s "$binary" "$unpacked/package/bin/$exe" \
      && echo "    npm: $(basename "$package") carries this binary" || fail "$(basename "$package") does not carry this binary"
  fi
  tag=$(case "$key" in linux-x86_64) echo manylinux_2_17_x86_64 ;; linux-aarch64) echo manylinux_2_17_aarch64 ;;
        darwin-x86_64) echo macosx_10_12_x86_64 ;; darwin-aarch64) echo macosx_11_0_arm64 ;; windows-x86_64) echo win_amd64 ;; esac)
  for wheel in "$dist"/hermes_acp_rs-"$version"-py3-none-"$tag"*.whl; do
    unzip -q -o "$wheel" "hermes_acp_rs-$version.data/scripts/$exe" -d "$unpacked/wheel" \
      && cmp -s "$binary" "$unpacked/wheel/hermes_acp_rs-$version.data/scripts/$exe" \
      && echo "    wheel: $(basename "$wheel") carries this binary" || fail "$(basename "$wheel") does not carry this binary"
  done
  rm -rf "$unpacked"
done

launcher="$dist/hermes-acp-$version.tgz"
[ -f "$launcher" ] && echo "==> npm launcher $(basename "$launcher") present"
echo "==> $checked archives checked, $failures failures"
[ "$failures" -eq 0 ]
