#ifndef AGGREGATE_CPROCESS_SPAWN_H
#define AGGREGATE_CPROCESS_SPAWN_H

#include <sys/types.h>

/// Starting the exec provider's programs with `posix_spawn`, for what Foundation's `Process` cannot set and
/// Swift cannot call comfortably (`_np` functions, the `W…` status macros).
///
/// `Process` starts a child with the signal mask of the thread that launched it: on a Dispatch worker that
/// blocks SIGTERM, SIGINT and more, and SIGPIPE (which aggregate ignores) stays ignored. Such a program
/// cannot be stopped by SIGTERM, nor by Ctrl-C. swift-subprocess resets signals, but its async API would
/// move the provider's pipe reads onto the two-thread cooperative pool, and it reports an exit only once
/// the output is closed, which a background process the program leaves behind can hold open forever;
/// `ProgramRun` must learn of the exit itself (it reaps on a thread of its own with `waitpid`).

/// Starts `path` with `argv` and `envp` (NULL-terminated) in `directory`, in a process group of its own
/// (its pgid is its pid), with an empty signal mask and every signal at its default action, and with only
/// `stdin_fd` (or /dev/null when it is -1), `stdout_fd` and `stderr_fd` open, as 0, 1 and 2.
///
/// Returns 0 and sets `*pid`, else an errno value: that of the `exec` when it failed in the child (ENOENT,
/// EACCES, ETXTBSY when the file is still open for writing somewhere), or of the setup.
int aggregate_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], const char *directory,
                    int stdin_fd, int stdout_fd, int stderr_fd);

/// `pipe2(fds, O_CLOEXEC)`: neither end may leak into a program started meanwhile on another thread, or
/// the run would never see the end of that pipe. Returns 0, else an errno value.
int aggregate_pipe(int fds[2]);

/// Makes this process the reaper of its descendants' orphans (Linux `PR_SET_CHILD_SUBREAPER`), once, so
/// that what a stopped program leaves behind (children of a killed shell) is reparented to us and reaped
/// by us (`waitpid(-pgid)`), not left as zombies of its group until init gets to them. Returns 0, else an
/// errno value; does nothing where the system has no such thing.
int aggregate_adopt_orphans(void);

/// The exit status of a `waitpid` status, or -1 when the process did not exit normally.
int aggregate_exit_status(int status);

/// The signal that ended the process of a `waitpid` status, or -1 when it was not ended by a signal.
int aggregate_terminating_signal(int status);

#endif
