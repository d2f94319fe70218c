/* _fatcheck.c - the C side of the Python package: scans and judges through libfatcheck, and
 * writes the document `fatcheck --json` writes, through the same code (src/cli/json_report.c),
 * with the same targets (src/cli/targets.c) and exit status (src/cli/tally.c). The package's
 * __init__.py turns it into dicts and exceptions. The interpreter's lock is released while the
 * scan runs: the callbacks below touch no Python object. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../src/util/grow.h"
#include "cli.h"
#include "json_report.h"
#include "tally.h"
#include "targets.h"

typedef struct scan_run {
    config *cfg;
    json_report *doc;
    tally t;
    unsigned char *problems; /* fc_problem bits of each object reported, in order */
    size_t n_problems, cap_problems;
} scan_run;

static int on_object(void *ctx, const fc_object *obj)
{
    scan_run *run = ctx;
    fc_judgement *j = NULL;
    if (fc_judge(&j, obj, &run->cfg->judge) != FC_OK)
        run->t.internal = true;
    if (!fc_judgement_shows(j, obj)) { /* as the command: a host-side file whose runtime starts */
        fc_judgement_free(j);
        return 0;
    }
    json_report_object(run->doc, obj, j);
    /* An image whose kernels could not be read counts as the command counts it: once a file. */
    bool unreadable = false;
    for (size_t c = 0; j && run->cfg->judge.kernels && c < obj->n_containers; c++)
        for (size_t e = 0; e < obj->containers[c].n_entries; e++) {
            const fc_kernel_list *kl;
            fc_status st = fc_judgement_kernels(&kl, j, c, e);
            unreadable |= st != FC_OK && st != FC_ERR_UNSUPPORTED;
        }
    run->t.input_errors += unreadable;
    unsigned problems = fc_judgement_problems(j, obj);
    tally_object(&run->t, problems);
    unsigned char *more = fc_grow(run->problems, &run->cap_problems, run->n_problems + 1, 1, 64);
    if (more) {
        run->problems = more;
        run->problems[run->n_problems++] = (unsigned char)problems;
    } else {
        run->t.internal = true;
    }
    fc_judgement_free(j);
    return 0;
}

static int on_error(void *ctx, const fc_error *err)
{
    scan_run *run = ctx;
    json_report_error(run->doc, err);
    run->t.input_errors++;
    return 0;
}

/* A tar without its end-of-archive marker: in the document's "warnings"; with strict=True an
 * error, as the command makes it. */
static int on_warning(void *ctx, const fc_error *w)
{
    scan_run *run = ctx;
    if (run->cfg->judge.strict)
        return on_error(run, w);
    json_report_warning(run->doc, w);
    return 0;
}

/* Parses "9.0", "sm_90,H100" into NAMED (adding to *N); false with a ValueError set. */
static bool parse_gpus(PyObject *gpus, fc_target *named, size_t *n)
{
    if (gpus == Py_None)
        return true;
    if (PyUnicode_Check(gpus)) { /* one string, comma-separated as --gpu takes it */
        PyObject *one = PyTuple_Pack(1, gpus);
        if (!one)
            return false;
        bool r = parse_gpus(one, named, n);
        Py_DECREF(one);
        return r;
    }
    PyObject *seq = PySequence_Fast(gpus, "gpus must be a string or a sequence of strings");
    if (!seq)
        return false;
    bool ok = true;
    for (Py_ssize_t i = 0; ok && i < PySequence_Fast_GET_SIZE(seq); i++) {
        const char *s = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(seq, i));
        if (!s) {
            ok = false;
            break;
        }
        char buf[1024], err[512];
        snprintf(buf, sizeof buf, "%s", s);
        char *save = NULL;
        for (char *spec = strtok_r(buf, ",", &save); ok && spec; spec = strtok_r(NULL, ",", &save)) {
            if (*n == FC_MAX_TARGETS) {
                PyErr_SetString(PyExc_ValueError, "too many targets");
                ok = false;
            } else if (fc_target_parse(&named[*n], spec, err, sizeof err) != FC_OK) {
                PyErr_SetString(PyExc_ValueError, err);
                ok = false;
            } else {
                ++*n;
            }
        }
    }
    Py_DECREF(seq);
    return ok;
}

static PyObject *scan(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"paths", "gpus", "driver", "arch_list", "strict", "kernels", "embedded",
                            "packages", "recurse", "follow_symlinks", "threads", "detect_timeout_ms", NULL};
    PyObject *paths, *gpus = Py_None;
    const char *driver_text = NULL, *arch_list = NULL, *embedded = "auto";
    int strict = 0, kernels = 0, packages = 0, recurse = 1, follow = 0;
    unsigned threads = 0, timeout_ms = 0;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|Ozzppsppp$II", names, &paths, &gpus, &driver_text, &arch_list,
                                     &strict, &kernels, &embedded, &packages, &recurse, &follow, &threads,
                                     &timeout_ms))
        return NULL;
    config *cfg = calloc(1, sizeof *cfg);
    fc_options *opts = malloc(sizeof *opts);
    fc_target *named = calloc(FC_MAX_TARGETS, sizeof *named);
    PyObject *seq = NULL, *result = NULL;
    char **files = NULL;
    Py_ssize_t n_files = 0;
    char *text = NULL;
    size_t text_len = 0;
    scan_run run = {.cfg = cfg};
    if (!cfg || !opts || !named) {
        PyErr_NoMemory();
        goto cleanup;
    }
    fc_options_init(opts);
    if (strcmp(embedded, "all") == 0) {
        opts->embedded = FC_EMBEDDED_ALL;
    } else if (strcmp(embedded, "none") == 0) {
        opts->embedded = FC_EMBEDDED_NONE;
    } else if (strcmp(embedded, "auto") != 0) {
        PyErr_Format(PyExc_ValueError, "embedded takes 'auto', 'all' or 'none', not '%s'", embedded);
        goto cleanup;
    }
    opts->packages_in_dirs = packages;
    opts->recurse = recurse;
    opts->follow_symlinks = follow;
    opts->threads = threads;
    opts->on_skip = tally_skip; /* counted in the document's skipped_in_walks */
    opts->on_skip_ctx = cfg;
    opts->on_warning = on_warning;
    opts->report_searched_in_part = strict; /* failed wherever found, as when named */
    opts->on_warning_ctx = &run;
    fc_judge_options_init(&cfg->judge);
    cfg->judge.scan = opts;
    cfg->judge.strict = strict;
    cfg->judge.kernels = kernels;
    fc_jit_policy_from_env(&cfg->judge.jit);
    char err[512];
    if (arch_list) {
        if (fc_arch_list_parse(&cfg->arch_list, arch_list, err, sizeof err) != FC_OK) {
            PyErr_SetString(PyExc_ValueError, err);
            goto cleanup;
        }
        cfg->judge.arch_list = &cfg->arch_list;
        cfg->arch_list_text = arch_list;
    }
    int driver = 0;
    if (driver_text && fc_driver_parse(&driver, driver_text, err, sizeof err) != FC_OK) {
        PyErr_SetString(PyExc_ValueError, err);
        goto cleanup;
    }
    target_request want = {.named = named, .driver = driver, .driver_text = driver_text};
    if (!parse_gpus(gpus, named, &want.n_named))
        goto cleanup;
    fc_detect_options_init(&want.detect);
    if (timeout_ms)
        want.detect.timeout_ms = timeout_ms;
    /* The paths, as the file system names them (str, bytes or os.PathLike). */
    if (PyUnicode_Check(paths) || PyBytes_Check(paths) || PyObject_HasAttrString(paths, "__fspath__")) {
        PyErr_SetString(PyExc_TypeError, "paths must be a sequence of paths, not one path");
        goto cleanup;
    }
    if (!(seq = PySequence_Fast(paths, "paths must be a sequence of paths")))
        goto cleanup;
    n_files = PySequence_Fast_GET_SIZE(seq);
    if (!(files = calloc((size_t)n_files + 1, sizeof *files))) {
        PyErr_NoMemory();
        goto cleanup;
    }
    for (Py_ssize_t i = 0; i < n_files; i++) {
        PyObject *b = NULL;
        if (!PyUnicode_FSConverter(PySequence_Fast_GET_ITEM(seq, i), &b))
            goto cleanup;
        files[i] = strdup(PyBytes_AS_STRING(b));
        Py_DECREF(b);
        if (!files[i]) {
            PyErr_NoMemory();
            goto cleanup;
        }
    }
    FILE *out = open_memstream(&text, &text_len);
    if (!out) {
        PyErr_NoMemory();
        goto cleanup;
    }
    Py_BEGIN_ALLOW_THREADS
    setup_targets(cfg, &want, err, sizeof err); /* fails only for --probe */
    run.doc = json_report_open(out, cfg);
    for (Py_ssize_t i = 0; run.doc && i < n_files; i++)
        if (fc_scan(files[i], opts, on_object, on_error, &run) < 0)
            run.t.internal = true;
    json_report_close(run.doc);
    tally_skipped(&run.t, cfg);
    fclose(out);
    Py_END_ALLOW_THREADS
    if (!run.doc || !text) {
        PyErr_NoMemory();
        goto cleanup;
    }
    result = Py_BuildValue("(s#i{s:n,s:n,s:n,s:n,s:O}y#)", text, (Py_ssize_t)text_len,
                           tally_exit_status(&run.t, false), "input_errors", (Py_ssize_t)run.t.input_errors,
                           "load_failures", (Py_ssize_t)run.t.load_failures, "arch_mismatches",
                           (Py_ssize_t)run.t.arch_mismatches, "unseen", (Py_ssize_t)run.t.unseen, "internal", run.t.internal ? Py_True : Py_False,
                           run.problems ? (const char *)run.problems : "", (Py_ssize_t)run.n_problems);
cleanup:
    free(run.problems);
    for (Py_ssize_t i = 0; files && i < n_files; i++)
        free(files[i]);
    free(files);
    free(text);
    Py_XDECREF(seq);
    free(named);
    free(opts);
    free(cfg);
    return result;
}

static PyMethodDef methods[] = {
    {"scan", (PyCFunction)(void (*)(void))scan, METH_VARARGS | METH_KEYWORDS,
     "scan(paths, gpus=None, driver=None, arch_list=None, strict=False, kernels=False, embedded='auto', "
     "packages=False, recurse=True, follow_symlinks=False, *, threads=0, detect_timeout_ms=0) -> "
     "(json_text, exit_status, counts, problems): the --json document, the exit status fatcheck would give, "
     "what it rests on, and the problem bits of each file"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_fatcheck", NULL, -1, methods, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__fatcheck(void);

PyMODINIT_FUNC PyInit__fatcheck(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m && (PyModule_AddStringConstant(m, "version", FC_VERSION_STRING) != 0 ||
              PyModule_AddIntConstant(m, "PROBLEM_INPUT", FC_PROBLEM_INPUT) != 0 ||
              PyModule_AddIntConstant(m, "PROBLEM_LOAD", FC_PROBLEM_LOAD) != 0 ||
              PyModule_AddIntConstant(m, "PROBLEM_ARCH_LIST", FC_PROBLEM_ARCH_LIST) != 0 ||
              PyModule_AddIntConstant(m, "PROBLEM_UNSEEN", FC_PROBLEM_UNSEEN) != 0)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
