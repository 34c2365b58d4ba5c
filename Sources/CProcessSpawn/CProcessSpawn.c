#define _GNU_SOURCE
#include "CProcessSpawn.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>
#endif

// glibc 2.34 added posix_spawn_file_actions_addclosefrom_np; older ones rely on every other descriptor of
// ours being close-on-exec (the pipes are: `aggregate_pipe`).
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
#define AGGREGATE_HAS_CLOSEFROM 1
#endif

int aggregate_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], const char *directory,
                    int stdin_fd, int stdout_fd, int stderr_fd) {
    // A descriptor in 0...2 (aggregate started with one of them closed) would be overwritten by another's
    // dup2 before its own: move it out of the way first.
    int sources[3] = {stdin_fd, stdout_fd, stderr_fd};
    int lifted[3] = {-1, -1, -1};
    int result = 0;
    for (int i = 0; i < 3 && result == 0; i++) {
        if (sources[i] >= 0 && sources[i] <= 2) {
            lifted[i] = fcntl(sources[i], F_DUPFD_CLOEXEC, 3);
            if (lifted[i] < 0) result = errno;
            sources[i] = lifted[i];
        }
    }

    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int hasActions = 0, hasAttributes = 0;
    if (result == 0) result = posix_spawn_file_actions_init(&actions);
    if (result == 0) hasActions = 1, result = posix_spawnattr_init(&attributes);
    if (result == 0) hasAttributes = 1;

    if (result == 0) {
        result = sources[0] < 0 ? posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
                                : posix_spawn_file_actions_adddup2(&actions, sources[0], 0);
    }
    if (result == 0) result = posix_spawn_file_actions_adddup2(&actions, sources[1], 1);
    if (result == 0) result = posix_spawn_file_actions_adddup2(&actions, sources[2], 2);
#ifdef AGGREGATE_HAS_CLOSEFROM
    if (result == 0) result = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
#endif
    if (result == 0 && directory != NULL) result = posix_spawn_file_actions_addchdir_np(&actions, directory);

    // Nothing blocked, every signal at its default action. Every bit set by hand: glibc's sigfillset leaves
    // out its two internal signals (32 and 33), which the child would then start with ignored. SIGKILL and
    // SIGSTOP cannot have an action set, so they stay out (glibc's SETSIGDEF wants it so).
    sigset_t none, all;
    sigemptyset(&none);
    memset(&all, 0xff, sizeof all);
    sigdelset(&all, SIGKILL);
    sigdelset(&all, SIGSTOP);
    if (result == 0) result = posix_spawnattr_setsigmask(&attributes, &none);
    if (result == 0) result = posix_spawnattr_setsigdefault(&attributes, &all);
    if (result == 0) result = posix_spawnattr_setpgroup(&attributes, 0);
    short flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP;
#if defined(__APPLE__)
    flags |= POSIX_SPAWN_CLOEXEC_DEFAULT;  // only the three dup2'd descriptors survive
#endif
    if (result == 0) result = posix_spawnattr_setflags(&attributes, flags);

    if (result == 0) result = posix_spawn(pid, path, &actions, &attributes, argv, envp);

    if (hasAttributes) posix_spawnattr_destroy(&attributes);
    if (hasActions) posix_spawn_file_actions_destroy(&actions);
    for (int i = 0; i < 3; i++) {
        if (lifted[i] >= 0) close(lifted[i]);
    }
    return result;
}

int aggregate_pipe(int fds[2]) {
#if defined(__linux__)
    return pipe2(fds, O_CLOEXEC) == 0 ? 0 : errno;
#else
    // No pipe2: a spawn between these calls could inherit the pipe, but POSIX_SPAWN_CLOEXEC_DEFAULT keeps
    // it out of our own children.
    if (pipe(fds) != 0) return errno;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}

int aggregate_adopt_orphans(void) {
#if defined(__linux__)
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 ? 0 : errno;
#else
    return 0;
#endif
}

int aggregate_exit_status(int status) {
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int aggregate_terminating_signal(int status) {
    return WIFSIGNALED(status) ? WTERMSIG(status) : -1;
}
