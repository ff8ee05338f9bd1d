// Type declarations (`.d.ts` with declaration maps) for the workspace packages, written by the
// TypeScript compiler itself: one program over the packages' entry points, with the repository's
// tsconfig (the `source` condition, so a package's imports of the others resolve to their
// sources, as in `npm run typecheck`), emitting declarations only. Each `packages/<name>/src/x.ts`
// gets `packages/<name>/dist/x.d.ts` and `x.d.ts.map` (pointing at the shipped `src/x.ts`), so an
// export's `types` sits beside its `default` JavaScript. Why tsc and not a declaration bundler:
// tsc is the reference emitter (no second tool to trust about what a type means), already a dev
// dependency (nothing added to `npm ci`), and its per-file output keeps go-to-definition working
// through the declaration maps. It type-checks as it emits (~10 s), so it runs when packing
// (`prepack`), not on `npm ci`.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * Emits the declarations of the given packages (`{ name, dir, pkg }`, `pkg` its package.json);
 * throws with every compiler diagnostic when the program has errors.
 *
 * @example
 * buildDeclarations(root, [{ name: 'dsl', dir: '/repo/packages/dsl', pkg }]);
 */
export function buildDeclarations(root, packages) {
  const packagesDir = join(root, 'packages');
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  );
  const virtualOutDir = join(root, '.declarations'); // never written: writeFile below redirects
  const options = {
    ...config.options,
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    declarationMap: true,
    rootDir: packagesDir,
    outDir: virtualOutDir,
  };
  const entryPoints = packages.flatMap(({ dir, pkg }) =>
    Object.values(pkg.exports ?? {}).map((target) => join(dir, target.source)),
  );
  const program = ts.createProgram(entryPoints, options);
  const wanted = new Set(packages.map((p) => p.name));
  const written = [];
  const result = program.emit(
    undefined,
    (fileName, text) => {
      // <outDir>/<name>/src/<rest> -> packages/<name>/dist/<rest>
      const [name, folder, ...rest] = relative(virtualOutDir, fileName).split(sep);
      if (folder !== 'src') throw new Error(`declarations: unexpected output ${fileName}`);
      if (!wanted.has(name)) return; // another package's sources, reached through its imports
      const target = join(packagesDir, name, 'dist', ...rest);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, fileName.endsWith('.map') ? relocateMap(text, fileName, target) : text);
      written.push(target);
    },
    undefined,
    true,
    { afterDeclarations: [importsWithJsExtension] },
  );
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics];
  if (diagnostics.length > 0) {
    const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' };
    throw new Error(`declarations: the compiler reported\n${ts.formatDiagnostics(diagnostics, host)}`);
  }
  for (const { name, dir, pkg } of packages)
    for (const [subpath, target] of Object.entries(pkg.exports ?? {}))
      if (!target.types || !written.includes(join(dir, target.types)))
        throw new Error(`${name}: export "${subpath}" needs "types": "${declarationPath(target.source)}"`);
  return written.length;
}

/**
 * Rewrites relative `./x.ts` module specifiers (how the sources import each other) to `./x.js`
 * in the declarations, as the JavaScript would name them: `rewriteRelativeImportExtensions` does
 * it for emitted JavaScript only, and `.ts` specifiers in a `.d.ts` need TypeScript 5 or later.
 */
function importsWithJsExtension(context) {
  const { factory } = context;
  const rewrite = (specifier) =>
    specifier && ts.isStringLiteral(specifier) && /^\.\.?\/.*\.ts$/.test(specifier.text)
      ? factory.createStringLiteral(specifier.text.replace(/\.ts$/, '.js'))
      : specifier;
  const visit = (node) => {
    if (ts.isImportDeclaration(node))
      return factory.updateImportDeclaration(
        node,
        node.modifiers,
        node.importClause,
        rewrite(node.moduleSpecifier),
        node.attributes,
      );
    if (ts.isExportDeclaration(node))
      return factory.updateExportDeclaration(
        node,
        node.modifiers,
        node.isTypeOnly,
        node.exportClause,
        rewrite(node.moduleSpecifier),
        node.attributes,
      );
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = rewrite(node.argument.literal);
      if (literal !== node.argument.literal)
        return factory.updateImportTypeNode(
          node,
          factory.updateLiteralTypeNode(node.argument, literal),
          node.attributes,
          node.qualifier,
          node.typeArguments,
          node.isTypeOf,
        );
    }
    return ts.visitEachChild(node, visit, context);
  };
  return (file) => (ts.isSourceFile(file) ? ts.visitEachChild(file, visit, context) : file);
}

/** Where the declarations of an entry's source file are written: `./src/x.ts` -> `./dist/x.d.ts`. */
export function declarationPath(source) {
  return source.replace(/^\.\/src\//, './dist/').replace(/\.ts$/, '.d.ts');
}

/**
 * A declaration map moved from where tsc meant to write it to `target`: tsc wrote its sources
 * relative to the virtual location; they are re-pointed from the real one.
 */
function relocateMap(text, emittedAt, target) {
  const map = JSON.parse(text);
  map.sources = map.sources.map((source) =>
    relative(dirname(target), resolve(dirname(emittedAt), source))
      .split(sep)
      .join('/'),
  );
  return JSON.stringify(map);
}

/** The package.json of a package folder. */
export function readPackageJson(dir) {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
}
