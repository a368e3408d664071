#!/usr/bin/env python3
"""What an executable is, read from its headers (no `file`, otool or objdump needed, so macOS and
Windows binaries can be inspected on Linux).

    scripts/binary_info.py BINARY     prints one JSON object:
      {"format": "elf"|"pe"|"macho", "arch": "x86_64"|"aarch64", "kind": "executable"|…,
       "libraries": [the shared libraries it loads: ELF DT_NEEDED, PE imported DLLs,
                     Mach-O LC_LOAD_DYLIB / LC_LOAD_WEAK_DYLIB / LC_REEXPORT_DYLIB],
       "interpreter": ELF PT_INTERP or null,
       Mach-O only: "minimum_macos", "signed" (a code signature, ad hoc or not),
       "all_symbols_bound" (MH_NOUNDEFS and MH_TWOLEVEL)}
"""

import json
import struct
import sys

ELF_MACHINES = {0x3E: "x86_64", 0xB7: "aarch64"}
PE_MACHINES = {0x8664: "x86_64", 0xAA64: "aarch64"}
MACHO_CPUS = {0x01000007: "x86_64", 0x0100000C: "aarch64"}
MACHO_FILETYPES = {2: "executable", 6: "dylib"}
LC_LOAD_DYLIB, LC_LOAD_WEAK_DYLIB, LC_REEXPORT_DYLIB = 0xC, 0x80000018, 0x8000001F
LC_BUILD_VERSION, LC_VERSION_MIN_MACOSX, LC_CODE_SIGNATURE = 0x32, 0x24, 0x1D


def elf(data: bytes) -> dict:
    if data[4] != 2 or data[5] != 1:
        raise ValueError("only 64-bit little-endian ELF is expected")
    e_type, e_machine = struct.unpack_from("<HH", data, 16)
    e_phoff, e_shoff = struct.unpack_from("<QQ", data, 32)
    e_phentsize, e_phnum, e_shentsize, e_shnum = struct.unpack_from("<HHHH", data, 54)
    interpreter, dynamic = None, None
    loads = []
    for i in range(e_phnum):
        p_type, _, p_offset, p_vaddr, _, p_filesz = struct.unpack_from("<IIQQQQ", data, e_phoff + i * e_phentsize)
        if p_type == 3:  # PT_INTERP
            interpreter = data[p_offset : p_offset + p_filesz].rstrip(b"\0").decode()
        elif p_type == 2:  # PT_DYNAMIC
            dynamic = (p_offset, p_filesz)
        elif p_type == 1:  # PT_LOAD
            loads.append((p_vaddr, p_offset, p_filesz))
    libraries = []
    if dynamic:
        entries, strtab = [], None
        for off in range(dynamic[0], dynamic[0] + dynamic[1], 16):
            tag, value = struct.unpack_from("<qQ", data, off)
            if tag == 0:
                break
            entries.append((tag, value))
            if tag == 5:  # DT_STRTAB (a virtual address)
                strtab = next(o + value - v for v, o, size in loads if v <= value < v + size)
        for tag, value in entries:
            if tag == 1 and strtab is not None:  # DT_NEEDED
                end = data.index(b"\0", strtab + value)
                libraries.append(data[strtab + value : end].decode())
    kind = {2: "executable", 3: "shared-object (PIE or library)"}.get(e_type, f"type {e_type}")
    return {"format": "elf", "arch": ELF_MACHINES.get(e_machine, hex(e_machine)), "kind": kind,
            "libraries": libraries, "interpreter": interpreter}


def pe(data: bytes) -> dict:
    pe_offset = struct.unpack_from("<I", data, 0x3C)[0]
    if data[pe_offset : pe_offset + 4] != b"PE\0\0":
        raise ValueError("no PE signature")
    machine, sections, _, _, _, optional_size, characteristics = struct.unpack_from("<HHIIIHH", data, pe_offset + 4)
    optional = pe_offset + 24
    magic = struct.unpack_from("<H", data, optional)[0]
    if magic != 0x20B:
        raise ValueError("only PE32+ is expected")
    subsystem = struct.unpack_from("<H", data, optional + 68)[0]
    import_rva = struct.unpack_from("<I", data, optional + 112 + 8)[0]  # data directory 1
    table = pe_offset + 24 + optional_size
    section_list = [struct.unpack_from("<8sIIII", data, table + i * 40) for i in range(sections)]

    def offset(rva: int) -> int:
        for _, vsize, vaddr, rawsize, rawptr in section_list:
            if vaddr <= rva < vaddr + max(vsize, rawsize):
                return rawptr + rva - vaddr
        raise ValueError(f"rva {rva:#x} outside every section")

    libraries = []
    if import_rva:
        entry = offset(import_rva)
        while True:
            name_rva = struct.unpack_from("<I", data, entry + 12)[0]
            if name_rva == 0:
                break
            start = offset(name_rva)
            name = data[start : data.index(b"\0", start)].decode()
            # Linkers emit one import descriptor per object at times: list each DLL once.
            if name.lower() not in (known.lower() for known in libraries):
                libraries.append(name)
            entry += 20
    kind = "dll" if characteristics & 0x2000 else "executable"
    kind += {3: " (console)", 2: " (gui)"}.get(subsystem, f" (subsystem {subsystem})")
    return {"format": "pe", "arch": PE_MACHINES.get(machine, hex(machine)), "kind": kind,
            "libraries": libraries, "interpreter": None}


def macho(data: bytes) -> dict:
    magic, cputype, _, filetype, ncmds, _, flags, _ = struct.unpack_from("<IIIIIIII", data, 0)
    if magic != 0xFEEDFACF:
        raise ValueError("only thin 64-bit little-endian Mach-O is expected")
    libraries, offset, minimum, signed = [], 32, None, False
    for _ in range(ncmds):
        cmd, size = struct.unpack_from("<II", data, offset)
        if cmd in (LC_BUILD_VERSION, LC_VERSION_MIN_MACOSX):
            # LC_BUILD_VERSION: platform then minos; LC_VERSION_MIN_MACOSX: version first.
            version = struct.unpack_from("<I", data, offset + (12 if cmd == LC_BUILD_VERSION else 8))[0]
            minimum = f"{version >> 16}.{(version >> 8) & 0xFF}"
        signed = signed or cmd == LC_CODE_SIGNATURE
        if cmd in (LC_LOAD_DYLIB, LC_LOAD_WEAK_DYLIB, LC_REEXPORT_DYLIB):
            name_offset = struct.unpack_from("<I", data, offset + 8)[0]
            start = offset + name_offset
            libraries.append(data[start : data.index(b"\0", start, offset + size)].decode())
        offset += size
    return {"format": "macho", "arch": MACHO_CPUS.get(cputype, hex(cputype)),
            "kind": MACHO_FILETYPES.get(filetype, f"type {filetype}"), "libraries": libraries,
            "interpreter": None, "minimum_macos": minimum, "signed": signed,
            # MH_NOUNDEFS and MH_TWOLEVEL: every symbol bound, each to the library it came from.
            "all_symbols_bound": bool(flags & 0x1) and bool(flags & 0x80)}


def inspect(path: str) -> dict:
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] == b"\x7fELF":
        return elf(data)
    if data[:2] == b"MZ":
        return pe(data)
    if data[:4] == b"\xcf\xfa\xed\xfe":
        return macho(data)
    raise ValueError(f"{path}: not an ELF, PE or Mach-O executable")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    print(json.dumps(inspect(sys.argv[1])))
