#!/usr/bin/env python3
"""undump.py DUMP OUTDIR - split the stream dump-init wrote (disk image or
serial-port capture) into files.

Stream: "JTSCDUMP 2\\n", then per section "section NAME BYTES NS SAMPLES\\n"
and BYTES bytes, then "end\\n". Writes OUTDIR/NAME.bin per section and
OUTDIR/meta with one line "NAME BYTES NS SAMPLES" per section.
"""
import os
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: undump.py DUMP OUTDIR")
    dump, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    meta, complete = [], False
    with open(dump, "rb") as f:
        if f.readline() != b"JTSCDUMP 2\n":
            sys.exit("undump: %s does not start with a dump header (did the guest run dump-init?)" % dump)
        while True:
            line = f.readline()
            if not line:
                break
            if line == b"end\n":
                complete = True
                break
            w = line.decode("ascii", "replace").split()
            if len(w) != 5 or w[0] != "section":
                sys.exit("undump: bad section line %r" % line[:80])
            name, size, ns, samples = w[1], int(w[2]), int(w[3]), int(w[4])
            data = f.read(size)
            if len(data) != size:
                sys.exit("undump: section %s is cut short (%d of %d bytes)" % (name, len(data), size))
            with open(os.path.join(out, name + ".bin"), "wb") as o:
                o.write(data)
            meta.append("%s %d %d %d" % (name, size, ns, samples))
    with open(os.path.join(out, "meta"), "w") as m:
        m.write("\n".join(meta) + "\n")
    for line in meta:
        print("undump: " + line)
    if not complete:
        sys.exit("undump: no end marker: the dump is incomplete")


if __name__ == "__main__":
    main()
