// node scripts/structure.mjs: the product's shape, from its files and imports, for a reviewer to
// check a restructuring against: lines, files over 300 lines, the pipeline's top level, which of
// its modules the rest of the package imports (each room should be entered by its door), and
// import cycles (type-only imports included).
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pipeline = join(root, 'nodes/PartnerLogistics/pipeline');

const files = (dir) =>
	readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) return files(path);
		return path.endsWith('.ts') ? [path] : [];
	});
const product = [...files(join(root, 'nodes')), ...files(join(root, 'credentials'))];
const lines = (file) => readFileSync(file, 'utf8').split('\n').length - 1;
const show = (file) => relative(root, file);

/** The product files a file imports, by resolved path. */
function importsOf(file) {
	const text = readFileSync(file, 'utf8');
	return [...text.matchAll(/from '(\.[^']+)'/g)]
		.map(([, spec]) => resolve(dirname(file), spec))
		.map((target) => (existsSync(`${target}.ts`) ? `${target}.ts` : join(target, 'index.ts')))
		.filter((target) => existsSync(target));
}
const graph = new Map(product.map((file) => [file, importsOf(file)]));

console.log(`product lines: ${product.reduce((sum, file) => sum + lines(file), 0)}`);
const long = product.filter((file) => lines(file) > 300);
console.log(`files over 300 lines: ${long.length ? long.map(show).join(', ') : 'none'}`);
const top = readdirSync(pipeline).filter((name) => statSync(join(pipeline, name)).isFile());
console.log(`pipeline top level: ${top.length} files (${top.join(', ')})`);

const inPipeline = (file) => file.startsWith(pipeline + sep);
const entered = new Map();
for (const [file, targets] of graph) {
	if (inPipeline(file)) continue;
	for (const target of targets.filter(inPipeline)) {
		entered.set(target, (entered.get(target) ?? 0) + 1);
	}
}
console.log(`pipeline modules imported from outside it: ${entered.size}`);
for (const [target, count] of entered) console.log(`  ${show(target)} (${count} imports)`);

/** Each cycle once, found by depth-first search. */
const cycles = [];
const state = new Map();
function visit(file, path) {
	state.set(file, 'open');
	for (const target of graph.get(file) ?? []) {
		if (state.get(target) === 'open') cycles.push(path.slice(path.indexOf(target)));
		else if (!state.has(target)) visit(target, [...path, target]);
	}
	state.set(file, 'done');
}
for (const file of product) if (!state.has(file)) visit(file, [file]);
console.log(`import cycles: ${cycles.length}`);
for (const cycle of cycles) console.log(`  ${cycle.map(show).join(' -> ')}`);
