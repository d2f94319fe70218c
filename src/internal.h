/* internal.h - what the library's files share: the object builder and error messages. */
#ifndef FC_INTERNAL_H
#define FC_INTERNAL_H

#include <stdarg.h>
#include <sys/stat.h>

#include "fatcheck.h"
#include "file_map.h"
#include "reader.h"

/* The smallest entry header holding every field fatcheck reads (flags at 40, the declared
 * uncompressed size at 56). Every header seen is at least this long. */
#define FC_ENTRY_MIN_HEADER 64u
#define FC_CONTAINER_HEADER 16u
#define FC_FATBIN_MAGIC 0xBA55ED50u

/* An input's bytes: a mapping of a whole file (or a caller's buffer), and the file
 * descriptor when there is one, so that bulk scans can pread into a small buffer instead of
 * faulting the mapping in (which would count every page against the resident set). */
typedef struct fc_image {
    const uint8_t *data;
    size_t size;
    int fd;              /* -1 for memory images */
    bool own_mapping;    /* data is our mmap: pages behind the work may be released */
} fc_image;

/* Collects the containers and entries of one object as they are decoded, then hands out a
 * read-only fc_object. Growth is geometric; counts are capped by the options' limits. */
typedef struct fc_builder {
    fc_object obj;
    const fc_options *opts; /* points at options below */
    fc_options options;
    char *label;            /* "path" or "path(member)", for messages */
    fc_container *containers;
    size_t *first_entry;    /* index into entries of each container's first entry */
    size_t cap_containers, cap_first;
    fc_entry *entries;
    size_t n_entries, cap_entries;
    char **strings;         /* every string the object owns */
    size_t n_strings, cap_strings;
    const char *last_section; /* interned copy of the most recent section name */
    const char **needed;      /* the object's CUDA libraries (DT_NEEDED), owned strings */
    size_t n_needed, cap_needed;
    /* The last few identifier and option strings copied: entries repeat a handful of them
     * thousands of times (cuFFT's 12,728 PTX entries share one option string), so a copy is
     * shared rather than made again. */
    const char *recent[4];
    unsigned recent_next;
    /* Where offsets in messages are counted from: a section's start, or the file's. */
    const char *where_section;
    uint64_t where_base;
} fc_builder;

/* Sets the frame for messages: offsets become "SECTION+0xREL" (or "offset 0xOFF" when
 * SECTION is NULL). */
void fc_builder_where(fc_builder *b, const char *section, uint64_t section_offset);
/* Formats file offset OFF in the current frame. */
void fc_where(const fc_builder *b, uint64_t off, char *buf, size_t size);

/* The options a call works with (fc_options.size): IN itself when it is of this library's
 * size; when it is an older, smaller fc_options, a copy in STORAGE of its fields with the
 * defaults of the others; the defaults when IN is NULL. NULL when IN's size is that of no
 * fc_options: the caller did not fill it with fc_options_init, or its header is newer. */
const fc_options *fc_options_resolve(const fc_options *in, fc_options *storage);

/* LABEL names the object in messages ("lib.a(x.o)", "pkg.whl!lib/x.so"); NULL makes
 * "PATH(MEMBER)" or "PATH". */
fc_status fc_builder_init(fc_builder *b, const fc_options *opts, const char *path, const char *member,
                          const char *label);
/* Frees everything the builder owns, including the object it built. */
void fc_builder_reset(fc_builder *b);
/* Opens a container; the entries added next belong to it. */
fc_status fc_builder_add_container(fc_builder *b, uint64_t offset, fc_origin origin, const char *section);
void fc_builder_set_container_size(fc_builder *b, uint64_t size);
/* What the last container is for, when more than its headers tell (fc_builder_finish adds
 * what they tell). */
void fc_builder_set_container_role(fc_builder *b, fc_role role);
/* Makes room for N more containers and M more entries, so that adding them does not
 * reallocate (merging builders). False when out of memory. */
bool fc_builder_reserve(fc_builder *b, size_t n, size_t m);
/* Adds an entry to the last container; strings in *e are copied (or shared with an equal
 * copy made recently). */
fc_status fc_builder_add_entry(fc_builder *b, const fc_entry *e);
/* Records the object's own DT_SONAME, when it names a CUDA library (copied). */
void fc_builder_set_soname(fc_builder *b, const char *soname);
/* Records a CUDA library the object names in DT_NEEDED (copied). */
fc_status fc_builder_add_needed(fc_builder *b, const char *soname);
/* Drops the last container and its entries (an embedded candidate that did not validate). */
void fc_builder_drop_container(fc_builder *b);
/* Copies LEN bytes of S as an owned NUL-terminated string; NULL when out of memory. */
char *fc_builder_strndup(fc_builder *b, const char *s, size_t len);
/* Records the first decoding problem: "LABEL: WHERE: reason". Returns STATUS. */
fc_status fc_builder_fail(fc_builder *b, fc_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Fixes up pointers; the object is valid until fc_builder_reset. */
const fc_object *fc_builder_finish(fc_builder *b);

/* Decodes containers lying back to back in [OFF, OFF + SIZE) of R's object, as in
 * .nv_fatbin. Zero padding between containers is skipped. SECTION names the section for
 * messages (or NULL). Stops at the first problem, recorded in the builder. Offsets are the
 * object's, as entries and messages give them. */
fc_status fc_fatbin_decode_run(fc_builder *b, fc_reader *r, uint64_t off, uint64_t size, fc_origin origin,
                               const char *section);

/* Decodes the chain of containers from OFF as long as they start before STOP, each allowed
 * to run up to END (the section's end). *NEXT gets where the chain goes on: the first
 * nonzero byte at or after STOP (or END), or the container where a problem stopped it. */
fc_status fc_fatbin_walk(fc_builder *b, fc_reader *r, uint64_t off, uint64_t stop, uint64_t end, fc_origin origin,
                         const char *section, uint64_t *next);

/* Decodes the one container at OFF (SIZE bytes available). On success *consumed is the
 * container's length. */
fc_status fc_fatbin_decode_one(fc_builder *b, fc_reader *r, uint64_t off, uint64_t size, fc_origin origin,
                               const char *section, uint64_t *consumed);

/* True when OFF (SIZE bytes available) starts a container whose header and entry chain are
 * consistent: the test for containers found by scanning plain data. On success *len is the
 * container's length. Reads only headers. */
bool fc_fatbin_plausible(fc_reader *r, uint64_t off, uint64_t size, uint64_t *len);

/* Drops the pages of [off, off + len) from the resident set when the image is our own
 * mapping (the page cache keeps them; a later read faults them back) (image.c). */
void fc_image_release(const fc_image *img, uint64_t off, uint64_t len);

/* A reader of offsets [LO, HI) of the object that starts at image position BASE: pread
 * into a buffer of CAP bytes for a mapped file, in place for memory. False when out of
 * memory (the reader then needs no fc_reader_free, though it may have one). */
bool fc_image_reader(const fc_image *img, uint64_t base, uint64_t lo, uint64_t hi, size_t cap, fc_reader *r);

/* A section of an object: [offset, offset + size) in the object's offsets. */
typedef struct fc_region {
    uint64_t offset, size;
    const char *section;
    /* For a registered section: where containers start, as the registration table says
     * (sorted; NULL when unknown). Hints for splitting the walk, never trusted. */
    const uint64_t *starts;
    size_t n_starts;
    /* A file of no known format: searched in full whatever the embedded mode's probing, and
     * at every byte offset (nothing says its containers are aligned). */
    bool whole_file;
    /* A data section searched in full whatever the embedded mode's probing (a program that
     * loads modules itself keeps its PTX text anywhere). */
    bool search_in_full;
} fc_region;

/* The CUDA runtime's registration records (registration.c): 24 bytes each, {u32 magic,
 * u32 version, u64 address of the container, u64 link data}. */
#define FC_WRAPPER_MAGIC 0x466243B1u
#define FC_WRAPPER_SIZE 24u
#define FC_WRAPPER_TABLE_MAX (4u << 20) /* bytes of a table read at most */
typedef struct fc_wrapper {
    uint64_t offset;   /* of the record, in the object */
    uint64_t addr;     /* of the record, in memory (the table's address plus its place) */
    uint32_t version;
    uint64_t data;     /* the container's address as stored; 0 where a relocation fills it */
} fc_wrapper;
#define FC_WRAPPER_SIZE_32 16u /* in 32-bit images: 4-byte pointers */
/* Reads the records of RECORD_SIZE bytes in [OFF, OFF + SIZE) of the object at image
 * position BASE; ADDR is the table's address in memory. *OUT (freed by the caller; NULL when
 * there is none) gets the records that carry the magic. FC_ERR_NOMEM or FC_ERR_IO on failure. */
fc_status fc_wrappers_read(const fc_image *img, uint64_t base, uint64_t off, uint64_t size, uint64_t addr,
                           unsigned record_size, fc_wrapper **out, size_t *n);
/* A builder's containers by offset (open addressing), kept as containers are added, so that
 * a container met again is recognised without a linear search. */
typedef struct fc_container_index {
    struct { uint64_t offset; size_t index1; } *slots;
    size_t n, cap;
} fc_container_index;
bool fc_container_index_add(fc_container_index *k, uint64_t off, size_t index); /* false: out of memory */
/* The container of B at OFF, or NULL. */
fc_container *fc_container_index_at(const fc_container_index *k, fc_builder *b, uint64_t off);
void fc_container_index_free(fc_container_index *k);
/* How the loader maps a record's address: TO_OFFSET gives the object offset of virtual
 * address VA, the bytes mapped from the file from there and the section they are in (or
 * NULL, where section names tell nothing), or false; MAPPED says what it maps, for messages
 * ("every loaded segment"). */
typedef struct fc_address_map {
    bool (*to_offset)(const void *ctx, uint64_t va, uint64_t *off, uint64_t *avail, const char **section);
    const void *ctx;
    const char *mapped;
} fc_address_map;
/* Follows the records W[0..N) of the object at image position BASE as the runtime does at
 * start-up: one that leads into a REGISTERED region must lead to a container its walk
 * decoded; one that leads elsewhere has its container, and those back to back after it,
 * decoded into B as FC_ORIGIN_WRAPPER (one the embedded search found becomes so). A record
 * that leads to no container is B's error. Records whose address is 0 (left to a relocation)
 * are passed over. K indexes B's containers (filled here first when empty; the caller frees
 * it). Returns how many containers were found outside the registered regions. */
size_t fc_records_follow(fc_builder *b, fc_container_index *k, const fc_image *img, uint64_t base,
                         const fc_wrapper *w, size_t n, const fc_region *registered, size_t n_registered,
                         const fc_address_map *map);
/* Keeps the OFFSETS[0..n) that lie in G, sorted, as G's starts (hints for splitting its
 * walk). Returns the array for the caller to free, or NULL (freed) when fewer than two. */
uint64_t *fc_region_set_starts(fc_region *g, uint64_t *offsets, size_t n);

/* Adds to FOUND, as FC_ORIGIN_EMBEDDED, the containers that start in [START, END) of
 * region REG, found by searching for the magic and skipped over whole; and, as
 * FC_ORIGIN_PTX_TEXT, the PTX modules kept as text that start before TEXT_END in the bytes
 * searched. Returns the errno of a failed read, or 0; other problems are recorded in FOUND. */
int fc_embedded_search(fc_builder *found, fc_reader *r, const fc_region *reg, uint64_t start, uint64_t end,
                       uint64_t text_end);
/* True for the sections searched in full even in FC_EMBEDDED_AUTO mode. */
bool fc_embedded_always_searched(const char *section);
/* The first offset of P[0..n) where fc_embedded_search could find something (a container's
 * magic, ".version", an ELF header), or N: bytes before it hold nothing the search finds,
 * but for the FC_PTX_HEADER_BEFORE bytes of comment a PTX module may start with. Patterns
 * cut by N are not looked for: a caller reading in pieces looks at the seams itself. */
size_t fc_embedded_first_candidate(const uint8_t *p, size_t n);
/* How far before ".version" a PTX module kept as text may start (its comment lines). */
#define FC_PTX_HEADER_BEFORE 4096u
/* The longest pattern fc_embedded_first_candidate looks for. */
#define FC_EMBEDDED_PATTERN_MAX 8u

/* PTX text (ptx_text.c): whether BUF looks like PTX text; a PTX file decoded into B as one
 * pseudo-container holding it. */
bool fc_ptx_text_probe(const uint8_t *buf, size_t size);
/* Whether BUF, the head of a file, holds nothing but blank space and comments (after a byte
 * order mark): PTX may still follow, so the head cannot tell. */
bool fc_ptx_text_undecided(const uint8_t *buf, size_t size);
fc_status fc_ptx_text_decode(fc_builder *b, const uint8_t *buf, size_t size);
struct Elf;
struct Elf_Scn;
/* Whether the ELF object ELF, whose dynamic section is DYNAMIC, may load modules itself: it
 * needs libcuda.so directly (DT_NEEDED), as programs that keep PTX text do (mumax3); CUDA's
 * own libraries and the runtime reach the driver through dlopen instead. */
bool fc_ptx_text_program(struct Elf *elf, struct Elf_Scn *dynamic);
/* The PTX module kept as text whose ".version" directive is at AT in R's object (read up to
 * LIMIT): when it is one, adds it to B as FC_ORIGIN_PTX_TEXT in SECTION (or NULL) and
 * returns where it ends; else returns AT. */
uint64_t fc_ptx_text_module(fc_builder *b, fc_reader *r, uint64_t at, uint64_t limit, const char *section);

/* The file being scanned, as it was when opened: it may change under the scan (truncated,
 * rewritten in place), which is then reported once, as the reason for what could not be
 * read. */
typedef struct fc_open_file {
    const char *path;
    int fd;
    struct stat at_open;
    fc_file_map map;       /* its mapping (file_map.h), when it has one */
    bool change_reported;
} fc_open_file;

/* One scan (fc_scan, fc_scan_fd, fc_scan_memory): the caller's options and callbacks, and what
 * every reader of its inputs shares (scan_ctx.c serves them). */
typedef struct fc_scan_ctx {
    const fc_options *opts;
    fc_object_fn on_object;
    fc_error_fn on_error;
    void *user;
    bool named;            /* the input was named by the caller, not found in a directory */
    size_t delivered;      /* objects handed to on_object so far */
    /* Inside a package (wheel, tarball, image): the file on disk, and the member path
     * within it ("lib/x.so", "layer.tar!usr/lib/x.so"); NULL outside packages. */
    const char *outer;
    const char *inner;
    unsigned depth;        /* package nesting */
    size_t errors;         /* errors reported so far (fc_report_error) */
    struct fc_pool *pool;  /* helper threads, started when first wanted (sections.c) */
    bool pool_failed;
    fc_open_file *file;    /* the file on disk being read, or NULL (a caller's buffer) */
    /* Inside a container image: where the objects lie in it (oci_image.c), and whether their
     * member name ("app:1.0:/usr/lib/x.so") is all their label (an image named directly). */
    const fc_oci_file *in_image;
    bool image_labels;
} fc_scan_ctx;

/* Decodes the registered container sections FATBINS and searches the data sections DATA of
 * the object at image position BASE into B, on the scan's helper threads: first the
 * registered containers in section order, then the embedded ones in file order, exactly as
 * one thread would find them. */
void fc_decode_sections(fc_scan_ctx *sc, fc_builder *b, const fc_image *img, uint64_t base,
                        const fc_region *fatbins, size_t n_fatbins, const fc_region *data, size_t n_data);
/* Stops the scan's helper threads (scan_ctx.c). */
void fc_scan_ctx_end(fc_scan_ctx *sc);
/* The scan's helper threads, started the first time (THREADS - 1 of them); NULL with one
 * thread or when they cannot be started. One piece of work at a time uses them. */
struct fc_pool *fc_scan_pool(fc_scan_ctx *sc, unsigned threads);

/* How an object or error is named: the file on disk, what is inside it, and both together
 * for messages. PATH is the image's name, AR_MEMBER a static archive member (or NULL).
 * These, the error reports and the delivery below are scan_ctx.c's. */
typedef struct fc_name {
    const char *path;
    char *member;
    char *label;
} fc_name;
bool fc_name_make(const fc_scan_ctx *sc, const char *path, const char *ar_member, fc_name *out);
void fc_name_free(fc_name *n);
/* Starts builder B for the object PATH (or its archive member AR_MEMBER) names. False when
 * out of memory, which is reported; *RC then gets what the error callback returned. */
bool fc_builder_start(fc_scan_ctx *sc, fc_builder *b, const char *path, const char *ar_member, int *rc);

/* Scans an image that starts like a package: a zip, tar, compressed stream, .deb or .rpm
 * (package.c). */
int fc_scan_package(fc_scan_ctx *sc, const fc_image *img, const char *path);
/* The same, read from stream IN as its bytes arrive (stream.h). */
struct fc_stream;
int fc_scan_package_stream(fc_scan_ctx *sc, struct fc_stream *in, const char *path);
/* True when BUF starts like a package: zip, tar, gzip, bzip2, xz, zstd, .deb or .rpm. */
bool fc_sniff_package(const uint8_t *buf, size_t size);
/* True when BUF starts like a .deb: an ar archive whose first member is debian-binary. */
bool fc_sniff_deb(const uint8_t *buf, size_t size);

/* What a scan returns for a callback's value RC: RC when it is zero or positive, FC_STOP for any
 * negative value, so that no stop is read as one of the library's own failures (common.h). */
static inline int fc_callback_value(int rc)
{
    return rc < 0 ? FC_STOP : rc;
}
/* Whether the file being scanned changed since it was opened: a read through its mapping went
 * past its new end, or its size or modification time are not what they were. WHY gets the
 * reason (scan_ctx.c). */
bool fc_file_changed(const fc_scan_ctx *sc, char *why, size_t size);
/* Says once that the file being scanned changed. Returns the callback's value. */
int fc_report_change(fc_scan_ctx *sc, const char *why);
/* Reports an error for an input that produced no object. Returns the callback's value.
 * When the file being scanned has changed since it was opened, the change is reported
 * instead (once: later errors of that file are its echoes and are dropped). */
int fc_report_error(fc_scan_ctx *sc, fc_status status, const char *path, const char *member,
                    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Scans the file open as FD, named PATH, as fc_scan reads a file (scan.c). */
int fc_scan_open_file(fc_scan_ctx *sc, int fd, const char *path);
/* Scans one image (a mapped file or a caller's buffer) named PATH. */
int fc_scan_image(fc_scan_ctx *sc, const fc_image *img, const char *path);
/* Scans SIZE bytes at BASE in IMG that are neither ELF, COFF nor a package: a member of a
 * static archive (AR_MEMBER) or of a package (sc->inner). A bare fat binary or PTX file is
 * read as one named on its own; anything else is searched whole for containers kept as
 * data (FC_FORMAT_DATA), and passed over, searched, when it holds none. */
int fc_scan_data(fc_scan_ctx *sc, const fc_image *img, uint64_t base, uint64_t size, const char *path,
                 const char *ar_member);
/* False, with the reason in WHY, when the ELF object IMG, or an object in the archive IMG,
 * declares more than LIMIT sections: libelf would set up a descriptor for each (elf_sections.c). */
bool fc_elf_sections_ok(const fc_image *img, uint64_t limit, char *why, size_t why_size);
/* The same for one ELF image in memory (a cubin), under OPTS's limit (NULL: the default). */
bool fc_elf_image_sections_ok(const uint8_t *p, size_t n, const fc_options *opts);
/* Scans an image that starts with the ELF or archive magic. */
int fc_scan_elf(fc_scan_ctx *sc, const fc_image *img, const char *path);
/* What an ELF object's section table showed, for finding what it does not (elf_segments.c). */
typedef struct fc_elf_sections {
    bool table_missing;       /* no section headers at all (sstrip, e_shnum 0) */
    bool registered_unusable; /* .nv_fatbin or __nv_relfatbin is there, but not PROGBITS or empty */
    bool records_unusable;    /* the same for .nvFatBinSegment */
    uint64_t records_offset, records_size, records_addr; /* .nvFatBinSegment, when usable */
    const fc_region *registered; /* the registered sections decoded */
    size_t n_registered;
} fc_elf_sections;
/* Adds to B the containers the CUDA runtime registers in the ELF object ELF (at image
 * position BASE, SIZE bytes) that the section table SEEN did not show, found through the
 * registration records and the program headers (FC_ORIGIN_WRAPPER), or by searching the
 * loaded segments (FC_ORIGIN_SEGMENT, or FC_ORIGIN_EMBEDDED beside records). Does nothing
 * for an ordinary file whose records all point into its registered sections. */
void fc_elf_unlisted(fc_builder *b, const fc_image *img, uint64_t base, uint64_t size, struct Elf *elf,
                     const fc_elf_sections *seen);

/* Scans the PE image or COFF object at image position BASE (SIZE bytes; AR_MEMBER names it
 * inside a static library, or NULL) (pe.c); FORMAT is what fc_sniff said. */
int fc_scan_pe(fc_scan_ctx *sc, const fc_image *img, const char *path, const char *ar_member, uint64_t base,
               uint64_t size, fc_format format);
/* Hands a finished object to the caller's callback and frees the builder. An object read
 * from a file that changed under the scan carries that as its error. */
int fc_deliver(fc_scan_ctx *sc, fc_builder *b);

/* A buffer reused across decompressions: its size is that of the largest image seen. */
typedef struct fc_buffer {
    uint8_t *p;
    size_t cap;
    /* P is an anonymous mapping of its own (large buffers, where a caller set MAP_LARGE): freed
     * with munmap, so its pages go back to the system at once; malloc keeps a freed buffer of
     * megabytes in the freeing thread's arena, and the kernel view's threads each kept one. */
    bool mapped;
    bool map_large;
} fc_buffer;
/* Frees BUF's bytes (either kind) and empties it. */
void fc_buffer_free(fc_buffer *buf);
/* fc_decompress into BUF (grown as needed, never shrunk); *LEN gets the bytes produced. */
fc_status fc_decompress_buffer(fc_compression m, const void *src, size_t src_size, uint64_t declared,
                               uint64_t limit, fc_buffer *buf, size_t *len);

/* The image of entry E of OBJ: *BYTES points into the object's image, or, when stored
 * compressed, into SCRATCH, decompressed under opts->max_decompressed_size. */
fc_status fc_entry_image(const fc_object *obj, const fc_entry *e, const fc_options *opts, fc_buffer *scratch,
                         const uint8_t **bytes, size_t *len);

/* In a child that loads the driver's libraries: their writes to standard output would land
 * in ours (a --json document) and their reads of standard input would take ours, so both
 * become /dev/null; standard error stays. KEEP, a descriptor the child needs, is moved
 * above 2 first if it sits at 0..2; returns where it is now (pipe_io.c). */
int fc_child_stdio(int keep);

/* The first N bytes (or fewer, when the image is shorter) of entry E's image, decompressing
 * only as much as they need: cheap where fc_entry_image would inflate a whole image. */
fc_status fc_entry_head(const fc_object *obj, const fc_entry *e, void *buf, size_t n, size_t *got);

/* Whether an entry was compiled to be linked (LTO-IR, PTX stored with the ptxas option
 * --compile-only) (container_role.c). */
bool fc_entry_compiled_relocatable(const fc_entry *e);
/* Whether containers of origin O are registered with the CUDA runtime (and so were linked
 * when the program was built). */
static inline bool fc_origin_registered(fc_origin o)
{
    return o == FC_ORIGIN_SECTION || o == FC_ORIGIN_WRAPPER;
}
/* The sections the CUDA runtime registers: .nv_fatbin, and __nv_relfatbin (-rdc link inputs),
 * by their ELF names or as PE images cut them to 8 characters (.nv_fatb, __nv_rel). */
bool fc_section_is_fatbin(const char *name);
bool fc_section_is_relfatbin(const char *name);
/* The role container C's headers give it (fc_builder_finish sets it). */
fc_role fc_container_role(const fc_container *c);

/* Reads or writes exactly N bytes on a pipe; false on end of file or an error (pipe_io.c). */
bool fc_read_all(int fd, void *buf, size_t n);
bool fc_write_all(int fd, const void *buf, size_t n);

/* Fills B's DT_NEEDED CUDA libraries, imports_registration and linked_program from a host
 * ELF file's dynamic section and symbols (elf_needs.c). Call after its containers are in B. */
#include <gelf.h>
void fc_elf_read_needs(fc_builder *b, Elf *elf, const GElf_Ehdr *eh, const fc_image *img, uint64_t base,
                       const uint8_t *data, uint64_t size);
/* The same for a PE image: the CUDA DLLs its import and delay-load tables name (pe_imports.c). */
struct fc_pe;
void fc_pe_read_needs(fc_builder *b, const uint8_t *data, size_t size, const struct fc_pe *pe);

/* Calls elf_version once, for every file that uses libelf. */
void fc_libelf_init(void);

/* Format detection from the first bytes (sniff.c); packages are told apart by
 * fc_sniff_package. */
fc_format fc_sniff(const uint8_t *buf, size_t size, bool *is_archive);

/* The driver releases that report CUDA version CUDA_VERSION: from *LO up to (not including)
 * *HI (NULL: no newer release known). False for a version no driver reports. */
bool fc_cuda_release_range(int cuda_version, const char **lo, const char **hi);

/* The first PTX ISA (major * 10 + minor) in which PTX may name .target sm_ARCH with VARIANT
 * ("a", "f"); 0 for a target not in the table (arch.c). Older PTX for it is refused by ptxas
 * ("PTX .version 7.0 does not support .target sm_90"). */
unsigned fc_ptx_target_min_isa(unsigned arch, fc_variant variant);

#endif
