#!/usr/bin/env python3
"""Link stubs for the two macOS system frameworks hermes-acp uses, so zig can link a macOS binary
on Linux without Apple's SDK (which cannot be downloaded or redistributed here).

    scripts/macos_frameworks.py OUT_DIR TARGET

zig ships a stub of libSystem but no frameworks. Two dependencies link frameworks:
core-foundation-sys (CoreFoundation: chrono's time zone via iana-time-zone, and
rustls-platform-verifier) and security-framework(-sys) (Security: rustls-platform-verifier checks
server certificates against the macOS trust store). A stub (.tbd) is what the SDK itself ships:
the framework's install name and the symbols it exports. The symbols are read from the `extern`
blocks of exactly the crate versions in Cargo.lock (cargo metadata), so the stub covers every
function and static Rust code can reference. The binary then names the real frameworks under
/System/Library/Frameworks, bound two-level like an SDK link; dyld loads them at start.

Writes OUT_DIR/CoreFoundation.framework/CoreFoundation.tbd and the same for Security; pass
`-C link-arg=-FOUT_DIR` when linking.
"""

import json
import pathlib
import re
import subprocess
import sys

# Framework → (install name, current version, compatibility version, crates whose extern
# blocks it backs). The versions are those of macOS 11's frameworks, the oldest macOS our
# aarch64 target supports; dyld only requires the real framework to be at least this new.
FRAMEWORKS = {
    "CoreFoundation": (
        "/System/Library/Frameworks/CoreFoundation.framework/Versions/A/CoreFoundation",
        "1770.106",
        "150",
        ["core-foundation-sys"],
    ),
    "Security": (
        "/System/Library/Frameworks/Security.framework/Versions/A/Security",
        "59754.100.106",
        "1",
        ["security-framework-sys", "security-framework"],
    ),
}

EXTERN_BLOCK = re.compile(r'extern\s+"C"\s*\{')
DECLARED = re.compile(r"\b(?:fn|static(?:\s+mut)?)\s+([A-Za-z_][A-Za-z0-9_]*)")


def extern_symbols(source: str) -> set[str]:
    """Names declared inside `extern "C" { … }` blocks (brace-matched; comments stripped)."""
    source = re.sub(r"//[^\n]*", "", source)
    source = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
    names = set()
    for match in EXTERN_BLOCK.finditer(source):
        depth, i = 1, match.end()
        while depth and i < len(source):
            depth += {"{": 1, "}": -1}.get(source[i], 0)
            i += 1
        names.update(DECLARED.findall(source[match.end() : i]))
    return names


def crate_dirs(target: str) -> dict[str, pathlib.Path]:
    metadata = json.loads(
        subprocess.check_output(
            ["cargo", "metadata", "--locked", "--format-version", "1", "--filter-platform", target],
            text=True,
        )
    )
    return {p["name"]: pathlib.Path(p["manifest_path"]).parent for p in metadata["packages"]}


def tbd(install_name: str, current: str, compatibility: str, symbols: list[str]) -> str:
    targets = "[ x86_64-macos, arm64-macos, arm64e-macos ]"
    listed = ", ".join(symbols)
    return (
        "--- !tapi-tbd\n"
        "tbd-version:     4\n"
        f"targets:         {targets}\n"
        f"install-name:    '{install_name}'\n"
        f"current-version: {current}\n"
        f"compatibility-version: {compatibility}\n"
        "exports:\n"
        f"  - targets:         {targets}\n"
        f"    symbols:         [ {listed} ]\n"
        "...\n"
    )


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    out, target = pathlib.Path(sys.argv[1]), sys.argv[2]
    dirs = crate_dirs(target)
    for framework, (install_name, current, compatibility, crates) in FRAMEWORKS.items():
        symbols: set[str] = set()
        for crate in crates:
            if crate not in dirs:
                continue
            for source in sorted((dirs[crate] / "src").rglob("*.rs")):
                symbols |= extern_symbols(source.read_text(encoding="utf-8", errors="replace"))
        if not symbols:
            print(f"macos_frameworks: no symbols found for {framework}", file=sys.stderr)
            return 1
        folder = out / f"{framework}.framework"
        folder.mkdir(parents=True, exist_ok=True)
        names = sorted("_" + s for s in symbols)
        (folder / f"{framework}.tbd").write_text(tbd(install_name, current, compatibility, names))
        print(f"    {framework}: {len(names)} symbols")
    return 0


if __name__ == "__main__":
    sys.exit(main())
