#!/usr/bin/env python3
"""Times fatcheck on a container image of CUDA libraries in three gzip layers, beside
`gzip -dc` of the same layers (issue 13's goal: -j1 within 1.15x of it, all CPUs within 0.75x).

Usage: bench/images.py [--fatcheck PATH] [--runs N] [--work DIR] [--libs DIR]

Builds, once (kept in --work, default /tmp/fatcheck-bench-images), an OCI image layout of three
layers of about 330 MB each from the CUDA libraries in --libs (default /usr/local/cuda/lib64:
cuFFT and cuSOLVERMg, cuSPARSE and cuSOLVER, NCCL and cuRAND; about 1 GB uncompressed),
compressed by `gzip -6` as Docker compresses; and the same image as an OCI archive (a tar of
the layout) and as a docker save archive (uncompressed layers). Then, in turns on the same load,
it runs `gzip -dc` of the three layers and fatcheck --json on each form (-j1 and all CPUs, and
the archive through a pipe), and prints for each the median wall and CPU seconds and the
peak RSS (bench/measure), and the ratios to gzip -dc. Figures only: the machine's load is
printed, since on a shared machine wall times follow it.
"""
import argparse
import gzip
import hashlib
import io
import json
import os
import shutil
import statistics
import subprocess
import tarfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GROUPS = [["libcufft.so.12", "libcusolverMg.so.12"], ["libcusparse.so.12", "libcusolver.so.12"],
          ["libnccl.so.2", "libcurand.so.10"]]


def layer_tar(libs, names):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as t:
        for d in ("usr/", "usr/local/", "usr/local/cuda/", "usr/local/cuda/lib64/"):
            info = tarfile.TarInfo(d)
            info.type = tarfile.DIRTYPE
            t.addfile(info)
        for n in names:
            t.add(os.path.realpath(os.path.join(libs, n)), "usr/local/cuda/lib64/" + n)
    return buf.getvalue()


def build(work, libs):
    layout = os.path.join(work, "oci")
    if os.path.exists(os.path.join(layout, "index.json")):
        return
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(os.path.join(layout, "blobs", "sha256"))
    blobs, plain = [], []
    for i, names in enumerate(GROUPS):
        raw = layer_tar(libs, names)
        plain.append(raw)
        path = os.path.join(work, "layer%d.tar.gz" % (i + 1))
        gz = subprocess.run(["gzip", "-6", "-n", "-c"], input=raw, capture_output=True, check=True).stdout
        open(path, "wb").write(gz)
        d = hashlib.sha256(gz).hexdigest()
        shutil.copyfile(path, os.path.join(layout, "blobs", "sha256", d))
        blobs.append({"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", "digest": "sha256:" + d,
                      "size": len(gz)})

    def put(data, media):
        d = hashlib.sha256(data).hexdigest()
        open(os.path.join(layout, "blobs", "sha256", d), "wb").write(data)
        return {"mediaType": media, "digest": "sha256:" + d, "size": len(data)}
    config = json.dumps({"architecture": "amd64", "os": "linux",
                         "config": {"Env": ["NVIDIA_REQUIRE_CUDA=cuda>=13.0"]},
                         "rootfs": {"type": "layers", "diff_ids": ["sha256:" + hashlib.sha256(p).hexdigest()
                                                                   for p in plain]}}).encode()
    cdesc = put(config, "application/vnd.oci.image.config.v1+json")
    man = json.dumps({"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
                      "config": cdesc, "layers": blobs}).encode()
    mdesc = put(man, "application/vnd.oci.image.manifest.v1+json")
    mdesc["annotations"] = {"org.opencontainers.image.ref.name": "bench"}
    open(os.path.join(layout, "index.json"), "w").write(json.dumps({"schemaVersion": 2, "manifests": [mdesc]}))
    open(os.path.join(layout, "oci-layout"), "w").write('{"imageLayoutVersion": "1.0.0"}')
    with tarfile.open(os.path.join(work, "oci.tar"), "w") as t:
        for name in ("oci-layout", "index.json", "blobs"):
            t.add(os.path.join(layout, name), name)
    # docker save: the layers uncompressed, manifest.json last.
    with tarfile.open(os.path.join(work, "docker.tar"), "w") as t:
        t.add(os.path.join(layout, "blobs", "sha256", cdesc["digest"][7:]), cdesc["digest"][7:] + ".json")
        for i, raw in enumerate(plain):
            info = tarfile.TarInfo("layer%d/layer.tar" % i)
            info.size = len(raw)
            t.addfile(info, io.BytesIO(raw))
        data = json.dumps([{"Config": cdesc["digest"][7:] + ".json", "RepoTags": ["bench:1"],
                            "Layers": ["layer%d/layer.tar" % i for i in range(3)]}]).encode()
        info = tarfile.TarInfo("manifest.json")
        info.size = len(data)
        t.addfile(info, io.BytesIO(data))


def run_once(cmd, stdin=None):
    """Wall and CPU (user + system) seconds of one run of CMD (a shell line)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(["sh", "-c", cmd], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    if status:
        raise SystemExit("failed: %s" % cmd)
    return time.perf_counter() - t0, ru.ru_utime + ru.ru_stime


def peak_rss(cmd):
    out = subprocess.run([MEASURE, "1", "sh", "-c", cmd], capture_output=True, text=True, check=True).stdout
    return int(out.split()[1])


def main():
    global MEASURE
    ap = argparse.ArgumentParser()
    ap.add_argument("--fatcheck", default=os.path.join(HERE, "..", "build", "fatcheck"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--work", default="/tmp/fatcheck-bench-images")
    ap.add_argument("--libs", default="/usr/local/cuda/lib64")
    a = ap.parse_args()
    f = os.path.abspath(a.fatcheck)
    MEASURE = os.path.join(os.path.dirname(f), "bench", "measure")
    build(a.work, a.libs)
    w = a.work
    layers = " ".join(os.path.join(w, "layer%d.tar.gz" % i) for i in (1, 2, 3))
    raw = sum(len(gzip.decompress(open(os.path.join(w, "layer%d.tar.gz" % i), "rb").read())) for i in (1, 2, 3))
    comp = sum(os.path.getsize(os.path.join(w, "layer%d.tar.gz" % i)) for i in (1, 2, 3))
    print("image: 3 gzip layers, %.0f MB compressed, %.0f MB uncompressed; %d CPUs; load %s"
          % (comp / 1e6, raw / 1e6, os.cpu_count(), " ".join("%.1f" % x for x in os.getloadavg())))
    target = "--gpu H100 --driver 13.0 --json"
    cmds = {
        "gzip -dc (the 3 layers)": "gzip -dc %s > /dev/null" % layers,
        "fatcheck -j1 OCI folder": "%s -j1 %s %s/oci > /dev/null" % (f, target, w),
        "fatcheck OCI folder (all CPUs)": "%s %s %s/oci > /dev/null" % (f, target, w),
        "fatcheck -j1 OCI archive": "%s -j1 %s %s/oci.tar > /dev/null" % (f, target, w),
        "fatcheck OCI archive (all CPUs)": "%s %s %s/oci.tar > /dev/null" % (f, target, w),
        "fatcheck OCI archive through a pipe": "cat %s/oci.tar | %s %s - > /dev/null" % (w, f, target),
        "fatcheck docker save archive (all CPUs)": "%s %s %s/docker.tar > /dev/null" % (f, target, w),
    }
    for c in cmds.values():
        run_once(c)
    got = {k: [] for k in cmds}
    for _ in range(a.runs):
        for k, c in cmds.items():
            got[k].append(run_once(c))
    floor = min(x[0] for x in got["gzip -dc (the 3 layers)"])
    for k, v in got.items():
        wall, cpu = statistics.median(x[0] for x in v), statistics.median(x[1] for x in v)
        best = min(x[0] for x in v)
        print("  %-40s wall %6.2f s (best %6.2f s, %.2fx gzip's best), CPU %6.2f s, peak RSS %5.0f MiB"
              % (k, wall, best, best / floor, cpu, peak_rss(cmds[k]) / 1024))
    print("load after: %s" % " ".join("%.1f" % x for x in os.getloadavg()))


if __name__ == "__main__":
    main()
