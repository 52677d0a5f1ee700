import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// `npm start --ledger URL` must not load the sandbox (ADR 018): what the server shares with it
// comes from @ledger-console/edge, and the sandbox is reached through one dynamic import in
// main.ts, taken only without --ledger. Read from the source: running main.ts would build the SPA.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MAIN = path.join(ROOT, 'server/src/main.ts');
const require = createRequire(import.meta.url);

type Imports = { static: string[]; dynamic: string[] };

function importsOf(file: string): Imports {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
  const found: Imports = { static: [], dynamic: [] };
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      found.static.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined
    ) {
      const [argument] = node.arguments;
      found.dynamic.push(ts.isStringLiteral(argument) ? argument.text : argument.getText(source));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The file of one of our modules, or undefined for Node's and third-party ones. */
function resolveOurs(specifier: string, from: string): string | undefined {
  if (specifier.startsWith('.')) {
    const base = path.resolve(path.dirname(from), specifier);
    const file = [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), base].find(
      (candidate) => existsSync(candidate) && candidate.endsWith('.ts'),
    );
    if (file === undefined) throw new Error(`${specifier} (from ${from}) does not resolve`);
    return file;
  }
  // The workspace packages resolve through their `exports` to their sources.
  if (specifier.startsWith('@ledger-console/')) return require.resolve(specifier);
  return undefined;
}

/** Every module of ours that loading `entry` loads, dynamic imports not followed. */
function staticGraph(entry: string): Map<string, Imports> {
  const graph = new Map<string, Imports>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (graph.has(file)) continue;
    const imports = importsOf(file);
    graph.set(file, imports);
    for (const specifier of imports.static) {
      const resolved = resolveOurs(specifier, file);
      if (resolved !== undefined) pending.push(resolved);
    }
  }
  return graph;
}

const relative = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');

describe('the console server with --ledger', () => {
  const graph = staticGraph(MAIN);
  const files = [...graph.keys()].map(relative).sort();

  it('loads the server and the edge package, and not one sandbox module', () => {
    expect(files).toContain('server/src/create-server.ts');
    expect(files).toContain('packages/edge/src/request-guard.ts');
    expect(files.filter((file) => !/^(?:server|packages)\//.test(file))).toEqual([]);
  });

  it('reaches the sandbox only by the dynamic import that starts the embedded one', () => {
    const dynamic = [...graph].flatMap(([file, imports]) =>
      imports.dynamic.map((specifier) => `${relative(file)} -> ${specifier}`),
    );

    expect(dynamic).toEqual(['server/src/main.ts -> ../../sandbox/src/index']);
  });
});
