"""The small harness of the CLI test scripts that take FATCHECK FIXTURES_DIR FAKECUDA_DIR:
run fatcheck as bytes, with fixtures; registering and running tests is tap.py's."""
import os
import struct
import subprocess
import sys

from tap import eq, main, test  # noqa: F401  (the scripts take them from here)

FATCHECK, FIXTURES, FAKECUDA = (os.path.abspath(p) for p in sys.argv[1:4])
SOURCE_ROOT = os.path.dirname(FIXTURES)

# Every run sees the stand-in libcuda.so.1 and libnvidia-ml.so.1 (tests/fakecuda) with no GPU
# unless a test says so.
BASE_ENV = {k: v for k, v in os.environb.items()
            if not k.startswith((b"CUDA_", b"FAKE_CUDA_")) and k != b"LD_LIBRARY_PATH"}
BASE_ENV[b"LD_LIBRARY_PATH"] = os.fsencode(FAKECUDA + ":" + os.path.join(FAKECUDA, "nvml"))
# With no GPU and none named, every run says so first on standard error.
NO_GPU = (b"fatcheck: warning: not judging any GPU: the NVIDIA driver (CUDA 13.0) lists no GPU; "
          b"name target GPUs with --gpu or --arch-list\n")

def run(*args, cwd=None, env=None, timeout=60, preexec_fn=None):
    """Runs fatcheck; returns (exit status, stdout bytes, stderr bytes). Arguments and
    environment values may be str or bytes."""
    full = dict(BASE_ENV)
    for k, v in (env or {}).items():
        full[os.fsencode(k)] = os.fsencode(v)
    p = subprocess.run([FATCHECK] + [os.fsencode(a) for a in args], capture_output=True, cwd=cwd,
                       env=full, timeout=timeout, preexec_fn=preexec_fn)
    return p.returncode, p.stdout, p.stderr


def fx(name):
    return os.path.join(FIXTURES, name)


def without_section_table(data):
    """DATA (a 64-bit ELF file) as sstrip leaves it: e_shoff, e_shentsize, e_shnum and
    e_shstrndx zeroed, its section headers left as bytes no one points at."""
    data = bytearray(data)
    struct.pack_into("<Q", data, 0x28, 0)
    struct.pack_into("<HHH", data, 0x3a, 0, 0, 0)
    return bytes(data)


def docker_save(path, tree, tag):
    """Writes PATH, a `docker save` archive of one image TAG whose single layer holds the
    folder TREE (its contents at the image's root)."""
    import hashlib
    import io
    import json
    import tarfile
    layer = io.BytesIO()
    with tarfile.open(fileobj=layer, mode="w") as t:
        for name in sorted(os.listdir(tree)):
            t.add(os.path.join(tree, name), name)
    layer = layer.getvalue()
    config = json.dumps({"architecture": "amd64", "os": "linux", "config": {},
                         "rootfs": {"type": "layers",
                                    "diff_ids": ["sha256:" + hashlib.sha256(layer).hexdigest()]}}).encode()
    config_name = hashlib.sha256(config).hexdigest() + ".json"
    manifest = json.dumps([{"Config": config_name, "RepoTags": [tag], "Layers": ["layer.tar"]}]).encode()
    with tarfile.open(path, "w") as t:
        for name, data in ((config_name, config), ("layer.tar", layer), ("manifest.json", manifest)):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
