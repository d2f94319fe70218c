/* test_require.c - NVIDIA_REQUIRE_* as nvidia-container-cli evaluates them (src/cli/dsl.c of
 * libnvidia-container): the grammar, its order of evaluation and its quirks, and what stays
 * unknown when a property is not known. */
#include <stdlib.h>
#include <string.h>

#include "fatcheck.h"
#include "tap.h"

static const char *const CUDA_124 =
    "cuda>=12.4 brand=tesla,driver>=470,driver<471 brand=unknown,driver>=470,driver<471 "
    "brand=nvidia,driver>=535,driver<536";

static fc_require_result eval1(const char *req, int cuda, const char *driver, unsigned cc, const char *brand,
                               char *why, size_t size)
{
    fc_require_props p = {cuda, driver, cc, brand};
    return fc_require_eval(&req, 1, &p, why, size);
}

#define CHECK(req, cuda, driver, cc, brand, want, ...)                                          \
    do {                                                                                         \
        char why_[300];                                                                          \
        fc_require_result r_ = eval1(req, cuda, driver, cc, brand, why_, sizeof why_);           \
        if (!ok(r_ == (want), __VA_ARGS__))                                                      \
            printf("#   got %s (%s), want %s\n", fc_require_result_name(r_), why_,                \
                   fc_require_result_name(want));                                                \
    } while (0)

int main(void)
{
    char why[300];
    /* cuda: the driver's CUDA version, compared as dotted numbers. */
    CHECK("cuda>=12.4", 12040, NULL, 90, NULL, FC_REQUIRE_MET, "cuda>=12.4 on a 12.4 driver");
    CHECK("cuda>=12.4", 12060, NULL, 90, NULL, FC_REQUIRE_MET, "cuda>=12.4 on a 12.6 driver");
    CHECK("cuda>=12.4", 12020, NULL, 90, NULL, FC_REQUIRE_UNMET, "cuda>=12.4 on a 12.2 driver");
    CHECK("cuda>=12.4", 13000, NULL, 90, NULL, FC_REQUIRE_MET, "13.0 is newer than 12.4");
    CHECK("cuda>=12.4.0", 12040, NULL, 90, NULL, FC_REQUIRE_MET, "12.4 equals 12.4.0");
    CHECK("cuda>12.4", 12040, NULL, 90, NULL, FC_REQUIRE_UNMET, "> is strict");
    CHECK("cuda<12.4", 12020, NULL, 90, NULL, FC_REQUIRE_MET, "<");
    CHECK("cuda<=12.4", 12040, NULL, 90, NULL, FC_REQUIRE_MET, "<=");
    CHECK("cuda=12.4", 12040, NULL, 90, NULL, FC_REQUIRE_MET, "=");
    CHECK("cuda!=12.4", 12040, NULL, 90, NULL, FC_REQUIRE_UNMET, "!=");
    CHECK("cuda>=12.10", 12090, NULL, 90, NULL, FC_REQUIRE_UNMET, "12.10 is a number, not 12.1");
    CHECK("CUDA>=12.4", 12040, NULL, 90, NULL, FC_REQUIRE_MET, "property names ignore case");
    /* The toolkit's words when it refuses. */
    eval1("cuda>=12.4 brand=tesla,driver>=470,driver<471", 12020, "535.104.05", 90, "Tesla", why, sizeof why);
    is_str(why, "unsatisfied condition: cuda>=12.4, please update your driver to a newer version, or use an "
                "earlier cuda container", "the message names the first term");
    eval1("arch>=9.0", 12020, NULL, 80, NULL, why, sizeof why);
    is_str(why, "unsatisfied condition: arch>=9.0", "other first terms get no advice");
    /* Terms ORed by spaces, factors ANDed by commas. */
    CHECK(CUDA_124, 12020, "470.57.02", 90, "Tesla", FC_REQUIRE_MET, "forward compatibility: Tesla on R470");
    CHECK(CUDA_124, 12020, "470.57.02", 90, "GeForce", FC_REQUIRE_UNMET, "GeForce on R470 is refused");
    CHECK(CUDA_124, 12020, "470.57.02", 90, "TESLA", FC_REQUIRE_MET, "brands ignore case");
    CHECK(CUDA_124, 12020, "535.104.05", 90, "NVIDIA", FC_REQUIRE_MET, "NVIDIA on R535");
    CHECK(CUDA_124, 12020, "525.60.13", 90, "NVIDIA", FC_REQUIRE_UNMET, "R525 is no branch it lists");
    /* Unknown properties: an answer only when every value they could have gives the same. */
    CHECK(CUDA_124, 12060, NULL, 90, NULL, FC_REQUIRE_MET, "a new enough driver needs no brand");
    CHECK(CUDA_124, 12020, "535.104.05", 90, NULL, FC_REQUIRE_UNKNOWN, "R535 depends on the brand");
    eval1(CUDA_124, 12020, "535.104.05", 90, NULL, why, sizeof why);
    is_str(why, "depends on the GPU's brand, not known here", "what it depends on");
    CHECK(CUDA_124, 12020, "525.60.13", 90, NULL, FC_REQUIRE_UNMET, "no brand helps R525");
    CHECK(CUDA_124, 12020, NULL, 90, NULL, FC_REQUIRE_UNKNOWN, "without the release, a branch may match");
    eval1(CUDA_124, 12020, NULL, 90, NULL, why, sizeof why);
    is_str(why, "depends on the driver release and the GPU's brand, not known here", "both named");
    CHECK(CUDA_124, 0, NULL, 90, NULL, FC_REQUIRE_UNKNOWN, "no driver at all");
    /* A driver's CUDA version bounds its release: 11.8 is reported by 520.61.05 up to 525.60.13. */
    CHECK(CUDA_124, 11080, NULL, 90, NULL, FC_REQUIRE_UNMET, "a CUDA 11.8 driver is no R470 or R535");
    CHECK("driver>=520", 11080, NULL, 90, NULL, FC_REQUIRE_MET, "every 11.8 driver is R520 or newer");
    CHECK("driver<525.60.13", 11080, NULL, 90, NULL, FC_REQUIRE_MET, "and older than 12.0's first");
    CHECK("driver=520.61.05", 11080, NULL, 90, NULL, FC_REQUIRE_UNKNOWN, "one release of several");
    CHECK("driver!=470", 11080, NULL, 90, NULL, FC_REQUIRE_MET, "none of them is 470");
    CHECK("driver>=470,driver<471", 11040, NULL, 90, NULL, FC_REQUIRE_UNKNOWN, "11.4: R470 or R495");
    CHECK("driver>=470", 13020, NULL, 90, NULL, FC_REQUIRE_MET, "the newest CUDA: no upper bound needed");
    CHECK("arch>=8.0", 0, NULL, 90, NULL, FC_REQUIRE_MET, "arch is the compute capability");
    CHECK("arch>=8.0", 0, NULL, 75, NULL, FC_REQUIRE_UNMET, "7.5 < 8.0");
    CHECK("arch>=8.0", 0, NULL, 100, NULL, FC_REQUIRE_MET, "10.0 > 8.0, as numbers");
    /* Invalid expressions refuse the container, but only when they are reached. */
    CHECK("cuda>=abc", 12040, NULL, 90, NULL, FC_REQUIRE_INVALID, "a version that is not one");
    CHECK("colour=blue", 12040, NULL, 90, NULL, FC_REQUIRE_INVALID, "an unknown property");
    CHECK("cuda=>12.4", 12040, NULL, 90, NULL, FC_REQUIRE_INVALID, "=> is no operator");
    CHECK("cuda==12.4", 12040, NULL, 90, NULL, FC_REQUIRE_INVALID, "== is no operator");
    CHECK("brand>tesla", 12040, NULL, 90, "Tesla", FC_REQUIRE_INVALID, "brands take only = and !=");
    CHECK("cuda>=", 12040, NULL, 90, NULL, FC_REQUIRE_INVALID, "no value");
    CHECK("cuda>=12.4 garbage", 12040, NULL, 90, NULL, FC_REQUIRE_MET, "a met term ends it before the garbage");
    CHECK("cuda>=12.4 garbage", 12020, NULL, 90, NULL, FC_REQUIRE_INVALID, "a failed term reaches the garbage");
    CHECK("cuda>=12.4,garbage", 12020, NULL, 90, NULL, FC_REQUIRE_UNMET, "a false factor ends its term");
    CHECK("cuda>=12.4,garbage", 12040, NULL, 90, NULL, FC_REQUIRE_INVALID, "a true one goes on to it");
    CHECK("brand=tesla,garbage", 12040, NULL, 90, NULL, FC_REQUIRE_UNKNOWN, "reached for some brands only");
    /* dsl_evaluate's treatment of empty pieces. */
    CHECK("", 12040, NULL, 90, NULL, FC_REQUIRE_MET, "an empty value asks nothing");
    CHECK("  cuda>=12.4  ", 12040, NULL, 90, NULL, FC_REQUIRE_MET, "spaces around");
    CHECK(",,cuda>=12.4,,", 12040, NULL, 90, NULL, FC_REQUIRE_MET, "empty factors are skipped");
    CHECK("cuda>=13.0 ,,", 12040, NULL, 90, NULL, FC_REQUIRE_UNMET,
          "a term of empty factors after a failed one keeps the failure");
    /* Several values: ANDed, the first failure refuses. */
    const char *both[] = {"cuda>=12.0", "arch>=9.0"};
    fc_require_props p = {12040, NULL, 80, NULL};
    is_u64(fc_require_eval(both, 2, &p, why, sizeof why), FC_REQUIRE_UNMET, "the second value fails");
    is_str(why, "unsatisfied condition: arch>=9.0", "and is named");
    p.cc = 90;
    is_u64(fc_require_eval(both, 2, &p, why, sizeof why), FC_REQUIRE_MET, "both met");
    /* An image's requirements on a target. */
    const char *reqs[] = {"cuda>=12.4"};
    fc_oci_image img = {.name = "app:1.0", .requirements = reqs, .n_requirements = 1};
    fc_target t = {.cc = 90, .driver_cuda = 12020};
    is_u64(fc_oci_requirements_check(&img, &t, why, sizeof why), FC_REQUIRE_UNMET, "an image on a 12.2 driver");
    img.requirements_disabled = true;
    is_u64(fc_oci_requirements_check(&img, &t, why, sizeof why), FC_REQUIRE_MET, "NVIDIA_DISABLE_REQUIRE");
    img.requirements_disabled = false;
    snprintf(t.driver, sizeof t.driver, "470.57.02");
    const char *branch[] = {"cuda>=12.4 driver>=470,driver<471"};
    img.requirements = branch;
    is_u64(fc_oci_requirements_check(&img, &t, why, sizeof why), FC_REQUIRE_MET, "the target's release is compared");
    printf("1..%d\n", tap_n);
    return tap_failed ? 1 : 0;
}
