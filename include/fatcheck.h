/* fatcheck.h - find CUDA fat binary containers in files and decode what they hold.
 *
 * The library reads ELF shared libraries, executables, relocatable objects, static
 * archives, Windows PE images (DLL, EXE, .pyd) and COFF objects, bare fat binaries,
 * standalone cubins, PTX text and directories of them.
 * It never prints and never exits: every function returns a status, and problems with an
 * input are described by an fc_error that names the file, the offset and the reason.
 *
 * All sizes read from an input are untrusted: they are checked against the input's bounds
 * and against the limits in fc_options before anything is allocated or read.
 *
 * Files that change while they are read. fc_scan maps each file it reads (MAP_PRIVATE,
 * never written back). A file cut short meanwhile (truncated, or rewritten in place) would
 * make a read past its new end raise SIGBUS, so while fc_scan has a file mapped, and only
 * then, it installs a SIGBUS handler of its own, process-wide as signal handlers are:
 *   - a SIGBUS at an address inside one of its mappings is answered by mapping zero pages
 *     over the rest of that mapping; reading goes on, and the file is reported once, as
 *     FC_ERR_IO "PATH: the file changed while being read: it ended early (...)" (as the
 *     object's error, or through on_error when the object had been handed out already);
 *   - any other SIGBUS goes to the handler installed before, called as a function with the
 *     same arguments, or, when there was none (SIG_DFL or SIG_IGN), to the default action,
 *     which ends the process as it would have without fatcheck;
 *   - when the last mapping goes, the previous handler is put back, unless someone else
 *     replaced fatcheck's meanwhile (then theirs is left in place).
 * A caller that installs its own SIGBUS handler while a scan runs on another thread, and
 * does not pass on the faults it does not own, takes that protection away; a thread that
 * blocks SIGBUS gets the kernel's default action on such a fault. fc_scan_memory maps
 * nothing: a caller's buffer that may shrink is the caller's to protect.
 */
#ifndef FATCHECK_H
#define FATCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(FATCHECK_BUILDING) && defined(__GNUC__)
#define FC_API __attribute__((visibility("default")))
#else
#define FC_API
#endif

#define FC_VERSION_STRING "0.1.0"

/* Results. Values below zero are failures. */
typedef enum fc_status {
    FC_OK = 0,
    FC_ERR_IO = -1,          /* the input could not be opened, mapped or read */
    FC_ERR_FORMAT = -2,      /* the input is malformed */
    FC_ERR_LIMIT = -3,       /* a size in the input is past a caller-set limit */
    FC_ERR_NOMEM = -4,       /* out of memory */
    FC_ERR_INVALID = -5,     /* a bad argument from the caller */
    FC_ERR_UNSUPPORTED = -6, /* a well-formed input this version cannot handle */
} fc_status;

/* What an entry of a container holds. */
typedef enum fc_image_kind {
    FC_IMAGE_UNKNOWN = 0, /* a kind this version does not know; reported, never an error */
    FC_IMAGE_PTX,         /* PTX text */
    FC_IMAGE_CUBIN,       /* an ELF cubin with SASS for one architecture */
    FC_IMAGE_LTOIR,       /* LTO-IR / NVVM IR, for link-time optimisation */
} fc_image_kind;

typedef enum fc_compression {
    FC_COMPRESSION_NONE = 0,
    FC_COMPRESSION_LZ4,     /* a raw LZ4 block */
    FC_COMPRESSION_ZSTD,    /* a zstd frame */
    FC_COMPRESSION_UNKNOWN, /* flags name a method this version does not know */
} fc_compression;

/* Architecture variants: plain sm_90, arch-specific sm_90a, family-specific sm_100f. */
typedef enum fc_variant {
    FC_VARIANT_NONE = 0,
    FC_VARIANT_ARCH_SPECIFIC, /* 'a': runs only on exactly that compute capability */
    FC_VARIANT_FAMILY,        /* 'f': runs within its family */
} fc_variant;

/* Where a container was found. */
typedef enum fc_origin {
    FC_ORIGIN_SECTION = 0, /* a section the CUDA runtime registers (.nv_fatbin, __nv_relfatbin; in PE
                              images .nv_fatb) */
    FC_ORIGIN_EMBEDDED,    /* plain data in another section, loaded by the library itself */
    FC_ORIGIN_FATBIN_FILE, /* a bare fat binary file (nvcc -fatbin) */
    FC_ORIGIN_CUBIN_FILE,  /* a standalone cubin: a pseudo-container with one entry */
    FC_ORIGIN_PTX_FILE,    /* a standalone PTX text file: a pseudo-container with one entry */
    FC_ORIGIN_WRAPPER,     /* registered with the CUDA runtime, found through its registration
                              record (.nvFatBinSegment) and the program headers: the ELF section
                              table is missing or does not show it */
    FC_ORIGIN_SEGMENT,     /* found by searching an ELF file's loaded segments when neither the
                              section table nor a registration record shows it: registered or
                              not, nothing says */
    FC_ORIGIN_PTX_TEXT,    /* a PTX module kept as text in a data section, loaded by the program
                              itself: a pseudo-container with one entry, the text */
} fc_origin;

/* The kind of file (or archive member) an object is. */
typedef enum fc_format {
    FC_FORMAT_UNKNOWN = 0,
    FC_FORMAT_ELF,    /* host ELF: shared library, executable or relocatable object */
    FC_FORMAT_FATBIN, /* bare fat binary */
    FC_FORMAT_CUBIN,  /* standalone cubin (ELF, e_machine EM_CUDA) */
    FC_FORMAT_PTX,    /* PTX text */
    FC_FORMAT_PACKAGE, /* a wheel, conda package, tarball or image that held no CUDA code */
    FC_FORMAT_PE,     /* Windows PE image: DLL, EXE, Python extension (.pyd) */
    FC_FORMAT_COFF,   /* COFF object (.obj), plain or /bigobj */
    FC_FORMAT_DATA,   /* bytes of no known format searched whole (a file named by the caller,
                         or a member of a static archive or package): its containers are
                         FC_ORIGIN_EMBEDDED, with no section */
    FC_FORMAT_IMAGE,  /* a container image itself (docker save, OCI layout): no containers of
                         its own; in_image says what it declares (its files follow it) */
} fc_format;

/* Entry flag bits, as stored in the entry header (see docs/format.md). */
#define FC_FLAG_64BIT 0x1ull
#define FC_FLAG_DEBUG 0x2ull
#define FC_FLAG_HOST_LINUX 0x10ull
#define FC_FLAG_HOST_MAC 0x20ull
#define FC_FLAG_HOST_WINDOWS 0x40ull
#define FC_FLAG_COMPRESS_LZ4 0x2000ull
#define FC_FLAG_COMPRESS_ZSTD 0x8000ull
#define FC_FLAG_OBFUSCATED 0x10000ull
#define FC_FLAG_ARCH_SPECIFIC 0x100000ull
#define FC_FLAG_FAMILY 0x200000ull

/* One image inside a container. Offsets are bytes from the start of the file, or of the
 * archive member for members. Strings are NUL-terminated copies, or NULL when absent. */
typedef struct fc_entry {
    uint64_t offset;            /* of the entry header */
    uint32_t header_size;       /* the payload starts this many bytes after offset */
    uint16_t raw_kind;          /* the kind number as stored (1 PTX, 2 cubin, 8 LTO-IR) */
    fc_image_kind kind;
    uint32_t arch;              /* 75, 80, 90, 100, 120 ... */
    fc_variant variant;
    uint16_t version_major;     /* PTX ISA version for PTX; cubin ABI ("code version") otherwise */
    uint16_t version_minor;
    fc_compression compression;
    uint64_t payload_offset;    /* of the stored (possibly compressed) image */
    uint64_t payload_size;      /* bytes the entry reserves for the image (padded) */
    uint64_t stored_size;       /* bytes of the image as stored (the compressed size if compressed) */
    uint64_t uncompressed_size; /* the declared size; a hint, never trusted */
    uint64_t flags;             /* FC_FLAG_* and bits not yet understood */
    bool debug;                 /* built with device debug information (-G) */
    bool obfuscated;            /* the payload is obfuscated (LTO-IR); it cannot be decompressed */
    const char *identifier;     /* usually the source file name, present with -G */
    const char *options;        /* ptxas/compile options, when stored as text */
} fc_entry;

/* What a container is for: loaded as a module by the CUDA runtime (or the library that holds
 * it), or relocatable device code that a device linker takes in (nvlink when a program is
 * built, nvJitLink or cuLink* at run time). The driver is never asked to load a link input as
 * it is: with lazy loading (CUDA 12.2+) cuModuleLoadData even accepts one and fails later, at
 * the first use of a function that refers to what only linking supplies (docs/matching.md). */
typedef enum fc_role {
    FC_ROLE_MODULE = 0,
    FC_ROLE_LINK_INPUT, /* __nv_relfatbin; images compiled with -rdc (PTX stored with the ptxas
                           option --compile-only, LTO-IR); a relocatable (ET_REL) cubin file */
} fc_role;

typedef struct fc_container {
    uint64_t offset;            /* of the container header */
    uint64_t size;              /* header and entries */
    fc_origin origin;
    const char *section;        /* the section's name (ELF, PE, COFF), or NULL outside sections */
    const fc_entry *entries;
    size_t n_entries;
    fc_role role;
} fc_container;

/* ---- Container images ---------------------------------------------------------------
 * A docker save archive or an OCI image layout (a directory, or a tarball of one) is read as
 * the container sees it: its layers applied in order, files that a later layer deletes or
 * replaces left out, each file once, named by its path in the image (docs/images.md). */

/* A CUDA runtime the image ships: a libcudart.so.* file in it. */
typedef struct fc_oci_runtime {
    const char *path;       /* "/usr/local/cuda-12.4/targets/x86_64-linux/lib/libcudart.so.12.4.127" */
    int cuda;               /* the release its name gives (12040), or its major alone (12000) */
    int needs;              /* the oldest CUDA whose driver starts it (fc_cuda_library_version) */
} fc_oci_runtime;

typedef struct fc_oci_image {
    const char *name;       /* as people name it: "app:1.0" (its first tag), else its digest */
    const char *const *tags; /* every tag that names it ("app:1.0", "registry/app:latest") */
    size_t n_tags;
    const char *digest;     /* "sha256:...": its manifest's (OCI), or its config's, the image ID
                               (docker save's manifest.json) */
    const char *platform;   /* "linux/amd64", or NULL when it does not say */
    size_t n_layers;
    /* What the NVIDIA Container Toolkit checks before it starts the container: the values of
     * its NVIDIA_REQUIRE_* variables (not NVIDIA_REQUIRE_JETPACK*), with "cuda>=X.Y" for a
     * legacy image (CUDA_VERSION without NVIDIA_REQUIRE_CUDA); none when
     * NVIDIA_DISABLE_REQUIRE is true (requirements_disabled). */
    const char *const *requirements;
    size_t n_requirements;
    const char *require_cuda; /* NVIDIA_REQUIRE_CUDA as written, or NULL */
    bool requirements_disabled;
    bool requirements_incomplete; /* it sets more NVIDIA_REQUIRE_* than were read: not judged */
    const fc_oci_runtime *runtimes; /* the CUDA runtimes it ships, by path */
    size_t n_runtimes;
} fc_oci_image;

/* Where an object lies in an image. */
typedef struct fc_oci_file {
    const fc_oci_image *image;
    const char *path;       /* "/usr/lib/libx.so" as the container sees it; NULL for the image */
    const char *layer;      /* "sha256:..." of the layer that provides the file; NULL for the image */
} fc_oci_file;

/* One file, or one member of a static archive, with what it holds. */
typedef struct fc_object {
    const char *path;           /* the file on disk, as the caller named it, joined with
                                   directory names */
    const char *member;         /* what inside it: a static archive member ("x.o"), a package
                                   member ("lib/x.so", "layer.tar!usr/lib/x.so", "lib/x.a(y.o)"),
                                   or NULL */
    const char *label;          /* both, for people: "lib.a(x.o)", "pkg.whl!lib/x.so" */
    fc_format format;
    uint64_t size;              /* bytes in the file or member */
    const fc_container *containers;
    size_t n_containers;
    /* Decoding stopped early: the containers above are those read before the problem. */
    fc_status status;
    const char *error;          /* one line naming the file, the offset and the reason */
    const void *image;          /* the object's bytes (offsets above count from here); valid
                                   only during the callback. For a file, its mapping: should
                                   the file be cut short meanwhile, bytes past its new end
                                   read as zeros, and the scan reports the change (see the
                                   top of this header) */
    bool image_reclaimable;     /* IMAGE is a private mapping of a file: pages read through it
                                   may be dropped after use (they come back from the file) */
    /* What the object asks of the dynamic linker, for fc_object_runtime: the CUDA libraries
     * in its DT_NEEDED ("libcudart.so.13", "libcublas.so.13"; those fc_cuda_library_version
     * knows), whether it imports the runtime's registration (__cudaRegisterFatBinary) instead,
     * and whether it is a linked program (executable or shared library, not an object). */
    const char *const *needed;
    size_t n_needed;
    const char *soname;         /* its own DT_SONAME when that is a CUDA library ("libcufft.so.11") */
    bool imports_registration;
    bool linked_program;
    bool runtime_unknown;       /* no dynamic symbol table to tell a static runtime from the
                                   process's (a file stripped of its section table) */
    size_t sections_searched_in_part; /* FC_EMBEDDED_AUTO: data sections of which only the head
                                   (embedded_probe_size bytes) was searched, as it held no
                                   container: what lies past it was not looked at */
    bool device_link_missing;   /* a program with -rdc code in __nv_relfatbin only, importing
                                   __cudaRegisterLinkedBinary_*: built without the device link
                                   step, it cannot even be loaded */
    const fc_oci_file *in_image; /* in a container image: the image and the file's path there;
                                    NULL elsewhere. PATH is then the archive or layout, MEMBER
                                    and LABEL "app:1.0:/usr/lib/x.so" */
} fc_object;

/* A problem with an input that produced no object: a file that could not be opened, is
 * not a format fatcheck reads, a directory loop. */
typedef struct fc_error {
    fc_status status;
    const char *path;
    const char *member;         /* or NULL */
    const char *message;        /* one line: "PATH[(MEMBER)]: [where: ]reason" */
} fc_error;

/* How far to look for containers kept as plain data in other ELF sections. */
typedef enum fc_embedded_mode {
    FC_EMBEDDED_AUTO = 0, /* .cask_resource, and sections whose first MiB holds one (default) */
    FC_EMBEDDED_ALL,      /* search every data section in full */
    FC_EMBEDDED_NONE,     /* do not look */
} fc_embedded_mode;

/* What a directory walk passes over without reading it (fc_options.on_skip). */
typedef enum fc_skip_kind {
    FC_SKIP_SYMLINKED_DIRECTORY = 0, /* a symlink to a directory, not followed without follow_symlinks */
    FC_SKIP_PACKAGE,                 /* a package, not opened without packages_in_dirs */
} fc_skip_kind;

typedef struct fc_options {
    fc_embedded_mode embedded;
    /* FC_EMBEDDED_AUTO: how many bytes at the head of a section decide (default 1 MiB). */
    uint64_t embedded_probe_size;
    /* Walk directories named as inputs (on by default); off makes a directory an error. */
    bool recurse;
    /* The largest decompressed image fc_entry_decompress will produce. */
    uint64_t max_decompressed_size;
    /* The most containers and entries accepted from one object before FC_ERR_LIMIT. */
    uint64_t max_containers;
    uint64_t max_entries;
    /* Sections of one ELF object (libelf keeps about 250 bytes for each), PE image or COFF
     * object (1,048,576). */
    uint64_t max_sections;
    /* The deepest directory nesting followed. */
    unsigned max_depth;
    /* Packages (wheels, tarballs, images, .deb, .rpm) and streams (fc_scan_fd): the largest
     * binary read from one (held in memory up to 64 MiB, beyond that in an unlinked temporary
     * file), and how deeply packages inside packages are followed. */
    uint64_t max_member_size;
    unsigned max_package_depth;
    /* Open packages found while walking directories too (named ones are always opened). */
    bool packages_in_dirs;
    /* Called with each file opened and each package member read, for progress reports;
     * may be NULL. */
    void (*on_file)(void *ctx, const char *name);
    void *on_file_ctx;
    /* Threads for decoding a file's container sections, searching embedded data and
     * reading kernels; 0 picks the number of online CPUs. Results do not depend on it. */
    unsigned threads;
    /* In directory walks, follow symlinks to directories too (off by default: a link to /
     * would take the walk out of the tree). Symlinks to files are always read, each file
     * once; a directory named to fc_scan is always entered. */
    bool follow_symlinks;
    /* Container images with several platforms (multi-platform indexes): the one judged,
     * "os/arch[/variant]"; NULL: linux/amd64, and an image of one platform whatever it is. */
    const char *platform;
    /* Called, when set, for what a directory walk passes over without reading: each directory
     * reached only through symlinks that were not followed (once, when the walk ends; one the
     * walk entered by its own name is not counted), and each package found without
     * packages_in_dirs. PATH is the symlink's or the package's path. */
    void (*on_skip)(void *ctx, fc_skip_kind kind, const char *path);
    void *on_skip_ctx;
} fc_options;

/* Fills *opts with the defaults. */
FC_API void fc_options_init(fc_options *opts);

/* Called once per object that holds CUDA code, and once per file named directly by the
 * caller even when it holds none. The object and everything it points to live only until
 * the callback returns. A nonzero return stops the scan; fc_scan returns that value. */
typedef int (*fc_object_fn)(void *ctx, const fc_object *obj);
/* Called for every input that could not be read at all. Nonzero stops the scan. */
typedef int (*fc_error_fn)(void *ctx, const fc_error *err);

/* Scans PATH: a file, an archive or (with opts->recurse) a directory tree. Directories
 * report only files holding CUDA code; FIFOs, devices and sockets inside them are skipped
 * without being opened; entries that cannot be looked at and symlink loops are reported
 * through on_error; symlinks to directories are followed only with opts->follow_symlinks.
 * No path length limit applies inside a tree. Returns FC_OK when
 * the scan ran to the end (problems with inputs go to the callbacks), a negative status
 * when it could not run (FC_ERR_INVALID, FC_ERR_NOMEM), or a callback's nonzero value. */
FC_API int fc_scan(const char *path, const fc_options *opts,
                   fc_object_fn on_object, fc_error_fn on_error, void *ctx);

/* Scans what descriptor FD holds, named NAME in results (NULL: "(standard input)"). A
 * regular file is read as fc_scan reads one. A pipe, socket or device is read once, in
 * order, to its end: a package (zip, tar, compressed tar, .deb, .rpm) as its bytes arrive,
 * anything else held whole, in memory up to 64 MiB and beyond that in an unlinked temporary
 * file in $TMPDIR (else /tmp), up to opts->max_member_size bytes. FD is not closed. Returns
 * as fc_scan does. */
FC_API int fc_scan_fd(int fd, const char *name, const fc_options *opts,
                      fc_object_fn on_object, fc_error_fn on_error, void *ctx);

/* Scans an in-memory image as if it were a file named NAME. Never recurses. */
FC_API int fc_scan_memory(const void *data, size_t size, const char *name,
                          const fc_options *opts,
                          fc_object_fn on_object, fc_error_fn on_error, void *ctx);

/* Decodes the fat binary containers that lie back to back in BUF (a section's bytes, or a
 * bare fat binary), for callers and fuzzers that hold the bytes themselves. BASE is added
 * to every offset reported. On success *out is a heap object the caller frees with
 * fc_object_free; on a decoding problem *out still holds what was read before it, with
 * status and error set, and the status is returned. */
FC_API fc_status fc_decode_fatbin(const void *buf, size_t size, uint64_t base,
                                  const fc_options *opts, fc_object **out);

/* Frees an object returned by fc_decode_fatbin. Accepts NULL. */
FC_API void fc_object_free(fc_object *obj);

/* Decompresses SRC (SRC_SIZE bytes stored with method M) into a new heap buffer of at
 * most LIMIT bytes. DECLARED is the size the input claims (0 if none); it is only used as
 * a first guess and must not exceed LIMIT. On success OUT and OUT_SIZE hold the result (the
 * caller frees *out). A stream that would grow past LIMIT gives FC_ERR_LIMIT; a corrupt
 * one FC_ERR_FORMAT; FC_ERR_IO when SRC lies in the image of a file that was cut short
 * while it was read (what lay past its new end read as zeros). An uncompressed entry is
 * copied. */
FC_API fc_status fc_decompress(fc_compression m, const void *src, size_t src_size,
                               uint64_t declared, uint64_t limit,
                               void **out, size_t *out_size);

/* Names. These return static strings. */
FC_API const char *fc_status_name(fc_status s);        /* "format error" ... */
FC_API const char *fc_image_kind_name(fc_image_kind k); /* "cubin", "ptx", "ltoir", "unknown" */
FC_API const char *fc_compression_name(fc_compression c); /* "none", "lz4", "zstd", "unknown" */
FC_API const char *fc_origin_name(fc_origin o);        /* "section", "embedded", ... */
FC_API const char *fc_format_name(fc_format f);        /* "elf", "fatbin", "cubin", "ptx", "pe" ... */

/* Writes the architecture name of an entry into BUF: "sm_90a" for cubins, "compute_90a" for
 * PTX, "lto_90" for LTO-IR (as nvcc's -gencode code= names them). Returns BUF. */
FC_API char *fc_entry_arch_name(const fc_entry *e, char *buf, size_t size);

/* The name cuobjdump gives this architecture in --list-elf/--list-ptx: the 'f' suffix is
 * dropped for cubins and kept for PTX; PTX is named sm_XY, not compute_XY. */
FC_API char *fc_entry_cuobjdump_arch(const fc_entry *e, char *buf, size_t size);

/* ---- Matching: which image the CUDA driver would load on a GPU --------------------------
 * Compute capabilities are written as one number: 90 for 9.0, 103 for 10.3, 121 for 12.1.
 * CUDA versions as cuDriverGetVersion gives them: 13000 for 13.0, 12040 for 12.4. */

/* A GPU to judge: where it came from, and the driver it runs under. */
typedef struct fc_target {
    unsigned cc;              /* compute capability: 90 */
    bool tegra;               /* a Jetson (integrated) part: cubins do not cross to desktop parts */
    int driver_cuda;          /* CUDA version the driver supports, or 0: assumed new enough */
    char name[96];            /* product name when known: "NVIDIA H200" */
    char source[160];         /* what named it: "GPU 0", "--gpu RTX 4090", "--arch-list 8.0+PTX" */
    char uuid[96];            /* detected through NVML: "GPU-33ea3011-...", "MIG-..."; else "" */
    char driver[32];          /* the driver release when known ("550.54.14"), else "" */
} fc_target;

/* What the driver would do with one container on one target. The names are the driver's. */
typedef enum fc_load_result {
    FC_LOAD_SUCCESS = 0,         /* CUDA_SUCCESS */
    FC_LOAD_NO_BINARY,           /* CUDA_ERROR_NO_BINARY_FOR_GPU (209): "no kernel image is available" */
    FC_LOAD_UNSUPPORTED_PTX,     /* CUDA_ERROR_UNSUPPORTED_PTX_VERSION (222): PTX newer than the driver */
    FC_LOAD_JIT_DISABLED,        /* CUDA_ERROR_JIT_COMPILATION_DISABLED (223): only PTX, JIT disabled */
    FC_LOAD_INVALID_PTX,         /* CUDA_ERROR_INVALID_PTX (218): PTX compiled as a whole program that
                                    calls a function it does not define (ptxas: "Unresolved extern
                                    function"); see fc_refine_load */
    FC_LOAD_LINK_INPUT,          /* no driver result: a link input (fc_predict_link says what a
                                    device linker takes from it) */
    FC_LOAD_RELOCATABLE,         /* relocatable code registered as a module (PTX stored with
                                    --compile-only in .nv_fatbin): the driver fails its functions at
                                    first use, CUDA_ERROR_INVALID_IMAGE (200) or CUDA_ERROR_NOT_FOUND
                                    (500); eagerly loaded, the load itself */
} fc_load_result;

typedef enum fc_load_via {
    FC_VIA_NONE = 0,
    FC_VIA_NATIVE,      /* a cubin for exactly this compute capability */
    FC_VIA_COMPATIBLE,  /* a cubin for an older minor of the same major (sm_86 code on 8.9) */
    FC_VIA_JIT,         /* PTX compiled by the driver at load time */
} fc_load_via;

typedef struct fc_load {
    fc_load_result result;
    fc_load_via via;
    int entry;          /* index of the chosen (or, on PTX failures, the refused) entry, or -1 */
} fc_load;

/* CUDA_FORCE_PTX_JIT / CUDA_DISABLE_PTX_JIT, as the driver reads them. */
typedef struct fc_jit_policy {
    bool force_ptx_jit;   /* cubins are ignored */
    bool disable_ptx_jit; /* PTX is never compiled */
} fc_jit_policy;

/* Reads the policy from the environment (values other than unset, empty or "0" count). */
FC_API void fc_jit_policy_from_env(fc_jit_policy *p);

/* Predicts what cuModuleLoadData does with container C on target T (docs/matching.md),
 * from the headers alone. A link input (C->role) gets FC_LOAD_LINK_INPUT: use fc_predict_link.
 * What only the chosen image's contents tell (fc_refine_load) is not looked at. */
FC_API fc_load fc_predict_load(const fc_container *c, const fc_target *t, const fc_jit_policy *p);

/* fc_predict_load's answer, checked against the chosen image of C (a container of OBJ; call it
 * from the scan callback): PTX compiled as a whole program that calls a function defined
 * elsewhere fails to load (FC_LOAD_INVALID_PTX); a relocatable (ET_REL) cubin makes C a link
 * input for that target (FC_LOAD_LINK_INPUT): the driver runs none as a module. Reads only
 * containers the runtime does not register (bare fat binaries, cubin and PTX files, containers
 * kept as data): registered ones were linked when the program was built. OPTS bounds the
 * decompression (NULL: defaults). */
FC_API fc_load fc_refine_load(const fc_object *obj, const fc_container *c, fc_load l, const fc_options *opts);

/* What a device linker (nvlink, nvJitLink) would take from a link input for target T: a cubin
 * of T's architecture (or an older minor of its major; 'a' and 'f' as for the driver), else
 * PTX of an architecture at or below T's, else LTO-IR likewise. */
typedef enum fc_link_via {
    FC_LINK_VIA_NONE = 0, /* nothing: linking for T fails with undefined references */
    FC_LINK_VIA_CUBIN,
    FC_LINK_VIA_PTX,      /* compiled by the linker's own ptxas: its PTX ISA must not be newer
                             than the linking toolkit */
    FC_LINK_VIA_LTOIR,    /* with link-time optimisation (nvlink -dlto, nvJitLink -lto) */
} fc_link_via;

typedef struct fc_link {
    fc_link_via via;
    int entry;            /* index of the image taken, or -1 */
} fc_link;

FC_API fc_link fc_predict_link(const fc_container *c, const fc_target *t);
FC_API const char *fc_link_via_name(fc_link_via v); /* "cubin", "ptx", "ltoir", "none" */
FC_API const char *fc_role_name(fc_role r);         /* "module", "link_input" */

/* Whether an image runs on compute capability CC (ignoring driver versions). */
FC_API bool fc_cubin_runs_on(unsigned arch, fc_variant v, unsigned cc, bool cc_is_tegra);
FC_API bool fc_ptx_jits_for(unsigned arch, fc_variant v, unsigned cc);

/* Names of results, as the driver names them: "CUDA_SUCCESS", "CUDA_ERROR_NO_BINARY_FOR_GPU". */
FC_API const char *fc_load_result_name(fc_load_result r);
FC_API const char *fc_load_via_name(fc_load_via v);   /* "native", "compatible", "jit", "none" */

/* Fills *T from a user's spec: "sm_86", "8.6", "86", "compute_86", or a product name
 * ("RTX 4090", "NVIDIA H100 80GB HBM3", "Jetson Orin"; case and vendor words ignored).
 * On an unknown name returns FC_ERR_INVALID with a message suggesting close matches. */
FC_API fc_status fc_target_parse(const char *spec, fc_target *t, char *err, size_t err_size);

/* True for the Jetson compute capabilities (5.3, 6.2, 7.2, 8.7, 10.1, 11.0). */
FC_API bool fc_cc_is_tegra(unsigned cc);
/* Products of a compute capability, for people: "H100, H200, GH200"; "" when unknown. */
FC_API const char *fc_cc_products(unsigned cc);
/* Every compute capability the tables know, ascending; returns how many (at most MAX). */
FC_API size_t fc_known_ccs(unsigned *out, size_t max);

/* A TORCH_CUDA_ARCH_LIST value, parsed: each entry builds a cubin and, with +PTX, PTX. */
typedef struct fc_arch_entry {
    unsigned cc;
    bool arch_specific;  /* "9.0a" */
    bool ptx;            /* "+PTX" */
} fc_arch_entry;

typedef struct fc_arch_list {
    fc_arch_entry entries[64];
    size_t n;
} fc_arch_list;

/* Parses VALUE with torch's grammar: entries separated by ';' or spaces, "X.Y", "X.Ya",
 * "+PTX", and the named architectures (Ampere, Hopper, ...) expanded. "native" is refused
 * here (the caller knows the local GPUs). */
FC_API fc_status fc_arch_list_parse(const char *value, fc_arch_list *out, char *err, size_t err_size);

/* Parses a driver version: a CUDA version ("12.4") or a driver release ("550.54.14", mapped
 * through NVIDIA's release table to the newest CUDA version it supports). */
FC_API fc_status fc_driver_parse(const char *s, int *cuda_version, char *err, size_t err_size);
/* The CUDA release that introduced PTX ISA MAJOR.MINOR (9.1 -> 13010), or 0 if unknown. */
FC_API int fc_ptx_isa_cuda_version(unsigned major, unsigned minor);
/* The minimum Linux x86_64 driver for CUDA version V ("590.44.01"), or NULL if unknown. */
FC_API const char *fc_cuda_min_driver(int cuda_version);

/* ---- Local GPUs ---------------------------------------------------------------------
 * The GPUs a CUDA program started now would see, with the CUDA version their driver
 * supports: CUDA_VISIBLE_DEVICES and CUDA_DEVICE_ORDER are applied as the CUDA runtime
 * applies them (docs/detection.md).
 *
 * Detection forks: the driver's libraries are loaded and asked in another process, so that
 * a crash, a hang or stray output of theirs stays there. That process is a grandchild: the
 * child that forks it exits at once and is reaped here, and the grandchild, reparented to
 * init (or to the caller if it is a subreaper), is never waited for, so that the driver's
 * teardown at its exit costs the caller nothing. Its standard input and output are
 * /dev/null (its standard error is the caller's); if it has not answered when the time
 * limit passes it is killed (SIGKILL). Before forking, every stdio
 * stream is flushed (fflush(NULL)), so that nothing buffered is written twice; nothing else
 * process-wide is changed (no signal handler, no environment). Call it from a
 * single-threaded program, or before starting threads: a child forked beside other threads
 * may deadlock in the loader (the time limit then ends it). */

typedef enum fc_detect_method {
    FC_DETECT_AUTO = 0, /* NVML, and the Driver API where NVML cannot answer exactly as the
                           runtime would (see docs/detection.md) */
    FC_DETECT_NVML,     /* NVML (libnvidia-ml.so.1) only */
    FC_DETECT_DRIVER,   /* the CUDA Driver API (libcuda.so.1, cuInit) only */
} fc_detect_method;

#define FC_DETECT_TIMEOUT_MS 5000u

typedef struct fc_detect_options {
    fc_detect_method method;
    unsigned timeout_ms;  /* how long the child may take; 0 means FC_DETECT_TIMEOUT_MS */
} fc_detect_options;

/* Fills *O with the defaults: FC_DETECT_AUTO, FC_DETECT_TIMEOUT_MS. */
FC_API void fc_detect_options_init(fc_detect_options *o);

typedef struct fc_detect_info {
    fc_detect_method answered_by; /* FC_DETECT_NVML or FC_DETECT_DRIVER; FC_DETECT_AUTO when
                                     no answer came (a timeout, a crash) */
    bool timed_out;
    char note[320];               /* what CUDA_VISIBLE_DEVICES left out ("... stops at 'x' ..."),
                                     as NVML's answer found it; or "" */
    char driver_reason[320];      /* why the Driver API answered instead of NVML, or "" */
} fc_detect_info;

/* Fills up to MAX targets with the local GPUs, in the runtime's numbering ("GPU 0" is device
 * 0), and returns how many in *N. Without a driver, a GPU, or an answer in time, returns
 * FC_ERR_UNSUPPORTED and says why in ERR. OPTS may be NULL (the defaults), INFO NULL. */
FC_API fc_status fc_detect_gpus_ext(fc_target *out, size_t max, size_t *n, const fc_detect_options *opts,
                                    fc_detect_info *info, char *err, size_t err_size);
/* The same with the default options. */
FC_API fc_status fc_detect_gpus(fc_target *out, size_t max, size_t *n, char *err, size_t err_size);

/* Whether an image refers to symbols it does not define, other than those the driver itself
 * supplies (vprintf, malloc, free, __assertfail): a cubin by its undefined global symbols
 * (weak ones do not count), PTX by its .extern functions and variables (.extern .shared, the
 * dynamic shared memory, does not count). Such an image needs device linking. Reads (and
 * decompresses, within opts->max_decompressed_size) the image, so OBJ's bytes must be at hand:
 * call it from the scan callback. */
typedef enum fc_link_state {
    FC_LINK_UNKNOWN = 0,     /* obfuscated, LTO-IR, or unreadable */
    FC_LINK_SELF_CONTAINED,
    FC_LINK_UNRESOLVED,
} fc_link_state;
FC_API fc_link_state fc_entry_link_state(const fc_object *obj, const fc_entry *e, const fc_options *opts);

/* Asking the real driver (--probe): each image is loaded with cuModuleLoadData in a child
 * process, so that a driver crash is a finding, not the end of fatcheck. */
typedef struct fc_prober fc_prober;
FC_API fc_status fc_prober_open(fc_prober **out);
/* Loads IMAGE on device DEVICE. *CU_RESULT is the driver's CUresult (-2: no usable driver in
 * the child); *CRASHED is set when the child died during the load. */
FC_API fc_status fc_prober_load(fc_prober *p, unsigned device, const void *image, size_t size,
                                int *cu_result, bool *crashed);
FC_API void fc_prober_close(fc_prober *p); /* accepts NULL */

/* ---- The runtime's driver requirement ---------------------------------------------------
 * A CUDA runtime newer than the driver allows cannot start: every CUDA call fails with
 * cudaErrorInsufficientDriver ("CUDA driver version is insufficient for CUDA runtime version"),
 * whatever images the file holds. From CUDA 11 on, a runtime of major N starts on any driver for
 * N.0 or newer (minor version compatibility); earlier ones only on their own release's. */
typedef enum fc_runtime_kind {
    FC_RUNTIME_NONE = 0, /* names no CUDA runtime and registers no code through one */
    FC_RUNTIME_SHARED,   /* libcudart.so.N in DT_NEEDED (nvcc -cudart shared) */
    FC_RUNTIME_STATIC,   /* linked in (nvcc's default): registered code, no libcudart named */
    FC_RUNTIME_PROCESS,  /* registers its code through a runtime the loading process brings */
    FC_RUNTIME_UNKNOWN,  /* registers code through a runtime it does not name, and what is left
                            of the file does not tell whether it is linked in */
} fc_runtime_kind;

typedef struct fc_runtime_need {
    fc_runtime_kind kind;
    int cuda;                   /* the oldest CUDA version whose driver starts its runtime and
                                   the CUDA libraries it names (13000); 0 when nothing tells */
    char decided_by[64];        /* what sets CUDA: "libcudart.so.13", "its static CUDA 12 runtime" */
    int built_by;               /* static runtime: the toolkit of its device code (12040), or 0 */
    int library_cuda;           /* it is a CUDA library itself (its soname): that CUDA, or 0 */
    char built_by_evidence[64]; /* "PTX ISA 8.4", "its cubins' ptxas, CUDA 13.0" */
} fc_runtime_need;

/* What OBJ needs of the driver (call from the scan callback: for a static runtime, a cubin
 * may be read for its toolkit note, within opts->max_decompressed_size; OPTS may be NULL). */
FC_API fc_status fc_object_runtime(const fc_object *obj, const fc_options *opts, fc_runtime_need *out);
/* Whether a driver for CUDA version DRIVER_CUDA starts it (true when either is unknown, 0). */
FC_API bool fc_runtime_starts(const fc_runtime_need *n, int driver_cuda);
/* The CUDA version a CUDA library's soname calls for: libcudart.so.13 -> 13000,
 * libcudart.so.10.2 -> 10020, libcufft.so.11 -> 12000 (cuFFT 11 came with CUDA 12); 0 for
 * a name it does not know. */
FC_API int fc_cuda_library_version(const char *soname);
FC_API const char *fc_runtime_kind_name(fc_runtime_kind k); /* "shared", "static", "process", "unknown", "none" */

/* ---- What a container image asks of the NVIDIA Container Toolkit ----------------------
 * Its NVIDIA_REQUIRE_* values, evaluated as nvidia-container-cli evaluates them for each GPU
 * given to the container: terms separated by spaces are ORed, factors separated by commas
 * ANDed, each PROPERTY OP VALUE (cuda, driver, arch: dotted numbers; brand: a word) with OP
 * one of = != < <= > >=; the first value that fails stops the container from starting. */
typedef enum fc_require_result {
    FC_REQUIRE_MET = 0,  /* the container starts */
    FC_REQUIRE_UNMET,    /* refused: "unsatisfied condition: cuda>=12.4, ..." */
    FC_REQUIRE_UNKNOWN,  /* depends on what is not known (the GPU's brand, the driver release) */
    FC_REQUIRE_INVALID,  /* refused: an expression the toolkit does not understand is reached */
} fc_require_result;

/* What is known of one GPU and its driver; 0 or NULL where unknown. */
typedef struct fc_require_props {
    int cuda;            /* the driver's CUDA version: 12040 */
    const char *driver;  /* the driver release: "550.54.14" */
    unsigned cc;         /* compute capability: 90 */
    const char *brand;   /* "Tesla", "NVIDIA", "GeForce" (NVML's names) */
} fc_require_props;

/* Evaluates the N values REQS for a GPU with properties P. WHY gets the toolkit's message when
 * unmet, the expression when invalid, what is missing when unknown. */
FC_API fc_require_result fc_require_eval(const char *const *reqs, size_t n, const fc_require_props *p, char *why,
                                         size_t why_size);
/* The same for image IMG's requirements on target T (its compute capability, driver_cuda and
 * driver release; the brand is never known). FC_REQUIRE_MET when it has none. */
FC_API fc_require_result fc_oci_requirements_check(const fc_oci_image *img, const fc_target *t, char *why,
                                                   size_t why_size);
FC_API const char *fc_require_result_name(fc_require_result r); /* "met", "unmet", "unknown", "invalid" */

/* ---- Kernels ---------------------------------------------------------------------------- */

typedef struct fc_kernel {
    const char *name;       /* as the image names it (C++ names mangled) */
    const char *demangled;  /* C++ names demangled (libiberty); others as NAME */
    bool entry;             /* a __global__ entry point; else a device function */
    int registers;          /* registers per thread, from .nv.info; -1 when not recorded */
    int64_t shared_bytes;   /* static shared memory, from .nv.shared.<name>; -1 when none */
} fc_kernel;

typedef struct fc_kernel_list {
    fc_kernel *items;
    size_t n, cap;
    uint32_t elf_arch;      /* cubins: the SM in the cubin's own ELF header (e_flags) */
    bool arch_mismatch;     /* cubins: it differs from the container entry's arch */
    size_t image_size;      /* bytes of the decompressed image */
    void *store;            /* owned strings */
} fc_kernel_list;

/* The kernels of one cubin or PTX image of OBJ (decompressed within opts->max_decompressed_size;
 * call from the scan callback). FC_ERR_UNSUPPORTED for LTO-IR, obfuscated or unknown images;
 * FC_ERR_IO when the file was cut short while the image was read (the scan reports that
 * once, through on_error, when it is done with the file). */
FC_API fc_status fc_entry_kernels(const fc_object *obj, const fc_entry *e, const fc_options *opts,
                                  fc_kernel_list **out);
FC_API void fc_kernel_list_free(fc_kernel_list *l); /* accepts NULL */

/* The kernels of every entry of OBJ, read on opts->threads threads (0: all CPUs). *OUT and
 * *STATUS get one element per entry, in container order; an element of *OUT is NULL where
 * *STATUS says why. Free with fc_object_kernels_free. */
FC_API fc_status fc_object_kernels(const fc_object *obj, const fc_options *opts, fc_kernel_list ***out,
                                   fc_status **status, size_t *n);
FC_API void fc_object_kernels_free(fc_kernel_list **lists, fc_status *status, size_t n);

/* ---- Fleets ----------------------------------------------------------------------------- */

/* GPUs alike (model, compute capability, driver) across a fleet: one target for all. */
typedef struct fc_fleet_group {
    fc_target target;   /* name: the product; source: "12 nodes, 96 GPUs: NVIDIA-H100-80GB-HBM3, driver 550.107.02" */
    unsigned nodes, gpus;
    char driver[64];    /* the driver release, "" when not given */
} fc_fleet_group;

/* Parses an inventory: the output of `nvidia-smi --query-gpu=index,name,compute_cap,
 * driver_version --format=csv` (header optional; with one, columns may come in any order),
 * or `kubectl get nodes -o json` (NVIDIA GPU Feature Discovery labels). Fills up to MAX
 * groups. Returns FC_ERR_FORMAT with ERR set (naming the line or node) on bad input. */
FC_API fc_status fc_fleet_parse(const char *text, size_t len, fc_fleet_group *groups, size_t max, size_t *n,
                                char *err, size_t err_size);

/* ---- PyTorch JIT extensions -------------------------------------------------------- */

typedef struct fc_torch_extension {
    char name[256];      /* the extension's name: its folder */
    char dir[4096];      /* its folder */
    char library[4096];  /* what PyTorch loads: <name>.so, or the newest <name>_v<N>.so */
    char python[16];     /* "3.12" from a py312_cu130 folder; "" when not in one */
    char build[32];      /* "cu130", "cpu"; "" when not in a version folder */
    int cuda;            /* 13000 from cu130; 0 for CPU builds or unknown */
} fc_torch_extension;

typedef int (*fc_torch_ext_fn)(void *ctx, const fc_torch_extension *ext);

/* PyTorch's own cache folder: $TORCH_EXTENSIONS_DIR, else
 * ${XDG_CACHE_HOME:-~/.cache}/torch_extensions. Returns BUF. */
FC_API const char *fc_torch_extensions_default_dir(char *buf, size_t size);

/* Calls FN for every built extension under DIR (NULL: the default folder), in name order.
 * DIR may be the cache root (holding py<ver>_cu<ver>/ folders, or extensions directly when
 * it is a TORCH_EXTENSIONS_DIR), one version folder, or one extension's folder. Returns 0,
 * FN's nonzero value, or a negative status with ERR set when nothing was found. */
FC_API int fc_torch_extensions(const char *dir, fc_torch_ext_fn fn, void *ctx, char *err, size_t err_size);

/* Whether extension X's folder is stale: built for another Python than PYTHON ("3.12"), or,
 * when TORCH_CUDA is known (>= 0; 0 for a CPU build of torch), for another CUDA than torch's.
 * PyTorch then builds into another folder and never loads this one. 1 stale, 0 not, -1 when
 * it cannot be told (PYTHON unknown, or X not in a version folder). */
FC_API int fc_torch_extension_stale(const fc_torch_extension *x, const char *python, int torch_cuda);

#ifdef __cplusplus
}
#endif

#include "fatcheck/verdict.h"

#endif /* FATCHECK_H */
