/* test_walk_changes.c - a tree changed under a walk, made to change at a set point by the walk's
 * own progress callback (on_file), on one thread (no survey beforehand):
 *   - a file deleted in mid-walk leaves its inode to the next file created; that file, a CUDA
 *     binary, was skipped as seen (review of 2026-12-06, rv17 4);
 *   - a symlink replaced by a file after the folder was listed was read in neither of the
 *     walk's passes (rv17 5).
 * Both passed the new CUDA binary unread, no error, exit 0. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fatcheck/scan.h>

#include "tap.h"

typedef struct state {
    char root[256];
    const char *trigger;            /* the file whose reading makes the change */
    void (*change)(struct state *); /* the change */
    bool changed, reused;
    ino_t deleted;
    size_t objects, errors;
    char found[8][512];
} state;

static void copy(const char *from, const char *to)
{
    FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
    if (!in || !out)
        abort();
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        if (fwrite(buf, 1, n, out) != n)
            abort();
    fclose(in);
    if (fclose(out) != 0)
        abort();
}

static void path_in(char *out, size_t size, const state *s, const char *name)
{
    snprintf(out, size, "%s/%s", s->root, name);
}

static const char *cubin(void)
{
    return FIXTURES_DIR "/kernels.sm_90.cubin";
}

/* a.so is deleted (read and closed already) and a cubin renamed over c.so takes its inode. */
static void reuse_inode(state *s)
{
    char a[512], c[512], tmp[512];
    path_in(a, sizeof a, s, "a.so");
    path_in(c, sizeof c, s, "c.so");
    path_in(tmp, sizeof tmp, s, "new");
    struct stat st;
    if (stat(a, &st) != 0)
        abort();
    s->deleted = st.st_ino;
    unlink(a);
    copy(cubin(), tmp);
    if (rename(tmp, c) != 0 || stat(c, &st) != 0)
        abort();
    s->reused = st.st_ino == s->deleted;
}

/* The symlink z.so, listed as one, becomes the file it led to. */
static void link_to_file(state *s)
{
    char z[512], tmp[512];
    path_in(z, sizeof z, s, "z.so");
    path_in(tmp, sizeof tmp, s, "z.new");
    copy(cubin(), tmp);
    if (rename(tmp, z) != 0)
        abort();
}

static void on_file(void *ctx, const char *name)
{
    state *s = ctx;
    size_t n = strlen(name), t = strlen(s->trigger);
    if (!s->changed && n >= t && strcmp(name + n - t, s->trigger) == 0) {
        s->changed = true;
        s->change(s);
    }
}

static int on_object(void *ctx, const fc_object *o)
{
    state *s = ctx;
    if (o->n_containers > 0 && s->objects < 8)
        snprintf(s->found[s->objects++], sizeof s->found[0], "%s", o->path + strlen(s->root));
    return 0;
}

static int on_error(void *ctx, const fc_error *e)
{
    state *s = ctx;
    s->errors++;
    printf("# error: %s\n", e->message);
    return 0;
}

static void scan(state *s)
{
    fc_options o;
    fc_options_init(&o);
    o.threads = 1;
    o.on_file = on_file;
    o.on_file_ctx = s;
    fc_scan(s->root, &o, on_object, on_error, s);
}

static void make_root(state *s, const char *name)
{
    snprintf(s->root, sizeof s->root, "%s/walk-changes-%s-%d", P_tmpdir, name, (int)getpid());
    if (mkdir(s->root, 0755) != 0)
        abort();
}

static void remove_root(state *s, const char *const *names)
{
    char p[512];
    for (; *names; names++) {
        path_in(p, sizeof p, s, *names);
        unlink(p);
        rmdir(p);
    }
    rmdir(s->root);
}

int main(void)
{
    char p[512];

    /* a.so and b.so: programs with no CUDA code, read (their heads show ELF); c.so: text. */
    state s = {.trigger = "/b.so", .change = reuse_inode};
    make_root(&s, "inode");
    path_in(p, sizeof p, &s, "a.so");
    copy("/bin/true", p);
    path_in(p, sizeof p, &s, "b.so");
    copy("/bin/true", p);
    path_in(p, sizeof p, &s, "c.so");
    FILE *f = fopen(p, "w");
    if (!f || fputs("hello\n", f) < 0 || fclose(f) != 0)
        abort();
    scan(&s);
    if (!s.reused) {
        tap_skip(2, "this file system gave the new file another inode");
    } else {
        ok(s.changed && s.objects == 1 && strcmp(s.found[0], "/c.so") == 0,
           "a cubin given a deleted file's inode in mid-walk is read (%zu objects)", s.objects);
        is_u64(s.errors, 0, "with no error");
    }
    remove_root(&s, (const char *const[]){"a.so", "b.so", "c.so", "new", NULL});

    /* a/ holds a program read before the symlinks; z.so leads to a cubin outside the tree. */
    state l = {.trigger = "/a/x.so", .change = link_to_file};
    make_root(&l, "link");
    char dir[512], outside[512];
    path_in(dir, sizeof dir, &l, "a");
    if (mkdir(dir, 0755) != 0)
        abort();
    path_in(p, sizeof p, &l, "a/x.so");
    copy("/bin/true", p);
    snprintf(outside, sizeof outside, "%s-outside.cubin", l.root);
    copy(cubin(), outside);
    path_in(p, sizeof p, &l, "z.so");
    if (symlink(outside, p) != 0)
        abort();
    scan(&l);
    ok(l.changed && l.objects == 1 && strcmp(l.found[0], "/z.so") == 0,
       "a symlink that became a file after its folder was listed is read (%zu objects)", l.objects);
    is_u64(l.errors, 0, "with no error");
    unlink(outside);
    remove_root(&l, (const char *const[]){"a/x.so", "a", "z.so", "z.new", NULL});
    return tap_done();
}
