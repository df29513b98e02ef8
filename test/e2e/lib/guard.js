// Runs one command and makes sure it cannot outlive the process that started this guard.
// The orchestrator (jest or the playground) starts every server through this file in a process
// group of its own, so a clean stop is one signal to the group. If the orchestrator is killed
// outright (SIGKILL, OOM), nothing of it runs any more: the guard notices it is orphaned and
// takes its whole group down.
// Usage: node guard.js <command> [args...]
'use strict';
const { spawn } = require('node:child_process');

const [command, ...args] = process.argv.slice(2);
const parent = process.ppid;
const child = spawn(command, args, { stdio: 'inherit' });

let stopping = false;
function stop(signal) {
	if (stopping) return;
	stopping = true;
	child.kill(signal);
	// A child that ignores SIGTERM still goes, with everything it started in this group.
	setTimeout(() => process.kill(-process.pid, 'SIGKILL'), 8000).unref();
}

for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => stop(signal));
child.on('error', (error) => {
	console.error(`guard: cannot start ${command}: ${error.message}`);
	process.exit(127);
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 0)));

setInterval(() => {
	if (process.ppid !== parent) stop('SIGTERM');
}, 500);
