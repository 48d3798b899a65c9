// Preloaded (`node --import`) into every process a stack script starts (scripts/stack-processes.ts). The script
// holds the write end of this process's stdin; once the script is gone, however it went (SIGKILL, a crash, an
// out-of-memory kill), stdin ends and this process stops as SIGTERM stops it: it drains and exits instead of
// running on as an orphan. `unref` keeps the pipe from holding the process open by itself. (Node caches
// `process.ppid`, so watching the parent's id would never see it change.) Plain JavaScript, so that a process
// started without tsx (os2mo-naldo's `node build`) can load it too.
import process from 'node:process';

process.stdin.once('end', () => process.kill(process.pid, 'SIGTERM'));
process.stdin.resume();
process.stdin.unref?.();
