/* fuzz_pe.c - the PE/COFF reader on arbitrary bytes: the sniffer, the section table parser
 * (every section's bytes must then lie inside the input, and every long name end there), then the whole scan of the bytes as an image or object (fc_scan_memory):
 * registered sections, the registration records' hints, the embedded search. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fatcheck.h"
#include "pe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fc_pe_sniff(data, size);
    fc_pe pe;
    char err[512];
    if (fc_pe_parse(data, size, 1u << 20, &pe, err, sizeof err) == FC_OK) {
        for (size_t i = 0; i < pe.n_sections; i++) {
            const fc_pe_section *s = &pe.sections[i];
            if (s->size && (s->offset > size || s->size > size - s->offset))
                abort(); /* the parser let a section run past the input */
            if (s->name != s->short_name &&
                !memchr(s->name, '\0', (size_t)(data + size - (const uint8_t *)s->name)))
                abort(); /* a long name not terminated inside the input */
        }
        fc_pe_free(&pe);
    }
    fc_options opts;
    fc_options_init(&opts);
    opts.max_decompressed_size = 1u << 24;
    opts.max_entries = 4096;
    opts.threads = 1;
    opts.embedded = FC_EMBEDDED_ALL;
    fc_scan_memory(data, size, "fuzz.dll", &opts, NULL, NULL, NULL);
    return 0;
}
