/* input.h - the input layer: one scan's context and services (scan_ctx.c), and what the
 * readers of files, ELF and PE objects, packages, registration records and data searched for
 * containers share. Below it: decode (the builder) and util (images, readers, mappings).
 * Container images (src/image/) are scanned from here and scan their files through here. */
#ifndef FC_INPUT_H
#define FC_INPUT_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "decode.h"
#include "fatcheck/scan.h"
#include "file_map.h"
#include "image.h"
#include "reader.h"

/* One scan and the services every reader calls (scan_ctx.c). The file being scanned, as it
 * was when opened: it may change under the scan (truncated, rewritten in place), which is
 * then reported once, as the reason for what could not be read. */
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
    bool archive_named;    /* reading the members of a static archive the caller named */
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
    /* When set, objects are handed here instead of to on_object, to be taken with
     * fc_builder_move and kept beyond the scan; the file they were read from is then left
     * open (fc_scan_open_file_kept). The walk's survey reads so (survey.c). */
    void (*keep)(void *user, fc_builder *b);
    bool kept;             /* keep was called since the file was opened */
    /* An object to keep lay in bytes the file's mapping does not hold (a section stored
     * compressed, decompressed onto the heap): it cannot outlive the scan, so it was not
     * kept, and the survey leaves the file to the walk. */
    bool unkeepable;
    /* An allocation or a mapping failed: what was said is the memory's answer, not the file's
     * (the survey then leaves the file to the walk, which reads it as -j 1 would). */
    bool short_of_memory;
    /* Of the package being read from the input named or found (package.c): the bytes its
     * members declared under a compression layer, at every depth, and the bytes of the input
     * itself (its size; from a pipe, those read so far). */
    uint64_t unpacked, packed;
    bool unpacked_said;    /* past opts->max_unpacked: said once, for the innermost package */
    bool packed_growing;   /* the input is a stream: packed counts what was read of it so far */
    bool unpacked_holes;   /* unpacked counts sparse members' holes, filled with zeros when read */
    /* How many of the packages being read around the member at hand are under a compression
     * layer: its bytes are reached only by decompressing (package.c). */
    unsigned under_compression;
} fc_scan_ctx;

/* How an object or error is named: the file on disk, what is inside it, and both together
 * for messages. PATH is the image's name, AR_MEMBER a static archive member (or NULL). */
typedef struct fc_name {
    const char *path;
    char *member;
    char *label;
} fc_name;
bool fc_name_make(const fc_scan_ctx *sc, const char *path, const char *ar_member, fc_name *out);
void fc_name_free(fc_name *n);
/* A package member's name within the whole chain (malloc'd, NULL when out of memory):
 * "inner/path", or with PREFIX, the enclosing member's, "outer.tar!inner/path". */
char *fc_member_chain(const char *prefix, const char *entry);
/* What is read between fc_member_enter and fc_member_leave lies in the static archive member
 * MEMBER of PATH (SIZE bytes): what it carries (a package, a PyInstaller archive, a zip
 * appended to a program) is named as a package's members are, PATH and MEMBER!entry, and
 * counted against the unpacking budget as the outermost package's. MEMBER NULL: no change.
 * False when out of memory (not said). */
typedef struct fc_member_scope {
    const char *outer, *inner;
    char *chain;
} fc_member_scope;
bool fc_member_enter(fc_scan_ctx *sc, fc_member_scope *m, const char *path, const char *member, uint64_t size);
void fc_member_leave(fc_scan_ctx *sc, fc_member_scope *m);
/* Starts builder B for the object PATH (or its archive member AR_MEMBER) names. False when
 * out of memory, which is reported; *RC then gets what the error callback returned. */
bool fc_builder_start(fc_scan_ctx *sc, fc_builder *b, const char *path, const char *ar_member, int *rc);
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
/* Reports a warning about an input (fc_options.on_warning), or, when the caller takes none, an
 * error. Returns the callback's value. */
int fc_report_warning(fc_scan_ctx *sc, const char *path, const char *member, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Hands a finished object to the caller's callback and frees the builder. An object read
 * from a file that changed under the scan carries that as its error. */
int fc_deliver(fc_scan_ctx *sc, fc_builder *b);
/* Delivers PATH, a file named directly (FORMAT, SIZE bytes) that was read to its end and holds
 * no CUDA code: it says so rather than stay silent. */
int fc_deliver_no_code(fc_scan_ctx *sc, const char *path, fc_format format, uint64_t size);
/* Bytes after a program's image (ELF, PE) said as not read from this many on: fewer are
 * padding or a signature's, unless they are an archive or a zip (read however few). */
#define FC_APPENDED_MIN 4096u

/* A zip that ends the file SIZE bytes long from OFFSET on, appended to the program B reads
 * (a self-extracting zip, pip's Windows launchers): read as a package where packages are
 * opened (a file named, or packages_in_dirs): true, for the caller to read it with
 * fc_scan_package once B is delivered; elsewhere B says the bytes are a zip not read, and the
 * walk counts a package not opened. */
bool fc_appended_zip(fc_scan_ctx *sc, fc_builder *b, uint64_t offset, uint64_t size, const char *path);
/* Stops the scan's helper threads. */
void fc_scan_ctx_end(fc_scan_ctx *sc);

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
    /* A data section searched whole for containers (not PTX text) though its head holds
     * none: a pointer to one past its head was found (elf_pointers.c). */
    bool pointed_at;
    uint64_t addr; /* a section's address when loaded (ELF), for pointers into it */
} fc_region;

/* Sections decoded on the scan's helper threads (sections.c). Decodes the registered container
 * sections FATBINS and searches the data sections DATA of the object at image position BASE
 * into B: first the registered containers in section order, then the embedded ones in file
 * order, exactly as one thread would find them. */
void fc_decode_sections(fc_scan_ctx *sc, fc_builder *b, const fc_image *img, uint64_t base,
                        const fc_region *fatbins, size_t n_fatbins, const fc_region *data, size_t n_data);
/* The scan's helper threads, started the first time (THREADS - 1 of them); NULL with one
 * thread or when they cannot be started. One piece of work at a time uses them. */
struct fc_pool *fc_scan_pool(fc_scan_ctx *sc, unsigned threads);

/* Readers by format (scan.c). Scans the file open as FD, named PATH, as fc_scan reads a file. */
int fc_scan_open_file(fc_scan_ctx *sc, int fd, const char *path);
/* The same, but when SC->keep took objects the file stays open and mapped, for them to read
 * their bytes from: *KEPT gets it (else NULL), to be closed with fc_open_file_close. */
int fc_scan_open_file_kept(fc_scan_ctx *sc, int fd, const char *path, fc_open_file **kept);
/* Says, when RC is 0 and nobody said it, that file F changed since it was opened, unmaps it
 * and frees F (its descriptor is the caller's). Returns RC or the error callback's value. */
int fc_open_file_close(fc_scan_ctx *sc, fc_open_file *f, int rc);
/* Scans one image (a mapped file or a caller's buffer) named PATH. */
int fc_scan_image(fc_scan_ctx *sc, const fc_image *img, const char *path);
/* Scans SIZE bytes at BASE in IMG that are neither ELF, COFF nor a package: a member of a
 * static archive (AR_MEMBER) or of a package (sc->inner). A bare fat binary or PTX file is
 * read as one named on its own; anything else is searched whole for containers kept as
 * data (FC_FORMAT_DATA), and passed over, searched, when it holds none. */
int fc_scan_data(fc_scan_ctx *sc, const fc_image *img, uint64_t base, uint64_t size, const char *path,
                 const char *ar_member);
/* The bytes of IMG, a zip told by its end, that none of its members' data covers (its stub,
 * what lies between members, its central directory and comment: fc_zip_uncovered) and that
 * could hold a container (rv15 1: a fat binary between two members was "no CUDA code"):
 * *N regions, to free(); NULL when out of memory. *ENTRIES: the zip's members; with none, or
 * a layout that does not hold together, the range is all of IMG. */
fc_region *fc_zip_uncovered_regions(const fc_image *img, unsigned *entries, size_t *n);
/* The regions of IMG searched beside its members when it is a zip that starts with its first
 * member (a wheel): what lies outside their data (between members, before its central
 * directory, its comment, bytes after its end record: a fat binary or PTX kept there was "no
 * CUDA code", as one behind a stub was before rv15 1: review of 2026-12-06, rv18 6, rv21); all
 * of it when it has no member or a layout that does not hold together (a stored member's
 * containers then said twice, rather than one missed). None (*N 0) when IMG is no such zip or
 * has no end record (the reader says it was cut short). To free(); NULL when out of memory. */
fc_region *fc_zip_member_gaps(const fc_image *img, size_t *n);
/* IMG, a zip (by its start or its end), read as a package whose members are named
 * PREFIX!member (TREE drops their leading "./"), and the N regions GAPS outside its members
 * (fc_zip_uncovered_regions, fc_zip_member_gaps) searched as bytes. Named, "no CUDA code" is
 * said only where neither holds any (package.c). */
int fc_scan_zip(fc_scan_ctx *sc, const fc_image *img, const char *path, const char *prefix, bool tree,
                const fc_region *gaps, size_t n);
/* The zip appended to a program IMG whose own bytes end at FROM (fc_appended_zip): its members,
 * and what lies between them, before its central directory and in its comment (a fat binary
 * between two members was "no CUDA code": rv21), read as fc_scan_zip reads a zip. */
int fc_scan_appended_zip(fc_scan_ctx *sc, const fc_image *img, const char *path, uint64_t from);
/* What a program (ELF or PE) carries beside its code, read after it. */
typedef struct fc_carried {
    uint64_t pyi_lo, pyi_hi; /* a PyInstaller archive, [lo, hi) of the image; hi 0: none */
    bool pydata_unread;      /* a section pydata without the archive's cookie */
    uint64_t zip_from;       /* where an appended zip starts in the program's own bytes; 0: none */
} fc_carried;
/* Reads what the program PATH (or its static archive's MEMBER: its SIZE bytes at BASE of IMG)
 * carries, C, named after it (PATH and MEMBER!entry, as a package's members are). */
int fc_scan_carried(fc_scan_ctx *sc, const fc_image *img, uint64_t base, uint64_t size, const char *path,
                    const char *member, const fc_carried *c);
/* Searches the N REGIONS of IMG as one object of no known format (FC_FORMAT_DATA), delivered
 * when it holds a container or could not be read. */
int fc_scan_regions(fc_scan_ctx *sc, const fc_image *img, const char *path, const fc_region *regions, size_t n);

/* Format detection from the first bytes (sniff.c); packages are told apart by
 * fc_sniff_package. */
fc_format fc_sniff(const uint8_t *buf, size_t size, bool *is_archive);

/* Packages (package.c). Scans an image that starts like a package: a zip, tar, compressed
 * stream, .deb or .rpm. */
int fc_scan_package(fc_scan_ctx *sc, const fc_image *img, const char *path);
/* The same, read from stream IN as its bytes arrive (stream.h). */
struct fc_stream;
int fc_scan_package_stream(fc_scan_ctx *sc, struct fc_stream *in, const char *path);
/* A tarball in the legacy .lzma format (fc_lzma_alone_named), IMG its bytes. */
int fc_scan_lzma_alone(fc_scan_ctx *sc, const fc_image *img, const char *path);
/* Whether NAME ends as a tarball pip reads with tarfile's 'r:xz' does (.tar.lzma, .tlz,
 * .tar.xz, .txz, .tar.lz) and the N bytes at B can start one in the legacy .lzma format, which
 * has no magic, and are of no other format. */
bool fc_lzma_alone_named(const char *name, const uint8_t *b, size_t n);
/* Whether what the input's compressed packages unpack to (sc->unpacked) is past
 * opts->max_unpacked and 256 times the input's bytes read: said once, naming PATH or the
 * outermost package (package.c). */
bool fc_unpacked_past_budget(fc_scan_ctx *sc, const char *path);
/* Counts what the outermost package of an input unpacks to afresh: PACKED bytes read of it,
 * GROWING while it is a stream still being read (package.c). */
void fc_unpacked_start(fc_scan_ctx *sc, uint64_t packed, bool growing);
/* The decompression budget for PACKED bytes read: FC_UNPACK_RATIO times them, at least
 * MAX_UNPACKED (opts->max_unpacked). Packages (package.c) and image layers (oci_layer.c). */
#define FC_UNPACK_RATIO 256u
static inline uint64_t fc_unpack_budget(uint64_t packed, uint64_t max_unpacked)
{
    uint64_t budget = packed > UINT64_MAX / FC_UNPACK_RATIO ? UINT64_MAX : packed * FC_UNPACK_RATIO;
    return budget < max_unpacked ? max_unpacked : budget;
}
/* True when BUF starts like a package: zip, tar, gzip, bzip2, xz, zstd, .deb or .rpm. */
bool fc_sniff_package(const uint8_t *buf, size_t size);
/* Whether BUF (SIZE bytes) starts with xz's magic. */
bool fc_sniff_xz(const uint8_t *buf, size_t size);
/* Whether pip, given PATH, reads it by its end as zipfile does, whatever its first bytes: 1 for
 * a wheel (".whl"), 2 for an archive it unpacks as a source package (".tar.gz", ".zip", ".WHL"...),
 * 0 for neither. */
int fc_pip_archive_name(const char *path);
/* PyInstaller one-file programs (pyinstaller.c). Whether [LO, HI) of DATA ends with the
 * cookie of a PyInstaller archive (PKG). */
bool fc_pyinstaller_ends(const uint8_t *data, uint64_t lo, uint64_t hi);
/* Where the last such cookie in [LO, HI) ends, as the bootloader looks for it (from the end
 * back), or 0 when there is none. */
uint64_t fc_pyinstaller_last_cookie(const uint8_t *data, uint64_t lo, uint64_t hi);
/* The same for bytes appended to a program, [LO, HI): only their last FC_PYI_APPENDED_SEARCH
 * bytes are searched (the search reads through the mapping, and an AppImage appends hundreds
 * of megabytes); bytes after an archive further back are said as bytes appended. */
#define FC_PYI_APPENDED_SEARCH (1u << 20)
uint64_t fc_pyinstaller_appended_cookie(const uint8_t *data, uint64_t lo, uint64_t hi);
/* Where the archive whose cookie ends at END of DATA starts, by its cookie; UINT64_MAX when
 * the cookie claims more than END bytes or fewer than itself. */
uint64_t fc_pyinstaller_start(const uint8_t *data, uint64_t end);
/* Whether NAME (a file's name or path) is one a PyInstaller program side-loads its archive
 * from: its own name with ".pkg" (EXE(append_pkg=False) writes "app.pkg" beside "app", and
 * "app.pkg" for "app.exe"). */
bool fc_pyinstaller_side_name(const char *name);
/* Reads the files of the PyInstaller archive that ends at HI of IMG, and starts at LO or
 * after, as a package's members (PATH!name); says what cannot be read. */
int fc_pyinstaller_scan(fc_scan_ctx *sc, const fc_image *img, uint64_t lo, uint64_t hi, const char *path);
/* True when BUF starts like a .deb: an ar archive whose first member is debian-binary. */
bool fc_sniff_deb(const uint8_t *buf, size_t size);

/* ELF files and archives (elf.c). Scans an image that starts with the ELF or archive magic. */
int fc_scan_elf(fc_scan_ctx *sc, const fc_image *img, const char *path);
/* False, with the reason in WHY, when the ELF object IMG, or an object in the archive IMG,
 * declares more than LIMIT sections: libelf would set up a descriptor for each
 * (elf_sections.c). */
bool fc_elf_sections_ok(const fc_image *img, uint64_t limit, char *why, size_t why_size);
/* What an ELF object's section table showed, for finding what it does not (elf_segments.c). */
enum { FC_NOBITS_FATBIN = 1, FC_NOBITS_RELFATBIN = 2, FC_NOBITS_RECORDS = 4 };
typedef struct fc_elf_sections {
    bool table_missing;       /* no section headers at all (sstrip, e_shnum 0) */
    bool registered_unusable; /* .nv_fatbin or __nv_relfatbin is there, but not PROGBITS or empty */
    bool records_unusable;    /* the same for .nvFatBinSegment */
    /* Which of .nv_fatbin, __nv_relfatbin and .nvFatBinSegment are SHT_NOBITS with a size: the
     * code they held is not in this file (FC_NOBITS_* bits). */
    unsigned nobits;
    uint64_t records_offset, records_size, records_addr; /* .nvFatBinSegment, when usable */
    struct fc_wrapper *records; /* its records, read once by the caller (changed in place here) */
    size_t n_records;
    bool records_unread;      /* it could not be read */
    const fc_region *registered; /* the registered sections decoded */
    size_t n_registered;
    /* No .nvFatBinSegment: records found in other writable sections (elf_records.c), in
     * RECORDS, followed as a table's are. */
    bool records_elsewhere;
    const fc_region *data; /* then the data sections searched, to name where the records lead */
    size_t n_data;
} fc_elf_sections;
/* Adds to B the containers the CUDA runtime registers in the ELF object ELF (at image
 * position BASE, SIZE bytes) that the section table SEEN did not show, found through the
 * registration records and the program headers (FC_ORIGIN_WRAPPER), or by searching the
 * loaded segments (FC_ORIGIN_SEGMENT, or FC_ORIGIN_EMBEDDED beside records). Does nothing
 * for an ordinary file whose records all point into its registered sections. */
/* The relative relocation type (R_X86_64_RELATIVE, R_AARCH64_RELATIVE, R_PPC64_RELATIVE) of
 * ELF machine MACHINE, or 0 for one not known here (elf_segments.c). */
uint32_t fc_elf_relative_type(unsigned machine);
/* Finds the registration records in the writable sections G[0..N) of a linked ELF object
 * without .nvFatBinSegment (elf_records.c): in the first HEAD bytes of each, or, when WHOLE,
 * in all of each but the bytes of B's containers. *OUT (freed by the caller; NULL when there
 * is none) gets them. FC_ERR_NOMEM or FC_ERR_IO on failure, with what was found so far. */
fc_status fc_elf_records_elsewhere(const fc_builder *b, const fc_image *img, uint64_t base, const fc_region *g,
                                   size_t n, uint64_t head, bool whole, unsigned record_size, struct fc_wrapper **out,
                                   size_t *n_out);
/* Marks the data regions (REGIONS, sections of ELF) past whose heads a relative relocation
 * points at a container (fc_region.pointed_at), in FC_EMBEDDED_AUTO mode (elf_pointers.c).
 * FC_ERR_NOMEM when an allocation failed: regions may then be left unmarked. */
fc_status fc_elf_pointed_regions(const fc_image *img, uint64_t base, uint64_t size, struct Elf *elf,
                                 fc_region *regions, size_t n_regions, const fc_options *opts, struct fc_pool *pool,
                                 unsigned threads);
void fc_elf_unlisted(fc_builder *b, const fc_image *img, uint64_t base, uint64_t size, struct Elf *elf,
                     const fc_elf_sections *seen);
/* Fills B's DT_NEEDED CUDA libraries, imports_registration and linked_program from a host
 * ELF file's dynamic section and symbols (elf_needs.c). Call after its containers are in B. */
void fc_elf_read_needs(fc_builder *b, Elf *elf, const GElf_Ehdr *eh, const fc_image *img, uint64_t base,
                       const uint8_t *data, uint64_t size);

/* PE images and COFF objects (pe.c). Scans the PE image or COFF object at image position BASE
 * (SIZE bytes; AR_MEMBER names it inside a static library, or NULL); FORMAT is what fc_sniff
 * said. */
int fc_scan_pe(fc_scan_ctx *sc, const fc_image *img, const char *path, const char *ar_member, uint64_t base,
               uint64_t size, fc_format format);
/* What fc_elf_read_needs does for a PE image: the CUDA DLLs its import and delay-load tables
 * name (pe_imports.c). Returns whether they name a CUDA runtime, or could not be read whole
 * (the DLLs it needs then unknown: the caller marks the runtime so where there is CUDA code). */
struct fc_pe;
typedef enum fc_pe_needs { FC_PE_NEEDS_NONE, FC_PE_NEEDS_RUNTIME, FC_PE_NEEDS_UNKNOWN } fc_pe_needs;
fc_pe_needs fc_pe_read_needs(fc_builder *b, const uint8_t *data, size_t size, const struct fc_pe *pe);
/* A static CUDA runtime in image PE (DATA, SIZE bytes at BASE of IMG; pe_runtime.c): the CUDA
 * release its strings date it to (13000 for CUDA 13's hybrid runtime), 0 when they are a
 * runtime's that no name dates (before CUDA 11), -1 when it holds none. */
int fc_pe_static_runtime(const struct fc_image *img, uint64_t base, const uint8_t *data, uint64_t size,
                         const struct fc_pe *pe);

/* The CUDA runtime's registration records (registration.c): 24 bytes each, {u32 magic,
 * u32 version, u64 address of the container, u64 link data}. */
#define FC_WRAPPER_MAGIC 0x466243B1u
#define FC_WRAPPER_LINK_VERSION 2u /* fatbinary_section.h: the record of the device link step's
                                     output, with the -rdc objects ("prelinked fatbins") */
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
/* Makes room for N containers in all without growing again (false: out of memory). */
bool fc_container_index_reserve(fc_container_index *k, size_t n);
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
/* Keeps as G's starts (hints for splitting its walk, sorted) where the records W[0..n) say
 * containers start inside G, whose first byte the loader maps at address ADDR. Returns the
 * array for the caller to free, or NULL when they give fewer than two. */
uint64_t *fc_region_set_starts(fc_region *g, const fc_wrapper *w, size_t n, uint64_t addr);

/* Containers kept as data (embedded.c). */
/* Adds to FOUND, as FC_ORIGIN_EMBEDDED, the containers that start in [START, END) of
 * region REG, found by searching for the magic and skipped over whole; and, as
 * FC_ORIGIN_PTX_TEXT, the PTX modules kept as text that start before TEXT_END in the bytes
 * searched. Returns the errno of a failed read, or 0; other problems are recorded in FOUND. */
int fc_embedded_search(fc_builder *found, fc_reader *r, const fc_region *reg, uint64_t start, uint64_t end,
                       uint64_t text_end);
/* True for the sections searched in full even in FC_EMBEDDED_AUTO mode. */
bool fc_embedded_always_searched(const char *section);
/* Whether what the embedded search takes for a container or a cubin kept as data starts at
 * AT of R (AVAIL bytes on). */
bool fc_embedded_at(fc_reader *r, uint64_t at, uint64_t avail);
/* The first offset of P[0..n) where fc_embedded_search could find something (a container's
 * magic, ".version", an ELF header), or N: bytes before it hold nothing the search finds,
 * but for the FC_PTX_HEADER_BEFORE bytes of comment a PTX module may start with. Patterns
 * cut by N are not looked for: a caller reading in pieces looks at the seams itself. */
size_t fc_embedded_first_candidate(const uint8_t *p, size_t n);
/* The longest pattern fc_embedded_first_candidate looks for. */
#define FC_EMBEDDED_PATTERN_MAX 8u

#endif
