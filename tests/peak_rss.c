/* peak_rss.c - runs a command and writes its peak resident set, in KiB, to a file.
 *
 * Usage: peak_rss OUT COMMAND [ARG]...   Exits with the command's status (128 + N if a
 * signal N ended it). The figure is the child's ru_maxrss as wait4 gives it. The command is
 * started from this small process rather than from the test's Python: Linux carries the
 * high-water mark of the process that execs into the new program, and Python's, which built
 * the test's inputs, would be reported instead. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fputs("usage: peak_rss OUT COMMAND [ARG]...\n", stderr);
        return 125;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("peak_rss: fork");
        return 125;
    }
    if (pid == 0) {
        execv(argv[2], argv + 2);
        perror("peak_rss: exec");
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid) {
        perror("peak_rss: wait4");
        return 125;
    }
    FILE *f = fopen(argv[1], "w");
    if (!f || fprintf(f, "%ld\n", ru.ru_maxrss) < 0 || fclose(f) != 0) {
        perror("peak_rss: writing the figure");
        return 125;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
