// The rules n8n runs before it verifies a community package (@n8n/eslint-plugin-community-nodes)
// plus n8n's long-standing node/credential rules (eslint-plugin-n8n-nodes-base), on package code.
// Tests and tooling get TypeScript's recommended rules only: they never ship.
import { globalIgnores } from 'eslint/config';
import communityNodes from '@n8n/eslint-plugin-community-nodes';
import n8nNodesBase from 'eslint-plugin-n8n-nodes-base';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	globalIgnores([
		'dist',
		'node_modules',
		'test/e2e/runtime',
		'test/e2e/.work',
		'.n8n-playground',
		'coverage',
		'.ci',
		'**/*.js',
		'**/*.mjs',
	]),
	{
		files: ['**/*.ts'],
		extends: [tseslint.configs.recommended],
	},
	{
		files: ['credentials/**/*.ts', 'nodes/**/*.ts', 'package.json'],
		...communityNodes.configs.recommended,
	},
	{
		files: ['package.json'],
		languageOptions: {
			parser: tseslint.parser,
			parserOptions: { extraFileExtensions: ['.json'] },
		},
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: { ...n8nNodesBase.configs.community.rules },
	},
	{
		files: ['credentials/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.credentials.rules,
			'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
		},
	},
	{
		files: ['nodes/**/*.ts'],
		plugins: { 'n8n-nodes-base': n8nNodesBase },
		rules: {
			...n8nNodesBase.configs.nodes.rules,
			'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
			'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
			'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
		},
	},
);
