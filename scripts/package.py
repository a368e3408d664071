#!/usr/bin/env python3
"""The npm and Python packages of hermes-acp, made from binaries already built and checked.

    scripts/package.py                      every release archive of this version in dist/
    scripts/package.py --binary PATH --platform linux-x86_64 [--out DIR] [--local]

npm (the esbuild/biome/codex-acp pattern): `hermes-acp`, a launcher (packaging/npm) whose optional
dependencies are one package per platform, `hermes-acp-<os>-<cpu>`, each declaring `os`/`cpu`
and carrying the binary in bin/; npm installs only the one that fits. Python (how ruff and uv
ship): one wheel per platform in the layout of maturin's `bin` bindings, the binary as the
wheel's script `hermes-acp`, tagged `py3-none-<platform>`. Both carry the very binary whose
archive digest the manifest lists, instead of a second build per platform.

Output: DIR (default dist/) gets hermes-acp-<v>.tgz, hermes-acp-<os>-<cpu>-<v>.tgz and
hermes_acp_rs-<v>-py3-none-<tags>.whl. `--local` tags the wheel with the plain `linux_<arch>`
tag of an unaudited local build (tests pack the binary cargo just built). `--no-npm` / `--no-wheel` make
only the other kind; npm packages need npm.
"""

import argparse
import base64
import hashlib
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
WHEEL_NAME = "hermes-acp-rs"
NPM_LAUNCHER = "hermes-acp"

# Registry platform → (Rust target, npm os, npm cpu, wheel platform tags).
# A static musl binary runs on every Linux, so one wheel serves glibc and musl systems.
PLATFORMS = {
    "linux-x86_64": (
        "x86_64-unknown-linux-musl", "linux", "x64",
        ["manylinux_2_17_x86_64", "manylinux2014_x86_64", "musllinux_1_1_x86_64"],
    ),
    "linux-aarch64": (
        "aarch64-unknown-linux-musl", "linux", "arm64",
        ["manylinux_2_17_aarch64", "manylinux2014_aarch64", "musllinux_1_1_aarch64"],
    ),
    "darwin-x86_64": ("x86_64-apple-darwin", "darwin", "x64", ["macosx_10_12_x86_64"]),
    "darwin-aarch64": ("aarch64-apple-darwin", "darwin", "arm64", ["macosx_11_0_arm64"]),
    "windows-x86_64": ("x86_64-pc-windows-gnu", "win32", "x64", ["win_amd64"]),
}


def die(message: str) -> None:
    print(f"package: {message}", file=sys.stderr)
    sys.exit(1)


def cargo_package() -> dict:
    """name, version, description, repository of Cargo.toml's [package]."""
    text = (ROOT / "Cargo.toml").read_text()
    section = text.split("[package]", 1)[1].split("\n[", 1)[0]
    fields = dict(re.findall(r'^(\w[\w-]*)\s*=\s*"([^"]*)"', section, flags=re.M))
    return fields


def exe_name(platform: str) -> str:
    return "hermes-acp.exe" if platform.startswith("windows") else "hermes-acp"


# ---------------------------------------------------------------------------------------- npm


def npm_platform_name(platform: str) -> str:
    _, os_name, cpu, _ = PLATFORMS[platform]
    return f"{NPM_LAUNCHER}-{os_name}-{cpu}"


def npm_pack(folder: pathlib.Path, out: pathlib.Path) -> pathlib.Path:
    result = subprocess.run(
        ["npm", "pack", "--silent", "--pack-destination", str(out)],
        cwd=folder, check=True, capture_output=True, text=True,
    )
    return out / result.stdout.strip().splitlines()[-1]


def npm_platform_package(platform: str, binary: pathlib.Path, out: pathlib.Path, meta: dict) -> pathlib.Path:
    _, os_name, cpu, _ = PLATFORMS[platform]
    name = npm_platform_name(platform)
    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(tmp)
        (folder / "bin").mkdir()
        target = folder / "bin" / exe_name(platform)
        shutil.copyfile(binary, target)
        target.chmod(0o755)
        shutil.copyfile(ROOT / "LICENSE", folder / "LICENSE")
        (folder / "README.md").write_text(
            f"# {name}\n\nThe `hermes-acp` binary for {os_name} {cpu}. Install `hermes-acp` instead: "
            "its launcher picks this package on this platform.\n"
        )
        manifest = {
            "name": name,
            "version": meta["version"],
            "description": f"The hermes-acp binary for {os_name} {cpu} (installed by the hermes-acp package)",
            "license": meta["license"],
            "repository": {"type": "git", "url": f"git+{meta['repository']}.git"},
            "os": [os_name],
            "cpu": [cpu],
            "files": ["bin/", "README.md", "LICENSE"],
            "preferUnplugged": True,
        }
        (folder / "package.json").write_text(json.dumps(manifest, indent=2) + "\n")
        return npm_pack(folder, out)


def npm_launcher(out: pathlib.Path, meta: dict) -> pathlib.Path:
    source = ROOT / "packaging" / "npm"
    manifest = json.loads((source / "package.json").read_text())
    if manifest["version"] != meta["version"]:
        die(f"packaging/npm/package.json is version {manifest['version']}, Cargo.toml {meta['version']}")
    expected = {npm_platform_name(p): meta["version"] for p in PLATFORMS}
    if manifest["optionalDependencies"] != expected:
        die(f"packaging/npm/package.json optionalDependencies must be exactly {expected}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = pathlib.Path(tmp) / "hermes-acp"
        shutil.copytree(source, folder)
        shutil.copyfile(ROOT / "LICENSE", folder / "LICENSE")
        (folder / "bin" / "hermes-acp.js").chmod(0o755)
        return npm_pack(folder, out)


# ------------------------------------------------------------------------------------- wheels


def record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def wheel(platform: str, binary: pathlib.Path, out: pathlib.Path, meta: dict, tags: list[str]) -> pathlib.Path:
    dist = WHEEL_NAME.replace("-", "_")
    version = meta["version"]
    info = f"{dist}-{version}.dist-info"
    readme = (ROOT / "packaging" / "python" / "README.md").read_text()
    metadata = (
        "Metadata-Version: 2.1\n"
        f"Name: {WHEEL_NAME}\n"
        f"Version: {version}\n"
        f"Summary: {meta['description']}\n"
        f"License: {meta['license']}\n"
        "Requires-Python: >=3.8\n"
        f"Project-URL: Repository, {meta['repository']}\n"
        "Description-Content-Type: text/markdown\n\n" + readme
    )
    wheel_file = "Wheel-Version: 1.0\nGenerator: hermes-acp scripts/package.py\nRoot-Is-Purelib: false\n"
    wheel_file += "".join(f"Tag: py3-none-{tag}\n" for tag in tags)
    files = [
        (f"{dist}-{version}.data/scripts/{exe_name(platform)}", binary.read_bytes(), 0o755),
        (f"{info}/METADATA", metadata.encode(), 0o644),
        (f"{info}/WHEEL", wheel_file.encode(), 0o644),
        (f"{info}/LICENSE", (ROOT / "LICENSE").read_bytes(), 0o644),
    ]
    record = "".join(f"{name},{record_hash(data)},{len(data)}\n" for name, data, _ in files)
    record += f"{info}/RECORD,,\n"
    files.append((f"{info}/RECORD", record.encode(), 0o644))
    path = out / f"{dist}-{version}-py3-none-{'.'.join(tags)}.whl"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data, mode in files:
            entry = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            entry.external_attr = (0o100000 | mode) << 16
            entry.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(entry, data)
    return path


# -------------------------------------------------------------------------------------- main


def binary_from_archive(archive: pathlib.Path, exe: str, into: pathlib.Path) -> pathlib.Path:
    target = into / exe
    if archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as z:
            target.write_bytes(z.read(exe))
    else:
        with tarfile.open(archive) as t:
            member = t.extractfile(exe)
            if member is None:
                die(f"{archive.name} has no {exe}")
            target.write_bytes(member.read())
    target.chmod(0o755)
    return target


def package_one(platform, binary, out, meta, local, npm, wheels):
    made = []
    if npm:
        made.append(npm_platform_package(platform, binary, out, meta))
    if not wheels:
        return made
    tags = PLATFORMS[platform][3]
    if local:
        machine = {"x64": "x86_64", "arm64": "aarch64"}[PLATFORMS[platform][2]]
        tags = [f"linux_{machine}"] if platform.startswith("linux") else tags
    made.append(wheel(platform, binary, out, meta, tags))
    return made


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--binary", type=pathlib.Path, help="package this binary (with --platform)")
    parser.add_argument("--platform", choices=sorted(PLATFORMS), help="the registry platform of --binary")
    parser.add_argument("--out", type=pathlib.Path, default=ROOT / "dist")
    parser.add_argument("--local", action="store_true", help="plain linux_<arch> wheel tag (unaudited local build)")
    parser.add_argument("--no-npm", action="store_true", help="wheels only")
    parser.add_argument("--no-wheel", action="store_true", help="npm packages only")
    args = parser.parse_args()
    meta = cargo_package()
    npm = not args.no_npm
    if npm and shutil.which("npm") is None:
        die("npm is not installed (install Node.js, or pass --no-npm for wheels only)")
    args.out.mkdir(parents=True, exist_ok=True)
    made = []
    if args.binary:
        if not args.platform:
            die("--binary needs --platform")
        made += package_one(args.platform, args.binary, args.out, meta, args.local, npm, not args.no_wheel)
    else:
        with tempfile.TemporaryDirectory() as tmp:
            for platform, (target, *_rest) in PLATFORMS.items():
                stem = f"hermes-acp-{meta['version']}-{target}"
                archive = next((args.out / f"{stem}{ext}" for ext in (".tar.gz", ".zip")
                                if (args.out / f"{stem}{ext}").exists()), None)
                if archive is None:
                    print(f"package: no archive for {platform} ({stem}.*) in {args.out}; skipped", file=sys.stderr)
                    continue
                folder = pathlib.Path(tmp) / platform
                folder.mkdir()
                binary = binary_from_archive(archive, exe_name(platform), folder)
                made += package_one(platform, binary, args.out, meta, args.local, npm, not args.no_wheel)
    if npm:
        made.append(npm_launcher(args.out, meta))
    for path in made:
        print(f"    {path.name}  {path.stat().st_size // 1024} KiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
