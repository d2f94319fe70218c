/* header_test.c - one header (FC_TEST_HEADER) included alone compiles: it brings in
 * everything it uses. Built once per public and per internal header by tests/meson.build. */
#include FC_TEST_HEADER

int main(void)
{
    return 0;
}
