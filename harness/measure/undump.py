#!/usr/bin/env python3
"""undump.py IMG OUTDIR - split a disk image written by dump-init into files.

Reads the 4 KiB text header ("JTSCDUMP 1", "section NAME OFFSET BYTES NS
SAMPLES" lines, "end"), writes OUTDIR/NAME.bin for each section and
OUTDIR/meta with one line "NAME BYTES NS SAMPLES" per section.
"""
import os
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: undump.py IMG OUTDIR")
    img, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    with open(img, "rb") as f:
        head = f.read(4096).split(b"\0", 1)[0].decode("ascii", "replace").splitlines()
        if not head or head[0] != "JTSCDUMP 1" or "end" not in head:
            sys.exit("undump: %s has no complete dump header (did the guest finish?)" % img)
        meta = []
        for line in head[1:]:
            w = line.split()
            if w[:1] != ["section"] or len(w) != 6:
                continue
            name, off, size, ns, samples = w[1], int(w[2]), int(w[3]), int(w[4]), int(w[5])
            f.seek(off)
            data = f.read(size)
            with open(os.path.join(out, name + ".bin"), "wb") as o:
                o.write(data)
            meta.append("%s %d %d %d" % (name, size, ns, samples))
    with open(os.path.join(out, "meta"), "w") as m:
        m.write("\n".join(meta) + "\n")
    for line in meta:
        print("undump: " + line)


if __name__ == "__main__":
    main()
