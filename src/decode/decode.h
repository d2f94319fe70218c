/* decode.h - the decode layer: fat binary containers and PTX text decoded into an object
 * builder, entry images decompressed, and what a container is for. It reads bytes through
 * util's readers and knows nothing of files, packages or GPUs. */
#ifndef FC_DECODE_H
#define FC_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fatcheck/scan.h"
#include "reader.h"

/* Fat binary layout (fatbin.c). The smallest entry header holding every field fatcheck reads
 * (flags at 40, the declared uncompressed size at 56): every header seen is at least this
 * long. */
#define FC_ENTRY_MIN_HEADER 64u
#define FC_CONTAINER_HEADER 16u
#define FC_FATBIN_MAGIC 0xBA55ED50u

/* The object builder (builder.c): collects the containers and entries of one object as they
 * are decoded, then hands out a read-only fc_object. Growth is geometric; counts are capped
 * by the options' limits. */
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
/* The entries decoded so far of container C of B (its index), *N of them: before
 * fc_builder_finish, when fc_container.entries is not yet set. */
const fc_entry *fc_builder_container_entries(const fc_builder *b, const fc_container *c, size_t *n);
/* Makes room for N more containers and M more entries, so that adding them does not
 * reallocate (merging builders). False when out of memory. */
bool fc_builder_reserve(fc_builder *b, size_t n, size_t m);
/* Appends every container and entry of FROM (finished or not) to B, as adding each again
 * would, but moving the strings they point at rather than copying them; FROM is then fit
 * only for fc_builder_reset. False, with nothing moved, when B's limits would be passed or
 * memory runs out: the caller adds them one by one, which says which limit. */
bool fc_builder_take(fc_builder *b, fc_builder *from);
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
/* Moves everything FROM owns, its object included, to TO; FROM is left empty (reset frees
 * nothing). For objects kept beyond the scan that built them (input/survey.c). */
void fc_builder_move(fc_builder *to, fc_builder *from);
/* Fixes up pointers; the object is valid until fc_builder_reset. */
const fc_object *fc_builder_finish(fc_builder *b);

/* The options a call works with (fc_options.size), options.c: IN itself when it is of this
 * library's size; when it is an older, smaller fc_options, a copy in STORAGE of its fields
 * with the defaults of the others; the defaults when IN is NULL. NULL when IN's size is that
 * of no fc_options: the caller did not fill it with fc_options_init, or its header is newer. */
const fc_options *fc_options_resolve(const fc_options *in, fc_options *storage);

/* Fat binary containers (fatbin.c). */
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
/* Whether a container header declaring no entries stands at OFF (*LEN = its 16 bytes): what
 * nvcc's device link step leaves in a PTX-only build (verdict.c, empty_is_no_module). Too
 * little to believe in arbitrary data; where a registration record points, it is one. */
bool fc_fatbin_empty(fc_reader *r, uint64_t off, uint64_t size, uint64_t *len);

/* PTX text (ptx_text.c): whether BUF looks like PTX text; a PTX file decoded into B as one
 * pseudo-container holding it. */
bool fc_ptx_text_probe(const uint8_t *buf, size_t size);
/* Whether BUF, the head of a file, holds nothing but blank space and comments (after a byte
 * order mark): PTX may still follow, so the head cannot tell. */
bool fc_ptx_text_undecided(const uint8_t *buf, size_t size);
fc_status fc_ptx_text_decode(fc_builder *b, const uint8_t *buf, size_t size);
/* The statements at the head of PTX text, as they stand: ".version M.m", then ".target" with
 * its words, the architecture among them ("sm_90a", "sm_100f", "compute_80"; "sm_80, debug"),
 * then perhaps ".address_size N". Comments and space may come between. The decoder lists a
 * module by them; the judge (link_state.c) reads them as ptxas does, which requires .target
 * next (TARGET_NEXT). */
typedef struct fc_ptx_head {
    bool version;          /* ".version M.m" opens the text */
    unsigned isa_major, isa_minor;
    bool target;           /* ".target" opens one of the 16 statements after it */
    bool target_next;      /* the first of them */
    unsigned arch;         /* the first of its words that names an architecture; 0 when none */
    fc_variant variant;
    unsigned address_size; /* ".address_size N" right after the .target line; 0 when absent */
    bool debug;            /* .target names "debug" too (what nvcc -G writes) */
} fc_ptx_head;
/* Reads the head of the PTX text T[0..N) into *H. */
void fc_ptx_head_read(const uint8_t *t, size_t n, fc_ptx_head *h);
/* The index after the blanks and comments at T[I..N) (N inside an unclosed comment). */
size_t fc_ptx_skip_trivia(const uint8_t *t, size_t i, size_t n);
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
/* How far before ".version" a PTX module kept as text may start (its comment lines). */
#define FC_PTX_HEADER_BEFORE 4096u

/* Entry images (decompress.c). */
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
/* Makes BUF hold at least WANT bytes, keeping its contents; false when out of memory. */
bool fc_buffer_reserve(fc_buffer *buf, size_t want);
/* Frees BUF's bytes (either kind) and empties it. */
void fc_buffer_free(fc_buffer *buf);
/* fc_decompress into BUF (grown as needed, never shrunk); *LEN gets the bytes produced. */
fc_status fc_decompress_buffer(fc_compression m, const void *src, size_t src_size, uint64_t declared,
                               uint64_t limit, fc_buffer *buf, size_t *len);

/* What the first N bytes of an uncompressed cubin stored as an entry for SM say of it (UNREAD
 * below 20 bytes; its e_flags are read from 52). */
fc_cubin_header fc_cubin_header_of(const uint8_t *p, size_t n, uint32_t sm);
/* What the first N stored bytes of a cubin compressed with M, stored as an entry for SM, say:
 * NOT_COMPRESSED where they are an ELF header (an uncompressed cubin under a compression flag)
 * or, for zstd, no frame's magic; for LZ4, what the ELF header they inflate to says
 * (fc_cubin_header_of), or, when they do not inflate to one, NOT_COMPRESSED if they are ALL
 * the image's first FC_CUBIN_HEAD_STORED stored bytes (or all of it), else UNREAD (more are to
 * be read); UNREAD below 4 bytes. For zstd, NOT_COMPRESSED too where the frame states a content
 * size other than DECLARED (the entry's uncompressed size); OK says only that a frame begins
 * there (and states DECLARED, or no size). */
#define FC_CUBIN_HEAD_STORED 1024
fc_cubin_header fc_compressed_cubin_header_of(const uint8_t *p, size_t n, bool all, fc_compression m, uint32_t sm,
                                              uint64_t declared);
/* The content size a zstd frame's header at P (N bytes at hand) states: KNOWN with *SIZE,
 * ABSENT when the frame does not state it, SHORT when more bytes are needed to tell, BAD when
 * they are no frame header. */
typedef enum fc_zstd_size { FC_ZSTD_SIZE_KNOWN, FC_ZSTD_SIZE_ABSENT, FC_ZSTD_SIZE_SHORT, FC_ZSTD_SIZE_BAD } fc_zstd_size;
fc_zstd_size fc_zstd_content_size(const void *p, size_t n, uint64_t *size);
/* Whether the raw LZ4 block SRC (N bytes) inflates to exactly DECLARED bytes, as the driver
 * requires: FC_OK with *EXACT; FC_ERR_LIMIT when DECLARED is above LIMIT (not judged). */
fc_status fc_lz4_inflates_to(const void *src, size_t n, uint64_t declared, uint64_t limit, bool *exact);
/* The stored bytes of entry E (E->stored_size of them, compressed or not) in OBJ's image. */
fc_status fc_entry_stored(const fc_object *obj, const fc_entry *e, const uint8_t **src);
/* Entry E's stored bytes, read whole through OBJ's image, are done with: where the image is a
 * file mapping (image_reclaimable), false when the file was cut short meanwhile (zeros were
 * read, file_map.h), and their pages are let go either way. True for other images. */
bool fc_entry_stored_done(const fc_object *obj, const fc_entry *e);
/* Inflates up to WANT bytes of the raw LZ4 block whose first N bytes are at SRC (the block may
 * be longer) into DST: how many it gave, 0 when those bytes are not enough or are no LZ4. */
size_t fc_lz4_head(const void *src, size_t n, void *dst, size_t want);

/* The image of entry E of OBJ: *BYTES points into the object's image, or, when stored
 * compressed, into SCRATCH, decompressed under opts->max_decompressed_size. */
fc_status fc_entry_image(const fc_object *obj, const fc_entry *e, const fc_options *opts, fc_buffer *scratch,
                         const uint8_t **bytes, size_t *len);
/* The first N bytes (or fewer, when the image is shorter) of entry E's image, decompressing
 * only as much as they need: cheap where fc_entry_image would inflate a whole image. */
fc_status fc_entry_head(const fc_object *obj, const fc_entry *e, void *buf, size_t n, size_t *got);

/* Looks for KEY (KEY_LEN bytes) in entry E's image, decompressing no more of it than the first
 * occurrence and the AFTER bytes after it need: a few bytes somewhere in a large image (a
 * cubin's toolkit note, 5 to 60% in) without inflating the whole of it. WINDOW (SIZE bytes, at
 * least twice KEY_LEN + AFTER) holds what is decompressed. On FC_OK *HIT points at the key (in
 * WINDOW, or in the image when stored uncompressed) and *AVAIL counts the bytes from there
 * (fewer than KEY_LEN + AFTER only where the image ends); *HIT is NULL when the image, read to
 * its end, holds no KEY. Decompresses at most opts->max_decompressed_size. LZ4, whose blocks
 * are decompressed whole, is FC_ERR_UNSUPPORTED. */
fc_status fc_entry_find(const fc_object *obj, const fc_entry *e, const fc_options *opts, const void *key,
                        size_t key_len, size_t after, uint8_t *window, size_t size, const uint8_t **hit,
                        size_t *avail);

/* Hands entry E's image to FN a piece at a time, in order, zstd decompressing through WINDOW
 * (SIZE bytes) rather than into one buffer: reading a large image whole then costs a window's
 * memory, not the image's (a 70 MB PTX module read for its bytes). Every piece is handed, to
 * the image's end, and the status is fc_entry_image's for the same image. An image stored
 * uncompressed is one piece, in place; LZ4, whose blocks are decompressed whole, one piece in
 * SCRATCH. Decompresses at most opts->max_decompressed_size. */
typedef void (*fc_piece_fn)(void *ctx, const uint8_t *piece, size_t n);
fc_status fc_entry_pieces(const fc_object *obj, const fc_entry *e, const fc_options *opts, uint8_t *window,
                          size_t size, fc_buffer *scratch, fc_piece_fn fn, void *ctx);

/* The CUDA release of the tool that wrote cubin entry E, from its first toolkit note
 * (tkinfo.c): 13000 for "Cuda compilation tools, release 13.0", 0 when it has none or it cannot
 * be read. SCRATCH holds what is decompressed. *READ tells
 * whether the image could be read: a note found counts, also in an image damaged past it (its
 * bytes were read; the driver's verdict on the rest comes from elsewhere). */
int fc_cubin_release(const fc_object *obj, const fc_entry *e, const fc_options *opts, fc_buffer *scratch, bool *read);
/* Whether ptxas wrote cubin entry E itself (its first toolkit note is ptxas's, not nvlink's),
 * and from PTX of which virtual architecture: *RELEASE its CUDA release (13000), and
 * *VIRTUAL_ARCH the compute_XX it compiled (80), from the cubin's notes, reading as little of
 * its image as finds them. False, both 0, when either is missing or cannot be read. */
bool fc_cubin_ptxas(const fc_object *obj, const fc_entry *e, const fc_options *opts, int *release,
                    unsigned *virtual_arch);

/* What a container is for (container_role.c): whether an entry was compiled to be linked
 * (LTO-IR, PTX stored with the ptxas option --compile-only). */
bool fc_entry_compiled_relocatable(const fc_entry *e);
/* The ELF type of cubin entry E of OBJ (ET_EXEC linked, ET_REL relocatable), from its first
 * bytes, inflating no more than those: -1 when they cannot be read or are no little-endian
 * ELF header (container_role.c). */
int fc_entry_cubin_type(const fc_object *obj, const fc_entry *e);
/* Whether containers of origin O are registered with the CUDA runtime (and so were linked
 * when the program was built). */
static inline bool fc_origin_registered(fc_origin o)
{
    return o == FC_ORIGIN_SECTION || o == FC_ORIGIN_WRAPPER;
}
/* Whether any of the N containers at C is registered with the CUDA runtime. */
static inline bool fc_any_registered(const fc_container *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (fc_origin_registered(c[i].origin))
            return true;
    return false;
}
/* The sections the CUDA runtime registers: .nv_fatbin, and __nv_relfatbin (-rdc link inputs),
 * by their ELF names or as PE images cut them to 8 characters (.nv_fatb, __nv_rel). */
bool fc_section_is_fatbin(const char *name);
bool fc_section_is_relfatbin(const char *name);
/* Whether C is an -rdc object's container: in __nv_relfatbin, or marked so by the reader
 * (fc_container.rdc_object; also for containers a caller made). */
bool fc_container_is_rdc_object(const fc_container *c);
/* The role container C's headers give it (fc_builder_finish sets it). */
fc_role fc_container_role(const fc_container *c);

#endif
