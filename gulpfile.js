// Copies the icons next to the compiled code, where the `file:` icon paths of the nodes and the
// credential point (dist/icons/).
const { src, dest } = require('gulp');

function buildIcons() {
	return src('icons/*.svg').pipe(dest('dist/icons'));
}

exports['build:icons'] = buildIcons;
