// Turns the operating system's file errors (EISDIR, EACCES, ...) into words a user can act on.

const WHAT: Readonly<Record<string, string>> = {
  EISDIR: 'is a directory, not a file',
  ENOTDIR: 'a part of the path is not a directory',
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
  EMFILE: 'too many open files',
};

/** The error's code when it is a file error moor can explain, else undefined. */
export function fileErrorCode(err: unknown): string | undefined {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' && code in WHAT ? code : undefined;
}

/** What went wrong in words (`permission denied`), when it is a file error moor can explain, else undefined. */
export function fileErrorWords(err: unknown): string | undefined {
  const code = fileErrorCode(err);
  return code ? WHAT[code] : undefined;
}

/**
 * `cannot read PATH: is a directory, not a file`; `path` names the file when the error does not,
 * `verb` says what was done when the failing call does not (writing through a temporary file opens it).
 */
export function fileErrorMessage(err: unknown, path?: string, verb?: 'read' | 'write'): string | undefined {
  const code = fileErrorCode(err);
  if (!code) return undefined;
  const e = err as NodeJS.ErrnoException;
  const syscall = e.syscall ?? '';
  const done =
    verb ??
    (/^(read|scandir|stat|lstat|readlink|access)$/.test(syscall)
      ? 'read'
      : /^(write|rename|mkdir|unlink|link|copyfile|fsync|symlink|chmod|rmdir)$/.test(syscall)
        ? 'write'
        : 'open');
  const where = path ?? e.path;
  return `cannot ${done} ${where ?? 'a file'}: ${WHAT[code]}`;
}
