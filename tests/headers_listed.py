"""headers_listed.py - every header under src/ is one tests/meson.build compiles alone (its
internal_headers list), so a new header cannot escape that test by being left off the list.
Usage: headers_listed.py SRC_DIR HEADER... (HEADER relative to SRC_DIR). Prints TAP."""
import os
import sys

src, listed = sys.argv[1], set(sys.argv[2:])
present = sorted(os.path.relpath(os.path.join(d, f), src)
                 for d, _, files in os.walk(src) for f in files if f.endswith(".h"))
print("1..2")
missing = [h for h in present if h not in listed]
print(("not ok" if missing else "ok") + " 1 - every header under src/ is listed"
      + (": missing " + ", ".join(missing) if missing else ""))
gone = sorted(listed - set(present))
print(("not ok" if gone else "ok") + " 2 - every header listed exists"
      + (": absent " + ", ".join(gone) if gone else ""))
