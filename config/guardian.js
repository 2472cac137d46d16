// Runs one command as its only child and ends it when our parent goes away — including when
// the parent is killed with SIGKILL, which it cannot intercept: the IPC channel it opened to
// us closes and we see 'disconnect'. Signals we receive are forwarded to the child.
// Usage (see guarded-spawn.ts): node guardian.js '<json {uid?, gid?, cwd?}>' cmd [args...]
'use strict';
const { spawn } = require('node:child_process');

const [optsJson, cmd, ...args] = process.argv.slice(2);
const opts = JSON.parse(optsJson || '{}');
const child = spawn(cmd, args, { stdio: 'inherit', ...opts });
let ending = false;
function end(signal) {
  if (ending) return;
  ending = true;
  child.kill(signal);
  setTimeout(() => child.kill('SIGKILL'), 20000).unref();
}
process.on('disconnect', () => end('SIGTERM'));
process.on('SIGTERM', () => end('SIGTERM'));
process.on('SIGINT', () => end('SIGINT'));
child.on('error', (err) => {
  console.error(`${cmd}: ${err.message}`);
  process.exit(127);
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 0)));
