#!/usr/bin/env python3
"""Builds the container image fixtures of tests/images_test.py with Python's tarfile.

Usage: tests/images/make.py          (then tests/images/make-skopeo.sh for the OCI layouts
                                       skopeo writes)
Needs libsm90.so and libsm100.so beside it (make-libs.sh) and fixtures/libmulti.so,
libembedded.so. Writes, next to this script (entries carry fixed times, so that rebuilding
gives the same bytes):

  whiteouts.tar   docker save (before Docker 25) of app:1.0, three layers: layer 2 deletes
                  usr/lib/libgone.so (.wh.) and replaces usr/lib/libold.so, layer 3 clears
                  opt/app (.wh..wh..opq); NVIDIA_REQUIRE_CUDA as nvidia/cuda 12.4 images set it;
                  ships the CUDA 12.4 runtime (a stand-in file) behind symbolic links
  links.tar       links:1: a symbolic link to a folder that a later layer does not go through, hard
                  links, an absolute link that climbs above the root, a link loop, entries and
                  whiteouts that leave the root, whiteouts that name nothing
  multi.tar       three images in one archive: base:1, app:2 (base's layer and one more) and an
                  untagged one; a legacy image (CUDA_VERSION) and one with NVIDIA_DISABLE_REQUIRE
  docker25.tar    what Docker 25 and later write: an OCI layout (index.json, blobs/sha256) with
                  manifest.json beside it
  platforms/      an OCI layout holding a multi-platform image: linux/amd64, linux/arm64/v8 and
                  an attestation manifest
  broken-*.tar    a layer cut short, a layer missing, a layer whose digest is not its own, a
                  config missing, a manifest.json that is not JSON; broken-cut.tar: the whole
                  archive cut short (its manifest.json, last, is lost)
  broken-oci/     an OCI layout whose manifest names a layer blob that is not there
"""
import gzip
import hashlib
import io
import json
import os
import shutil
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIX = os.path.join(HERE, "..", "..", "fixtures")
STAMP = 1700000000


def read(path):
    with open(path, "rb") as f:
        return f.read()


SM90 = read(os.path.join(HERE, "libsm90.so"))
SM100 = read(os.path.join(HERE, "libsm100.so"))
MULTI = read(os.path.join(FIX, "libmulti.so"))
EMBEDDED = read(os.path.join(FIX, "libembedded.so"))
CUDART = b"a stand-in for libcudart.so.12.4.127: fatcheck finds the runtime by its name\n"


def tar(entries):
    """A tar of ENTRIES: (name, "f", bytes), (name, "d"), (name, "l", target) for a symbolic
    link, (name, "h", target) for a hard link."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as t:
        for e in entries:
            info = tarfile.TarInfo(e[0])
            info.mtime = STAMP
            info.mode = 0o755
            if e[1] == "f":
                info.size = len(e[2])
                t.addfile(info, io.BytesIO(e[2]))
                continue
            info.type = {"d": tarfile.DIRTYPE, "l": tarfile.SYMTYPE, "h": tarfile.LNKTYPE}[e[1]]
            if e[1] in "lh":
                info.linkname = e[2]
            t.addfile(info)
    return buf.getvalue()


def sha(data):
    return hashlib.sha256(data).hexdigest()


def config(layers, env=(), arch="amd64", variant=None):
    c = {"architecture": arch, "os": "linux", "config": {"Env": ["PATH=/usr/local/bin:/usr/bin:/bin"] + list(env)},
         "rootfs": {"type": "layers", "diff_ids": ["sha256:" + sha(l) for l in layers]}}
    if variant:
        c["variant"] = variant
    return json.dumps(c, sort_keys=True).encode()


def docker_save(path, images, damage=None, gz=False):
    """A docker save archive as Docker before 25 writes it: <id>/layer.tar per layer, the
    config as <image id>.json, manifest.json and repositories last. IMAGES: (tags, layers,
    env). DAMAGE changes one thing (see broken-*.tar). GZ: layers gzip-compressed, as skopeo's
    docker-archive can write them (the config's diff_ids still name the tars)."""
    members, manifest, seen = [], [], set()
    for tags, layers, env in images:
        cfg = config(layers, env)
        ids = []
        for layer in layers:
            lid = sha(b"layer id " + layer)
            ids.append(lid + "/layer.tar")
            if lid in seen:
                continue
            seen.add(lid)
            data = layer
            if damage == "truncated" and layer is layers[0]:
                data = layer[:len(layer) // 3]  # inside usr/lib/libsm90.so
            if damage == "mismatch" and layer is layers[0]:
                data = layer[:-512] + b"\x01" + layer[-511:]
            if damage == "missing" and layer is layers[-1]:
                continue
            if gz:
                data = gzip.compress(data, mtime=0)
            members += [(lid + "/VERSION", "f", b"1.0"), (lid + "/json", "f", b'{"id":"%s"}' % lid.encode()),
                        (lid + "/layer.tar", "f", data)]
        if damage != "no-config":
            members.append((sha(cfg) + ".json", "f", cfg))
        manifest.append({"Config": sha(cfg) + ".json", "RepoTags": tags or None, "Layers": ids})
    members.sort(key=lambda m: m[0])
    text = json.dumps(manifest).encode() if damage != "bad-manifest" else b"[{\"Config\": "
    members.append(("manifest.json", "f", text))
    with open(path, "wb") as f:
        f.write(tar(members))


def blob(blobs, data, media=None):
    d = "sha256:" + sha(data)
    blobs[d] = data
    desc = {"digest": d, "size": len(data)}
    if media:
        desc = {"mediaType": media, **desc}
    return desc


MANIFEST = "application/vnd.oci.image.manifest.v1+json"
INDEX = "application/vnd.oci.image.index.v1+json"
LAYER_GZ = "application/vnd.oci.image.layer.v1.tar+gzip"
LAYER = "application/vnd.oci.image.layer.v1.tar"
CONFIG = "application/vnd.oci.image.config.v1+json"


def oci_manifest(blobs, layers, env=(), arch="amd64", variant=None, gz=True):
    descs = []
    for layer in layers:
        data = gzip.compress(layer, mtime=0) if gz else layer
        descs.append(blob(blobs, data, LAYER_GZ if gz else LAYER))
    cfg = blob(blobs, config(layers, env, arch, variant), CONFIG)
    man = {"schemaVersion": 2, "mediaType": MANIFEST, "config": cfg, "layers": descs}
    return json.dumps(man, sort_keys=True).encode()


def write_layout(root, blobs, index):
    if os.path.exists(root):
        shutil.rmtree(root)
    os.makedirs(os.path.join(root, "blobs", "sha256"))
    for d, data in blobs.items():
        with open(os.path.join(root, "blobs", "sha256", d[7:]), "wb") as f:
            f.write(data)
    with open(os.path.join(root, "index.json"), "wb") as f:
        f.write(json.dumps(index, sort_keys=True).encode())
    with open(os.path.join(root, "oci-layout"), "wb") as f:
        f.write(b'{"imageLayoutVersion": "1.0.0"}')


REQUIRE_124 = ("NVIDIA_REQUIRE_CUDA=cuda>=12.4 brand=tesla,driver>=470,driver<471 brand=unknown,driver>=470,"
               "driver<471 brand=nvidia,driver>=470,driver<471 brand=tesla,driver>=535,driver<536 "
               "brand=unknown,driver>=535,driver<536 brand=nvidia,driver>=535,driver<536")
CUDA_LIB = "usr/local/cuda-12.4/targets/x86_64-linux/lib"


def main():
    os.chdir(HERE)
    # The issue's image: five CUDA files written, two left in the container.
    base = tar([("usr/", "d"), ("usr/lib/", "d"), ("usr/lib/libold.so", "f", SM100), ("usr/lib/libgone.so", "f", SM100),
                ("opt/", "d"), ("opt/app/", "d"), ("opt/app/libapp.so", "f", SM100), ("opt/app/README", "f", b"app\n"),
                (CUDA_LIB + "/libcudart.so.12.4.127", "f", CUDART),
                (CUDA_LIB + "/libcudart.so.12", "l", "libcudart.so.12.4.127"),
                ("usr/local/cuda", "l", "cuda-12.4")])
    update = tar([("usr/lib/", "d"), ("usr/lib/.wh.libgone.so", "f", b""), ("usr/lib/libold.so", "f", SM90),
                  ("usr/local/lib/libmulti.so", "f", MULTI)])
    clear = tar([("opt/app/", "d"), ("opt/app/.wh..wh..opq", "f", b""), ("opt/app/run.sh", "f", b"#!/bin/sh\n")])
    whiteouts = [base, update, clear]
    docker_save("whiteouts.tar", [(["app:1.0"], whiteouts, ["CUDA_VERSION=12.4.1", REQUIRE_124])])

    # Links: the folder lib -> usr/lib, which a later layer's entry does not go through (it makes
    # /lib a folder, as overlay2 and overlayfs apply a layer: docs/images.md); hard links;
    # a link above the root; a loop; entries and whiteouts that leave the root.
    l1 = tar([("usr/lib/", "d"), ("lib", "l", "usr/lib"), ("usr/lib/libsm90.so", "f", SM90),
              ("usr/lib/libsm90.so.1", "h", "usr/lib/libsm90.so"), ("etc", "l", "/../../../../usr/lib"),
              ("loop/a", "l", "b"), ("loop/b", "l", "a"), ("usr/lib/libmulti.so", "f", MULTI)])
    l2 = tar([("lib/libembedded.so", "f", EMBEDDED), ("etc/ld.so.preload", "f", SM100),
              ("../../.wh.etc", "f", b""), ("usr/../../escape.so", "f", SM100), ("usr/lib/.wh.", "f", b""),
              ("usr/lib/libgone.so", "h", "usr/lib/not-there.so"),
              ("usr/lib/.wh.libmulti.so", "f", b""), ("usr/lib/libmulti.so", "h", "usr/lib/libsm90.so.1")])
    docker_save("links.tar", [(["links:1"], [l1, l2], [])])

    # Three images in one archive, two of them sharing a layer.
    shared = tar([("usr/lib/libsm90.so", "f", SM90)])
    extra = tar([("opt/libembedded.so", "f", EMBEDDED), ("usr/lib/libcudart.so.12", "f", CUDART)])
    legacy = tar([("usr/lib/libmulti.so", "f", MULTI)])
    docker_save("multi.tar", [(["base:1"], [shared], ["CUDA_VERSION=12.2.2"]),
                              (["app:2", "registry.example/app:2"], [shared, extra],
                               [REQUIRE_124, "NVIDIA_DISABLE_REQUIRE=true"]),
                              ([], [legacy], ["NVIDIA_REQUIRE_CUDA=cuda>=11.8,arch>=9.0"])])

    # Damaged archives, one problem each.
    small = [tar([("usr/lib/libsm90.so", "f", SM90)]), tar([("usr/lib/libembedded.so", "f", EMBEDDED)])]
    for damage in ("truncated", "mismatch", "missing", "no-config", "bad-manifest"):
        docker_save("broken-%s.tar" % damage, [(["app:1.0"], small, [REQUIRE_124])], damage)

    # Compressed layers named by their tars' digests: one as its config says, one not.
    docker_save("compressed.tar", [(["gz:1"], small, [REQUIRE_124])], gz=True)
    docker_save("broken-mismatch-gz.tar", [(["app:1.0"], small, [REQUIRE_124])], "mismatch", gz=True)

    with open("whiteouts.tar", "rb") as f:
        whole = f.read()
    with open("broken-cut.tar", "wb") as f:
        f.write(whole[:len(whole) * 2 // 3])

    # Docker 25: an OCI layout in the archive, manifest.json beside it.
    blobs = {}
    layers = [tar([("usr/lib/libsm90.so", "f", SM90)]), tar([("usr/lib/libsm100.so", "f", SM100)])]
    man = oci_manifest(blobs, layers, gz=False)
    mdesc = blob(blobs, man, MANIFEST)
    cfg_digest = json.loads(man)["config"]["digest"]
    index = {"schemaVersion": 2, "mediaType": INDEX, "manifests": [
        {**mdesc, "annotations": {"io.containerd.image.name": "docker.io/library/d25:latest",
                                  "org.opencontainers.image.ref.name": "latest"}}]}
    members = [("blobs", "d"), ("blobs/sha256", "d")]
    members += [("blobs/sha256/" + d[7:], "f", data) for d, data in sorted(blobs.items())]
    members += [("index.json", "f", json.dumps(index).encode()),
                ("manifest.json", "f", json.dumps([{"Config": "blobs/sha256/" + cfg_digest[7:], "RepoTags": ["d25:latest"],
                                                     "Layers": ["blobs/sha256/" + json.loads(man)["layers"][i]["digest"][7:]
                                                                for i in range(2)]}]).encode()),
                ("oci-layout", "f", b'{"imageLayoutVersion":"1.0.0"}'),
                ("repositories", "f", b'{"d25":{"latest":"%s"}}' % mdesc["digest"][7:].encode())]
    with open("docker25.tar", "wb") as f:
        f.write(tar(members))

    # A multi-platform image in an OCI layout.
    blobs = {}
    amd = blob(blobs, oci_manifest(blobs, [tar([("usr/lib/libsm90.so", "f", SM90)])]), MANIFEST)
    arm = blob(blobs, oci_manifest(blobs, [tar([("usr/lib/libsm100.so", "f", SM100)])], arch="arm64",
                                   variant="v8"), MANIFEST)
    att = blob(blobs, json.dumps({"schemaVersion": 2, "mediaType": MANIFEST, "config": blob(blobs, b"{}", CONFIG),
                                  "layers": []}).encode(), MANIFEST)
    lst = {"schemaVersion": 2, "mediaType": INDEX, "manifests": [
        {**amd, "platform": {"os": "linux", "architecture": "amd64"}},
        {**arm, "platform": {"os": "linux", "architecture": "arm64", "variant": "v8"}},
        {**att, "platform": {"os": "unknown", "architecture": "unknown"},
         "annotations": {"vnd.docker.reference.type": "attestation-manifest"}}]}
    ldesc = blob(blobs, json.dumps(lst, sort_keys=True).encode(), INDEX)
    write_layout("platforms", blobs, {"schemaVersion": 2, "manifests": [
        {**ldesc, "annotations": {"org.opencontainers.image.ref.name": "3.0"}}]})

    # An OCI layout whose manifest names a layer that is not there.
    blobs = {}
    man = oci_manifest(blobs, [tar([("usr/lib/libsm90.so", "f", SM90)]), tar([("usr/lib/libsm100.so", "f", SM100)])])
    gone = json.loads(man)["layers"][1]["digest"]
    del blobs[gone]
    mdesc = blob(blobs, man, MANIFEST)
    absent = {"mediaType": MANIFEST, "digest": "sha256:" + "0" * 64, "size": 100,
              "annotations": {"org.opencontainers.image.ref.name": "absent"}}
    write_layout("broken-oci", blobs, {"schemaVersion": 2, "manifests": [
        {**mdesc, "annotations": {"org.opencontainers.image.ref.name": "1.0"}}, absent]})


if __name__ == "__main__":
    main()
