# Runs a command on a pseudo-terminal, waits for a prompt, then types an answer (Ctrl-C is \x03,
# Ctrl-D \x04); prints everything the terminal showed and exits with the command's exit code.
# usage: pty-run.py PROMPT ANSWER CMD ARGS...   (the tests use it where moor needs a terminal)
import os, pty, sys, select, time, fcntl, termios, struct

prompt, answer, argv = sys.argv[1].encode(), sys.argv[2].encode().decode('unicode_escape').encode(), sys.argv[3:]
pid, fd = pty.fork()
if pid == 0:
    # A terminal of 40 rows and 160 columns: a pty starts at 0x0, where listr2 wraps every character.
    fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack('HHHH', 40, 160, 0, 0))
    os.execvp(argv[0], argv)
seen, sent, deadline = b'', False, time.time() + 50
while time.time() < deadline:
    ready, _, _ = select.select([fd], [], [], 0.1)
    if ready:
        try:
            chunk = os.read(fd, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    if not sent and prompt in seen:
        time.sleep(0.2)
        os.write(fd, answer)
        sent = True
_, status = os.waitpid(pid, 0)
sys.stdout.write(seen.decode('utf8', 'replace'))
sys.exit(os.waitstatus_to_exitcode(status) if hasattr(os, 'waitstatus_to_exitcode') else status >> 8)
