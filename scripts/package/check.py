"""Builds and checks the addon's zip (scripts/package/package.sh).

    python3 scripts/package/check.py build --version 0.1.0 --out out/package [--every-platform]
    python3 scripts/package/check.py check out/package/rust_character_body-0.1.0.zip [--every-platform]

`check` unpacks the zip into an empty folder, as a game developer would into a project, and
fails (exit code 1, one line per problem) unless every library and icon path of the
.gdextension resolves to a file of the archive, the libraries are Linux and Windows x86_64
builds, debug and release, each in a file of its own, the README and LICENSE are there, nothing
lies outside addons/rust_character_body/, and the .sha256 file matches. With
--every-platform (the release workflow, .github/workflows/release.yml) the zip must also ship
Linux arm64 and a macOS universal library (x86_64 and arm64 in one Mach-O "fat" file), debug
and release: every line of the .gdextension active. With --without KEY (CI, which builds the
Windows release library only in the release workflow, to keep within its time) the zip leaves
that library out, its .gdextension line commented out, and the check does not ask for it.
"""

import argparse
import configparser
import hashlib
import pathlib
import sys
import tempfile
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
ADDON = "addons/rust_character_body"
GDEXTENSION = "rust_character_body.gdextension"
# What the zip must ship: (key of [libraries], the file's magic bytes).
SHIPPED = {
    "linux.debug.x86_64": b"\x7fELF",
    "linux.release.x86_64": b"\x7fELF",
    "windows.debug.x86_64": b"MZ",
    "windows.release.x86_64": b"MZ",
}
# What a release zip ships besides (--every-platform): Linux arm64, and macOS as one universal
# Mach-O file per build (the "fat" magic, big-endian).
EVERY_PLATFORM = {
    **SHIPPED,
    "linux.debug.arm64": b"\x7fELF",
    "linux.release.arm64": b"\x7fELF",
    "macos.debug": b"\xca\xfe\xba\xbe",
    "macos.release": b"\xca\xfe\xba\xbe",
}


def shipped(every_platform: bool, without: list[str]) -> dict[str, bytes]:
    """The libraries a zip must ship, by key of [libraries], with their magic bytes."""
    every = EVERY_PLATFORM if every_platform else SHIPPED
    return {key: magic for key, magic in every.items() if key not in without}
# Every zip entry gets this time, so the same files give the same zip.
STAMP = (2026, 1, 1, 0, 0, 0)


def unquote(value: str) -> str:
    return value.strip().strip('"')


def read_gdextension(text: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(comment_prefixes=(";", "#"), interpolation=None)
    parser.optionxform = str  # keys are case sensitive
    parser.read_string(text)
    return parser


def packaged_gdextension(text: str, bin_dir: pathlib.Path, without: list[str]) -> str:
    """The .gdextension with the [libraries] lines whose file is not in bin/, or whose key is
    left out (--without), commented out."""
    lines = []
    section = ""
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("["):
            section = stripped
        elif section == "[libraries]" and "=" in stripped and not stripped.startswith(";"):
            key, value = (part.strip() for part in stripped.split("=", 1))
            if key in without or not (bin_dir.parent / unquote(value)).is_file():
                line = f"; {stripped}  ; not in this package: build it on that platform"
        lines.append(line)
    return "\n".join(lines) + "\n"


def build(
    version: str, out: pathlib.Path, every_platform: bool, without: list[str]
) -> pathlib.Path:
    addon = ROOT / ADDON
    wanted = shipped(every_platform, without)
    bin_dir = addon / "bin"
    text = (addon / GDEXTENSION).read_text()
    libraries = read_gdextension(text)["libraries"]
    missing = [
        f"{key} ({unquote(libraries[key])})"
        for key in wanted
        if not (addon / unquote(libraries[key])).is_file()
    ]
    if missing:
        sys.exit(
            "package: libraries missing from bin/: "
            + ", ".join(missing)
            + " (scripts/godot/addon.sh, scripts/windows/addon.sh)"
        )
    files = {
        f"{ADDON}/{GDEXTENSION}": packaged_gdextension(text, bin_dir, without).encode(),
        f"{ADDON}/README.md": (addon / "README.md").read_bytes(),
        f"{ADDON}/LICENSE": (ROOT / "LICENSE").read_bytes(),
    }
    for icon in sorted((addon / "icons").glob("*.svg")):
        files[f"{ADDON}/icons/{icon.name}"] = icon.read_bytes()
    for key in wanted:
        path = unquote(libraries[key])
        files[f"{ADDON}/{path}"] = (addon / path).read_bytes()

    out.mkdir(parents=True, exist_ok=True)
    archive = out / f"rust_character_body-{version}.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        folders = sorted({str(pathlib.PurePosixPath(name).parent) for name in files})
        for folder in folders:
            parts = pathlib.PurePosixPath(folder).parts
            for depth in range(1, len(parts) + 1):
                name = "/".join(parts[:depth]) + "/"
                if name not in zf.namelist():
                    zf.writestr(zipfile.ZipInfo(name, STAMP), b"")
        for name in sorted(files):
            info = zipfile.ZipInfo(name, STAMP)
            info.compress_type = zipfile.ZIP_DEFLATED
            library = name.endswith((".so", ".dll", ".dylib"))
            info.external_attr = (0o755 if library else 0o644) << 16
            zf.writestr(info, files[name])
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    (out / f"{archive.name}.sha256").write_text(f"{digest}  {archive.name}\n")
    size = archive.stat().st_size
    print(f"package: {archive} ({size // 1024} KiB, {len(files)} files), sha256 {digest}")
    return archive


def check(archive: pathlib.Path, every_platform: bool, without: list[str]) -> list[str]:
    wanted = shipped(every_platform, without)
    problems = []
    sums = archive.with_name(archive.name + ".sha256")
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    if not sums.is_file():
        problems.append(f"{sums.name} is missing")
    elif sums.read_text().split() != [digest, archive.name]:
        problems.append(f"{sums.name} does not match the zip (sha256 {digest})")

    with tempfile.TemporaryDirectory() as empty, zipfile.ZipFile(archive) as zf:
        project = pathlib.Path(empty)
        for name in zf.namelist():
            if not (name == "addons/" or name.startswith(ADDON + "/")):
                problems.append(f"{name} lies outside {ADDON}/")
        zf.extractall(project)
        addon = project / ADDON
        gdextension = addon / GDEXTENSION
        if not gdextension.is_file():
            return problems + [f"{ADDON}/{GDEXTENSION} is missing"]
        config = read_gdextension(gdextension.read_text())
        if config.get("configuration", "entry_symbol", fallback="").strip('"') != "gdext_rust_init":
            problems.append("[configuration] entry_symbol is not gdext_rust_init")
        libraries = config["libraries"] if config.has_section("libraries") else {}
        seen = {}
        for key, value in libraries.items():
            path = unquote(value)
            target = project / path[len("res://"):] if path.startswith("res://") else addon / path
            if not target.is_file():
                problems.append(f"[libraries] {key} = {path}: no such file in the zip")
                continue
            if path in seen:
                problems.append(f"[libraries] {key} and {seen[path]} share {path}")
            seen[path] = key
            magic = wanted.get(key)
            if magic and not target.read_bytes().startswith(magic):
                problems.append(f"[libraries] {key} = {path} is not a {key.split('.')[0]} library")
        for key in wanted:
            if key not in libraries:
                problems.append(f"[libraries] lacks {key}")
        if config.has_section("icons"):
            for key, value in config["icons"].items():
                if not (addon / unquote(value)).is_file():
                    problems.append(f"[icons] {key} = {unquote(value)}: no such file in the zip")
        for name in ("README.md", "LICENSE"):
            if not (addon / name).is_file():
                problems.append(f"{ADDON}/{name} is missing")
        if not problems:
            print(
                f"package check: {archive.name} unpacked into an empty folder: "
                f"{len(libraries)} libraries ({', '.join(sorted(libraries))}) and "
                f"{len(config['icons']) if config.has_section('icons') else 0} icons resolve, "
                "README.md and LICENSE present, sha256 matches"
            )
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    build_parser = commands.add_parser("build", help="write the zip and its .sha256")
    build_parser.add_argument("--version", required=True)
    build_parser.add_argument("--out", type=pathlib.Path, required=True)
    check_parser = commands.add_parser("check", help="unpack the zip and check it")
    check_parser.add_argument("zip", type=pathlib.Path)
    for command in (build_parser, check_parser):
        command.add_argument(
            "--every-platform",
            action="store_true",
            help="Linux arm64 and a macOS universal library too (a release)",
        )
        command.add_argument(
            "--without",
            action="append",
            default=[],
            choices=sorted(SHIPPED),
            help="leave this library out (CI: windows.release.x86_64)",
        )
    args = parser.parse_args()
    if args.command == "build":
        build(args.version, args.out.resolve(), args.every_platform, args.without)
        return 0
    problems = check(args.zip.resolve(), args.every_platform, args.without)
    for problem in problems:
        print(f"package check: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
