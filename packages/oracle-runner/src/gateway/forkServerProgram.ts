/**
 * The fork server's Python program (run as `python -c FORK_SERVER_PROGRAM <node pid> <hermes script>`
 * in the pinned venv, under the same preload as a gateway: libfaketime and the sem_clockwait shim).
 *
 * Why it exists: a fresh gateway per scenario play costs a Python start, most of it imports. The
 * server imports once and forks one gateway per request, as Gunicorn's preload or Android's zygote
 * does. What it preloads is every module `hermes gateway run` imports EXCEPT Hermes' own: 0.19.0
 * binds HERMES_HOME into module constants at import (hermes_state.DEFAULT_DB_PATH, gateway.run's
 * `_hermes_home`, gateway.hooks.HOOKS_DIR, …) and starts its logging thread (hermes_logging's
 * QueueListener) then, so importing Hermes itself before the fork would share one home and a thread
 * across gateways. The list is learned, not written down: a probe child imports Hermes' CLI and
 * gateway in a scratch home and reports sys.modules; the server then imports the non-Hermes ones,
 * in the order the probe's start imported them (sys.modules keeps insertion order). The order
 * matters: importing the C accelerator `_asyncio` before the `asyncio` package (as a sorted list
 * does) makes asyncio.tasks fall back to its pure-Python task registry while tasks still register in
 * the C one, so `asyncio.current_task()` is None inside every task and `asyncio.timeout` raises
 * "Timeout should be used inside a task" (aiohttp's lingering close after a 413 then reset uploads).
 *
 * Each forked child then does what the `hermes` console script does: its own process group
 * (set by server and child both, so it exists before the server answers), PR_SET_PDEATHSIG (it dies with the server,
 * which dies with Node), its own environment (HERMES_HOME, port, key, FAKETIME_TIMESTAMP_FILE:
 * libfaketime reads the variable on every clock call, so each child keeps its own clock), its log
 * as stdout and stderr, `random` reseeded, and runs the console script as __main__, so Hermes' own
 * imports, start and atexit hooks run in the child exactly as in a cold process.
 *
 * One difference a cold start has that a fork cannot: children of one server share the hash seed
 * (PYTHONHASHSEED is fixed at interpreter start). Callers that learn noise from two plays therefore
 * play them on children of two different servers (FreshGatewayPool.ts).
 *
 * Protocol on stdin/stdout, one JSON object a line: the server says {"ready": n} (n modules
 * loaded) or {"error": why}; then each request {"env": {...}, "cwd": dir, "log": file} is
 * answered {"pid": p} or {"error": why}. EOF on stdin stops it. It reaps its children itself.
 */
export const FORK_SERVER_PROGRAM = String.raw`
import ctypes, importlib, importlib.metadata, json, os, random, runpy, select, shutil, signal, sys, tempfile, threading

libc = ctypes.CDLL(None, use_errno=True)
libc.prctl(1, signal.SIGKILL)
if os.getppid() != int(sys.argv[1]):
    sys.exit(70)
HERMES_SCRIPT = sys.argv[2]
ENTRY = ["hermes_cli.main", "hermes_cli.gateway", "gateway.run"]

def say(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()

def hermes_tops():
    tops = set()
    for f in importlib.metadata.distribution("hermes-agent").files or []:
        first = str(f).split("/")[0]
        if first.endswith(".py"):
            first = first[:-3]
        if "." not in first and first != "__pycache__":
            tops.add(first)
    return tops

def probe():
    """The modules Hermes' entry imports, in import order, learned in a child with a scratch HERMES_HOME."""
    scratch = tempfile.mkdtemp(prefix="hermetic-forkprobe-")
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(r)
            os.environ["HERMES_HOME"] = os.path.join(scratch, "home")
            os.environ["HOME"] = scratch
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            for name in ENTRY:
                importlib.import_module(name)
            os.write(w, json.dumps(list(sys.modules)).encode())
        finally:
            os._exit(0)
    os.close(w)
    chunks = []
    while True:
        b = os.read(r, 65536)
        if not b:
            break
        chunks.append(b)
    os.close(r)
    os.waitpid(pid, 0)
    shutil.rmtree(scratch, ignore_errors=True)
    return json.loads(b"".join(chunks) or b"[]")

def preload():
    tops = hermes_tops()
    for name in probe():
        if name.split(".")[0] in tops or name in sys.modules or name == "__main__":
            continue
        try:
            importlib.import_module(name)
        except BaseException:
            pass

def child(req):
    try:
        os.setpgid(0, 0)
    except OSError:
        pass
    libc.prctl(1, signal.SIGKILL)
    os.environ.clear()
    os.environ.update(req["env"])
    os.chdir(req["cwd"])
    log = os.open(req["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    nul = os.open(os.devnull, os.O_RDONLY)
    os.dup2(nul, 0)
    os.close(nul)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    random.seed()
    # as when the console script is exec'd: its directory first on sys.path, not the server's "" (cwd)
    sys.path[0] = os.path.dirname(HERMES_SCRIPT)
    sys.argv = [HERMES_SCRIPT, "gateway", "run", "--replace", "-v"]

def serve():
    """Forks on request; returns the request in a child, never in the server."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        preload()
    except BaseException as e:
        say({"error": "preload failed: %r" % (e,)})
        os._exit(1)
    if threading.active_count() != 1:
        say({"error": "a preloaded module started a thread: %s" % [t.name for t in threading.enumerate()]})
        os._exit(1)
    say({"ready": len(sys.modules)})
    buf = b""
    while True:
        ready, _, _ = select.select([0], [], [], 0.2)
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
        if not ready:
            continue
        data = os.read(0, 65536)
        if not data:
            os._exit(0)
        buf += data
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            try:
                req = json.loads(line)
                sys.stdout.flush()
                pid = os.fork()
            except BaseException as e:
                say({"error": repr(e)})
                continue
            if pid == 0:
                return req
            # the group exists before the answer (the child sets it too): a caller polling it never sees it missing
            try:
                os.setpgid(pid, pid)
            except OSError:
                pass
            say({"pid": pid})

req = serve()
child(req)
runpy.run_path(HERMES_SCRIPT, run_name="__main__")
`
