#!/usr/bin/env python3
"""What `roofline spec --from-sass` drafts today from the CUDA samples' SASS, beside what their
specs (docs/results/h100/sample-kernels/specs.toml, written by hand from the drafts of the time and
the source) say: how much of each spec the draft now gives.

Usage: sample_drafts.py ROOFLINE SPECS ARCHIVE... > page-part.md

Each ARCHIVE holds SAMPLE.sass and SAMPLE.res (`cuobjdump -sass` and `-res-usage` of the sample's
binary), anywhere inside it.
"""
import pathlib
import subprocess
import sys
import tarfile
import tempfile
import tomllib

from sample_kernels import KERNELS  # spec kernel -> its sample and demangled name, ...

FIELDS = ["inst_per_thread", "inst_per_iteration", "barriers_per_block", "registers", "shared_bytes"]


def main():
    roofline, specs_path, archives = sys.argv[1], sys.argv[2], sys.argv[3:]
    scratch = pathlib.Path(tempfile.mkdtemp())
    for archive in archives:
        with tarfile.open(archive) as tar:
            tar.extractall(scratch / pathlib.Path(archive).name, filter="data")
    with open(specs_path, "rb") as f:
        specs = {k["name"]: k for k in tomllib.load(f)["kernel"]}
    print("| kernel | " + " | ".join(f"`{f}`: draft / spec" for f in FIELDS) + " |")
    print("|---|" + "---:|" * len(FIELDS))
    same = total = 0
    for name, (sample, function, *_) in KERNELS.items():
        sass = next(scratch.rglob(f"{sample}.sass"))
        listing = scratch / f"{sample}.listing"
        listing.write_text(sass.read_text() + sass.with_suffix(".res").read_text())
        draft_text = subprocess.run([roofline, "spec", "--from-sass", str(listing), "--kernel", function],
                                    capture_output=True, text=True, check=True).stdout
        draft = tomllib.loads(draft_text)["kernel"][0]
        cells = []
        for field in FIELDS:
            d, s = draft.get(field, 0), specs[name].get(field, 0)
            same += d == s
            total += 1
            cells.append(f"{d} / {s}" if d == s else f"**{d} / {s}**")
        print(f"| `{name}` | " + " | ".join(cells) + " |")
    print(f"\n{same} of {total} values the same.")


if __name__ == "__main__":
    main()
