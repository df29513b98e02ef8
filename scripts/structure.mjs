// node scripts/structure.mjs: the product's shape, from its files and imports, for a reviewer to
// check a restructuring against: lines, files over 250 lines, the pipeline's top level, which of
// its modules the rest of the package imports (each room should be entered by its door), import
// cycles (type-only imports included), lines per room, the names each door exports, and the
// mutable fields of rateLimit/ (the pacing's moving parts).
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

import ts from 'typescript';

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
const long = product.filter((file) => lines(file) > 250);
console.log(`files over 250 lines: ${long.length ? long.map(show).join(', ') : 'none'}`);
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

/** Lines per room: each folder of the product, its own files and (for a folder with rooms) all. */
console.log('lines per room (own files; with its sub-folders):');
const folders = [...new Set(product.map((file) => dirname(file)))].sort();
for (const folder of folders) {
	const own = product.filter((file) => dirname(file) === folder);
	const all = product.filter((file) => file.startsWith(folder + sep) || dirname(file) === folder);
	const sum = (list) => list.reduce((total, file) => total + lines(file), 0);
	const nested = all.length > own.length ? `; ${sum(all)} with sub-folders` : '';
	console.log(`  ${show(folder)}: ${sum(own)} in ${own.length} files${nested}`);
}

/** A product file's syntax tree, with parents set. */
const parse = (file) =>
	ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);

/** The names a door (index.ts) exports: declarations, re-exports and types alike. */
function exportedNames(file) {
	const source = parse(file);
	const names = [];
	for (const statement of source.statements) {
		if (ts.isExportDeclaration(statement) && statement.exportClause) {
			names.push(...statement.exportClause.elements.map((element) => element.name.text));
		} else if (statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) {
			if (ts.isVariableStatement(statement)) {
				names.push(...statement.declarationList.declarations.map((d) => d.name.getText(source)));
			} else if (statement.name) names.push(statement.name.text);
		}
	}
	return names;
}
console.log('names per door (index.ts):');
for (const door of product.filter((file) => file.endsWith(`${sep}index.ts`))) {
	const names = exportedNames(door);
	console.log(`  ${show(door)}: ${names.length} (${names.join(', ')})`);
}

/**
 * Mutable fields in rateLimit/: module-level `let`s, class fields (and constructor parameter
 * properties) not `readonly`, and fields of its interfaces and object types that its code assigns.
 */
const rateLimit = join(pipeline, 'rateLimit');
/** An array, Map or Set made for the field: its contents change even when the field is readonly. */
const isCollection = (initializer) =>
	initializer !== undefined &&
	(ts.isArrayLiteralExpression(initializer) ||
		(ts.isNewExpression(initializer) &&
			/^(Map|Set|Array)$/.test(initializer.expression.getText())));
const mutable = [];
const declaredFields = [];
const assigned = new Set();
for (const file of product.filter((path) => path.startsWith(rateLimit + sep))) {
	const source = parse(file);
	const where = (node) =>
		`${show(file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`;
	const readonly = (node) =>
		node.modifiers?.some((m) => m.kind === ts.SyntaxKind.ReadonlyKeyword) ?? false;
	const walk = (node) => {
		if (ts.isVariableStatement(node) && node.parent === source) {
			if (node.declarationList.flags & ts.NodeFlags.Let) {
				for (const d of node.declarationList.declarations) {
					mutable.push(`let ${d.name.getText(source)} (${where(d)})`);
				}
			}
		} else if (
			ts.isPropertyDeclaration(node) &&
			(!readonly(node) || isCollection(node.initializer))
		) {
			const kind = readonly(node) ? ' (a collection it changes)' : '';
			mutable.push(
				`${node.parent.name?.text ?? 'class'}.${node.name.getText(source)}${kind} (${where(node)})`,
			);
		} else if (ts.isParameter(node) && ts.isConstructorDeclaration(node.parent)) {
			const property = node.modifiers?.some((m) =>
				[
					ts.SyntaxKind.PrivateKeyword,
					ts.SyntaxKind.PublicKeyword,
					ts.SyntaxKind.ProtectedKeyword,
				].includes(m.kind),
			);
			if (property && !readonly(node)) {
				mutable.push(
					`${node.parent.parent.name?.text}.${node.name.getText(source)} (${where(node)})`,
				);
			}
		} else if (ts.isPropertySignature(node) && !readonly(node)) {
			const owner = ts.isInterfaceDeclaration(node.parent) ? node.parent.name.text : 'object type';
			declaredFields.push({
				name: node.name.getText(source),
				label: `${owner}.${node.name.getText(source)} (${where(node)})`,
			});
		} else if (
			(ts.isBinaryExpression(node) &&
				node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
				node.operatorToken.kind <= ts.SyntaxKind.LastAssignment &&
				ts.isPropertyAccessExpression(node.left) &&
				node.left.expression.kind !== ts.SyntaxKind.ThisKeyword) ||
			((ts.isPrefixUnaryExpression(node) || ts.isPostfixUnaryExpression(node)) &&
				[ts.SyntaxKind.PlusPlusToken, ts.SyntaxKind.MinusMinusToken].includes(node.operator) &&
				ts.isPropertyAccessExpression(node.operand) &&
				node.operand.expression.kind !== ts.SyntaxKind.ThisKeyword)
		) {
			const target = ts.isBinaryExpression(node) ? node.left : node.operand;
			assigned.add(target.name.text);
		}
		ts.forEachChild(node, walk);
	};
	walk(source);
}
mutable.push(...declaredFields.filter(({ name }) => assigned.has(name)).map(({ label }) => label));
console.log(`mutable fields in rateLimit/: ${mutable.length}`);
for (const field of mutable) console.log(`  ${field}`);
