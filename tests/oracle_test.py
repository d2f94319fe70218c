#!/usr/bin/env python3
"""The driver oracle, without a GPU: what the real CUDA driver answered for each image, set
beside what fatcheck claims for it now.

Usage: oracle_test.py FATCHECK ORACLE_DIR [SEARCH_DIR...]
ORACLE_DIR/driver.jsonl holds the driver's answers for the images in ORACLE_DIR/images (made
by ORACLE_DIR/make.sh), ORACLE_DIR/real.jsonl those for containers of real libraries from
several CUDA releases, named by file and sha256 (scripts/driver-oracle/ asked the driver for
both, on the device machine). A real file is looked for under the SEARCH_DIRs (by default
/usr/local/cuda/lib64 and the folders scripts/fetch-eras.sh fills); one that is absent, or
another build, is skipped with a message.

For a module, fatcheck's predicted result must be the driver's answer to cuModuleLoadData,
under lazy loading (CUDA 12.2+'s default) and eager loading alike. For a link input fatcheck
claims no driver result; its claim is what a linker takes for sm_90, which must agree with
the driver's own linker: cuLinkAddData accepted the image for sm_90 exactly when fatcheck
names an image. Writes TAP."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tap_golden import done, report, sha256  # noqa: E402

FATCHECK, ORACLE = (os.path.abspath(p) for p in sys.argv[1:3])
SEARCH = sys.argv[3:] or ["/usr/local/cuda/lib64"]
CODES = {"CUDA_SUCCESS": 0, "CUDA_ERROR_NO_BINARY_FOR_GPU": 209, "CUDA_ERROR_UNSUPPORTED_PTX_VERSION": 222,
         "CUDA_ERROR_JIT_COMPILATION_DISABLED": 223, "CUDA_ERROR_INVALID_PTX": 218, "CUDA_ERROR_INVALID_IMAGE": 200,
         "CUDA_ERROR_INVALID_SOURCE": 300}



def claims(path):
    """fatcheck's container claims for sm_90 with a CUDA 13.0 driver, by file offset. A zstd
    cubin's own ELF header is read only by the kernel view, which inflates every image, and
    with --strict: the images that test it (kernels.*-zstd.*) are judged with --kernels. A driver
    that crashed loading an image agrees with any prediction that it fails."""
    kernels = ["--kernels"] if "-zstd." in os.path.basename(path) else []
    out = subprocess.run([FATCHECK, "--json", "--embedded", *kernels, "--gpu", "9.0", "--driver", "13.0", path],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    doc = json.loads(out.stdout)
    found = {}
    for f in doc["files"]:
        if f.get("member"):
            continue
        for c in f["containers"]:
            found[c["offset"]] = c
    return found


def agrees(c, rec):
    """Whether a claim agrees with the driver's record; the reason when not."""
    load = c["loads"][0]
    # A container's headers make it a link input; a module's relocatable cubin that refers to
    # other code makes it one for the targets that would load that cubin.
    if c.get("role") == "link_input" or load["result"] == "LINK_INPUT":
        if load["result"] != "LINK_INPUT":
            return False, "a link input with a driver claim: %s" % load["result"]
        linkable = load["link"] is not None
        if linkable != (rec["link_add"] == 0):
            return False, "linker takes %s; the driver's cuLinkAddData answered %d" % (
                (load["link"] or {}).get("image"), rec["link_add"])
        return True, ""
    if "crash" in rec:  # the driver died loading it (signal rec["crash"]): any failure agrees
        ok = load["result"] not in ("CUDA_SUCCESS", "RELOCATABLE_MODULE")
        return ok, "" if ok else "predicted %s, the driver crashed (signal %d)" % (load["result"], rec["crash"])
    want = rec["load"]
    got = CODES.get(load["result"])
    if load["result"] == "UNCOMPRESS_FAILED":  # "Uncompress failed": the answer depends on the method
        got = 209 if c["entries"][load["via"]["entry"]]["compression"] == "lz4" else 999
    if got != want:
        return False, "predicted %s, the driver answered %s%s" % (
            load["result"], want, (" (" + rec["error_log"] + ")") if rec.get("error_log") else "")
    return True, ""



def main():
    images = os.path.join(ORACLE, "images")
    records = [json.loads(l) for l in open(os.path.join(ORACLE, "driver.jsonl"))]
    asked = {r["image"] for r in records}
    missing = sorted(set(os.listdir(images)) - asked)
    report(not missing, "every oracle image has the driver's answer", "not asked yet: " + " ".join(missing))
    for mode in ("lazy", "eager"):
        bad = []
        count = 0
        for r in records:
            if r["loading"] != mode:
                continue
            c = claims(os.path.join(images, r["image"]))
            if len(c) != 1:
                bad.append("%s: %d containers" % (r["image"], len(c)))
                continue
            ok, why = agrees(next(iter(c.values())), r)
            count += 1
            if not ok:
                bad.append("%s: %s" % (r["image"], why))
        if not count:
            report(None, "oracle images, %s loading" % mode, "no driver answers recorded for it")
        else:
            report(not bad, "oracle images, %s loading: %d agree with the driver" % (mode, count - len(bad)),
                   "\n".join(bad))
    real = os.path.join(ORACLE, "real.jsonl")
    by_file = {}
    for l in open(real) if os.path.exists(real) else []:
        r = json.loads(l)
        by_file.setdefault((r["file"], r["sha256"]), []).append(r)
    for (name, digest), recs in sorted(by_file.items()):
        path = next((os.path.join(d, name) for d in SEARCH if os.path.isfile(os.path.join(d, name))), None)
        label = "%s (CUDA %s): %d containers, %d answers" % (name, recs[0].get("cuda", "?"),
                                                             len({r["offset"] for r in recs}), len(recs))
        if not path:
            report(None, label, "not found under " + " ".join(SEARCH))
            continue
        if sha256(path) != digest:
            report(None, label, "%s is another build than the one the driver was asked about" % path)
            continue
        c = claims(path)
        bad = []
        for r in recs:
            got = c.get(r["offset"])
            ok, why = agrees(got, r) if got else (False, "no container found there")
            if not ok:
                bad.append("0x%x: %s" % (r["offset"], why))
        report(not bad, label + " agree with the driver", "\n".join(bad[:20]))
    return done()


sys.exit(main())
